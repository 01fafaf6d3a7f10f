// "Scroll to me" and friends (TOURNAMENTS.md §14.3): every table that says which
// circuit it belongs to (data-circuit) marks the row of the number this phone
// gave on "Mein Tag" (aria-current and a visible "du") and the rows of the
// numbers it follows ("Freund"), and scrolls to her row once when the page opens.
// The numbers are kept in the circuit's cookies, which the server reads too: a
// page it draws for one phone only marks the rows itself. The board's ranking
// comes again by htmx when something changed; its rows are marked again then,
// without scrolling.

const LABEL = "me-label";

function cookie(name) {
  for (const part of document.cookie.split(";")) {
    const [key, ...value] = part.trim().split("=");
    if (key === name) return decodeURIComponent(value.join("="));
  }
  return "";
}

function kept(circuit) {
  const me = cookie(`tarock_me_${circuit}`).replaceAll('"', "");
  const friends = cookie(`tarock_friends_${circuit}`).replaceAll('"', "").split("-").filter(Boolean);
  return { me, friends };
}

function label(row, table, text) {
  let found = row.querySelector(`.${LABEL}`);
  if (!text) {
    found?.remove();
    return;
  }
  if (!found) {
    found = document.createElement("span");
    found.className = `badge ${LABEL}`;
    const cell = row.cells[Number(table.dataset.nameCol || 0)] || row.cells[0];
    cell.append(" ", found);
  }
  found.textContent = text;
}

function visible(element) {
  return element.getClientRects().length > 0;
}

export function mark(root = document, scroll = false) {
  let target = null;
  for (const table of root.querySelectorAll("table[data-circuit]")) {
    const circuit = table.dataset.circuit;
    if (!circuit) continue;
    const { me, friends } = kept(circuit);
    for (const row of table.querySelectorAll("tr[data-nr]")) {
      const number = row.dataset.nr;
      const mine = Boolean(number) && number === me;
      const friend = Boolean(number) && !mine && friends.includes(number);
      row.classList.toggle("me", mine);
      row.classList.toggle("friend", friend);
      if (mine) row.setAttribute("aria-current", "true");
      else row.removeAttribute("aria-current");
      label(row, table, mine ? table.dataset.meLabel : friend ? table.dataset.friendLabel : "");
      if (mine && !target && visible(row)) target = row;
    }
  }
  if (scroll && target && !window.location.hash) {
    target.scrollIntoView({ block: "center" });
  }
  return target;
}

mark(document, true);
document.addEventListener("htmx:afterSettle", () => {
  mark(document, false);
});
