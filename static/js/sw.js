/* tarockscore's service worker, served at /sw.js with CONFIG on the line above.
 * Pages: from the network while there is one (and a copy kept, unless the answer says
 * not to: X-Tarock-Not-Kept), else the copy kept, marked as a copy (data-copy on
 * <html>), else the offline page. Static files: from
 * this version's cache, fetched once. A hand form (marked by the server with its
 * "outbox" field) that cannot be sent, or that the server answers "not now" (429,
 * 503, another 5xx), goes to the outbox (outbox.js); the browser is sent to the
 * sheet, where it waits. A new version (any served file changed) replaces both
 * caches when it starts. The engine on the phone (CONFIG.engine): the Pyodide
 * runtime in a cache named after its version and the engine bundle in one named
 * after its hash, so a deploy that changes neither keeps them (no 6 MB again);
 * fetched in the background when a page asks (warmEngine), served from there first. */
/* global CONFIG, Outbox */
"use strict";

importScripts(CONFIG.outbox);

const PAGES = `pages-${CONFIG.version}`;
const FILES = `files-${CONFIG.version}`;
const ENGINE = CONFIG.engine || null;
const ENGINE_CACHES = ENGINE ? [ENGINE.runtimeCache, ENGINE.bundleCache] : [];
if (ENGINE) importScripts(ENGINE.sw); // engineCacheOf, engineFile, warmEngine
const FORM = /^application\/x-www-form-urlencoded/; // a form without a file (a hand form among them)
// A page not worth keeping for offline (the accounts, the admin, a download, the worker
// itself) says so in its answer (plumbing/offline.py): no address is judged here.
const NOT_KEPT = "X-Tarock-Not-Kept";
const KEEP = { "X-Tarock-Keep": "1" }; // a page fetched to keep: read by no one, it uses up no notice

self.addEventListener("install", (event) => {
  event.waitUntil(
    (async () => {
      await (await caches.open(FILES)).addAll(CONFIG.precache);
      await caches.open(PAGES);
      await keep(await fetch(CONFIG.offline, { credentials: "same-origin", headers: KEEP }), CONFIG.offline);
      await self.skipWaiting();
    })(),
  );
});

self.addEventListener("activate", (event) => {
  event.waitUntil(
    (async () => {
      for (const name of await caches.keys()) {
        if (name !== PAGES && name !== FILES && !ENGINE_CACHES.includes(name)) await caches.delete(name);
      }
      await self.clients.claim();
    })(),
  );
});

self.addEventListener("fetch", (event) => {
  const request = event.request;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  if (request.method === "GET" && ENGINE && engineCacheOf(url.pathname)) {
    event.respondWith(engineFile(request, engineCacheOf(url.pathname)));
  } else if (request.method === "GET" && url.pathname.startsWith(CONFIG.static)) {
    event.respondWith(staticFile(request));
  } else if (request.method === "GET" && request.mode === "navigate") {
    event.respondWith(page(request));
  } else if (request.method === "POST" && url.pathname === CONFIG.logout) {
    // The next person to use this phone does not see the last one's sheets.
    event.waitUntil(caches.delete(PAGES));
  } else if (request.mode === "navigate" && FORM.test(request.headers.get("Content-Type"))) {
    event.respondWith(sendOrQueue(request));
  }
});

self.addEventListener("message", (event) => {
  if (event.data?.keep) event.waitUntil(warm(event.data.keep));
  // A page that finished loading while this worker was activating missed its claim.
  if (event.data?.claim) event.waitUntil(self.clients.claim());
  if (event.data?.warmEngine && ENGINE) event.waitUntil(warmEngine());
});

async function staticFile(request) {
  const kept = await caches.match(request, { cacheName: FILES });
  if (kept) return kept;
  const response = await fetch(request);
  if (response.ok) await put(FILES, request, response.clone());
  return response;
}

async function page(request) {
  try {
    const response = await fetch(request);
    if (response.ok && response.type === "basic") await keep(response.clone(), request.url);
    return response;
  } catch (_offline) {
    const cache = await caches.open(PAGES);
    return (
      (await cache.match(request, { ignoreVary: true })) ||
      (await cache.match(CONFIG.offline, { ignoreVary: true })) ||
      Response.error()
    );
  }
}

// A copy of a page, marked so that its script tells the reader it is one; not of a page that says it is not kept.
async function keep(response, url) {
  const type = response.headers.get("Content-Type") || "";
  if (!type.startsWith("text/html") || response.headers.get(NOT_KEPT)) return;
  const text = (await response.text()).replace("<html ", "<html data-copy ");
  const headers = { "Content-Type": type, "X-Kept-At": String(Date.now()) };
  await put(PAGES, url.split("#")[0], new Response(text, { headers }));
}

// A copy into this version's cache. A worker replaced by a newer version keeps nothing
// more (the new one deleted its caches), even when replaced while it wrote.
async function put(name, key, response) {
  if (!(await caches.has(name))) return;
  await (await caches.open(name)).put(key, response);
  if (self.serviceWorker?.state === "redundant") await caches.delete(name);
}

// The pages a sheet asked to keep (its contract: the new hand's form and its kinds of hand, the last hand's).
async function warm(urls) {
  for (const url of urls.slice(0, 12)) {
    const address = new URL(url, self.location.href);
    if (address.origin !== self.location.origin) continue;
    try {
      const response = await fetch(address.href, { credentials: "same-origin", headers: KEEP });
      if (response.ok && !response.redirected) await keep(response, address.href);
    } catch (_offline) {
      return;
    }
  }
}

async function sendOrQueue(request) {
  const copy = request.clone();
  const response = await fetch(request).catch(() => null); // null: offline
  // Saved (a redirect: status 0), or the server's own answer: the page shows it.
  if (response && Outbox.verdictOf(response.status, false, false) !== "later") return response;
  const body = await copy.text();
  const action = new URLSearchParams(body).get("action");
  if (!Outbox.whereOf(body)) return response || Response.error(); // not a hand form: as without this worker
  if (action && action !== "save")
    return response || (await caches.match(CONFIG.offline)) || Response.error();
  const entry = await Outbox.add(copy.url, body, "");
  if (self.registration.sync) await self.registration.sync.register(Outbox.SYNC_TAG).catch(() => {});
  return Response.redirect(`${entry.sheet}#pending-${entry.id}`, 303);
}

async function sendOutbox() {
  const cookie = self.cookieStore ? await self.cookieStore.get(CONFIG.csrfCookie) : null;
  const outcome = await Outbox.send(cookie ? cookie.value : "");
  for (const client of await self.clients.matchAll({ type: "window" }))
    client.postMessage({ outbox: outcome });
}
