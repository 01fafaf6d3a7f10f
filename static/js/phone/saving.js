/* The hand form and a hand's delete button while the server cannot be reached:
 * what is saved is judged on the phone, kept in the outbox and shown on the sheet
 * where it will land; a refused entry opened for correcting (#fix-3) is saved in its place. */

import { formWhere, isCopy, outboxReady } from "./contract.js";
import { addressOf } from "./dom.js";
import { anotherRow } from "./kept-form.js";
import { showOffline } from "./notice.js";
import { refusedOnThePhone } from "./preview.js";

let fixing = null; // the refused outbox entry the hand form on this page corrects

// A hand's line where the phone cannot score it: each field as the server names it
// (its wrapper's data-says, templates/scoring/_widget.html) with what was chosen or
// typed. What the page hides was not chosen (the form's own state, static/js/hand-form.js);
// a choice that tells nothing (data-unsaid: a premium row left at "—", an opponent
// without Kontra) is not told.
export function summaryOf(form) {
  const parts = [];
  const chosen = form.querySelectorAll(
    "#hand-fields input:checked, #hand-fields select, #hand-fields input[type=text]",
  );
  for (const input of chosen) {
    const field = input.closest("[data-says]");
    if (!field || input.hasAttribute("data-unsaid") || input.closest("[hidden], .when.off")) continue;
    let value = input.value.trim();
    if (input.type === "radio" || input.type === "checkbox") value = input.labels?.[0]?.textContent.trim();
    if (input.tagName === "SELECT") value = input.selectedOptions[0]?.textContent.trim();
    if (!value) continue;
    const label = field.dataset.says;
    parts.push(label && label !== value ? `${label}: ${value}` : value);
  }
  return parts.join(" · ").slice(0, 300);
}

// The network may be there and the server not (its preview's request failed just now):
// a hand saved then is judged and kept on the phone, as without a network.
let serverUnreachable = isCopy;

export function serverReached(reached) {
  serverUnreachable = !reached;
}

// // a copy kept on the phone was shown because the server did not answer

export function reachable() {
  return navigator.onLine && !serverUnreachable;
}

export async function keepForm(event) {
  const form = event.target;
  const isHandForm = form.id === "hand-form";
  const isDelete = formWhere(form)?.kind === "delete";
  if (!isHandForm && !isDelete) return;
  const action = event.submitter?.value || "save";
  if (isHandForm && action !== "save") {
    if (reachable()) return;
    event.preventDefault(); // counting and the preview need the server; another row is drawn here
    if (action.startsWith("more:")) anotherRow(form, action.slice(5));
    showOffline();
    return;
  }
  if (reachable() && !(isHandForm && fixing)) return;
  event.preventDefault();
  const judged = isHandForm && !fixing ? await refusedOnThePhone(form, event.submitter) : false;
  if (judged === true) return;
  const outbox = await outboxReady();
  const body = new URLSearchParams(new FormData(form, event.submitter)).toString();
  const shown = form.dataset.says || ""; // a deletion: the hand's line, as its page names it
  const summary = typeof judged === "string" ? judged : isHandForm ? summaryOf(form) : shown;
  let entry;
  if (fixing) {
    entry = { ...fixing, body, summary, state: "waiting", reason: null };
    await outbox.put(entry);
  } else {
    entry = await outbox.add(addressOf(form).href, body, summary);
  }
  if (!navigator.onLine) {
    const registration = await navigator.serviceWorker?.getRegistration();
    await registration?.sync?.register(outbox.SYNC_TAG).catch(() => {});
  }
  location.assign(`${entry.sheet}#pending-${entry.id}`);
}

export async function startFixing(_form) {
  const found = /^#fix-(\d+)$/.exec(location.hash);
  if (!found) return;
  fixing = (await (await outboxReady()).get(Number(found[1]))) || null;
}

// --- the sheet: what is waiting, in its place ---
