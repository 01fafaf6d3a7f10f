/* The service worker's part for the engine on the phone (sw.js imports it where the
 * release has the engine): the Pyodide runtime in a cache named after its version,
 * the engine bundle in one named after its hash (ENGINE, from sw.js's CONFIG). */
/* global ENGINE */
"use strict";

function engineCacheOf(path) {
  if (path.startsWith(ENGINE.runtime)) return ENGINE.runtimeCache;
  if (path === ENGINE.bundle) return ENGINE.bundleCache;
  return null;
}

async function engineFile(request, name) {
  const cache = await caches.open(name);
  const kept = await cache.match(request.url);
  if (kept) return kept;
  const response = await fetch(request);
  if (response.ok) await cache.put(request.url, response.clone());
  return response;
}

// The runtime and this release's bundle, fetched once in the background.
async function warmEngine() {
  for (const url of [...ENGINE.runtimeFiles, ENGINE.bundle]) {
    const cache = await caches.open(engineCacheOf(url));
    if (await cache.match(url)) continue;
    try {
      const response = await fetch(url, { credentials: "same-origin" });
      if (response.ok) await cache.put(url, response);
    } catch (_offline) {
      return;
    }
  }
}

// Browsers with background sync send the outbox as soon as the network is back.
self.addEventListener("sync", (event) => {
  if (event.tag === Outbox.SYNC_TAG) event.waitUntil(sendOutbox());
});
