/* Keys a phone's number keypad lacks, beside the fields that need them
   (templates/_keys.html): "±" changes a signed number's sign (the iPhone's
   decimal keypad has no minus), "/" types the slash of points and Blatt
   ("41/2"). Without this script the field keeps the full keyboard (inputmode
   text), which has both; with it, the field gets the digits keypad it names in
   data-keypad and the key is shown. A tap on the key keeps the field focused,
   so the keypad stays up. */
(() => {
  "use strict";

  function wake(root) {
    Array.prototype.forEach.call(root.querySelectorAll("input[data-keypad]"), (input) => {
      input.setAttribute("inputmode", input.getAttribute("data-keypad"));
    });
    Array.prototype.forEach.call(root.querySelectorAll("button.key[hidden]"), (key) => {
      key.hidden = false;
    });
  }

  function press(key, input) {
    const value = input.value;
    if (key === "sign") {
      const signed = /^\s*[-\u2212]/.test(value);
      input.value = signed ? value.replace(/^\s*[-\u2212]\s*/, "") : `-${value.replace(/^\s+/, "")}`;
      input.setSelectionRange(input.value.length, input.value.length);
    } else {
      const start = input.selectionStart === null ? value.length : input.selectionStart;
      const end = input.selectionEnd === null ? value.length : input.selectionEnd;
      input.value = value.slice(0, start) + key + value.slice(end);
      input.setSelectionRange(start + key.length, start + key.length);
    }
    input.dispatchEvent(new Event("input", { bubbles: true }));
  }

  document.addEventListener(
    "pointerdown",
    (event) => {
      if (event.target.closest?.("button.key[data-for]")) {
        event.preventDefault(); /* the field keeps the focus, the keypad stays up */
      }
    },
    true,
  );
  document.addEventListener("click", (event) => {
    const key = event.target.closest?.("button.key[data-for]");
    const input = key && document.getElementById(key.getAttribute("data-for"));
    if (!input) {
      return;
    }
    event.preventDefault();
    input.focus();
    press(key.getAttribute("data-key"), input);
  });
  document.addEventListener("htmx:afterSettle", (event) => {
    wake(event.target || document);
  });
  wake(document);
})();
