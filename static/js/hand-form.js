/* The hand form at the table. Without this script the form still works: Enter
   saves through the form's first button and the server refuses an incomplete
   hand, listing every missing field; the partner list hides the taker by CSS.

   With it:
   - Enter (the keypad's Next/Go) in a field moves to the next field; in the last
     field it saves, and the server still saves only a complete hand.
   - A field that applies to one game only (a solo's soloist) is on the page,
     hidden, and shows once that game is chosen, without a round trip that
     could drop a tap made meanwhile. The stylesheet does this by itself where
     the browser knows :has; elsewhere this script keeps the "off" class right.
   - Choosing the taker clears a partner choice of the same player (and his own
     Kontra row in a Piccolo or Bettel).
   - A choice that answers something elsewhere (a Besserrufer's bird: its premium
     row, the declarer's side, announced; data-fills) fills it in where the player
     left it empty, and takes back what an earlier choice filled in and the player
     did not touch. The server fills in the same when the script did not run.
   - The bar with the result and Save stays above the on-screen keypad. */
(() => {
  "use strict";

  function handForm() {
    return document.getElementById("hand-form");
  }

  function visible(element) {
    if (element.checkVisibility) {
      return element.checkVisibility({ visibilityProperty: true });
    }
    return element.offsetParent !== null;
  }

  /* Each field once, in the order of the page: a group of radio buttons is one stop. */
  function stops(form) {
    const seen = {};
    const found = [];
    const controls = form.querySelectorAll("#hand-fields input, #hand-fields select, #hand-fields textarea");
    Array.prototype.forEach.call(controls, (control) => {
      if (control.type === "hidden" || control.disabled || control.hasAttribute("data-no-stop")) {
        return;
      }
      if (!visible(control.type === "radio" ? control.parentElement : control)) {
        return;
      }
      const key = control.type === "radio" ? `radio:${control.name}` : control;
      if (control.type === "radio") {
        if (seen[key]) {
          if (control.checked) {
            seen[key].target = control;
          }
          return;
        }
        seen[key] = { key: key, target: control };
        found.push(seen[key]);
        return;
      }
      found.push({ key: key, target: control });
    });
    return found;
  }

  function onEnter(event) {
    const form = handForm();
    const control = event.target;
    if (event.key !== "Enter" || event.isComposing || !form || !form.contains(control)) {
      return;
    }
    if (!control.matches("#hand-fields input, #hand-fields select")) {
      return; /* buttons, links and the fold-outs keep their own Enter */
    }
    event.preventDefault();
    const key = control.type === "radio" ? `radio:${control.name}` : control;
    let next = null;
    stops(form).forEach((stop) => {
      const after = control.compareDocumentPosition(stop.target) & Node.DOCUMENT_POSITION_FOLLOWING;
      if (!next && after && stop.key !== key) {
        next = stop;
      }
    });
    if (next) {
      next.target.focus();
    } else {
      form.requestSubmit(document.getElementById("save"));
    }
  }

  function chosen(form, name) {
    const controls = form.querySelectorAll(`[name="${CSS.escape(name)}"]`);
    for (let i = 0; i < controls.length; i += 1) {
      const control = controls[i];
      if (control.closest("[hidden], .when.off")) {
        continue; /* a choice the page hides is not made (nor sent as made) */
      }
      if (control.tagName === "SELECT" || control.type === "text") {
        return control.value;
      }
      if (control.checked) {
        return control.value;
      }
    }
    return "";
  }

  function showDependents(form) {
    const boxes = form.querySelectorAll("[data-shown-when]");
    Array.prototype.forEach.call(boxes, (box) => {
      const value = chosen(form, box.getAttribute("data-shown-when"));
      box.classList.toggle("off", !value || box.getAttribute("data-shown-for").split(" ").indexOf(value) < 0);
    });
  }

  function seatOf(control) {
    if (control.tagName === "SELECT") {
      const option = control.options[control.selectedIndex];
      return option ? option.getAttribute("data-seat") : null;
    }
    return control.checked ? control.getAttribute("data-seat") : null;
  }

  function radio(form, name, value) {
    return form.querySelector(`input[name="${CSS.escape(name)}"][value="${CSS.escape(value)}"]`);
  }

  function fillsOf(control) {
    return (control.getAttribute("data-fills") || "")
      .split(" ")
      .filter(Boolean)
      .map((pair) => {
        const at = pair.indexOf("=");
        return [pair.slice(0, at), pair.slice(at + 1)];
      });
  }

  /* Each choice that fills something in and is chosen where the page shows it
     fills its inputs the player left empty; every other one takes back what it
     filled and the player did not touch (a Besserrufer changed to a Rufer). */
  function applyFills(form, control) {
    Array.prototype.forEach.call(form.querySelectorAll(`[name="${CSS.escape(control.name)}"]`), (input) => {
      input.removeAttribute("data-filled"); /* tapped by the player: his answer */
    });
    const active = [];
    Array.prototype.forEach.call(form.querySelectorAll("input[data-fills]"), (input) => {
      if (input.checked && !input.closest("[hidden], .when.off")) {
        active.push(input);
        return;
      }
      fillsOf(input).forEach((pair) => {
        const filled = radio(form, pair[0], pair[1]);
        if (filled?.checked && filled.hasAttribute("data-filled")) {
          const none = radio(form, pair[0], "");
          filled.checked = false;
          if (none) {
            none.checked = true;
          }
        }
        if (filled) {
          filled.removeAttribute("data-filled");
        }
      });
    });
    active.forEach((input) => {
      fillsOf(input).forEach((pair) => {
        const target = radio(form, pair[0], pair[1]);
        const answered = form.querySelector(`input[name="${CSS.escape(pair[0])}"]:checked:not([value=""])`);
        if (target && !answered) {
          target.checked = true;
          target.setAttribute("data-filled", "");
        }
      });
    });
  }

  /* Runs before htmx sends the preview (capture phase), so the preview never sees
     a taker who is his own partner. */
  function onChange(event) {
    const form = handForm();
    const control = event.target;
    if (!form?.contains(control)) {
      return;
    }
    if (control.closest(".seat-source")) {
      const seat = seatOf(control);
      const partners = form.querySelectorAll(".seat-other input:checked");
      Array.prototype.forEach.call(partners, (partner) => {
        if (seat && partner.getAttribute("data-seat") === seat) {
          partner.checked = false;
        }
      });
      /* The declarer kontras nobody: his own row (hidden) goes back to none. */
      const own = form.querySelector(`.seat-row[data-row-seat="${seat}"] input[value="0"]`);
      if (seat && own) {
        own.checked = true;
      }
    }
    showDependents(form);
    applyFills(form, control);
    showDependents(form);
  }

  /* Keep the bar above the keypad where the browser does not shrink the page for it. */
  function liftAboveKeypad() {
    const view = window.visualViewport;
    if (!view) {
      return;
    }
    const hidden = Math.max(0, Math.round(window.innerHeight - view.height - view.offsetTop));
    document.documentElement.style.setProperty("--keypad", `${hidden}px`);
  }

  document.addEventListener("keydown", onEnter);
  document.addEventListener("change", onChange, true);
  document.addEventListener("htmx:afterSettle", () => {
    const form = handForm();
    if (form) {
      showDependents(form);
    }
  });
  if (window.visualViewport) {
    window.visualViewport.addEventListener("resize", liftAboveKeypad);
    window.visualViewport.addEventListener("scroll", liftAboveKeypad);
  }
  const form = handForm();
  if (form) {
    showDependents(form);
  }
})();
