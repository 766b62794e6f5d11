// grundy serve: the contest clock, and live updates over server-sent
// events. Every update fetches what the page shows from the server; a
// browser without EventSource, or whose stream was refused, reloads the
// page every 30 seconds.
(function () {
  "use strict";

  function tick() {
    var el = document.getElementById("clock");
    if (!el) return;
    var skew = Number(el.dataset.now) - Date.now();
    function show() {
      var now = Date.now() + skew;
      var start = Number(el.dataset.start);
      var end = el.dataset.end ? Number(el.dataset.end) : null;
      var text;
      if (now < start) text = "starts in " + hms(start - now);
      else if (end !== null && now >= end) text = "the contest is over";
      else if (end !== null) text = hms(end - now) + " left";
      else text = hms(now - start) + " since the start";
      el.textContent = text;
    }
    show();
    setInterval(show, 1000);
  }

  function hms(ms) {
    var s = Math.floor(ms / 1000);
    var h = Math.floor(s / 3600), m = Math.floor(s / 60) % 60, r = s % 60;
    return h + ":" + (m < 10 ? "0" : "") + m + ":" + (r < 10 ? "0" : "") + r;
  }

  function updateSubmission(id) {
    var row = document.querySelector('[data-submission="' + id + '"]');
    if (!row) return;
    fetch("/submissions/" + id + "/status", { credentials: "same-origin" })
      .then(function (r) { return r.ok ? r.json() : null; })
      .then(function (s) {
        if (!s) return;
        var cell = row.querySelector(".status");
        if (!cell) return;
        cell.textContent = s.label;
        cell.className = "status badge " + (s.verdict ? "v-" + s.verdict : "v-none");
        row.dataset.verdict = s.verdict || "";
        if (s.score !== null && row.querySelector(".score")) {
          row.querySelector(".score").textContent = s.score_text;
        }
      });
  }

  function refresh(el) {
    fetch(el.dataset.src, { credentials: "same-origin" })
      .then(function (r) { return r.ok ? r.text() : null; })
      .then(function (html) {
        if (html !== null) {
          el.innerHTML = html;
          el.dataset.updated = String(Number(el.dataset.updated || "0") + 1);
        }
      });
  }

  function notice(text, href) {
    var el = document.getElementById("notice");
    if (!el) return;
    el.hidden = false;
    el.textContent = "";
    var a = document.createElement("a");
    a.href = href;
    a.textContent = text;
    el.appendChild(a);
  }

  function listen() {
    if (!window.EventSource) {
      setTimeout(function () { location.reload(); }, 30000);
      return;
    }
    var es = new EventSource("/events");
    // A page left behind frees its connection at once (a browser holds
    // few connections to one server).
    window.addEventListener("pagehide", function () { es.close(); });
    es.addEventListener("submission", function (e) {
      updateSubmission(JSON.parse(e.data).id);
    });
    es.addEventListener("scoreboard", function () {
      document.querySelectorAll("[data-live]").forEach(refresh);
    });
    es.addEventListener("state", function () {
      document.querySelectorAll("[data-live]").forEach(refresh);
    });
    es.addEventListener("clarification", function () {
      var jury = location.pathname.indexOf("/jury") === 0;
      notice("New clarification: read it", jury ? "/jury/clarifications" : "/clarifications");
    });
    es.addEventListener("reload", function () { location.reload(); });
    // A stream the server refused (a session ended, a proxy in the way)
    // is not tried again by the browser: reload every 30 seconds instead.
    es.addEventListener("error", function () {
      if (es.readyState === EventSource.CLOSED) {
        setTimeout(function () { location.reload(); }, 30000);
      }
    });
    document.body.dataset.live = "listening";
  }

  document.addEventListener("DOMContentLoaded", function () {
    tick();
    listen();
  });
})();
