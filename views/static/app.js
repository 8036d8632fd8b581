// Shows every <time datetime="..."> in the viewer's time zone, and every
// <time data-countdown> as the time left until it. Without JavaScript the
// page shows the UTC text the server rendered.
(function () {
  function localize(root) {
    root.querySelectorAll("time[datetime]:not([data-countdown])").forEach(function (el) {
      var d = new Date(el.getAttribute("datetime"));
      if (isNaN(d)) return;
      var opts = el.dataset.format === "date"
        ? { dateStyle: "medium" }
        : { dateStyle: "medium", timeStyle: "short" };
      el.textContent = new Intl.DateTimeFormat(undefined, opts).format(d);
      el.title = d.toISOString();
    });
  }
  // skew is how far the service clock is ahead of this computer's, read
  // from the page's data-now (the service's time when it rendered).
  var skew = 0;
  // left is the time until d on the service clock: "1 d 3 h left",
  // "3 h 12 min left", "12 min left", or "ran out".
  function left(d) {
    var min = Math.floor((d - (Date.now() + skew)) / 60000);
    if (min < 0) return "ran out";
    var days = Math.floor(min / 1440), hours = Math.floor(min / 60) % 24, mins = min % 60;
    if (days > 0) return days + " d " + hours + " h left";
    if (hours > 0) return hours + " h " + mins + " min left";
    return mins + " min left";
  }
  function countdown(root) {
    root.querySelectorAll("time[data-countdown]").forEach(function (el) {
      var d = new Date(el.getAttribute("datetime"));
      if (isNaN(d)) return;
      el.textContent = left(d);
      el.title = new Intl.DateTimeFormat(undefined, { dateStyle: "medium", timeStyle: "short" }).format(d);
    });
  }
  document.addEventListener("DOMContentLoaded", function () {
    var now = document.querySelector("[data-now]");
    if (now && !isNaN(new Date(now.dataset.now))) skew = new Date(now.dataset.now) - Date.now();
    localize(document);
    countdown(document);
    setInterval(function () { countdown(document); }, 30000);
  });
  document.addEventListener("htmx:afterSwap", function (e) { localize(e.target); countdown(e.target); });
})();
