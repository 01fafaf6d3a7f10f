// The table's sign-off (TOURNAMENTS.md §3.3): it needs the connection and no
// hands of this table waiting on the phone. While the outbox (outbox.js) holds a
// hand of this table's session, or the phone is offline, the button stays
// disabled and says why.
(() => {
  "use strict";
  async function check() {
    const form = document.getElementById("signoff-form");
    if (!form) return;
    const button = form.querySelector("#sign");
    const note = form.querySelector("#outbox-waiting");
    const session = form.dataset.outboxSession;
    let waiting = false;
    if (self.Outbox && session) {
      try {
        const entries = await self.Outbox.all();
        waiting = entries.some((entry) => entry.session === session && entry.state !== "refused");
      } catch (_unreadable) {
        waiting = false;
      }
    }
    const blocked = waiting || !navigator.onLine;
    button.disabled = blocked;
    note.hidden = !blocked;
  }
  document.addEventListener("DOMContentLoaded", check);
  window.addEventListener("online", check);
  window.addEventListener("offline", check);
  setInterval(check, 5000);
})();
