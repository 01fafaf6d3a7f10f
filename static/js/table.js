// The table's sign-off (TOURNAMENTS.md §3.3): it needs the connection and no
// hands of this table waiting on the phone. While the outbox (outbox.js) holds a
// hand of this table's session, or the phone is offline, the button stays
// disabled and says why.
(function () {
  "use strict";
  async function check() {
    var form = document.getElementById("signoff-form");
    if (!form) return;
    var button = form.querySelector("#sign");
    var note = form.querySelector("#outbox-waiting");
    var session = form.dataset.outboxSession;
    var waiting = false;
    if (self.Outbox && session) {
      try {
        var entries = await self.Outbox.all();
        waiting = entries.some(function (entry) { return entry.session === session && entry.state !== "refused"; });
      } catch (unreadable) {
        waiting = false;
      }
    }
    var blocked = waiting || !navigator.onLine;
    button.disabled = blocked;
    note.hidden = !blocked;
  }
  document.addEventListener("DOMContentLoaded", check);
  window.addEventListener("online", check);
  window.addEventListener("offline", check);
  setInterval(check, 5000);
})();
