/* The service worker's side on the page: the engine fetched and started while
 * online, and the pages the next minutes at the table need kept. */

import { config, eveningData, isCopy, sheetOf } from "./contract.js";
import { engineReady } from "./scoring.js";

// Online: the runtime and the bundle are fetched in the background, once, and kept;
// and the engine is started once the page has settled, so that it is running (where
// the browser keeps its worker across pages) or at least compiled and cached when
// the connection goes: no player waits for it at the table.
export function warmEngine() {
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

// Keep what the next minutes at the table need, as the sheet names it (#phone-sheet): this
// sheet's hand form with its kinds of hand, and the last hand's page and correction form;
// and the sheet itself where the worker holds no copy yet (where a hand saved offline
// lands): on the first visit the worker came after the page was fetched, whether it
// took control before or after this script ran.
export async function keepForLater() {
  const worker = navigator.serviceWorker?.controller;
  const sheet = sheetOf();
  if (!worker || isCopy || !sheet) return;
  const kept = self.caches ? await caches.match(location.pathname).catch(() => null) : null;
  const keep = kept ? [] : [location.pathname];
  if (document.getElementById("new-hand")) keep.push(...sheet.newHand);
  keep.push(...sheet.lastHand);
  worker.postMessage({ keep });
}
