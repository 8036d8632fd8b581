// Turns Web Push on and off on this device: the account page's
// notifications box (docs/notifications.md). It registers the site's
// service worker (/sw.js), subscribes with the arena's VAPID key
// (GET /api/v1/push/key) and hands the subscription to the server
// (POST /account/push); turning off unsubscribes and asks the server to
// forget the device (POST /account/push/remove). Without this script the
// box's forms (devices, kinds) still work. Its words are the page's, in
// the viewer's language: the box's data-say-* attributes.
(function () {
  var box = document.getElementById("push");
  if (!box) return;
  var status = box.querySelector(".push-status");
  var on = box.querySelector(".push-on");
  var off = box.querySelector(".push-off");
  var text = box.dataset;
  function say(line) {
    status.textContent = line;
  }
  if (!("serviceWorker" in navigator) || !("PushManager" in window) || !("Notification" in window)) {
    say(text.sayUnsupported);
    return;
  }
  // applicationServerKey takes the key's bytes.
  function bytes(b64url) {
    var s = atob(b64url.replace(/-/g, "+").replace(/_/g, "/") + "===".slice((b64url.length + 3) % 4));
    var out = new Uint8Array(s.length);
    for (var i = 0; i < s.length; i++) out[i] = s.charCodeAt(i);
    return out;
  }
  function post(path, fields) {
    return fetch(path, { method: "POST", body: new URLSearchParams(fields), credentials: "same-origin" }).then(function (r) {
      if (!r.ok) throw new Error("refused");
      location.assign(r.url);
    });
  }
  // device names the device on the account page: "Chrome on Android"
  // (data-device: {0} the browser, {1} the system).
  function device() {
    var ua = navigator.userAgent;
    var browser = /Edg\//.test(ua) ? "Edge" : /Firefox\//.test(ua) ? "Firefox" : /Chrome\//.test(ua) ? "Chrome" : /Safari\//.test(ua) ? "Safari" : text.aBrowser;
    var os = /Android/.test(ua) ? "Android" : /iPhone|iPad/.test(ua) ? "iOS" : /Windows/.test(ua) ? "Windows" : /Mac OS X/.test(ua) ? "macOS" : /Linux/.test(ua) ? "Linux" : "";
    return os ? text.device.replace("{0}", browser).replace("{1}", os) : browser;
  }
  var reg = null;
  function show(sub) {
    var known = false;
    box.querySelectorAll(".push-devices li").forEach(function (li) {
      if (sub && li.dataset.endpoint === sub.endpoint) {
        known = true;
        li.classList.add("this-device");
        li.querySelector(".device").textContent += " " + text.thisDevice;
      }
    });
    var active = !!sub && known;
    on.hidden = active;
    off.hidden = !active;
    if (active) say(text.sayOn);
    else if (Notification.permission === "denied") say(text.sayBlocked);
    else say(text.sayOff);
  }
  navigator.serviceWorker
    .register("/sw.js")
    .then(function (r) {
      reg = r;
      return r.pushManager.getSubscription();
    })
    .then(show)
    .catch(function () {
      say(text.sayBroken);
    });
  on.addEventListener("click", function () {
    on.disabled = true;
    say(text.sayTurningOn);
    Notification.requestPermission()
      .then(function (permission) {
        if (permission !== "granted") throw new Error("denied");
        return fetch(box.dataset.key).then(function (r) {
          return r.json();
        });
      })
      .then(function (key) {
        return reg.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: bytes(key.publicKey) });
      })
      .then(function (sub) {
        var j = sub.toJSON();
        return post("/account/push", { endpoint: j.endpoint, p256dh: j.keys.p256dh, auth: j.keys.auth, device: device() });
      })
      .catch(function (e) {
        on.disabled = false;
        say(e.message === "denied" ? text.sayBlocked : text.sayOnFailed);
      });
  });
  off.addEventListener("click", function () {
    off.disabled = true;
    reg.pushManager
      .getSubscription()
      .then(function (sub) {
        if (!sub) return post("/account/push/remove", { endpoint: "" });
        var endpoint = sub.endpoint;
        return sub.unsubscribe().then(function () {
          return post("/account/push/remove", { endpoint: endpoint });
        });
      })
      .catch(function () {
        off.disabled = false;
        say(text.sayOffFailed);
      });
  });
})();
