// Shows every <time datetime="..."> in the viewer's time zone. Without
// JavaScript the page shows the UTC text the server rendered.
(function () {
  function localize(root) {
    root.querySelectorAll("time[datetime]").forEach(function (el) {
      var d = new Date(el.getAttribute("datetime"));
      if (isNaN(d)) return;
      var opts = el.dataset.format === "date"
        ? { dateStyle: "medium" }
        : { dateStyle: "medium", timeStyle: "short" };
      el.textContent = new Intl.DateTimeFormat(undefined, opts).format(d);
      el.title = d.toISOString();
    });
  }
  document.addEventListener("DOMContentLoaded", function () { localize(document); });
  document.addEventListener("htmx:afterSwap", function (e) { localize(e.target); });
})();
