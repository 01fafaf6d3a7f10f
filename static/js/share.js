// The share page: copy the link with one tap, or hand it to the phone's own share
// menu where the browser has one. Without JavaScript the buttons stay hidden and
// the link can still be selected and copied by hand.
(function () {
  "use strict";
  var link = document.getElementById("link");
  var status = document.getElementById("share-status");
  if (!link || !status) {
    return;
  }
  function say(text) {
    status.textContent = text;
  }
  var copy = document.getElementById("copy-link");
  if (copy) {
    copy.hidden = false;
    copy.addEventListener("click", function () {
      var copied = function () { say(copy.dataset.copied); };
      var byHand = function () {
        link.focus();
        link.select();
        say(document.execCommand && document.execCommand("copy") ? copy.dataset.copied : copy.dataset.failed);
      };
      if (navigator.clipboard && window.isSecureContext) {
        navigator.clipboard.writeText(link.value).then(copied, byHand);
      } else {
        byHand();
      }
    });
  }
  var share = document.getElementById("share-link-menu");
  if (share && navigator.share) {
    share.hidden = false;
    share.addEventListener("click", function () {
      navigator.share({ title: share.dataset.title, url: link.value }).catch(function () {});
    });
  }
})();
