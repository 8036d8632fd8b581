// The admin tournament page's score dialog. Each match's Details link
// (a[data-score-dialog]) is the match page, the fallback without this
// script; with it, the link opens a <dialog> holding that page's
// decision forms (a game of a series, the whole match or a forfeit) and,
// when players reported, their reports side by side. The forms post to
// the match page's own routes with back=tournament, so one submit decides
// and lands back on this page, at the match's row; a refusal shows the
// match page with the marked fields. Anything unexpected (a failed fetch,
// a match that cannot be decided) follows the link instead.
(function () {
  "use strict";
  // The page's texts in its locale (views.scriptTexts), English without.
  var texts = {};
  try { texts = JSON.parse(document.body.dataset.texts || "{}"); } catch (e) { texts = {}; }
  function text(key, fallback) { return texts[key] || fallback; }
  var dialog = document.getElementById("score-dialog");
  if (!dialog || typeof dialog.showModal !== "function" || !window.fetch || !window.DOMParser) return;
  var title = document.getElementById("score-dialog-title");
  var body = dialog.querySelector(".score-dialog-body");

  function open(link, doc) {
    var decision = doc.getElementById("decision");
    if (!decision) return false;
    var forms = decision.querySelectorAll("form");
    var kept = 0;
    forms.forEach(function (f) {
      if (!/\/resolve$/.test(f.getAttribute("action") || "")) {
        f.remove();
        return;
      }
      var back = doc.createElement("input");
      back.type = "hidden";
      back.name = "back";
      back.value = "tournament";
      f.appendChild(back);
      kept++;
    });
    var reports = doc.querySelector("section[aria-labelledby=reports-title]");
    if (!kept && !reports) return false;
    var row = link.closest("tr");
    title.textContent = row ? row.querySelector(".am-round").textContent + " · " + row.querySelector(".am-sides").textContent.replace(/\s+/g, " ").trim() : text("match", "Match");
    body.textContent = "";
    if (reports) body.appendChild(document.importNode(reports, true));
    body.appendChild(document.importNode(decision, true));
    var more = document.createElement("p");
    var a = document.createElement("a");
    a.href = link.href;
    a.textContent = text("openMatch", "Open the match page");
    more.appendChild(a);
    body.appendChild(more);
    dialog.showModal();
    var first = body.querySelector("form input:not([type=hidden])");
    if (first) first.focus();
    return true;
  }

  document.addEventListener("click", function (e) {
    var link = e.target.closest && e.target.closest("a[data-score-dialog]");
    if (!link || e.defaultPrevented || e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey) return;
    e.preventDefault();
    fetch(link.href, { credentials: "same-origin", headers: { Accept: "text/html" } })
      .then(function (res) {
        if (!res.ok) throw new Error(res.status);
        return res.text();
      })
      .then(function (html) {
        if (!open(link, new DOMParser().parseFromString(html, "text/html"))) location.href = link.href;
      })
      .catch(function () { location.href = link.href; });
  });
})();
