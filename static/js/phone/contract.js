/* The phone's contract with the server: what the offline scripts are told instead
 * of guessing it from addresses or markup. The page's settings and words
 * (#offline-config), the sheet's part (#phone-sheet: the evening as the outbox
 * names it, its address, the pages to keep) and each hand form's "outbox" field
 * (what the form is: scoring/phone_contract.py). */

import "../outbox.js";

export const config = JSON.parse(document.getElementById("offline-config").textContent);
export const say = config.texts;
export const root = document.documentElement;
export const isCopy = root.hasAttribute("data-copy");

// The outbox (outbox.js, a classic script the service worker shares): its global.
export function outboxReady() {
  return Promise.resolve(self.Outbox);
}

// The sheet of an evening, or a tournament table's page behind its link: which evening's
// waiting hands are shown here, and what to keep for the next hand; null on any other page.
export function sheetOf() {
  const block = document.getElementById("phone-sheet");
  return block ? JSON.parse(block.textContent) : null;
}

// What a form is, as the server wrote it into its "outbox" field: { kind, session, hand, sheet, page }.
export function formWhere(form) {
  const field = form?.querySelector(`input[name="${self.Outbox.FIELD}"]`);
  return field ? self.Outbox.whereOf(new URLSearchParams([[self.Outbox.FIELD, field.value]])) : null;
}

// Which hand form this is: a new hand's ({ hand: null }), a correction of a stored hand's, or none.
export function formOf(form) {
  const where = formWhere(form);
  if (!where || where.kind === "delete") return null;
  return { hand: where.kind === "edit" ? where.hand : null };
}

export function eveningData() {
  const block = document.getElementById("engine-game");
  return block ? JSON.parse(block.textContent) : null;
}

// The inputs the hand form is drawn with, in its order (#hand-inputs): the phone's
// engine places a refusal's problems by them, as the server's form does.
export function drawnInputs() {
  const block = document.getElementById("hand-inputs");
  return block ? JSON.parse(block.textContent) : [];
}
