/* A hand form kept on the phone, opened without a connection: a token of its own,
 * the hand's number and the dealer after what waits, the fields for another dealer
 * (the server drew them: a <template data-dealer> each) and another row of a list. */

import { eveningData, formWhere, say } from "./contract.js";
import { counted } from "./scoring.js";

// A form kept on the phone carries the token it was kept with: each opening
// of the copy is a new hand, so it gets a token of its own; and the dealer
// proposed is the one after the hands still waiting, as the server would.
export async function prepareCopy(form) {
  const token = form.querySelector('input[name="token"]');
  const where = formWhere(form);
  if (!token || where?.kind !== "new") return;
  token.value = crypto.randomUUID().replaceAll("-", "");
  const shown = form.querySelector('select[name="dealer"]')?.value;
  const entries = await counted(where.session);
  countHand(entries);
  const waiting = entries.filter((e) => e.kind === "new");
  const last = waiting.length ? new URLSearchParams(waiting[waiting.length - 1].body).get("dealer") : null;
  const dealer = form.querySelector('select[name="dealer"]');
  if (!dealer || !last) return;
  if (dealer.value !== shown) return; // chosen by the player meanwhile: that dealer stands
  const names = [...dealer.options].map((option) => option.value);
  if (names.includes(last)) seatDealer(form, names[(names.indexOf(last) + 1) % names.length]);
}

// A table played to a number of hands: the kept form's "Hand 9 of 16" counts what
// the server stored since the copy was kept and what waits on this phone (new
// hands, less the hands deleted), redeals not counted, as the table's page does.
export function countHand(entries) {
  const shown = document.getElementById("hand-of");
  const evening = eveningData();
  if (!shown || !evening?.target) return;
  const counts = (type) => type !== "redeal";
  const live = new Map(evening.stored.map((hand) => [hand.id, hand]));
  let played = evening.stored.filter((hand) => counts(hand.type)).length;
  for (const entry of entries) {
    if (entry.kind === "new" && counts(new URLSearchParams(entry.body).get("type"))) played += 1;
    if (entry.kind === "delete" && live.has(entry.hand) && counts(live.get(entry.hand).type)) {
      live.delete(entry.hand);
      played -= 1;
    }
  }
  const fill = (text, n) => text.replace("%(n)s", n).replace("%(target)s", evening.target);
  shown.textContent = played < evening.target ? fill(say.handOf, played + 1) : fill(say.playedOf, played);
}

// Who sits out follows the dealer. Where someone does, the server drew the
// fields for every dealer (a <template data-dealer> each); without a connection the
// form cannot ask for them, so the new dealer's are put in, with what was
// typed wherever it still applies (a choice of the player now sitting out goes).
export function seatDealer(form, dealer) {
  const select = form.querySelector('select[name="dealer"]');
  if (select) select.value = dealer;
  const fields = form.querySelector("#hand-fields");
  const drawn = [...document.querySelectorAll("template[data-dealer]")].find(
    (t) => t.dataset.dealer === dealer,
  );
  if (!fields || !drawn || fields.dataset.dealer === dealer) return;
  const typed = new FormData(form);
  const fresh = drawn.content.querySelector("#hand-fields").cloneNode(true);
  // The rows a list was given ("Another row") are drawn again, and keep what was typed in them.
  for (const blank of fields.querySelectorAll("template[data-list]")) {
    const name = blank.dataset.list;
    const count = fields.querySelector(`input[name="${CSS.escape(blank.dataset.count)}"]`);
    const again = fresh.querySelector(`input[name="${CSS.escape(blank.dataset.count)}"]`);
    while (again && Number(again.value) < Number(count.value)) {
      const before = again.value;
      anotherRow(fresh, name);
      if (again.value === before) break; // the list's limit
    }
  }
  for (const control of fresh.querySelectorAll("input[name], select[name]")) {
    if (control.type === "hidden" || control.name === "dealer" || !typed.has(control.name)) continue;
    const values = typed.getAll(control.name);
    if (control.type === "radio" || control.type === "checkbox")
      control.checked = values.includes(control.value);
    else if (control.tagName !== "SELECT" || [...control.options].some((o) => o.value === values[0]))
      control.value = values[0];
  }
  fresh.dataset.dealer = dealer;
  fields.replaceWith(fresh);
  self.htmx?.process(fresh);
  fresh.dispatchEvent(new Event("change", { bubbles: true })); // the fields that depend on a choice (hand-form.js)
}

export function dealerChosen(event) {
  const select = event.target;
  const form = select.closest?.("#hand-form");
  if (!form || select.name !== "dealer" || select.tagName !== "SELECT") return;
  // Online the server draws the fields again (htmx); offline, or when that fails, the page does.
  if (event.type === "change" && navigator.onLine) return;
  seatDealer(form, select.value);
}

// "Another row" of a list (a second poignée) without the server: the row the server drew
// for it (a <template> beside the list's rows, its number a slot), numbered on and put
// after the rows, up to the list's limit.
export function anotherRow(within, name) {
  const blank = within.querySelector(`template[data-list="${CSS.escape(name)}"]`);
  const count = blank && within.querySelector(`input[name="${CSS.escape(blank.dataset.count)}"]`);
  const n = Number(count?.value || 0);
  if (!count || n >= Number(blank.dataset.mostRows || 10)) return;
  const row = blank.content.cloneNode(true);
  for (const node of row.querySelectorAll("*")) {
    for (const attribute of [...node.attributes]) {
      if (attribute.value.includes(blank.dataset.slot))
        attribute.value = attribute.value.split(blank.dataset.slot).join(String(n + 1));
    }
  }
  blank.before(row);
  count.value = String(n + 1);
  within.dispatchEvent(new Event("change", { bubbles: true })); // the fields that follow a choice, the preview
}
