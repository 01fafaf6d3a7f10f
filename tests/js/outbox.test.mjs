// The outbox's decision on each answer (static/js/outbox.js), in Node without a
// browser: `node --test tests/js/` (make test-js). A hand answered "not now" (429,
// 503, any 5xx) stays waiting and is sent again after the Retry-After it was
// given; only the server's own refusal is filed as refused.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import vm from "node:vm";

function loadOutbox(fetch, entries) {
  // The outbox as the pages load it, with IndexedDB stood in by a list kept in memory.
  const kept = new Map(entries.map((entry) => [entry.id, { ...entry }]));
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
    add: () => request(0),
    index: () => ({ get: () => request(undefined) }),
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

function answer(status, headers = {}) {
  const lower = Object.fromEntries(Object.entries(headers).map(([k, v]) => [k.toLowerCase(), v]));
  return {
    status,
    redirected: false,
    url: "https://tarock.example/t/abc/hands/new/",
    headers: { get: (name) => lower[name.toLowerCase()] ?? null },
    text: async () => "<p>error</p>",
    json: async () => ({}),
  };
}

const HAND = { id: 1, url: "/t/abc/hands/new/", body: "token=1&action=save", state: "waiting", reason: null };
const NEXT = { id: 2, url: "/t/abc/hands/new/", body: "token=2&action=save", state: "waiting", reason: null };

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
