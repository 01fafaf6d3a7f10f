// A link to hand on (the share page's, an invitation's): copy it with one tap, or
// hand it to the phone's own share menu where the browser has one. Each
// [data-share] box holds the link's input, its buttons and a status line. Without
// JavaScript the buttons stay hidden and the link can still be selected and copied by hand.
(() => {
  "use strict";
  function wire(box) {
    var link = box.querySelector("[data-share-link]");
    var status = box.querySelector("[data-share-status]");
    if (!link || !status) {
      return;
    }
    function say(text) {
      status.textContent = text;
    }
    var copy = box.querySelector("[data-share-copy]");
    if (copy) {
      copy.hidden = false;
      copy.addEventListener("click", () => {
        var copied = () => {
          say(copy.dataset.copied);
        };
        var byHand = () => {
          link.focus();
          link.select();
          say(document.execCommand?.("copy") ? copy.dataset.copied : copy.dataset.failed);
        };
        if (navigator.clipboard && window.isSecureContext) {
          navigator.clipboard.writeText(link.value).then(copied, byHand);
        } else {
          byHand();
        }
      });
    }
    var share = box.querySelector("[data-share-menu]");
    if (share && navigator.share) {
      share.hidden = false;
      share.addEventListener("click", () => {
        navigator.share({ title: share.dataset.title, url: link.value }).catch(() => {});
      });
    }
  }
  Array.prototype.forEach.call(document.querySelectorAll("[data-share]"), wire);
})();
