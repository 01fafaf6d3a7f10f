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
  const sheetPath = /^\/sessions\/(\d+)\/$/.exec(location.pathname);
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
    const words = say.offlineSince.replace("%(time)s", time.format(drawn)) + " " + say.offline;
    const note = document.getElementById("offline-note") || element("p", { id: "offline-note", class: "notice", role: "status" });
    note.textContent = words;
    main.prepend(note);
    const preview = document.getElementById("preview");
    if (preview) preview.replaceChildren(element("p", { class: "muted" }, say.preview));
  }

  function hideOffline() {
    if (!isCopy) document.getElementById("offline-note")?.remove();
  }

  async function sendOutbox(connectionBack) {
    if (!navigator.onLine) return;
    const outbox = await outboxReady();
    const outcome = await outbox.send(csrf());
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
      await showPending();
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
    const chosen = form.querySelectorAll("#hand-fields input:checked, #hand-fields select, #hand-fields input[type=text]");
    for (const input of chosen) {
      // What the page hides was not chosen; a premium row left at "—" and an
      // opponent without Kontra are nothing to tell.
      if (input.closest(".when.off")) continue;
      if (input.closest(".grid-row") && !input.value) continue;
      if (input.closest(".seat-row") && input.value === "0") continue;
      let value = input.value.trim();
      if (input.type === "radio" || input.type === "checkbox") value = input.closest("label").textContent.trim();
      if (input.tagName === "SELECT") value = input.selectedOptions[0]?.textContent.trim();
      if (!value) continue;
      const label = input.closest("fieldset, .field")?.querySelector("legend, label")?.textContent.trim();
      parts.push(label && label !== value ? label + ": " + value : value);
    }
    return parts.join(" · ").slice(0, 300);
  }

  // A form's address (form.action would be its button named "action").
  function addressOf(form) {
    return new URL(form.getAttribute("action") || location.href, location.href);
  }

  async function keepForm(event) {
    const form = event.target;
    const isHandForm = form.id === "hand-form";
    const isDelete = /\/hands\/\d+\/delete\/$/.test(addressOf(form).pathname);
    if (!isHandForm && !isDelete) return;
    const action = event.submitter?.value || "save";
    if (isHandForm && action !== "save") {
      if (navigator.onLine) return;
      event.preventDefault(); // counting and the preview need the server
      showOffline();
      return;
    }
    if (navigator.onLine && !(isHandForm && fixing)) return;
    event.preventDefault();
    const outbox = await outboxReady();
    const body = new URLSearchParams(new FormData(form, event.submitter)).toString();
    const summary = isHandForm ? summaryOf(form) : document.querySelector("#hand .preview-what")?.textContent.trim() || "";
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
    location.assign(entry.sheet + "#pending-" + entry.id);
  }

  // A form kept on the phone carries the token it was kept with: each opening
  // of the copy is a new hand, so it gets a token of its own; and the dealer
  // proposed is the one after the hands still waiting, as the server would.
  async function prepareCopy(form) {
    const token = form.querySelector('input[name="token"]');
    if (!token || !/\/hands\/new\/$/.test(addressOf(form).pathname)) return;
    token.value = crypto.randomUUID().replaceAll("-", "");
    const outbox = await outboxReady();
    const where = outbox.kindOf(addressOf(form).pathname);
    const waiting = (await outbox.all()).filter((e) => e.kind === "new" && e.session === where.session);
    const last = waiting.length ? new URLSearchParams(waiting[waiting.length - 1].body).get("dealer") : null;
    const dealer = form.querySelector('select[name="dealer"]');
    if (!dealer || !last) return;
    const names = [...dealer.options].map((option) => option.value);
    if (names.includes(last)) seatDealer(form, names[(names.indexOf(last) + 1) % names.length]);
  }

  // Who sits out follows the dealer. Where someone does, the server drew the
  // fields for every dealer (template.dealer-fields); without a connection the
  // form cannot ask for them, so the new dealer's are put in, with what was
  // typed wherever it still applies (a choice of the player now sitting out goes).
  function seatDealer(form, dealer) {
    const select = form.querySelector('select[name="dealer"]');
    if (select) select.value = dealer;
    const fields = form.querySelector("#hand-fields");
    const drawn = [...document.querySelectorAll("template.dealer-fields")].find((t) => t.dataset.dealer === dealer);
    if (!fields || !drawn || fields.dataset.dealer === dealer) return;
    const typed = new FormData(form);
    const fresh = drawn.content.querySelector("#hand-fields").cloneNode(true);
    for (const control of fresh.querySelectorAll("input[name], select[name]")) {
      if (control.type === "hidden" || control.name === "dealer" || !typed.has(control.name)) continue;
      const values = typed.getAll(control.name);
      if (control.type === "radio" || control.type === "checkbox") control.checked = values.includes(control.value);
      else if (control.tagName !== "SELECT" || [...control.options].some((o) => o.value === values[0])) control.value = values[0];
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

  async function startFixing(form) {
    const found = /^#fix-(\d+)$/.exec(location.hash);
    if (!found) return;
    fixing = (await (await outboxReady()).get(Number(found[1]))) || null;
  }

  // --- the sheet: what is waiting, in its place ---

  function describe(entry) {
    const fields = new URLSearchParams(entry.body);
    ["csrfmiddlewaretoken", "token", "action", "type", "version"].forEach((name) => fields.delete(name));
    return entry.summary || [...fields.values()].filter(Boolean).join(" · ");
  }

  function correctControl(entry) {
    if (entry.kind === "delete") return element("a", { class: "button small secondary", href: entry.url.replace(/delete\/$/, "") }, say.correct);
    if (entry.kind === "edit") return element("a", { class: "button small secondary", href: entry.url + "#fix-" + entry.id }, say.correct);
    // A new hand opens in its form with what was typed, and the server's preview says what is missing.
    const form = element("form", { method: "post", action: entry.url + "#fix-" + entry.id, class: "inline" });
    for (const [name, value] of new URLSearchParams(entry.body)) form.append(element("input", { type: "hidden", name, value }));
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

  function pendingItem(entry) {
    const what = { new: say.newHand, edit: say.correction, delete: say.deletion }[entry.kind];
    const item = element("div", { class: "outbox-entry", id: "pending-" + entry.id, "data-state": entry.state });
    const state = entry.state === "refused" ? say.refused : say.waiting;
    item.append(element("strong", {}, what + " · " + state), " ", element("span", {}, describe(entry)));
    if (entry.reason && entry.reason.login) item.append(element("p", { class: "muted" }, say.login));
    if (entry.state === "refused") {
      const said = entry.reason.said.length ? entry.reason.said.join(" · ") : say.failed.replace("%(status)s", entry.reason.status);
      const discard = element("button", { type: "button", class: "small danger" }, say.discard);
      discard.addEventListener("click", async () => {
        if (!confirm(say.discardConfirm)) return;
        await (await outboxReady()).remove(entry.id);
        await showPending();
      });
      item.append(element("p", { class: "error reason" }, said), element("div", { class: "actions" }, correctControl(entry), discard));
    }
    return item;
  }

  async function showPending() {
    const board = document.getElementById("board");
    if (!board || !sheetPath) return;
    document.querySelectorAll("[data-outbox]").forEach((old) => old.remove());
    const session = Number(sheetPath[1]);
    const entries = (await (await outboxReady()).all()).filter((entry) => entry.session === session);
    const table = board.querySelector("table.sheet");
    const columns = table ? table.querySelector("thead tr").children.length : 1;
    let rest = document.getElementById("outbox");
    for (const entry of entries) {
      const row = entry.hand !== null && document.getElementById("hand-" + entry.hand);
      const cell = element("td", { colspan: String(columns) }, pendingItem(entry));
      if (row) {
        row.append(element("tr", { class: "what pending", "data-outbox": "" }, cell));
      } else if (table && entry.kind === "new") {
        table.append(element("tbody", { class: "hand pending", "data-outbox": "" }, element("tr", { class: "what" }, cell)));
      } else {
        rest = rest || element("section", { id: "outbox", "data-outbox": "" });
        board.after(rest);
        rest.append(pendingItem(entry));
      }
    }
    const target = location.hash && document.getElementById(location.hash.slice(1));
    if (target && target.classList.contains("outbox-entry")) target.scrollIntoView({ block: "center" });
  }

  // Keep what the next minutes at the table need: this sheet's hand form, and the last hand's page and correction form.
  function keepForLater() {
    const worker = navigator.serviceWorker?.controller;
    if (!worker || isCopy || !sheetPath) return;
    const links = [...document.querySelectorAll("#board tbody.hand:not(.pending):not(.deleted) tr.what a")];
    const newHand = document.getElementById("new-hand");
    const keep = newHand ? [newHand.href] : [];
    if (links.length) keep.push(links[links.length - 1].href, links[links.length - 1].href + "edit/");
    worker.postMessage({ keep });
  }

  async function start() {
    if (navigator.serviceWorker) {
      navigator.serviceWorker.register(config.worker, { scope: "/" }).catch(() => {});
      navigator.serviceWorker.addEventListener("message", (event) => event.data?.outbox && afterSending(event.data.outbox));
      navigator.serviceWorker.addEventListener("controllerchange", keepForLater, { once: true });
      navigator.serviceWorker.ready.then((registration) => {
        if (navigator.serviceWorker.controller) keepForLater();
        else registration.active?.postMessage({ claim: true });
      });
    }
    if (!self.indexedDB) return;
    document.addEventListener("submit", keepForm);
    document.body.addEventListener("htmx:sendError", showOffline);
    document.body.addEventListener("htmx:sendError", (event) => dealerChosen({ type: event.type, target: event.detail.elt }));
    document.addEventListener("change", dealerChosen);
    document.body.addEventListener("htmx:afterSwap", (event) => event.target.id === "board" && showPending());
    addEventListener("offline", showOffline);
    addEventListener("online", () => {
      hideOffline();
      sendOutbox(true);
    });
    if (isCopy || !navigator.onLine) showOffline();
    const form = document.getElementById("hand-form");
    if (form && isCopy) await prepareCopy(form);
    if (form) await startFixing(form);
    await showPending();
    await sendOutbox(false);
  }

  start();
})();
