// The hall screen (TOURNAMENTS.md §4.3): pages of twelve rotate every 10 s; a row
// whose numbers changed since the last poll is marked by a bar for 30 s, and the
// screen turns to the page of the first such row at once (a table just signed is
// seen in seconds, not after the rotation comes round to it); the clock in the
// title bar ticks. The server sends the hall again (htmx) only when the
// tournament changed.
(() => {
  "use strict";
  var ROTATE = 10000,
    MARKED = 30000;
  var seen = null; // data-key of every row at the last look, by start number
  var shown = 1,
    timer = null;

  function rows() {
    return document.querySelectorAll("#hall .hall-row");
  }

  // Marks the rows whose numbers changed; the page of the first of them, or 0.
  function mark() {
    var now = {},
      first = 0;
    rows().forEach((row) => {
      var number = row.dataset.number;
      now[number] = row.dataset.key;
      if (seen && seen[number] !== row.dataset.key) {
        row.classList.add("changed");
        setTimeout(() => {
          row.classList.remove("changed");
        }, MARKED);
        if (!first) first = Number(row.closest(".hall-page").dataset.page);
      }
    });
    seen = now;
    return first;
  }

  function show(page) {
    var pages = document.querySelectorAll("#hall .hall-page");
    if (!pages.length) return;
    shown = page > pages.length ? 1 : page;
    pages.forEach((section) => {
      section.hidden = Number(section.dataset.page) !== shown;
    });
  }

  function rotate() {
    clearInterval(timer);
    timer = setInterval(() => {
      show(shown + 1);
    }, ROTATE);
  }

  function tick() {
    var clock = document.getElementById("hall-clock");
    if (!clock) return;
    var now = new Date();
    clock.textContent = `${String(now.getHours()).padStart(2, "0")}:${String(now.getMinutes()).padStart(2, "0")}`;
  }

  document.addEventListener("DOMContentLoaded", () => {
    mark();
    show(1);
    rotate();
    tick();
    setInterval(tick, 15000);
  });
  document.addEventListener("htmx:afterSwap", () => {
    var changed = mark();
    show(changed || shown);
    if (changed) rotate(); // the changed page stays its full 10 s
    tick();
  });
})();
