/* Sending the outbox: when the connection returns or the app is opened again, and
 * again after the wait the server asked for; then the sheet is drawn again. */

import { isCopy, outboxReady, sheetOf } from "./contract.js";
import { csrf } from "./dom.js";
import { showPending } from "./sheet.js";

let sendAgain = null; // the timer that sends again what the server answered "not now" (429, 5xx)

export async function sendOutbox(connectionBack) {
  if (!navigator.onLine) return;
  const outbox = await outboxReady();
  const outcome = await outbox.send(csrf());
  if (outcome.waiting && outcome.retryAfter) {
    clearTimeout(sendAgain);
    sendAgain = setTimeout(() => sendOutbox(false), outcome.retryAfter * 1000);
  }
  await afterSending(outcome, connectionBack);
}

// The sheet is drawn again by the server once it has what was waiting (a copy
// also when the connection comes back); otherwise only the waiting part changes.
export async function afterSending(outcome, connectionBack) {
  if (!sheetOf()) return;
  if (outcome.sent || (isCopy && connectionBack && !outcome.waiting) || (await sentMeanwhile())) {
    history.replaceState(null, "", location.pathname + location.search);
    location.reload();
  } else {
    await showPending(true);
  }
}

// When this page was asked for, on the outbox's clock (Date.now, not performance.timeOrigin,
// which lags it on a phone that slept since its browser started).
const askedAt = Date.now() - performance.now();

// What waited for this sheet when the page was drawn (and the hand it was opened
// for, #pending-3): ids of outbox entries, read before this page sends anything.
let waitedAtStart = [];

export async function noteWaiting() {
  const sheet = sheetOf();
  if (!sheet) return;
  const entries = await (await outboxReady()).all();
  waitedAtStart = entries
    .filter((e) => e.session === sheet.session && e.state !== "refused")
    .map((e) => e.id);
  const waited = /^#pending-(\d+)$/.exec(location.hash);
  if (waited) waitedAtStart.push(Number(waited[1]));
}

// Something that waited when the page was drawn was sent by another sender (the
// worker, or a page that was left while it sent): the sheet drawn before has not got it.
// So also what another sender stored while the server drew this page, before this page
// read the outbox: it never waited here, and may not be on the sheet. The sheet is drawn
// again once for it, never again for the same record, whatever the clocks say.
export async function sentMeanwhile() {
  const outbox = await outboxReady();
  for (const id of waitedAtStart) if (!(await outbox.get(id))) return true;
  const session = sheetOf().session;
  const meanwhile = outbox.sentSince(await outbox.sent(), session, askedAt, Date.now());
  if (!meanwhile.length) return false;
  const newest = Math.max(...meanwhile.map((record) => record.sentAt));
  const key = `drawn-again-${session}`;
  try {
    if (Number(sessionStorage.getItem(key)) >= newest) return false;
    sessionStorage.setItem(key, String(newest));
  } catch (_noStorage) {
    return false; // without a place to note it, not drawn again: never over and over
  }
  return true;
}

// --- the hand form and the delete button: kept in the outbox while offline ---
