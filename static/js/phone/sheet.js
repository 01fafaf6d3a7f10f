/* The sheet with what waits on this phone: each entry in its place (a new hand
 * below the stored ones, a correction or deletion under its hand), scored on the
 * phone, and the totals, next dealer and counters with them, marked provisional. */

import { config, eveningData, isCopy, outboxReady, say, sheetOf } from "./contract.js";
import { csrf, element, fromTemplate } from "./dom.js";
import { engineNote, handLine, scoreWaiting, sentSince } from "./scoring.js";

export function describe(entry) {
  const fields = new URLSearchParams(entry.body);
  // What the server does not count as the hand (the contract), and what only says which
  // hand it is (the kind of hand's tab, the version a correction was made on).
  for (const name of [...config.notTheHand, "type", "version"]) fields.delete(name);
  return entry.summary || [...fields.values()].filter(Boolean).join(" · ");
}

export function correctControl(entry) {
  if (entry.kind === "delete")
    return element("a", { class: "button small secondary", href: entry.page }, say.correct);
  if (entry.kind === "edit")
    return element(
      "a",
      { class: "button small secondary", href: `${entry.url}#fix-${entry.id}` },
      say.correct,
    );
  // A new hand opens in its form with what was typed, and the server's preview says what is missing.
  const form = element("form", { method: "post", action: `${entry.url}#fix-${entry.id}`, class: "inline" });
  for (const [name, value] of new URLSearchParams(entry.body))
    form.append(element("input", { type: "hidden", name, value }));
  form.querySelector('input[name="action"]')?.remove();
  form.append(element("input", { type: "hidden", name: "action", value: "preview" }));
  form.querySelector('input[name="csrfmiddlewaretoken"]')?.setAttribute("value", csrf());
  form.append(element("button", { type: "submit", class: "small secondary" }, say.correct));
  form.addEventListener("submit", (event) => {
    if (!navigator.onLine) {
      event.preventDefault();
      alert(say.needsConnection);
    }
  });
  return form;
}

// A waiting hand's numbers under its line, a column per player as a stored row has
// them: the rows and cells the sheet drew for it (templates/scoring/_phone_rows.html),
// by the sign the phone's engine gives each number; the one sitting out a dash, not a 0.
export function scoresRow(outcome) {
  const board = document.getElementById("board");
  const cells = outcome.deltas.map(([name, value, sign]) => {
    if (name === outcome.sitting_out) return fromTemplate(board, "out", {});
    return fromTemplate(board, ["plus", "minus"].includes(sign) ? sign : "zero", { value });
  });
  const row = fromTemplate(board, "scores", {});
  row.append(...cells);
  return row;
}

// One line, as a stored row reads: what it is (a new hand's line, a correction's, a
// deletion's) and a mark saying it waits; the phone's numbers follow (showProvisional).
export function pendingItem(entry) {
  const what = { new: say.newHand, edit: say.correction, delete: say.deletion }[entry.kind];
  const item = element("div", {
    class: "outbox-entry",
    id: `pending-${entry.id}`,
    "data-state": entry.state,
  });
  const state = entry.state === "refused" ? say.refused : say.waiting;
  const line = element("span", { class: "pending-line" }, describe(entry));
  const kind = entry.kind === "new" ? null : element("span", { class: "pending-kind" }, `${what}: `);
  item.append(
    element(
      "p",
      { class: "pending-what" },
      kind,
      line,
      " ",
      element("span", { class: "mark pending-mark" }, state),
    ),
  );
  if (entry.reason?.login) item.append(element("p", { class: "muted" }, say.login));
  if (entry.state === "refused") {
    const said = entry.reason.said.length
      ? entry.reason.said.join(" · ")
      : say.failed.replace("%(status)s", entry.reason.status);
    const discard = element("button", { type: "button", class: "small danger" }, say.discard);
    discard.addEventListener("click", async () => {
      if (!confirm(say.discardConfirm)) return;
      await (await outboxReady()).remove(entry.id);
      await showPending();
    });
    item.append(
      element("p", { class: "error reason" }, said),
      element("div", { class: "actions" }, correctControl(entry), discard),
    );
  }
  return item;
}

// What the sheet shows of the outbox now: a try to send that changed nothing
// (the server still unreachable) leaves the drawn rows and totals as they are.
let drawnOutbox = null;

export async function showPending(unlessUnchanged) {
  const board = document.getElementById("board");
  const sheet = sheetOf();
  if (!board || !sheet) return;
  const session = sheet.session;
  const entries = (await (await outboxReady()).all()).filter((entry) => entry.session === session);
  const drawn = JSON.stringify(entries.map((entry) => [entry.id, entry.state || "", entry.reason || null]));
  if (unlessUnchanged && drawn === drawnOutbox && document.querySelector("[data-outbox]")) return;
  drawnOutbox = drawn;
  for (const old of document.querySelectorAll("[data-outbox]")) old.remove();
  const table = board.querySelector("table[data-sheet]");
  let rest = document.getElementById("outbox");
  for (const entry of entries) {
    const row = entry.row && document.getElementById(entry.row);
    if (row) {
      row.append(fromTemplate(board, "under", { entry: pendingItem(entry) }));
    } else if (table && entry.kind === "new") {
      const empty = document.getElementById("no-hands");
      if (empty) empty.hidden = true;
      table.append(fromTemplate(board, "new", { entry: pendingItem(entry) }));
    } else {
      rest = rest || element("section", { id: "outbox", "data-outbox": "" });
      board.after(rest);
      rest.append(pendingItem(entry));
    }
  }
  await showProvisional(session, entries);
  const target = location.hash ? document.getElementById(location.hash.slice(1)) : null;
  if (target?.classList.contains("outbox-entry")) target.scrollIntoView({ block: "center" });
}

// The waiting hands scored on this phone: each one's numbers beside it, and the
// evening's totals, next dealer and settlement with them, marked provisional.
export async function showProvisional(session, entries) {
  document.getElementById("provisional")?.remove();
  if (!config.engine || !eveningData()) return;
  // Something to count: a hand or change waiting, or one sent since this page was drawn (a copy).
  const waits = entries.some((e) => e.state !== "refused" && (e.kind === "new" || e.hand !== null));
  if (!waits && !(isCopy && (await sentSince(session)).length)) return;
  const board = document.getElementById("board");
  const block = element(
    "section",
    { id: "provisional", class: "provisional notice", "data-outbox": "", role: "status" },
    element("p", { class: "muted" }, say.engineLoading),
  );
  // The last totals this phone worked out, at once, until the engine is ready (a worker of this page starts anew).
  const last = JSON.parse(sessionStorage.getItem(`provisional-${session}`) || "null");
  if (last && !self.TarockEngine?.ready()) {
    const totals = last.totals.map(([name, value, sign]) =>
      element("li", {}, element("strong", {}, `${name}: `), element("span", { class: sign }, value)),
    );
    block.prepend(element("h2", {}, say.provisionalTotals), element("ul", { class: "notation" }, ...totals));
  }
  board.after(block);
  let scored;
  try {
    scored = await scoreWaiting(session, null);
  } catch (error) {
    const note = engineNote(error);
    if (note) block.replaceChildren(element("p", { class: "muted" }, note));
    else block.remove();
    return;
  }
  const { result, waiting, changed } = scored;
  const outcomes = [
    ...waiting.map((entry, index) => [entry, result.hands[index]]),
    ...changed.map((entry, index) => [entry, result.changes[index]]),
  ];
  outcomes.forEach(([entry, outcome]) => {
    const item = document.getElementById(`pending-${entry.id}`);
    if (!item || !outcome || outcome.deleted || outcome.unknown) return;
    if (outcome.ok) {
      const line = item.querySelector(".pending-line");
      if (line) line.textContent = handLine(outcome);
      const body = item.closest("tbody[data-outbox]");
      if (body) {
        body.append(scoresRow(outcome));
      } else {
        const deltas = outcome.deltas.map(([name, value, sign]) =>
          element("span", { class: "q" }, `${name} `, element("strong", { class: sign }, value)),
        );
        item.append(element("p", { class: "provisional-hand" }, ...deltas.flatMap((d) => [d, " "])));
      }
    } else {
      item.append(element("p", { class: "error reason" }, outcome.problems.map((p) => p.words).join(" · ")));
    }
  });
  const totals = result.totals.map(([name, value, sign]) =>
    element(
      "li",
      { "data-player": name },
      element("strong", {}, `${name}: `),
      element("span", { class: sign }, value),
    ),
  );
  const pays = result.settlement.map((t) =>
    element(
      "li",
      {},
      say.pays.replace("%(payer)s", t.from).replace("%(payee)s", t.to).replace("%(points)s", t.points),
    ),
  );
  block.replaceChildren(
    element("h2", {}, say.provisionalTotals),
    element("ul", { class: "notation provisional-totals" }, ...totals),
    result.next_dealer
      ? element("p", { class: "next-dealer provisional-dealer" }, ...dealerWords(result.next_dealer))
      : null,
    pays.length ? element("ul", { class: "provisional-settlement" }, ...pays) : null,
    element("p", { class: "muted" }, say.provisional),
  );
  showInSight(result);
  showCounter(result);
  sessionStorage.setItem(
    `provisional-${session}`,
    JSON.stringify({ count: result.count, exact: result.exact, totals: result.totals }),
  );
}

// The sheet's rows kept in sight (the sticky Σ row; a series and the balance) and its
// next dealer, with what waits counted, as the provisional totals below: each marked.
export function showInSight(result) {
  const table = document.querySelector("#board table[data-sheet]");
  for (const [key, number, values] of result.heads || []) {
    const row = table?.querySelector(`thead tr[data-head-row="${CSS.escape(key)}"]`) || addedRow(table, key);
    if (!row) continue;
    const cells = row.querySelectorAll("td[data-player]");
    values.forEach(([value, sign], index) => {
      const cell = cells[index];
      if (!cell) return;
      cell.textContent = value;
      cell.className = `${sign} provisional`;
    });
    row.classList.add("provisional");
    row.dataset.provisional = number === null ? "" : String(number);
  }
  const names = table?.querySelector('thead tr[data-head-row="names"]');
  if (names && !table.querySelector("thead tr.provisional-note")) {
    const note = element(
      "td",
      { colspan: String(names.children.length), class: "provisional-mark" },
      say.provisionalMark,
    );
    names.after(element("tr", { class: "provisional-note" }, note));
  }
  const next = document.querySelector("#board [data-next-dealer]");
  if (next && result.next_dealer) {
    next.replaceChildren(
      ...dealerWords(result.next_dealer),
      " ",
      element("small", { class: "provisional-mark" }, say.provisionalMark),
    );
    next.classList.add("provisional");
  }
}

// A row the page had no need of yet (the money, once a waiting hand pays beside the
// Schrift): the row the sheet drew for it (a <template data-phone-head>), put under the
// totals, which are then labelled as the sheet labels more than one row.
export function addedRow(table, key) {
  const totals = table?.querySelector('thead tr[data-head-row="totals"]');
  const added = document.querySelector(`#board template[data-phone-head="${CSS.escape(key)}"]`);
  const labelled = document.querySelector('#board template[data-phone-head="totals"]');
  if (!totals || !added || !labelled) return null;
  const row = added.content.firstElementChild.cloneNode(true);
  totals.querySelector("th").replaceWith(labelled.content.querySelector("th").cloneNode(true));
  totals.after(row);
  table.classList.add(...labelled.dataset.tableClass.split(" "));
  return row;
}

// "Next to deal: <strong>Dora</strong>", as the sheet writes it.
export function dealerWords(name) {
  const [before, after] = say.nextDealer.split("%(name)s");
  return [before, element("strong", {}, name), after || ""];
}

// A tournament table's counters with the waiting hands counted ("Next hand 9 of 16",
// "8 of 16 played"); at the target the "New hand" button goes, as the server's page has it.
export function showCounter(result) {
  if (result.target === null || result.target === undefined) return;
  const fill = (text, n) => text.replace("%(n)s", n).replace("%(target)s", result.target);
  const played = document.getElementById("played");
  if (played) played.textContent = fill(say.playedOf, result.played);
  const next = document.getElementById("next-hand");
  if (next)
    next.textContent = result.played < result.target ? ` · ${fill(say.nextHand, result.played + 1)}` : "";
  const button = document.getElementById("new-hand");
  if (button) button.hidden = result.played >= result.target;
}

// Once the server has stored what was waiting, its numbers stand; where they differ from the phone's, say so.
export async function compareWithServer() {
  const sheet = sheetOf();
  if (!sheet || !config.engine) return;
  const session = sheet.session;
  const kept = JSON.parse(sessionStorage.getItem(`provisional-${session}`) || "null");
  if (!kept || !eveningData()) return;
  const waiting = (await (await outboxReady()).all()).filter(
    (e) => e.session === session && e.state !== "refused",
  );
  if (waiting.length) return;
  sessionStorage.removeItem(`provisional-${session}`);
  if (eveningData().stored.length !== kept.count) return; // other hands came meanwhile: nothing to compare
  let result;
  try {
    result = (await scoreWaiting(session, null)).result;
  } catch (_error) {
    return;
  }
  const differ = result.totals
    .filter(([name]) => result.exact[name] !== kept.exact[name])
    .map(([name, value]) => {
      const phone = kept.totals.find(([other]) => other === name);
      return `${name} ${phone ? phone[1] : ""} → ${value}`;
    });
  if (!differ.length) return;
  document
    .getElementById("board")
    ?.before(
      element(
        "p",
        { id: "provisional-differs", class: "notice", role: "alert" },
        say.differs.replace("%(what)s", differ.join(", ")),
      ),
    );
}
