// The outbox's decisions (static/js/outbox.js), in Node without a browser:
// `node --test tests/js/` (make test-js). What is sent and in which order, what an
// answer means (a hand answered "not now", 429, 503, any 5xx, stays waiting and is
// sent again after the Retry-After it was given; only the server's own refusal is
// filed as refused), what a new entry replaces, and an entry the version before
// kept read on by this one (a phone updated in the middle of an evening).
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import vm from "node:vm";

function loadOutbox(fetch, entries) {
  // The outbox as the pages load it, with IndexedDB stood in by a list kept in memory.
  const kept = new Map(entries.map((entry) => [entry.id, { ...entry }]));
  let lastId = Math.max(0, ...kept.keys());
  const request = (result) => {
    const r = { result };
    queueMicrotask(() => r.onsuccess?.());
    return r;
  };
  const store = {
    getAll: () => request([...kept.values()].map((e) => ({ ...e }))),
    get: (id) => request(kept.get(id)),
    put: (entry) => request(kept.set(entry.id, { ...entry }) && entry.id),
    delete: (id) => request(kept.delete(id)),
    add: (entry) => {
      const id = ++lastId; // as IndexedDB's autoIncrement: never given twice
      kept.set(id, { ...entry, id });
      return request(id);
    },
    index: () => ({ get: (key) => request([...kept.values()].find((e) => e.key === key)) }),
  };
  const database = { transaction: () => ({ objectStore: () => store }) };
  const indexedDB = {
    open: () => {
      const r = { result: database };
      queueMicrotask(() => r.onsuccess?.());
      return r;
    },
  };
  const self = { location: { href: "https://tarock.example/" }, navigator: {} };
  const context = vm.createContext({ self, indexedDB, fetch, URL, URLSearchParams, queueMicrotask });
  vm.runInContext(readFileSync(new URL("../../static/js/outbox.js", import.meta.url), "utf8"), context);
  return { Outbox: self.Outbox, kept };
}

function answer(status, headers = {}, body = null, redirected = false) {
  const lower = Object.fromEntries(Object.entries(headers).map(([k, v]) => [k.toLowerCase(), v]));
  return {
    status,
    redirected,
    url: "https://tarock.example/t/abc/hands/new/",
    headers: { get: (name) => lower[name.toLowerCase()] ?? null },
    text: async () => (body === null ? "<p>error</p>" : JSON.stringify(body)),
    json: async () => {
      if (body === null) throw new SyntaxError("not JSON");
      return body;
    },
  };
}

const HAND = { id: 1, url: "/t/abc/hands/new/", body: "token=1&action=save", state: "waiting", reason: null };
const NEXT = { id: 2, url: "/t/abc/hands/new/", body: "token=2&action=save", state: "waiting", reason: null };

// A form as the server draws it: its fields and the "outbox" field that says what it is.
function formBody(fields, where) {
  return new URLSearchParams({ ...fields, outbox: JSON.stringify(where) }).toString();
}
const NEW_AT_3 = { kind: "new", session: 3, hand: null, sheet: "/sessions/3/" };
const EDIT_8 = {
  kind: "edit",
  session: 3,
  hand: 8,
  sheet: "/sessions/3/",
  page: "/sessions/3/hands/8/",
  row: "hand-8",
};

test("the decision: stored, not now, logged out, refused", () => {
  const { Outbox } = loadOutbox(async () => answer(204), []);
  assert.equal(Outbox.verdictOf(204, true, false), "sent");
  for (const status of [429, 500, 502, 503, 504])
    assert.equal(Outbox.verdictOf(status, false, false), "later", String(status));
  assert.equal(Outbox.verdictOf(200, false, true), "login");
  for (const status of [400, 403, 404, 409, 410])
    assert.equal(Outbox.verdictOf(status, false, false), "refused", String(status));
  assert.equal(Outbox.waitOf("60"), 60);
  assert.equal(Outbox.waitOf(null), 30);
  assert.equal(Outbox.waitOf("soon"), 30);
  assert.equal(Outbox.waitOf("100000"), 300);
});

for (const [status, retryAfter] of [
  [429, "60"],
  [503, "5"],
  [500, null],
]) {
  test(`a hand answered ${status} waits, with the one after it, and is sent again`, async () => {
    const answers = [answer(status, retryAfter ? { "Retry-After": retryAfter } : {})];
    const sent = [];
    const fetch = async (_url, init) => {
      sent.push(new URLSearchParams(init.body).get("token"));
      return answers.shift() || answer(204, { "X-Tarock-Stored": "1" });
    };
    const { Outbox, kept } = loadOutbox(fetch, [HAND, NEXT]);
    const first = await Outbox.send("csrf");
    assert.deepEqual(
      { ...first },
      { sent: 0, refused: 0, waiting: 2, retryAfter: retryAfter ? Number(retryAfter) : 30 },
    );
    assert.deepEqual(sent, ["1"]); // the next one waits behind it: the order is kept
    assert.deepEqual(
      [...kept.values()].map((e) => e.state),
      ["waiting", "waiting"],
    );
    const again = await Outbox.send("csrf");
    assert.deepEqual({ ...again }, { sent: 2, refused: 0, waiting: 0, retryAfter: 0 });
    assert.deepEqual(sent, ["1", "1", "2"]);
    // Nothing waits; what was stored is kept as a record of it, with the hand the server named.
    assert.deepEqual([...(await Outbox.all())], []);
    assert.deepEqual(
      [...kept.values()].map((e) => [e.state, e.stored]),
      [
        ["sent", 1],
        ["sent", 1],
      ],
    );
  });
}

test("a record of what was sent is never sent again, and is let go after half a day", async () => {
  const sent = [];
  const fetch = async (_url, init) => {
    sent.push(new URLSearchParams(init.body).get("token"));
    return answer(204, { "X-Tarock-Stored": "7" });
  };
  const longAgo = Date.now() - 13 * 3600 * 1000;
  const old = { ...NEXT, id: 3, state: "sent", stored: 5, sentAt: longAgo };
  const { Outbox, kept } = loadOutbox(fetch, [HAND, old]);
  assert.deepEqual({ ...(await Outbox.send("csrf")) }, { sent: 1, refused: 0, waiting: 0, retryAfter: 0 });
  assert.deepEqual(sent, ["1"]);
  assert.equal(await Outbox.get(1), undefined); // no longer waiting
  const records = await Outbox.sent();
  assert.deepEqual(
    records.map((e) => [e.id, e.stored]),
    [[1, 7]],
  );
  await new Promise((resolve) => setTimeout(resolve, 0));
  assert.deepEqual([...kept.keys()], [1]); // the record of the day before is gone
  assert.deepEqual({ ...(await Outbox.send("csrf")) }, { sent: 0, refused: 0, waiting: 0, retryAfter: 0 });
  assert.deepEqual(sent, ["1"]);
});

test("a real refusal is filed as refused and the next hand is still sent", async () => {
  const answers = [answer(409), answer(204, { "X-Tarock-Stored": "1" })];
  const { Outbox, kept } = loadOutbox(async () => answers.shift(), [HAND, NEXT]);
  const outcome = await Outbox.send("csrf");
  assert.deepEqual({ ...outcome }, { sent: 1, refused: 1, waiting: 0, retryAfter: 0 });
  assert.equal(kept.get(1).state, "refused");
  assert.equal(kept.get(1).reason.status, 409);
});

test("what a form is, the server says: kind, evening, hand, sheet, page, row; a form without it is none", () => {
  const { Outbox } = loadOutbox(async () => answer(204), []);
  assert.deepEqual({ ...Outbox.whereOf(formBody({ dealer: "Anna" }, EDIT_8)) }, { ...EDIT_8 });
  const table = { kind: "new", session: "tok-1", hand: null, sheet: "/t/tok-1/" };
  assert.deepEqual({ ...Outbox.whereOf(formBody({}, table)) }, { ...table, page: null, row: null });
  assert.equal(Outbox.whereOf("dealer=Anna&action=save"), null); // a login, a setting: not a hand form
  assert.equal(Outbox.whereOf("outbox=%7Bbroken"), null);
  assert.equal(Outbox.whereOf(formBody({}, { kind: "rename", sheet: "/" })), null);
});

test("what is sent: the waiting entries in the order they were saved, never the refused or the sent", () => {
  const { Outbox } = loadOutbox(async () => answer(204), []);
  const entries = [
    { id: 4, state: "waiting" },
    { id: 2, state: "refused" },
    { id: 1, state: "waiting" },
    { id: 3, state: "sent" },
  ];
  assert.deepEqual(
    Outbox.toSend(entries).map((e) => e.id),
    [1, 4],
  );
});

test("a later correction of a hand takes the place of the one still waiting, not of a refused one", () => {
  const { Outbox } = loadOutbox(async () => answer(204), []);
  const waiting = { id: 1, kind: "edit", session: 3, hand: 8, state: "waiting" };
  const refused = { id: 2, kind: "edit", session: 3, hand: 8, state: "refused" };
  const other = { id: 3, kind: "edit", session: 3, hand: 9, state: "waiting" };
  const elsewhere = { id: 4, kind: "edit", session: "tok", hand: 8, state: "waiting" };
  const deletion = { kind: "delete", session: 3, hand: 8 };
  assert.deepEqual(
    Outbox.replacedBy(deletion, [waiting, refused, other, elsewhere]).map((e) => e.id),
    [1],
  );
  assert.equal(Outbox.replacedBy({ kind: "new", session: 3, hand: null }, [waiting]).length, 0);
});

test("a form kept offline is filed as the server named it, once, and a newer correction replaces the older", async () => {
  const { Outbox, kept } = loadOutbox(async () => answer(204), []);
  const body = formBody({ token: "t1", dealer: "Anna", action: "save" }, NEW_AT_3);
  const entry = await Outbox.add("https://tarock.example/sessions/3/hands/new/", body, "Anna deals");
  assert.deepEqual(
    [entry.kind, entry.session, entry.hand, entry.sheet, entry.url, entry.state],
    ["new", 3, null, "/sessions/3/", "/sessions/3/hands/new/", "waiting"],
  );
  const again = await Outbox.add("https://tarock.example/sessions/3/hands/new/", body, "Anna deals");
  assert.equal(again.id, entry.id); // a double tap is one entry
  const first = await Outbox.add("/sessions/3/hands/8/edit/", formBody({ token: "2", n: "1" }, EDIT_8), "");
  const second = await Outbox.add("/sessions/3/hands/8/edit/", formBody({ token: "2", n: "2" }, EDIT_8), "");
  assert.deepEqual([...kept.keys()], [entry.id, second.id]);
  assert.notEqual(first.id, second.id);
  await assert.rejects(Outbox.add("/sessions/3/settings/", "name=x", ""), /not a hand form/);
});

test("a hand the version before kept is shown, sent and put right by this one (an update mid-evening)", async () => {
  // As outbox.js kept entries before the server named them: classified from the address, no "v".
  const old = [
    {
      id: 1,
      kind: "new",
      session: 3,
      hand: null,
      key: "/sessions/3/hands/new/?token=a&dealer=Anna&action=save",
      url: "/sessions/3/hands/new/",
      sheet: "/sessions/3/",
      body: "csrfmiddlewaretoken=x&token=a&dealer=Anna&action=save",
      summary: "Anna deals",
      queuedAt: 1,
      state: "waiting",
      reason: null,
    },
    {
      id: 2,
      kind: "delete",
      session: "tok",
      hand: 8,
      key: "/t/tok/hands/8/delete/?version=2",
      url: "/t/tok/hands/8/delete/",
      sheet: "/t/tok/",
      body: "version=2",
      summary: "",
      queuedAt: 2,
      state: "refused",
      reason: { status: 409, said: ["changed"] },
    },
  ];
  const posted = [];
  const fetch = async (url, init) => {
    posted.push([url, new URLSearchParams(init.body).get("token")]);
    return answer(204, { "X-Tarock-Stored": "11" });
  };
  const { Outbox, kept } = loadOutbox(fetch, old);
  const waiting = await Outbox.all();
  assert.deepEqual(
    waiting.map((e) => [e.id, e.kind, e.session, e.hand, e.sheet, e.state]),
    [
      [1, "new", 3, null, "/sessions/3/", "waiting"],
      [2, "delete", "tok", 8, "/t/tok/", "refused"],
    ],
  );
  // The refused deletion is put right from the sheet (the old entry names no page and no row).
  assert.deepEqual([waiting[1].page, waiting[1].row], ["/t/tok/", null]);
  assert.equal((await Outbox.get(1)).sheet, "/sessions/3/");
  // A correction of the new version behind it is filed beside it; the old hand is sent first, where it was saved.
  await Outbox.add("/sessions/3/hands/5/edit/", formBody({ token: "b" }, { ...EDIT_8, hand: 5 }), "");
  assert.deepEqual({ ...(await Outbox.send("csrf")) }, { sent: 2, refused: 0, waiting: 0, retryAfter: 0 });
  assert.deepEqual(posted, [
    ["/sessions/3/hands/new/", "a"],
    ["/sessions/3/hands/5/edit/", "b"],
  ]);
  assert.deepEqual(
    (await Outbox.sent()).map((e) => [e.id, e.stored]),
    [
      [1, 11],
      [3, 11],
    ],
  );
  assert.equal(kept.get(2).state, "refused"); // never sent again, never dropped
});

test("a record of a sent hand is let go after half a day, not before", () => {
  const { Outbox } = loadOutbox(async () => answer(204), []);
  const now = Date.now();
  assert.equal(Outbox.expired({ sentAt: now - 11 * 3600 * 1000 }, now), false);
  assert.equal(Outbox.expired({ sentAt: now - 13 * 3600 * 1000 }, now), true);
});

test("what another sender stored after a page was asked for, of its evening only, may be missing from it", () => {
  const { Outbox } = loadOutbox(async () => answer(204), []);
  const asked = 1_000_000;
  const now = asked + 2000;
  const records = [
    { id: 1, session: 3, sentAt: asked - 1 }, // stored before the page was asked for: on it
    { id: 2, session: 3, sentAt: asked }, // while the server drew it: perhaps not
    { id: 3, session: 3, sentAt: asked + 900 },
    { id: 4, session: 4, sentAt: asked + 900 }, // another evening's
    { id: 5, session: 3, sentAt: now + 60_000 }, // stamped before the phone's clock was put back
  ];
  assert.deepEqual(
    Outbox.sentSince(records, 3, asked, now).map((record) => record.id),
    [2, 3],
  );
  assert.deepEqual(Outbox.sentSince(records, 3, asked + 1000, now), []); // the page drawn again after them
});

test("a refusal is kept with what the server said as data, each once; an error page says nothing", async () => {
  const REFUSED = { "X-Tarock-Refused": "1" };
  const THIRD = { ...NEXT, id: 3, body: "token=3&action=save" };
  const FOURTH = { ...NEXT, id: 4, body: "token=4&action=save" };
  const answers = [
    answer(422, REFUSED, {
      reason: "Points: missing · Dealer: missing",
      reasons: ["Points: missing", "Dealer: missing", "Points: missing"],
    }),
    // A server of the version before says it in one line.
    answer(423, REFUSED, { reason: "This evening is closed." }),
    // A page with alerts in it is not read: only the server's data says why.
    answer(403, {}, null),
    answer(409, REFUSED, { reasons: ["", 7] }),
  ];
  const { Outbox, kept } = loadOutbox(async () => answers.shift(), [HAND, NEXT, THIRD, FOURTH]);
  assert.deepEqual({ ...(await Outbox.send("csrf")) }, { sent: 0, refused: 4, waiting: 0, retryAfter: 0 });
  assert.deepEqual(
    [...kept.values()].map((e) => [e.state, e.reason.status, [...e.reason.said]]),
    [
      ["refused", 422, ["Points: missing", "Dealer: missing"]],
      ["refused", 423, ["This evening is closed."]],
      ["refused", 403, []],
      ["refused", 409, []],
    ],
  );
  assert.deepEqual([...Outbox.reasonsOf({ reasons: ["a", "a", "b"] })], ["a", "b"]);
  assert.deepEqual([...Outbox.reasonsOf(null)], []);
});

test("a hand led to the login page, which says it is one, waits for the next login; another redirect is refused", async () => {
  const answers = [
    answer(200, { "X-Tarock-Login": "1" }, null, true),
    answer(200, {}, null, true), // led elsewhere: not the login, whatever its address
    answer(204, { "X-Tarock-Stored": "5" }),
  ];
  const { Outbox, kept } = loadOutbox(async () => answers.shift(), [HAND, NEXT]);
  const outcome = await Outbox.send("csrf");
  assert.deepEqual({ ...outcome }, { sent: 0, refused: 0, waiting: 2, retryAfter: 0 });
  assert.deepEqual({ ...kept.get(1).reason }, { login: true });
  assert.equal(kept.get(1).state, "waiting");
  assert.equal(kept.get(2).reason, null); // behind the first, in the order saved: not sent yet
  const again = await Outbox.send("csrf");
  assert.deepEqual({ ...again }, { sent: 1, refused: 1, waiting: 0, retryAfter: 0 });
  assert.deepEqual(
    [...kept.values()].map((e) => e.state),
    ["refused", "sent"],
  );
});
