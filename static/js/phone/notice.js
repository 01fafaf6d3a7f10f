/* "Offline — showing the state of 21:40": the note that the server cannot be
 * reached, and the preview scored on the phone meanwhile. */

import { config, eveningData, isCopy, root, say } from "./contract.js";
import { element } from "./dom.js";
import { previewOffline } from "./preview.js";

// "Offline — showing the state of 21:40": the time the server drew this page.
export function showOffline() {
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

export function hideOffline() {
  if (!isCopy) document.getElementById("offline-note")?.remove();
}
