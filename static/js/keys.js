/* Keys a phone's number keypad lacks, beside the fields that need them
   (templates/_keys.html): "±" changes a signed number's sign (the iPhone's
   decimal keypad has no minus), "/" types the slash of points and Blatt
   ("41/2"). Without this script the field keeps the full keyboard (inputmode
   text), which has both; with it, the field gets the digits keypad it names in
   data-keypad and the key is shown. A tap on the key keeps the field focused,
   so the keypad stays up. */
(function () {
  "use strict";

  function wake(root) {
    Array.prototype.forEach.call(root.querySelectorAll("input[data-keypad]"), function (input) {
      input.setAttribute("inputmode", input.getAttribute("data-keypad"));
    });
    Array.prototype.forEach.call(root.querySelectorAll("button.key[hidden]"), function (key) {
      key.hidden = false;
    });
  }

  function press(key, input) {
    var value = input.value;
    if (key === "sign") {
      var signed = /^\s*[-\u2212]/.test(value);
      input.value = signed ? value.replace(/^\s*[-\u2212]\s*/, "") : "-" + value.replace(/^\s+/, "");
      input.setSelectionRange(input.value.length, input.value.length);
    } else {
      var start = input.selectionStart === null ? value.length : input.selectionStart;
      var end = input.selectionEnd === null ? value.length : input.selectionEnd;
      input.value = value.slice(0, start) + key + value.slice(end);
      input.setSelectionRange(start + key.length, start + key.length);
    }
    input.dispatchEvent(new Event("input", { bubbles: true }));
  }

  document.addEventListener("pointerdown", function (event) {
    if (event.target.closest && event.target.closest("button.key[data-for]")) {
      event.preventDefault(); /* the field keeps the focus, the keypad stays up */
    }
  }, true);
  document.addEventListener("click", function (event) {
    var key = event.target.closest && event.target.closest("button.key[data-for]");
    var input = key && document.getElementById(key.getAttribute("data-for"));
    if (!input) {
      return;
    }
    event.preventDefault();
    input.focus();
    press(key.getAttribute("data-key"), input);
  });
  document.addEventListener("htmx:afterSettle", function (event) {
    wake(event.target || document);
  });
  wake(document);
})();
