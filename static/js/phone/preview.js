/* The hand form's preview without the server: the form scored on the phone, drawn
 * from the rows the server drew for it (templates/scoring/_phone_preview.html),
 * and a hand the server would refuse refused here, in its words, before it is kept. */

import { config, eveningData, formOf, formWhere, say } from "./contract.js";
import { allFromTemplate, element, fromTemplate } from "./dom.js";
import { engineAsked, engineNote, handLine, scoreWaiting } from "./scoring.js";

// The preview and the bar by the thumb from the rows the server drew for them
// (templates/scoring/_phone_preview.html), as it draws its own (hand_form.html).
export function drawPreview(outcome, refused) {
  const preview = document.getElementById("preview");
  const quick = document.getElementById("quick");
  if (!preview || !quick) return;
  if (!outcome.ok) {
    // Placed and ordered by the engine as the server's form lists them.
    const words = outcome.problems.map((problem) => problem.words);
    const items = words.map((w) => fromTemplate(document, "problem", { words: w }));
    preview.replaceChildren(allFromTemplate(document, "preview-open", { items }));
    quick.replaceChildren(
      allFromTemplate(document, refused ? "quick-refused" : "quick-open", { words: words.join(" · ") }),
    );
    return;
  }
  // Each player's number by the sign the phone's engine gives it; the one sitting out a dash.
  const kind = (name, sign) =>
    name === outcome.sitting_out ? "out" : ["plus", "minus"].includes(sign) ? sign : "zero";
  const deltas = outcome.deltas.map(([name, value, sign]) =>
    fromTemplate(document, `delta-${kind(name, sign)}`, { name, value }),
  );
  const lines = outcome.lines.map((line) => fromTemplate(document, "line", { line }));
  preview.replaceChildren(
    allFromTemplate(document, "preview-scored", { description: outcome.description, deltas, lines }),
  );
  const items = outcome.deltas.flatMap(([name, value, sign]) => [
    fromTemplate(document, `quick-${kind(name, sign)}`, {
      head: fromTemplate(document, `head:${name}`, {}),
      value,
    }),
    " ",
  ]);
  quick.replaceChildren(allFromTemplate(document, "quick-scored", { items }));
}

export function formPairs(form, submitter) {
  return [...new FormData(form, submitter)].filter(([, value]) => typeof value === "string");
}

let ticket = 0; // only the latest scoring of the form is drawn

let refusedForm = null; // the form as it was refused on saving: its preview keeps saying so

export function formKey(pairs) {
  return new URLSearchParams(pairs.filter(([name]) => name !== "action")).toString();
}

export async function previewOffline() {
  const form = document.getElementById("hand-form");
  const which = form && formOf(form);
  if (!which || !config.engine || !eveningData()) return;
  const preview = document.getElementById("preview");
  if (!engineAsked() || !self.TarockEngine?.ready())
    preview?.replaceChildren(element("p", { class: "muted", role: "status" }, say.engineLoading));
  const mine = ++ticket;
  const pairs = formPairs(form);
  try {
    const { outcome } = await scoreWaiting(outboxSession(form), pairs, which.hand);
    if (mine === ticket) drawPreview(outcome, formKey(pairs) === refusedForm);
  } catch (error) {
    const note = engineNote(error);
    if (note) preview?.replaceChildren(element("p", { class: "muted" }, note));
  }
}

// The evening a hand form belongs to, as the outbox names it (a number, or a table link's token).
export function outboxSession(form) {
  return formWhere(form).session;
}

const SAVE_WAIT = 2000; // ms a save offline waits for an engine that has not loaded yet

// A new hand or a correction saved offline is scored first: one the server would
// refuse is refused here, in its words, and not kept (true); one it scores is
// kept with its line as the sheet will write it (a string); false: not scored here.
export async function refusedOnThePhone(form, submitter) {
  const which = formOf(form);
  if (!which || !config.engine || !eveningData()) return false;
  const mine = ++ticket;
  const pairs = formPairs(form, submitter);
  try {
    const scoring = scoreWaiting(outboxSession(form), pairs, which.hand);
    // An engine still starting (a busy phone) does not hold the hand up: kept, and judged by the server.
    const late = new Promise((resolve) => setTimeout(() => resolve(null), SAVE_WAIT));
    const scored = self.TarockEngine?.loaded?.() ? await scoring : await Promise.race([scoring, late]);
    if (!scored) return false;
    const { outcome } = scored;
    if (outcome.ok) return handLine(outcome);
    refusedForm = formKey(pairs);
    if (mine === ticket) drawPreview(outcome, true);
    return true;
  } catch (_error) {
    return false; // the phone cannot score: kept, and the server judges it
  }
}
