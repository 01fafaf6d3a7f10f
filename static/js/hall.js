// The hall screen (TOURNAMENTS.md §4.3): pages of twelve rotate every 10 s; a row
// whose numbers changed since the last poll is marked by a bar for 30 s; the
// clock in the title bar ticks. The server sends the hall again (htmx) only when
// the tournament changed.
(function () {
  "use strict";
  var ROTATE = 10000, MARKED = 30000;
  var seen = null; // data-key of every row at the last look, by start number
  var shown = 1, timer = null;

  function rows() { return document.querySelectorAll("#hall .hall-row"); }

  function mark() {
    var now = {};
    rows().forEach(function (row) {
      var number = row.dataset.number;
      now[number] = row.dataset.key;
      if (seen && seen[number] !== row.dataset.key) {
        row.classList.add("changed");
        setTimeout(function () { row.classList.remove("changed"); }, MARKED);
      }
    });
    seen = now;
  }

  function show(page) {
    var pages = document.querySelectorAll("#hall .hall-page");
    if (!pages.length) return;
    shown = page > pages.length ? 1 : page;
    pages.forEach(function (section) { section.hidden = Number(section.dataset.page) !== shown; });
  }

  function rotate() {
    clearInterval(timer);
    timer = setInterval(function () { show(shown + 1); }, ROTATE);
  }

  function tick() {
    var clock = document.getElementById("hall-clock");
    if (!clock) return;
    var now = new Date();
    clock.textContent = String(now.getHours()).padStart(2, "0") + ":" + String(now.getMinutes()).padStart(2, "0");
  }

  document.addEventListener("DOMContentLoaded", function () { mark(); show(1); rotate(); tick(); setInterval(tick, 15000); });
  document.addEventListener("htmx:afterSwap", function () { mark(); show(shown); tick(); });
})();
