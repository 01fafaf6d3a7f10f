/* Offline on the pages: registers the service worker, says when a page is a copy
 * kept on the phone, keeps hand forms saved offline in the outbox (outbox.js),
 * shows them on the sheet where they will land, and sends them when the
 * connection returns or the app is opened again. Each part a module of its own
 * (static/js/phone/); what they know of the server's addresses and pages, the
 * server tells them (contract.js); the words come from the page, translated. */

import { config, isCopy, sheetOf } from "./contract.js";
import { dealerChosen, prepareCopy } from "./kept-form.js";
import { hideOffline, showOffline } from "./notice.js";
import { keepForm, serverReached, startFixing } from "./saving.js";
import { afterSending, noteWaiting, sendOutbox } from "./sending.js";
import { compareWithServer, showPending } from "./sheet.js";
import { keepForLater, warmEngine } from "./worker.js";

async function start() {
  if (navigator.serviceWorker) {
    navigator.serviceWorker.register(config.worker, { scope: "/" }).catch(() => {});
    navigator.serviceWorker.addEventListener(
      "message",
      (event) => event.data?.outbox && afterSending(event.data.outbox),
    );
    navigator.serviceWorker.addEventListener("controllerchange", () => keepForLater(), { once: true });
    navigator.serviceWorker.ready.then((registration) => {
      if (navigator.serviceWorker.controller) keepForLater();
      else registration.active?.postMessage({ claim: true });
    });
  }
  if (!self.indexedDB) return;
  document.addEventListener("submit", keepForm);
  document.body.addEventListener("htmx:sendError", showOffline);
  document.body.addEventListener("htmx:sendError", () => serverReached(false));
  document.body.addEventListener("htmx:afterRequest", (event) => {
    if (event.detail.xhr?.status) serverReached(true);
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
  if (sheetOf()) warmEngine();
  const form = document.getElementById("hand-form");
  try {
    if (form && isCopy) await prepareCopy(form);
    if (form) await startFixing(form);
  } finally {
    if (form) form.dataset.ready = "1"; // the kept copy is set up: its dealer and token are the ones to post
  }
  await noteWaiting();
  await showPending();
  await sendOutbox(false);
  await compareWithServer();
  document.getElementById("board")?.setAttribute("data-compared", ""); // what the server stored is compared with the phone's
}

start();
