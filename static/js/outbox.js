/* The outbox: hands saved, corrected or deleted without a network, kept in
 * IndexedDB until the server has them. Used by the pages (static/js/phone/) and by
 * the service worker (sw.js), so it touches no page.
 *
 * Each entry is one form as it was sent: its address and its body, with the
 * form's one-time token (a new hand) or the hand's version (a correction or a
 * deletion). The server stores a resent form once, so sending an entry again
 * after a lost answer is safe. Entries are sent one at a time in the order
 * they were saved; one the server refuses is kept with the reason, never
 * dropped, and the ones after it are still sent. The server says why it
 * refused as data (a JSON body, marked X-Tarock-Refused), never as a page to
 * read. An answer that says "not now" (429 too many requests, 503 busy, any
 * other 5xx) refuses nothing: the entry waits, with those after it, and is
 * sent again after the Retry-After the answer asked for.
 *
 * An entry the server stored is kept a while as a record of what was sent
 * (state "sent", with the stored hand's id): a page kept on the phone before
 * it was sent does not have it, and counts it with what waits (phone/scoring.js).
 *
 * What an entry is (a new hand, a correction, a deletion; its evening, hand and
 * sheet) is not read from its address: the server wrote it into the form (the
 * field "outbox", scoring/phone_contract.py) and it is kept with the entry.
 * Entries an earlier version kept (no "v") already carried the same names and
 * are read on (upgrade). The decisions (what to send and in which order, what an
 * answer means, how long to wait, what a new entry replaces) are plain functions,
 * tested in Node (tests/js/outbox.test.mjs).
 *
 * A classic script: the service worker loads it with importScripts, the pages'
 * modules import it for its global (static/js/phone/). */
"use strict";

self.Outbox = (() => {
  const DATABASE = "tarockscore";
  const STORE = "outbox";
  const SYNC_TAG = "tarockscore-outbox";
  const FIELD = "outbox"; // the form's field that says what it is (scoring/phone_contract.py)
  const SCHEMA = 2; // what an entry holds; entries without "v" were kept by the version before

  // What a form is, as the server wrote it into the form: { kind, session, hand, sheet, page }, or null.
  function whereOf(body) {
    const said = new URLSearchParams(body).get(FIELD);
    if (!said) return null;
    try {
      const where = JSON.parse(said);
      if (!["new", "edit", "delete"].includes(where.kind) || !where.sheet) return null;
      return {
        kind: where.kind,
        session: where.session,
        hand: where.hand ?? null,
        sheet: where.sheet,
        page: where.page ?? null,
        row: where.row ?? null,
      };
    } catch (_unreadable) {
      return null;
    }
  }

  // An entry as this version reads it. One kept by the version before (a phone that
  // updated in the middle of an evening) has its kind, evening, hand and sheet
  // already; it lacks the hand's page and row, and is put right from the sheet.
  function upgrade(entry) {
    if (!entry || entry.v >= SCHEMA) return entry;
    const hand = entry.hand === null || entry.hand === undefined ? null : Number(entry.hand);
    return { ...entry, v: SCHEMA, hand, page: entry.page || entry.sheet, row: entry.row ?? null };
  }

  // The same form sent twice (a double tap) is one entry: the key is the form without its CSRF token.
  function keyOf(path, body) {
    const fields = new URLSearchParams(body);
    fields.delete("csrfmiddlewaretoken");
    return `${path}?${fields.toString()}`;
  }

  // What is sent, in the order it was saved: what waits, not what was refused or sent.
  function toSend(entries) {
    return entries
      .filter((entry) => entry.state !== "refused" && entry.state !== "sent")
      .sort((a, b) => a.id - b.id);
  }

  // A later correction or deletion of a hand whose correction still waits takes its place:
  // the server gets the latest, made from the version both forms were drawn at (and the
  // record of one sent before goes with it). A refused one is kept, with its reason,
  // until the player discards or corrects it.
  function replacedBy(entry, entries) {
    if (entry.hand === null) return [];
    return entries.filter(
      (e) =>
        e.kind === "edit" && e.hand === entry.hand && e.session === entry.session && e.state !== "refused",
    );
  }

  // What an answer means for the entry sent: "sent" (the server stored it), "later"
  // (not now: too many requests, busy, a fault of the server; sent again), "login"
  // (logged out: sent after the next login) or "refused" (the server's own no:
  // a field, a closed evening, a conflict; kept with its reason).
  function verdictOf(status, stored, toLogin) {
    if (status === 204 && stored) return "sent";
    if (status === 429 || status >= 500) return "later";
    if (toLogin) return "login";
    return "refused";
  }

  // How long to wait before sending again: the answer's Retry-After in seconds
  // (within 1 s and 5 min), else half a minute.
  const RETRY_DEFAULT = 30;
  function waitOf(retryAfter) {
    const seconds = Number(retryAfter);
    if (!retryAfter || !Number.isFinite(seconds)) return RETRY_DEFAULT;
    return Math.min(300, Math.max(1, Math.round(seconds)));
  }

  // How long a record of a sent entry is kept: longer than an evening at the table.
  const SENT_KEPT = 12 * 3600 * 1000;

  function expired(record, now) {
    return now - record.sentAt > SENT_KEPT;
  }

  // What another sender (the worker, a page being left) stored for this evening after a
  // page was asked for (``since``, on the clock the records are stamped with: Date.now):
  // the server may have drawn that page without it. Sent before the page was asked for,
  // it is on the page; sent by the page itself, the page is drawn again anyway. A record
  // stamped after ``now`` (the phone's clock was put back since) tells nothing.
  function sentSince(records, session, since, now) {
    return records.filter(
      (record) => record.session === session && record.sentAt >= since && record.sentAt <= now,
    );
  }

  let opened = null;

  function open() {
    opened ||= new Promise((resolve, reject) => {
      const request = indexedDB.open(DATABASE, 1);
      request.onupgradeneeded = () => {
        const store = request.result.createObjectStore(STORE, { keyPath: "id", autoIncrement: true });
        store.createIndex("key", "key", { unique: true });
      };
      request.onsuccess = () => resolve(request.result);
      request.onerror = () => reject(request.error);
    });
    return opened;
  }

  function done(request) {
    return new Promise((resolve, reject) => {
      request.onsuccess = () => resolve(request.result);
      request.onerror = () => reject(request.error);
    });
  }

  async function store(mode) {
    const database = await open();
    return database.transaction(STORE, mode).objectStore(STORE);
  }

  async function add(url, body, summary) {
    const path = new URL(url, self.location.href).pathname;
    const where = whereOf(body);
    if (!where) throw new Error(`not a hand form: ${path}`);
    const entry = {
      ...where,
      v: SCHEMA,
      key: keyOf(path, body),
      url: path,
      body,
      summary,
      queuedAt: Date.now(),
      state: "waiting",
      reason: null,
    };
    const outbox = await store("readwrite");
    const same = await done(outbox.index("key").get(entry.key));
    if (same) return upgrade(same);
    for (const replaced of replacedBy(entry, (await done(outbox.getAll())).map(upgrade)))
      await done(outbox.delete(replaced.id));
    entry.id = await done(outbox.add(entry));
    return entry;
  }

  async function everything() {
    const entries = await done((await store("readonly")).getAll());
    return entries.map(upgrade).sort((a, b) => a.id - b.id);
  }

  // What waits to be sent, or was refused: not what the server has.
  async function all() {
    return (await everything()).filter((entry) => entry.state !== "sent");
  }

  // The records of what was sent and stored, oldest first; those of another day are let go.
  async function sent() {
    const records = (await everything()).filter((entry) => entry.state === "sent");
    const now = Date.now();
    const old = records.filter((entry) => expired(entry, now));
    if (old.length) {
      const outbox = await store("readwrite");
      for (const entry of old) outbox.delete(entry.id);
    }
    return records.filter((entry) => !old.includes(entry));
  }

  async function get(id) {
    const entry = upgrade(await done((await store("readonly")).get(id)));
    return entry && entry.state !== "sent" ? entry : undefined;
  }

  async function put(entry) {
    entry.key = keyOf(entry.url, entry.body);
    return done((await store("readwrite")).put(entry));
  }

  async function remove(id) {
    return done((await store("readwrite")).delete(id));
  }

  // What the server said when it refused (a field, a conflict, a closed or deleted
  // evening, a hand deleted meanwhile, no access): its words as data, in the player's
  // language (scoring/hand_pages.py: refused), each once. Any other answer (an error
  // page) says nothing: the sheet then gives the status, in the player's words.
  function reasonsOf(answer) {
    const said = Array.isArray(answer?.reasons) ? answer.reasons : [answer?.reason];
    return [...new Set(said.filter((words) => typeof words === "string" && words))];
  }

  async function refusalOf(response) {
    if (!response.headers.get("X-Tarock-Refused")) return [];
    try {
      return reasonsOf(await response.json());
    } catch (_unreadable) {
      return [];
    }
  }

  async function sendOne(entry, csrf) {
    const body = new URLSearchParams(entry.body);
    if (csrf) body.set("csrfmiddlewaretoken", csrf);
    let response;
    try {
      const headers = { "X-Tarock-Outbox": "1" };
      response = await fetch(entry.url, { method: "POST", body, headers, credentials: "same-origin" });
    } catch (_offline) {
      return "offline";
    }
    // Logged out: the form was led to the login page, which says it is one (plumbing/offline.py).
    const toLogin = response.redirected && Boolean(response.headers.get("X-Tarock-Login"));
    const verdict = verdictOf(response.status, Boolean(response.headers.get("X-Tarock-Stored")), toLogin);
    // Only the server's own word takes an entry off the phone.
    if (verdict === "sent") {
      // Its own key, so that the same form saved again is a new entry (the server's token makes it once).
      const stored = Number(response.headers.get("X-Tarock-Stored")) || null;
      await done(
        (await store("readwrite")).put({
          ...entry,
          key: `sent:${entry.id}`,
          state: "sent",
          stored,
          sentAt: Date.now(),
        }),
      );
      return "sent";
    }
    if (verdict === "later") {
      retryAfter = Math.max(retryAfter, waitOf(response.headers.get("Retry-After")));
      return "offline"; // not now: sent again later, in the same order
    }
    if (verdict === "login") {
      await put({ ...entry, reason: { login: true } }); // logged out: sent after the next login
      return "offline";
    }
    const said = await refusalOf(response);
    await put({ ...entry, state: "refused", reason: { status: response.status, said } });
    return "refused";
  }

  let retryAfter = 0; // the longest wait an answer of this round of sending asked for

  async function sendAll(csrf) {
    retryAfter = 0;
    const outcome = { sent: 0, refused: 0, waiting: 0, retryAfter: 0 };
    for (const entry of toSend(await all())) {
      const result = outcome.waiting ? "offline" : await sendOne(entry, csrf);
      outcome[result === "offline" ? "waiting" : result] += 1;
    }
    outcome.retryAfter = retryAfter; // 0: nothing asked to wait (offline: sent when the network is back)
    return outcome;
  }

  // One sender at a time, across the pages and the worker.
  function send(csrf) {
    if (self.navigator.locks) return self.navigator.locks.request(SYNC_TAG, () => sendAll(csrf));
    return sendAll(csrf);
  }

  return {
    SYNC_TAG,
    FIELD,
    whereOf,
    upgrade,
    keyOf,
    toSend,
    replacedBy,
    verdictOf,
    waitOf,
    expired,
    sentSince,
    reasonsOf,
    add,
    all,
    sent,
    get,
    put,
    remove,
    send,
  };
})();
