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

// The page was opened for a hand waiting (#pending-3) that the worker sent
// while the page was on its way: the sheet drawn before has not got it.
export async function sentMeanwhile() {
  const waited = /^#pending-(\d+)$/.exec(location.hash);
  return Boolean(waited) && !(await (await outboxReady()).get(Number(waited[1])));
}

// --- the hand form and the delete button: kept in the outbox while offline ---
