/* Drawing on the page: an element with its attributes and children, the form's
 * address and the CSRF token the forms send (the phone's scripts, static/js/phone/). */

export function csrf() {
  const found = /(?:^|;\s*)csrftoken=([^;]+)/.exec(document.cookie);
  return found ? decodeURIComponent(found[1]) : "";
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
// its slots (data-slot) filled: a node put in, anything else as text.
export function fromTemplate(within, part, slots) {
  const template = within.querySelector(`template[data-phone-row="${part}"]`);
  const made = template.content.firstElementChild.cloneNode(true);
  for (const slot of made.querySelectorAll("[data-slot]")) {
    const value = slots[slot.dataset.slot];
    if (value instanceof Node) slot.replaceChildren(value);
    else if (value !== undefined) slot.textContent = value;
    slot.removeAttribute("data-slot");
  }
  return made;
}
