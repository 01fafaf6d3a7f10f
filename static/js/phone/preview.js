/* The hand form's preview without the server: the form scored on the phone, drawn
 * as the server draws it (hand_form.html), and a hand the server would refuse
 * refused here, in its words, before it is kept. */

import { config, eveningData, formOf, formWhere, say } from "./contract.js";
import { element } from "./dom.js";
import { engineAsked, engineNote, handLine, scoreWaiting } from "./scoring.js";

// The preview and the bar by the thumb, drawn as the server draws them (hand_form.html).
export function drawPreview(form, outcome, refused) {
  const preview = document.getElementById("preview");
  const quick = document.getElementById("quick");
  if (!preview || !quick) return;
  if (!outcome.ok) {
    const words = orderedProblems(form, outcome.problems);
    preview.replaceChildren(
      element("p", { class: "muted" }, say.notComplete),
      element("ul", { class: "open-list" }, ...words.map((w) => element("li", {}, w))),
    );
    const lead = element("span", { class: "lead" }, refused ? say.notSaved : say.stillOpen);
    const open = element("p", { class: "open" }, lead, " ", words.join(" · "));
    if (refused) {
      open.setAttribute("role", "alert");
      open.setAttribute("data-summary", "");
    }
    quick.replaceChildren(open);
    return;
  }
  const deltas = outcome.deltas.map(([name, value, sign]) =>
    element("li", {}, element("span", {}, name), " ", element("strong", { class: sign }, value)),
  );
  preview.replaceChildren(
    element("p", { class: "preview-what" }, outcome.description),
    element("ul", { class: "preview-deltas" }, ...deltas),
    element("ol", { class: "breakdown" }, ...outcome.lines.map((line) => element("li", {}, line))),
    element("p", { class: "muted provisional" }, say.provisional),
  );
  quick.replaceChildren(
    element(
      "p",
      { class: "short" },
      ...outcome.deltas.flatMap(([name, value, sign]) => [
        element(
          "span",
          { class: "q" },
          element("abbr", { title: name }, name.slice(0, 3)),
          " ",
          element("strong", { class: sign }, value),
        ),
        " ",
      ]),
    ),
  );
}

// The problems in the order of the form, as the server lists them.
export function orderedProblems(form, problems) {
  const placed = problems.map((problem, index) => {
    let name = problem.input || problem.field;
    let control = null;
    while (name) {
      control = form.querySelector(`[name="${CSS.escape(name)}"], [name^="${CSS.escape(name)}."]`);
      const trimmed = name.replace(/(\.[^.[\]]+|\[\d+\])$/, "");
      if (control || trimmed === name) break;
      name = trimmed;
    }
    return { control, index, words: problem.words };
  });
  const rank = (a, b) => {
    if (a.control && b.control && a.control !== b.control)
      return a.control.compareDocumentPosition(b.control) & Node.DOCUMENT_POSITION_FOLLOWING ? -1 : 1;
    if (a.control && !b.control) return -1;
    if (b.control && !a.control) return 1;
    return a.index - b.index;
  };
  return placed.sort(rank).map((p) => p.words);
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
    if (mine === ticket) drawPreview(form, outcome, formKey(pairs) === refusedForm);
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
    if (mine === ticket) drawPreview(form, outcome, true);
    return true;
  } catch (_error) {
    return false; // the phone cannot score: kept, and the server judges it
  }
}
