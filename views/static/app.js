// Arena's one script; every page works without it. It shows every
// <time datetime="..."> in the viewer's time zone (a range's end without
// its date when both fall on one day), every <time data-countdown> as the
// time left until it, names the viewer's zone in the footer, and reads
// the admin pages' date-time fields in the viewer's zone (their hidden
// <name>Offset field tells the server the offset of each value), and
// keeps what the viewer opened in a live region open when it refreshes;
// on the admin tournament form it shows the chosen format's settings only
// (an empty slug is made from the name by the server, core.SlugFromName),
// and copies a one-time secret with its button (no inline handler: the
// site's policy allows none).
(function () {
  // The page's texts for its scripts, in its locale (views.scriptTexts):
  // text("left", {S: "3 h"}) fills each {Arg}.
  var texts = {};
  try { texts = JSON.parse(document.body.dataset.texts || "{}"); } catch (e) { texts = {}; }
  function text(key, args, fallback) {
    var s = texts[key] || fallback || "";
    Object.keys(args || {}).forEach(function (k) { s = s.split("{" + k + "}").join(String(args[k])); });
    return s;
  }
  // The locale the page is written in, as Intl takes it: English in the
  // site's British shape ("27 Nov 2026, 15:00"), Arabic with the Latin
  // digits the server writes too.
  var lang = texts.locale || document.documentElement.lang || "en";
  var locale = lang === "en" ? "en-GB" : lang === "ar" ? "ar-u-nu-latn" : lang;
  // The service's one shape of a time (core.TimeLayout, i18n's time.full),
  // the zone named: "27 Nov 2026, 15:00 CET".
  var day = { day: "numeric", month: "short", year: "numeric" };
  var clock = { hour: "2-digit", minute: "2-digit", hourCycle: "h23" };
  function named(f, generic) {
    // A zone the locale has no short name for shows as an offset
    // ("GMT-8"): its generic name says more ("Los Angeles Time").
    return { format: function (d) {
      return f.formatToParts(d).map(function (p) {
        if (p.type !== "timeZoneName" || !/\d/.test(p.value)) return p.value;
        var g = generic.formatToParts(d).filter(function (q) { return q.type === "timeZoneName"; })[0];
        return g ? g.value : p.value;
      }).join("");
    } };
  }
  var generic = new Intl.DateTimeFormat(locale, { timeZoneName: "shortGeneric" });
  var full = named(new Intl.DateTimeFormat(locale, Object.assign({ timeZoneName: "short" }, day, clock)), generic);
  var dateOnly = new Intl.DateTimeFormat(locale, day);
  var startOnly = new Intl.DateTimeFormat(locale, Object.assign({}, day, clock));
  var timeOnly = named(new Intl.DateTimeFormat(locale, Object.assign({ timeZoneName: "short" }, clock)), generic);
  function sameDay(a, b) {
    return a.getFullYear() === b.getFullYear() && a.getMonth() === b.getMonth() && a.getDate() === b.getDate();
  }
  // other is a range's other end: the next or first <time> beside el.
  function other(el, end) {
    var all = el.parentNode ? el.parentNode.querySelectorAll("time[datetime]") : [];
    var o = all.length === 2 ? all[end ? 0 : 1] : null;
    var d = o && new Date(o.getAttribute("datetime"));
    return d && !isNaN(d) ? d : null;
  }
  function localize(root) {
    root.querySelectorAll("time[datetime]:not([data-countdown])").forEach(function (el) {
      var d = new Date(el.getAttribute("datetime"));
      if (isNaN(d)) return;
      var f = el.dataset.format === "date" ? dateOnly : full, o;
      if (el.dataset.format === "start") {
        // The start of a range: the zone named once, at its end, when
        // both fall on one day in the viewer's zone.
        o = other(el, false);
        f = o && sameDay(o, d) ? startOnly : full;
      } else if (el.dataset.format === "clock") {
        // A time of the day alone (the broadcast views' match lines).
        f = timeOnly;
      } else if (el.dataset.format === "time") {
        // The end of a range: its date only when it differs from the start's.
        o = other(el, true);
        f = o && sameDay(o, d) ? timeOnly : full;
      }
      el.textContent = f.format(d);
      el.title = d.toISOString();
    });
  }
  // skew is how far the service clock is ahead of this computer's, read
  // from the page's data-now (the service's time when it rendered).
  var skew = 0;
  // left is the time until d on the service clock: "1 d 3 h left",
  // "3 h 12 min left", "12 min left", or "ran out".
  // (views.pubSpan words them the same way from the same texts.)
  function span(d) {
    var min = Math.floor((d - (Date.now() + skew)) / 60000);
    if (min < 0) return null;
    var days = Math.floor(min / 1440), hours = Math.floor(min / 60) % 24, mins = min % 60;
    if (days > 0) return text("spanDays", { D: days, H: hours }, days + " d " + hours + " h");
    if (hours > 0) return text("spanHours", { H: hours, M: mins }, hours + " h " + mins + " min");
    return text("spanMinutes", { M: mins }, mins + " min");
  }
  function countdown(root) {
    root.querySelectorAll("time[data-countdown]").forEach(function (el) {
      var d = new Date(el.getAttribute("datetime"));
      if (isNaN(d)) return;
      var s = span(d);
      el.textContent = s === null ? text("ranOut", null, "ran out") : el.dataset.countdown === "in" ? s : text("left", { S: s }, s + " left");
      el.title = full.format(d);
    });
  }
  // The viewer's zone: its name and offset, "Europe/Paris (UTC+01:00)".
  function zoneName() {
    var name = Intl.DateTimeFormat().resolvedOptions().timeZone || text("yourZone", null, "your time zone");
    var off = -new Date().getTimezoneOffset();
    var sign = off < 0 ? "−" : "+";
    off = Math.abs(off);
    var hh = String(Math.floor(off / 60)).padStart(2, "0"), mm = String(off % 60).padStart(2, "0");
    return name + " (UTC" + sign + hh + ":" + mm + ")";
  }
  function pad(n) { return String(n).padStart(2, "0"); }
  function localValue(d) {
    return d.getFullYear() + "-" + pad(d.getMonth() + 1) + "-" + pad(d.getDate()) + "T" + pad(d.getHours()) + ":" + pad(d.getMinutes());
  }
  // Date-time fields: the server renders each value with the offset it is
  // in (0: UTC); they are shown in the viewer's zone, and each change
  // records the offset of the value typed.
  function zoneFields(root) {
    root.querySelectorAll("input[type=datetime-local][data-offset-field]").forEach(function (input) {
      var offset = input.form && input.form.querySelector("input[name='" + input.dataset.offsetField + "']");
      if (!offset) return;
      var m = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})/.exec(input.value);
      if (m) {
        var utc = Date.UTC(+m[1], +m[2] - 1, +m[3], +m[4], +m[5]) - (parseInt(offset.value, 10) || 0) * 60000;
        input.value = localValue(new Date(utc));
      }
      var record = function () {
        var d = new Date(input.value);
        offset.value = isNaN(d) ? "0" : String(-d.getTimezoneOffset());
      };
      record();
      input.addEventListener("change", record);
      input.addEventListener("input", record);
    });
    root.querySelectorAll("[data-zone-hint]").forEach(function (el) { el.textContent = zoneName(); });
  }
  function refresh(root) {
    localize(root);
    countdown(root);
  }
  // A live stream on a match page: its player loads only when the viewer
  // asks for it (without the script, the link out is all there is).
  function streamPlayers(root) {
    root.querySelectorAll(".stream-embed[data-embed]").forEach(function (box) {
      var play = box.querySelector(".embed-play");
      if (!play) return;
      play.hidden = false;
      play.addEventListener("click", function () {
        var frame = document.createElement("iframe");
        frame.src = box.dataset.embed;
        frame.title = box.dataset.embedTitle || text("liveStream", null, "Live stream");
        frame.allow = "autoplay; fullscreen";
        frame.allowFullscreen = true;
        box.insertBefore(frame, box.firstChild);
        play.remove();
      });
    });
  }
  // The tournament form follows its format: a setting marked
  // data-formats="a b" (the server's list of the formats it belongs to)
  // shows only for those formats, and its fields are disabled (not sent)
  // while hidden. Without this script every setting shows.
  function followFormat(form) {
    var format = form.querySelector("select[name=format]");
    if (!format) return;
    var apply = function () {
      form.querySelectorAll("[data-formats]").forEach(function (el) {
        var on = el.dataset.formats.split(" ").indexOf(format.value) >= 0;
        el.hidden = !on;
        el.querySelectorAll("input, select, textarea").forEach(function (f) { f.disabled = !on; });
      });
    };
    apply();
    format.addEventListener("change", apply);
  }
  // A broadcast view shows one scene at a time, each for data-cycle
  // seconds, and fetches itself again every data-recheck seconds (the
  // stream's source never reloads visibly: only its stage is replaced).
  function broadcast(body) {
    var index = 0;
    var show = function () {
      var scenes = body.querySelectorAll("[data-scene]");
      if (scenes.length === 0) return;
      index = index % scenes.length;
      scenes.forEach(function (s, i) { s.hidden = i !== index; });
    };
    show();
    var cycle = parseInt(body.dataset.cycle, 10);
    if (cycle > 0) setInterval(function () { index++; show(); }, cycle * 1000);
    var recheck = parseInt(body.dataset.recheck, 10);
    if (!(recheck > 0) || !window.fetch || !window.DOMParser) return;
    follow(body.dataset.liveStream, body.dataset.liveEvents, recheck, function (seq) {
      var url = location.href + (location.search ? "&" : "?") + "seq=" + seq;
      fetch(url, { cache: "no-store" }).then(function (res) {
        return res.ok ? res.text() : null;
      }).then(function (html) {
        if (!html) return;
        var fresh = new DOMParser().parseFromString(html, "text/html").querySelector("main");
        var stage = body.querySelector("main");
        if (fresh && stage) { stage.innerHTML = fresh.innerHTML; show(); }
      }).catch(function () {});
    });
  }
  // follow calls update(seq) after the events of the arena's event
  // stream at url (types: the event types it listens to), at most once
  // per burst; without EventSource (or a stream) it calls update every
  // "every" seconds instead. EventSource reconnects by itself and
  // resumes after the last event it saw (Last-Event-ID); a stream the
  // server refuses (429 too_many_streams: the viewer's address holds its
  // most streams) ends EventSource for good, and the region asks every
  // "every" seconds too.
  var following = {};
  function poll(every, update) {
    var n = 0;
    setInterval(function () { update("t" + (++n)); }, every * 1000);
  }
  function follow(url, types, every, update) {
    if (!url || !window.EventSource) {
      poll(every, update);
      return;
    }
    if (following[url]) return;
    var es = new EventSource(url), pending = null, last = "";
    following[url] = es;
    es.addEventListener("error", function () {
      if (es.readyState === EventSource.CLOSED) poll(every, update);
    });
    var seen = function (e) {
      last = e.lastEventId;
      if (pending) return;
      pending = setTimeout(function () { pending = null; update(last); }, 150);
    };
    (types || "").split(" ").forEach(function (type) { if (type) es.addEventListener(type, seen); });
  }
  // A live region follows its stream: each burst of events asks the
  // region's URL (with the version it shows and the last event's seq,
  // which no cache has seen) and swaps the answer in; 204 keeps it.
  function liveRegions(root) {
    if (!window.fetch) return;
    root.querySelectorAll("[data-live-stream]").forEach(function (el) {
      if (el.tagName === "BODY") return;
      var id = el.id;
      follow(el.dataset.liveStream, el.dataset.liveEvents, parseInt(el.dataset.liveEvery, 10) || 10, function (seq) {
        var cur = document.getElementById(id);
        if (cur && cur.dataset.liveUrl) swapRegion(cur, cur.dataset.liveUrl + "&seq=" + encodeURIComponent(seq));
      });
    });
  }
  // swapRegion replaces the live region cur by the one url answers (200;
  // 204: unchanged). The parts the viewer had opened (a group's matches)
  // stay open, and its times are shown like the page's.
  function swapRegion(cur, url) {
    fetch(url, { credentials: "same-origin" }).then(function (res) {
      return res.status === 200 ? res.text() : null;
    }).then(function (html) {
      if (!html || !cur.isConnected) return;
      var t = document.createElement("template");
      t.innerHTML = html;
      var fresh = t.content.getElementById(cur.id);
      if (!fresh) return;
      var opened = Array.prototype.map.call(cur.querySelectorAll("details[open] > summary"), function (s) { return s.textContent; });
      fresh.querySelectorAll("details > summary").forEach(function (s) {
        if (opened.indexOf(s.textContent) >= 0) s.parentNode.open = true;
      });
      cur.replaceWith(fresh);
      refresh(fresh);
    }).catch(function () {});
  }
  // A one-time secret's copy button (data-copy names its field): the
  // field's text to the clipboard, said in the button's status line. The
  // field stays readonly and selectable without script.
  function copyButtons(root) {
    root.querySelectorAll("button[data-copy]").forEach(function (button) {
      var field = document.getElementById(button.dataset.copy);
      var said = document.getElementById(button.dataset.copy + "-copied");
      if (!field) return;
      button.hidden = false;
      button.addEventListener("click", function () {
        field.select();
        var done = function (ok) { if (said) said.textContent = ok ? text("copied", null, "Copied.") : text("copyFailed", null, "Select the text and copy it."); };
        if (navigator.clipboard && navigator.clipboard.writeText) {
          navigator.clipboard.writeText(field.value).then(function () { done(true); }, function () { done(false); });
        } else {
          done(false);
        }
      });
    });
  }
  // A "select all" box (data-select-all names the boxes it stands for)
  // ticks or clears them all, and is ticked while they all are.
  function selectAll(root) {
    root.querySelectorAll("input[data-select-all]").forEach(function (all) {
      var boxes = all.form ? all.form.querySelectorAll('input[type=checkbox][name="' + all.dataset.selectAll + '"]') : [];
      all.addEventListener("change", function () {
        boxes.forEach(function (b) { b.checked = all.checked; });
      });
      boxes.forEach(function (b) {
        b.addEventListener("change", function () {
          all.checked = Array.prototype.every.call(boxes, function (x) { return x.checked; });
        });
      });
    });
  }
  document.addEventListener("DOMContentLoaded", function () {
    if (document.body.classList.contains("broadcast")) broadcast(document.body);
    copyButtons(document);
    selectAll(document);
    var now = document.querySelector("[data-now]");
    if (now && !isNaN(new Date(now.dataset.now))) skew = new Date(now.dataset.now) - Date.now();
    refresh(document);
    zoneFields(document);
    streamPlayers(document);
    liveRegions(document);
    document.querySelectorAll("form[data-follows-format]").forEach(followFormat);
    document.querySelectorAll(".viewer-zone").forEach(function (el) { el.textContent = zoneName(); });
    setInterval(function () { countdown(document); }, 30000);
  });
})();
