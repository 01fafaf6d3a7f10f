/* The engine on the phone (engine.js) scoring what waits: the evening the page
 * carries (#engine-game) with what the server stored since the page was drawn and
 * what waits in the outbox, in the server's words. */

import { config, drawnInputs, eveningData, outboxReady, root, say } from "./contract.js";

let engineStarted = null;

// The engine was asked for on this page (it may still be starting).
export function engineAsked() {
  return Boolean(engineStarted);
}

export function engineReady() {
  if (!config.engine) return Promise.reject(new Error("not built"));
  engineStarted ||= new Promise((resolve, reject) => {
    if (self.TarockEngine) return resolve(self.TarockEngine);
    const script = document.createElement("script");
    script.src = config.engine.script;
    script.onload = () => resolve(self.TarockEngine);
    script.onerror = () => reject(new Error("engine script"));
    document.head.append(script);
  }).then(async (engine) => {
    await engine.start(config.engine, config.engine.worker);
    return engine;
  });
  return engineStarted;
}

export function engineNote(error) {
  const why = error?.message || "";
  return why === "not built" || why === "no game" ? null : say.noEngine.replace("%(why)s", why);
}

// What this page's evening has not got: what the phone sent and the server stored
// after the page was drawn (a copy kept before the connection came and went again).
export async function sentSince(session) {
  const evening = eveningData();
  if (!evening) return [];
  const known = new Map(evening.stored.map((hand) => [hand.id, hand]));
  return (await (await outboxReady()).sent()).filter((entry) => {
    if (entry.session !== session) return false;
    if (entry.kind === "new") return entry.stored !== null && !known.has(entry.stored);
    if (entry.kind === "delete") return known.has(entry.hand);
    const hand = known.get(entry.hand); // a correction: made from the version this page shows, or a later one
    return (
      Boolean(hand) &&
      hand.version !== undefined &&
      Number(hand.version) <= Number(new URLSearchParams(entry.body).get("token"))
    );
  });
}

// What counts on this page, in the order the server has or will have it: what it
// stored since this page was drawn, then what waits on the phone (not what it refused).
export async function counted(session) {
  const waiting = (await (await outboxReady()).all()).filter(
    (e) => e.session === session && e.state !== "refused",
  );
  return [...(await sentSince(session)), ...waiting].sort((a, b) => a.id - b.id);
}

export function pairsOf(body) {
  return [...new URLSearchParams(body)];
}

// The evening with what waits on this phone, scored in its places: the corrections
// and deletions of stored hands first, then the new hands; the form being typed last
// (a new hand, or a correction of hand ``editing``).
export async function scoreWaiting(session, extra, editing) {
  const evening = eveningData();
  if (!evening) throw new Error("no game");
  const entries = await counted(session);
  const waiting = entries.filter((e) => e.kind === "new");
  const changed = entries.filter((e) => e.kind !== "new" && e.hand !== null);
  const changes = changed.map((e) =>
    e.kind === "delete" ? { hand: e.hand, delete: true } : { hand: e.hand, fields: pairsOf(e.body) },
  );
  const forms = waiting.map((entry) => pairsOf(entry.body));
  if (extra && editing) changes.push({ hand: editing, fields: extra });
  else if (extra) forms.push(extra);
  const engine = await engineReady();
  const request = { ...evening, waiting: forms, changes, lang: root.lang, inputs: drawnInputs() };
  const result = await engine.call("score_table", request);
  const scoredLast = editing ? result.changes : result.hands;
  let outcome = extra ? scoredLast[scoredLast.length - 1] : null;
  // A correction of a hand no longer live here (deleted, or waiting on this phone to be deleted).
  if (outcome?.unknown) outcome = { ok: false, problems: [{ field: "", input: null, words: say.handGone }] };
  return { result, waiting, changed, outcome };
}

// A hand's line as the sheet's rows have it: who dealt (and who sat out), then what was played.
export function handLine(outcome) {
  const dealer = outcome.dealer;
  const out = outcome.sitting_out;
  let who = "";
  if (dealer && out && out === dealer) who = say.dealsAndSitsOut.replace("%(name)s", dealer);
  else if (dealer && out)
    who = `${say.deals.replace("%(name)s", dealer)}, ${say.sitsOut.replace("%(name)s", out)}`;
  else if (dealer) who = say.deals.replace("%(name)s", dealer);
  return who ? `${who} · ${outcome.description}` : outcome.description;
}
