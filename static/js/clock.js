// The round clock (TOURNAMENTS.md §3.6) on the hall screen and the table's
// phone: the server draws when the time is up (data-ends, ms since 1970) and its
// own time at drawing (data-now), so a phone or screen whose clock is wrong still
// counts down right. Each second the clock says how long is left ("noch 23:14");
// at zero, "Spiel fertig spielen" (data-over): the game in play is finished,
// nothing ends by itself. Without JavaScript the page shows the end time.
(() => {
  "use strict";
  var offsets = new WeakMap(); // server time minus this device's, per clock as drawn

  function two(n) {
    return String(n).padStart(2, "0");
  }

  function left(ms) {
    var seconds = Math.ceil(ms / 1000);
    var h = Math.floor(seconds / 3600),
      m = Math.floor((seconds % 3600) / 60),
      s = seconds % 60;
    return h ? `${h}:${two(m)}:${two(s)}` : `${m}:${two(s)}`;
  }

  function show(clock) {
    var time = clock.querySelector("[data-clock-time]");
    if (!time) return;
    if (!offsets.has(clock)) offsets.set(clock, Number(clock.dataset.now) - Date.now());
    var rest = Number(clock.dataset.ends) - (Date.now() + offsets.get(clock));
    var over = rest <= 0;
    clock.classList.toggle("over", over);
    var words = over ? clock.dataset.over : clock.dataset.left.replace("%(time)s", left(rest));
    if (!over && clock.dataset.until) words += ` · ${clock.dataset.until}`;
    if (time.textContent !== words) time.textContent = words;
  }

  function tick() {
    document.querySelectorAll("[data-ends][data-now]").forEach(show);
  }

  document.addEventListener("DOMContentLoaded", () => {
    tick();
    setInterval(tick, 1000);
  });
  document.addEventListener("htmx:afterSwap", tick);
})();
