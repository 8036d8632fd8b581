// Arena's service worker, served at /sw.js (docs/notifications.md): it
// shows a push (core.PushPayload: title, body, url, tag) as a
// notification and opens its page on this site when it is clicked. It
// caches nothing and handles no fetch: every page works without it.
self.addEventListener("install", function () {
  self.skipWaiting();
});
self.addEventListener("activate", function (event) {
  event.waitUntil(self.clients.claim());
});
self.addEventListener("push", function (event) {
  var p = {};
  if (event.data) {
    try {
      p = event.data.json();
    } catch (e) {
      p = { body: event.data.text() };
    }
  }
  event.waitUntil(
    self.registration.showNotification(p.title || "Arena", {
      body: p.body || "",
      tag: p.tag || undefined,
      data: { url: typeof p.url === "string" ? p.url : "/" },
    }),
  );
});
self.addEventListener("notificationclick", function (event) {
  event.notification.close();
  // Only a page of this site: a path, resolved against the worker's own
  // origin.
  var url = new URL((event.notification.data && event.notification.data.url) || "/", self.location.origin);
  if (url.origin !== self.location.origin) url = new URL("/", self.location.origin);
  event.waitUntil(
    self.clients.matchAll({ type: "window", includeUncontrolled: true }).then(function (list) {
      for (var i = 0; i < list.length; i++) {
        if (list[i].url === url.href && "focus" in list[i]) return list[i].focus();
      }
      return self.clients.openWindow(url.href);
    }),
  );
});
