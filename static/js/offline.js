/* Offline on the pages: registers the service worker, says when a page is a
 * copy kept on the phone, keeps hand forms saved offline in the outbox
 * (outbox.js), shows them on the sheet where they will land, and sends them
 * when the connection returns or the app is opened again. The words come from
 * the page (#offline-config), translated by the server. */
"use strict";

(() => {
  const config = JSON.parse(document.getElementById("offline-config").textContent);
  const say = config.texts;
  const root = document.documentElement;
  const isCopy = root.hasAttribute("data-copy");
  // The sheet of an evening (/sessions/3/), or a tournament table's page behind its link
  // (/t/<token>/): where the outbox's hands of that session (its number, or the token) are shown.
  const sheetPath =
    /^\/sessions\/(\d+)\/$/.exec(location.pathname) || /^\/t\/([\w-]+)\/$/.exec(location.pathname);
  const sheetSession =
    sheetPath && (location.pathname.startsWith("/t/") ? sheetPath[1] : Number(sheetPath[1]));
  let fixing = null; // the refused outbox entry the hand form on this page corrects

  function outboxReady() {
    if (self.Outbox) return Promise.resolve(self.Outbox);
    return new Promise((resolve, reject) => {
      const script = document.createElement("script");
      script.src = config.outbox;
      script.onload = () => resolve(self.Outbox);
      script.onerror = reject;
      document.head.append(script);
    });
  }

  // --- the engine on the phone (engine.js): scores offline in the server's words ---

  let engineStarted = null;

  function engineReady() {
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

  function eveningData() {
    const block = document.getElementById("engine-game");
    return block ? JSON.parse(block.textContent) : null;
  }

  // What this page's evening has not got: what the phone sent and the server stored
  // after the page was drawn (a copy kept before the connection came and went again).
  async function sentSince(session) {
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
  async function counted(session) {
    const waiting = (await (await outboxReady()).all()).filter(
      (e) => e.session === session && e.state !== "refused",
    );
    return [...(await sentSince(session)), ...waiting].sort((a, b) => a.id - b.id);
  }

  function pairsOf(body) {
    return [...new URLSearchParams(body)];
  }

  // The evening with what waits on this phone, scored in its places: the corrections
  // and deletions of stored hands first, then the new hands; the form being typed last
  // (a new hand, or a correction of hand ``editing``).
  async function scoreWaiting(session, extra, editing) {
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
    const result = await engine.call("score_table", { ...evening, waiting: forms, changes, lang: root.lang });
    const scoredLast = editing ? result.changes : result.hands;
    let outcome = extra ? scoredLast[scoredLast.length - 1] : null;
    // A correction of a hand no longer live here (deleted, or waiting on this phone to be deleted).
    if (outcome?.unknown)
      outcome = { ok: false, problems: [{ field: "", input: null, words: say.handGone }] };
    return { result, waiting, changed, outcome };
  }

  // Which hand form this is: a new hand's ({ hand: null }), a correction of a stored hand's, or none.
  function formOf(form) {
    const path = addressOf(form).pathname;
    if (/\/hands\/new\/$/.test(path)) return { hand: null };
    const edited = /\/hands\/(\d+)\/edit\/$/.exec(path);
    return edited ? { hand: Number(edited[1]) } : null;
  }

  function engineNote(error) {
    const why = error?.message || "";
    return why === "not built" || why === "no game" ? null : say.noEngine.replace("%(why)s", why);
  }

  // The preview and the bar by the thumb, drawn as the server draws them (hand_form.html).
  function drawPreview(form, outcome, refused) {
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
  function orderedProblems(form, problems) {
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

  function formPairs(form, submitter) {
    return [...new FormData(form, submitter)].filter(([, value]) => typeof value === "string");
  }

  let ticket = 0; // only the latest scoring of the form is drawn
  let refusedForm = null; // the form as it was refused on saving: its preview keeps saying so

  function formKey(pairs) {
    return new URLSearchParams(pairs.filter(([name]) => name !== "action")).toString();
  }

  async function previewOffline() {
    const form = document.getElementById("hand-form");
    const which = form && formOf(form);
    if (!which || !config.engine || !eveningData()) return;
    const preview = document.getElementById("preview");
    if (!engineStarted || !self.TarockEngine?.ready())
      preview?.replaceChildren(element("p", { class: "muted", role: "status" }, say.engineLoading));
    const mine = ++ticket;
    const pairs = formPairs(form);
    try {
      const { outcome } = await scoreWaiting(await outboxSession(form), pairs, which.hand);
      if (mine === ticket) drawPreview(form, outcome, formKey(pairs) === refusedForm);
    } catch (error) {
      const note = engineNote(error);
      if (note) preview?.replaceChildren(element("p", { class: "muted" }, note));
    }
  }

  // The evening a hand form belongs to, as the outbox names it (a number, or a table link's token).
  async function outboxSession(form) {
    return (await outboxReady()).kindOf(addressOf(form).pathname).session;
  }

  const SAVE_WAIT = 2000; // ms a save offline waits for an engine that has not loaded yet

  // A new hand or a correction saved offline is scored first: one the server would
  // refuse is refused here, in its words, and not kept (true); one it scores is
  // kept with its line as the sheet will write it (a string); false: not scored here.
  async function refusedOnThePhone(form, submitter) {
    const which = formOf(form);
    if (!which || !config.engine || !eveningData()) return false;
    const mine = ++ticket;
    const pairs = formPairs(form, submitter);
    try {
      const scoring = scoreWaiting(await outboxSession(form), pairs, which.hand);
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

  function csrf() {
    const found = /(?:^|;\s*)csrftoken=([^;]+)/.exec(document.cookie);
    return found ? decodeURIComponent(found[1]) : "";
  }

  function element(tag, attributes, ...children) {
    const made = document.createElement(tag);
    for (const [name, value] of Object.entries(attributes || {})) made.setAttribute(name, value);
    made.append(...children.filter((child) => child !== null && child !== undefined));
    return made;
  }

  // "Offline — showing the state of 21:40": the time the server drew this page.
  function showOffline() {
    const main = document.getElementById("main");
    if (!main) return;
    const time = new Intl.DateTimeFormat(root.lang, { hour: "2-digit", minute: "2-digit", hourCycle: "h23" });
    const drawn = new Date(config.rendered * 1000);
    const words = `${say.offlineSince.replace("%(time)s", time.format(drawn))} ${say.offline}`;
    const note =
      document.getElementById("offline-note") ||
      element("p", { id: "offline-note", class: "notice", role: "status" });
    note.textContent = words;
    main.prepend(note);
    const preview = document.getElementById("preview");
    if (preview && config.engine && eveningData()) previewOffline();
    else if (preview) preview.replaceChildren(element("p", { class: "muted" }, say.preview));
  }

  function hideOffline() {
    if (!isCopy) document.getElementById("offline-note")?.remove();
  }

  let sendAgain = null; // the timer that sends again what the server answered "not now" (429, 5xx)

  async function sendOutbox(connectionBack) {
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
  async function afterSending(outcome, connectionBack) {
    if (!sheetPath) return;
    if (outcome.sent || (isCopy && connectionBack && !outcome.waiting) || (await sentMeanwhile())) {
      history.replaceState(null, "", location.pathname + location.search);
      location.reload();
    } else {
      await showPending(true);
    }
  }

  // The page was opened for a hand waiting (#pending-3) that the worker sent
  // while the page was on its way: the sheet drawn before has not got it.
  async function sentMeanwhile() {
    const waited = /^#pending-(\d+)$/.exec(location.hash);
    return Boolean(waited) && !(await (await outboxReady()).get(Number(waited[1])));
  }

  // --- the hand form and the delete button: kept in the outbox while offline ---

  function summaryOf(form) {
    const parts = [];
    const chosen = form.querySelectorAll(
      "#hand-fields input:checked, #hand-fields select, #hand-fields input[type=text]",
    );
    for (const input of chosen) {
      // What the page hides was not chosen; a premium row left at "—" and an
      // opponent without Kontra are nothing to tell.
      if (input.closest(".when.off")) continue;
      if (input.closest(".grid-row") && !input.value) continue;
      if (input.closest(".seat-row") && input.value === "0") continue;
      let value = input.value.trim();
      if (input.type === "radio" || input.type === "checkbox")
        value = input.closest("label").textContent.trim();
      if (input.tagName === "SELECT") value = input.selectedOptions[0]?.textContent.trim();
      if (!value) continue;
      const label = input.closest("fieldset, .field")?.querySelector("legend, label")?.textContent.trim();
      parts.push(label && label !== value ? `${label}: ${value}` : value);
    }
    return parts.join(" · ").slice(0, 300);
  }

  // A form's address (form.action would be its button named "action").
  function addressOf(form) {
    return new URL(form.getAttribute("action") || location.href, location.href);
  }

  // The network may be there and the server not (its preview's request failed just now):
  // a hand saved then is judged and kept on the phone, as without a network.
  let serverUnreachable = isCopy; // a copy kept on the phone was shown because the server did not answer

  function reachable() {
    return navigator.onLine && !serverUnreachable;
  }

  async function keepForm(event) {
    const form = event.target;
    const isHandForm = form.id === "hand-form";
    const isDelete = /\/hands\/\d+\/delete\/$/.test(addressOf(form).pathname);
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
    const shown = document.querySelector("#hand .preview-what")?.textContent.trim() || "";
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

  // "Another row" of a list (a second poignée) without the server: its last row drawn
  // once more as the server draws a new one, numbered on and empty, up to the list's limit.
  function anotherRow(within, name) {
    const count = within.querySelector(`input[type=hidden][name="${CSS.escape(`${name}.rows`)}"]`);
    const list = count?.closest("fieldset.list");
    const rows = list ? [...list.querySelectorAll(":scope > .list-row")] : [];
    const n = rows.length;
    if (!n || n >= Number(list.dataset.mostRows || 10)) return;
    const copy = rows[n - 1].cloneNode(true);
    const renamed = (text) =>
      text
        .split(`${name}[${n}].`)
        .join(`${name}[${n + 1}].`)
        .split(`${list.id}-${n}-`)
        .join(`${list.id}-${n + 1}-`);
    for (const node of [copy, ...copy.querySelectorAll("*")]) {
      for (const attribute of ["name", "id", "for", "aria-describedby", "data-shown-when"]) {
        if (node.hasAttribute(attribute)) node.setAttribute(attribute, renamed(node.getAttribute(attribute)));
      }
      // The page's CSS shows a choice's fields by the numbers the server gave each field;
      // this row's follow its own choices by the script (hand-form.js) instead.
      for (const c of [...node.classList]) {
        if (c === "by-css" || /^(controls|for)-\d+(-\d+)?$/.test(c)) node.classList.remove(c);
      }
      node.removeAttribute("autofocus");
      node.classList.remove("invalid");
    }
    for (const note of copy.querySelectorAll(".field-error, [role=alert]")) note.remove();
    for (const input of copy.querySelectorAll("input, select, textarea")) {
      if (input.type === "radio") input.checked = input.value === "";
      else if (input.type === "checkbox") input.checked = false;
      else if (input.tagName === "SELECT") input.selectedIndex = 0;
      else input.value = "";
    }
    rows[n - 1].after(copy);
    count.value = String(n + 1);
    within.dispatchEvent(new Event("change", { bubbles: true })); // the fields that follow a choice, the preview
  }

  // A form kept on the phone carries the token it was kept with: each opening
  // of the copy is a new hand, so it gets a token of its own; and the dealer
  // proposed is the one after the hands still waiting, as the server would.
  async function prepareCopy(form) {
    const token = form.querySelector('input[name="token"]');
    if (!token || !/\/hands\/new\/$/.test(addressOf(form).pathname)) return;
    token.value = crypto.randomUUID().replaceAll("-", "");
    const shown = form.querySelector('select[name="dealer"]')?.value;
    const outbox = await outboxReady();
    const where = outbox.kindOf(addressOf(form).pathname);
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
  function countHand(entries) {
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
  // fields for every dealer (template.dealer-fields); without a connection the
  // form cannot ask for them, so the new dealer's are put in, with what was
  // typed wherever it still applies (a choice of the player now sitting out goes).
  function seatDealer(form, dealer) {
    const select = form.querySelector('select[name="dealer"]');
    if (select) select.value = dealer;
    const fields = form.querySelector("#hand-fields");
    const drawn = [...document.querySelectorAll("template.dealer-fields")].find(
      (t) => t.dataset.dealer === dealer,
    );
    if (!fields || !drawn || fields.dataset.dealer === dealer) return;
    const typed = new FormData(form);
    const fresh = drawn.content.querySelector("#hand-fields").cloneNode(true);
    // The rows a list was given ("Another row") are drawn again, and keep what was typed in them.
    for (const count of fields.querySelectorAll('input[type=hidden][name$=".rows"]')) {
      const name = count.name.slice(0, -".rows".length);
      const again = fresh.querySelector(`input[type=hidden][name="${CSS.escape(count.name)}"]`);
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

  function dealerChosen(event) {
    const select = event.target;
    const form = select.closest?.("#hand-form");
    if (!form || select.name !== "dealer" || select.tagName !== "SELECT") return;
    // Online the server draws the fields again (htmx); offline, or when that fails, the page does.
    if (event.type === "change" && navigator.onLine) return;
    seatDealer(form, select.value);
  }

  async function startFixing(_form) {
    const found = /^#fix-(\d+)$/.exec(location.hash);
    if (!found) return;
    fixing = (await (await outboxReady()).get(Number(found[1]))) || null;
  }

  // --- the sheet: what is waiting, in its place ---

  function describe(entry) {
    const fields = new URLSearchParams(entry.body);
    for (const name of ["csrfmiddlewaretoken", "token", "action", "type", "version"]) fields.delete(name);
    return entry.summary || [...fields.values()].filter(Boolean).join(" · ");
  }

  function correctControl(entry) {
    if (entry.kind === "delete")
      return element(
        "a",
        { class: "button small secondary", href: entry.url.replace(/delete\/$/, "") },
        say.correct,
      );
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
  // them (templates/scoring/_hand_row.html): the one sitting out a dash, not a 0.
  function scoresRow(outcome) {
    const cells = outcome.deltas.map(([name, value, sign]) => {
      if (name === outcome.sitting_out) {
        const out = element(
          "span",
          { class: "out", title: say.sitsOut.replace("%(name)s", name) },
          element("span", { "aria-hidden": "true" }, "—"),
        );
        out.append(element("span", { class: "visually-hidden" }, say.sitsOut.replace("%(name)s", name)));
        return element("td", {}, element("span", { class: "delta" }, out));
      }
      return element(
        "td",
        {},
        element("span", { class: `delta ${{ plus: "pos", minus: "neg" }[sign] || "zero"}` }, value),
      );
    });
    return element("tr", { class: "scores provisional-hand" }, element("td", {}), ...cells);
  }

  // A hand's line as the sheet's rows have it: who dealt (and who sat out), then what was played.
  function handLine(outcome) {
    const dealer = outcome.dealer;
    const out = outcome.sitting_out;
    let who = "";
    if (dealer && out && out === dealer) who = say.dealsAndSitsOut.replace("%(name)s", dealer);
    else if (dealer && out)
      who = `${say.deals.replace("%(name)s", dealer)}, ${say.sitsOut.replace("%(name)s", out)}`;
    else if (dealer) who = say.deals.replace("%(name)s", dealer);
    return who ? `${who} · ${outcome.description}` : outcome.description;
  }

  // One line, as a stored row reads: what it is (a new hand's line, a correction's, a
  // deletion's) and a mark saying it waits; the phone's numbers follow (showProvisional).
  function pendingItem(entry) {
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

  async function showPending(unlessUnchanged) {
    const board = document.getElementById("board");
    if (!board || !sheetPath) return;
    const session = sheetSession;
    const entries = (await (await outboxReady()).all()).filter((entry) => entry.session === session);
    const drawn = JSON.stringify(entries.map((entry) => [entry.id, entry.state || "", entry.reason || null]));
    if (unlessUnchanged && drawn === drawnOutbox && document.querySelector("[data-outbox]")) return;
    drawnOutbox = drawn;
    for (const old of document.querySelectorAll("[data-outbox]")) old.remove();
    const table = board.querySelector("table.sheet");
    const columns = table ? table.querySelector("thead tr").children.length : 1;
    let rest = document.getElementById("outbox");
    for (const entry of entries) {
      const row = entry.hand !== null && document.getElementById(`hand-${entry.hand}`);
      const cell = element("td", { colspan: String(columns) }, pendingItem(entry));
      if (row) {
        row.append(element("tr", { class: "what pending", "data-outbox": "" }, cell));
      } else if (table && entry.kind === "new") {
        const empty = table.querySelector("td.empty")?.closest("tbody");
        if (empty) empty.hidden = true;
        table.append(
          element(
            "tbody",
            { class: "hand pending", "data-outbox": "" },
            element("tr", { class: "what" }, cell),
          ),
        );
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
  async function showProvisional(session, entries) {
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
      block.prepend(
        element("h2", {}, say.provisionalTotals),
        element("ul", { class: "notation" }, ...totals),
      );
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
        const body = item.closest("tbody.pending");
        if (body) {
          body.append(scoresRow(outcome));
        } else {
          const deltas = outcome.deltas.map(([name, value, sign]) =>
            element("span", { class: "q" }, `${name} `, element("strong", { class: sign }, value)),
          );
          item.append(element("p", { class: "provisional-hand" }, ...deltas.flatMap((d) => [d, " "])));
        }
      } else {
        item.append(
          element("p", { class: "error reason" }, outcome.problems.map((p) => p.words).join(" · ")),
        );
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
  function showInSight(result) {
    const table = document.querySelector("#board table.sheet");
    for (const [key, number, values] of result.heads || []) {
      const row = table?.querySelector(`thead tr.${CSS.escape(key)}`) || addedRow(table, key);
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
    const names = table?.querySelector("thead tr.names");
    if (names && !table.querySelector("thead tr.provisional-note")) {
      const note = element(
        "td",
        { colspan: String(names.children.length), class: "provisional-mark" },
        say.provisionalMark,
      );
      names.after(element("tr", { class: "provisional-note" }, note));
    }
    const next = document.querySelector("#board .next-dealer");
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
  // Schrift): drawn as the sheet draws it, each row then named as the sheet names them.
  function addedRow(table, key) {
    const totals = table?.querySelector("thead tr.totals");
    if (!totals || !say[key]) return null;
    const row = totals.cloneNode(true);
    row.className = key;
    totals.after(row);
    table.classList.add("balances"); // the rows named, as the sheet draws more than one
    for (const [which, words] of [
      [totals, say.total],
      [row, say[key]],
    ])
      which.querySelector("th").replaceChildren(words);
    return row;
  }

  // "Next to deal: <strong>Dora</strong>", as the sheet writes it.
  function dealerWords(name) {
    const [before, after] = say.nextDealer.split("%(name)s");
    return [before, element("strong", {}, name), after || ""];
  }

  // A tournament table's counters with the waiting hands counted ("Next hand 9 of 16",
  // "8 of 16 played"); at the target the "New hand" button goes, as the server's page has it.
  function showCounter(result) {
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
  async function compareWithServer() {
    if (!sheetPath || !config.engine) return;
    const session = sheetSession;
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

  // Online: the runtime and the bundle are fetched in the background, once, and kept;
  // and the engine is started once the page has settled, so that it is running (where
  // the browser keeps its worker across pages) or at least compiled and cached when
  // the connection goes: no player waits for it at the table.
  function warmEngine() {
    if (!config.engine || !navigator.onLine || isCopy) return;
    navigator.storage?.persist?.().catch(() => {});
    navigator.serviceWorker?.ready.then((registration) =>
      registration.active?.postMessage({ warmEngine: true }),
    );
    if (!eveningData() || !navigator.serviceWorker) return;
    // Through the worker, which keeps what the engine fetches (on a first visit, once it controls the page).
    const controlled = navigator.serviceWorker.controller
      ? Promise.resolve()
      : new Promise((resolve) =>
          navigator.serviceWorker.addEventListener("controllerchange", resolve, { once: true }),
        );
    // Where its worker dies with the page (no SharedWorker: a worker per page), once per
    // visit of the app is enough to have it compiled and cached; not on every sheet.
    if (!self.SharedWorker && sessionStorage.getItem("engine-started")) return;
    const idle = self.requestIdleCallback || ((then) => setTimeout(then, 500));
    controlled.then(() =>
      idle(
        () =>
          engineReady().then(
            () => sessionStorage.setItem("engine-started", "1"),
            () => {},
          ),
        { timeout: 3000 },
      ),
    );
  }

  // Keep what the next minutes at the table need: this sheet's hand form, and the last
  // hand's page and correction form; on the first visit (the worker came after the page
  // was drawn, ``first``) the sheet itself too, where a hand saved offline lands.
  function keepForLater(first) {
    const worker = navigator.serviceWorker?.controller;
    if (!worker || isCopy || !sheetPath) return;
    const links = [...document.querySelectorAll("#board tbody.hand:not(.pending):not(.deleted) tr.what a")];
    const newHand = document.getElementById("new-hand");
    const keep = first === true ? [location.pathname] : [];
    if (newHand) keep.push(newHand.href);
    if (links.length) keep.push(links[links.length - 1].href, `${links[links.length - 1].href}edit/`);
    worker.postMessage({ keep });
  }

  async function start() {
    if (navigator.serviceWorker) {
      navigator.serviceWorker.register(config.worker, { scope: "/" }).catch(() => {});
      navigator.serviceWorker.addEventListener(
        "message",
        (event) => event.data?.outbox && afterSending(event.data.outbox),
      );
      navigator.serviceWorker.addEventListener("controllerchange", () => keepForLater(true), { once: true });
      navigator.serviceWorker.ready.then((registration) => {
        if (navigator.serviceWorker.controller) keepForLater();
        else registration.active?.postMessage({ claim: true });
      });
    }
    if (!self.indexedDB) return;
    document.addEventListener("submit", keepForm);
    document.body.addEventListener("htmx:sendError", showOffline);
    document.body.addEventListener("htmx:sendError", () => (serverUnreachable = true));
    document.body.addEventListener("htmx:afterRequest", (event) => {
      if (event.detail.xhr?.status) serverUnreachable = false;
    });
    document.body.addEventListener("htmx:sendError", (event) =>
      dealerChosen({ type: event.type, target: event.detail.elt }),
    );
    document.addEventListener("change", dealerChosen);
    // A table's page is drawn again by its poll (#table-live): what waits on this phone is shown again in it.
    document.body.addEventListener(
      "htmx:afterSwap",
      (event) => ["board", "table-live"].includes(event.target.id) && showPending(),
    );
    addEventListener("offline", showOffline);
    addEventListener("online", () => {
      hideOffline();
      sendOutbox(true);
    });
    if (isCopy || !navigator.onLine) showOffline();
    if (sheetPath) warmEngine();
    const form = document.getElementById("hand-form");
    try {
      if (form && isCopy) await prepareCopy(form);
      if (form) await startFixing(form);
    } finally {
      if (form) form.dataset.ready = "1"; // the kept copy is set up: its dealer and token are the ones to post
    }
    await showPending();
    await sendOutbox(false);
    await compareWithServer();
    document.getElementById("board")?.setAttribute("data-compared", ""); // what the server stored is compared with the phone's
  }

  start();
})();
