/* Drawing on the page: an element with its attributes and children, the form's
 * address and the CSRF token the forms send (the phone's scripts, static/js/phone/). */

import { config } from "./contract.js";

// The CSRF token, from the cookie the server names (#offline-config).
export function csrf() {
  const name = `${config.csrfCookie}=`;
  const found = document.cookie
    .split(";")
    .map((part) => part.trim())
    .find((part) => part.startsWith(name));
  return found ? decodeURIComponent(found.slice(name.length)) : "";
}

export function element(tag, attributes, ...children) {
  const made = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes || {})) made.setAttribute(name, value);
  made.append(...children.filter((child) => child !== null && child !== undefined));
  return made;
}

// A form's address (form.action would be its button named "action").
export function addressOf(form) {
  return new URL(form.getAttribute("action") || location.href, location.href);
}

// A row the server drew for the phone (a <template data-phone-row> within ``within``),
// its slots (data-slot) filled: a node, or a list of them, put in; anything else as text.
// A <slot> is replaced by what it holds; any other element keeps it inside.
export function fromTemplate(within, part, slots) {
  const made = templateOf(within, part).content.firstElementChild.cloneNode(true);
  fillSlots(made, slots);
  return made;
}

// All that such a template holds (a preview's paragraphs and lists), its slots filled.
export function allFromTemplate(within, part, slots) {
  const made = templateOf(within, part).content.cloneNode(true);
  fillSlots(made, slots);
  return made;
}

function templateOf(within, part) {
  return within.querySelector(`template[data-phone-row="${CSS.escape(part)}"]`);
}

function fillSlots(made, slots) {
  const found = [...(made.matches?.("[data-slot]") ? [made] : []), ...made.querySelectorAll("[data-slot]")];
  for (const slot of found) {
    const value = slots[slot.dataset.slot];
    const nodes =
      value === undefined
        ? null
        : [value].flat().map((v) => (v instanceof Node ? v : document.createTextNode(String(v))));
    if (slot.tagName === "SLOT") {
      slot.replaceWith(...(nodes || []));
      continue;
    }
    if (nodes) slot.replaceChildren(...nodes);
    slot.removeAttribute("data-slot");
  }
}
