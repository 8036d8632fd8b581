// Seeding by hand on the admin tournament page. Without this script the
// seed boxes are the way (a number per side, "Save seeds"); with it each
// side also gets a handle to drag it up or down the list (mouse, pen or
// touch: pointer events) or, focused, to move it with the arrow keys
// (Home and End: to the top or the bottom), and a live region says where
// it went. After a move the boxes are numbered in the list's order, from
// the top down to the lowest side that has a seed or was moved: moving a
// side seeds every side above it; the sides below stay unseeded. "Save
// seeds" stores the order, as typed numbers would.
(function () {
  "use strict";
  // The page's texts in its locale (views.scriptTexts), English without.
  var texts = {};
  try { texts = JSON.parse(document.body.dataset.texts || "{}"); } catch (e) { texts = {}; }
  function text(key, fallback) { return texts[key] || fallback; }
  var table = document.querySelector("table[data-seed-order]");
  if (!table || !window.PointerEvent) return;
  var body = table.tBodies[0];
  var status = document.getElementById("seed-status");

  function rows() { return Array.prototype.slice.call(body.rows); }
  function box(row) { return row.querySelector("input.seed"); }
  function name(row) { return row.dataset.name; }

  // renumber gives the boxes 1..n from the top down to the lowest side
  // with a seed or the moved one; the rest stay empty.
  function renumber(moved) {
    var list = rows(), last = list.indexOf(moved);
    list.forEach(function (r, i) { if (box(r).value.trim() !== "") last = Math.max(last, i); });
    list.forEach(function (r, i) { box(r).value = i <= last ? String(i + 1) : ""; });
  }

  function say(row) {
    var list = rows(), at = list.indexOf(row) + 1;
    status.textContent = text("seedMoved", name(row) + " is now seed " + at + " of " + list.length + ". Save seeds to keep the order.")
      .split("{Name}").join(name(row)).split("{At}").join(at).split("{N}").join(list.length);
  }

  // moveTo puts row at index to (0-based) and renumbers.
  function moveTo(row, to) {
    var list = rows();
    to = Math.max(0, Math.min(list.length - 1, to));
    var from = list.indexOf(row);
    if (to === from) return false;
    list.splice(from, 1);
    body.insertBefore(row, list[to] || null);
    renumber(row);
    return true;
  }

  rows().forEach(function (row) {
    var cell = box(row).parentNode;
    var handle = document.createElement("button");
    handle.type = "button";
    handle.className = "seed-handle";
    handle.textContent = "\u2195";
    handle.setAttribute("aria-label", text("seedHandle", "Move " + name(row) + ": arrow keys, or drag").split("{Name}").join(name(row)));
    cell.insertBefore(handle, cell.firstChild);

    handle.addEventListener("keydown", function (e) {
      var at = rows().indexOf(row), to = {ArrowUp: at - 1, ArrowDown: at + 1, Home: 0, End: rows().length - 1}[e.key];
      if (to === undefined) return;
      e.preventDefault();
      if (moveTo(row, to)) {
        handle.focus();
        say(row);
      }
    });

    handle.addEventListener("pointerdown", function (e) {
      if (e.button !== 0) return;
      e.preventDefault();
      // The document hears the pointer: moving the row in the list would
      // end a capture on its handle.
      row.classList.add("dragging");
      var moved = false;
      function over(ev) {
        // Near the screen's top or bottom edge the page scrolls along.
        if (ev.clientY < 48) window.scrollBy(0, -24);
        else if (ev.clientY > window.innerHeight - 48) window.scrollBy(0, 24);
        // The row under the pointer takes this one's place.
        var list = rows();
        for (var i = 0; i < list.length; i++) {
          var r = list[i].getBoundingClientRect();
          if (ev.clientY >= r.top && ev.clientY < r.bottom) {
            if (list[i] !== row && moveTo(row, i)) moved = true;
            return;
          }
        }
      }
      function up() {
        document.removeEventListener("pointermove", over);
        document.removeEventListener("pointerup", up);
        document.removeEventListener("pointercancel", up);
        row.classList.remove("dragging");
        if (moved) say(row);
      }
      document.addEventListener("pointermove", over);
      document.addEventListener("pointerup", up);
      document.addEventListener("pointercancel", up);
    });
  });
  table.classList.add("seed-sortable");
})();
