// The club night page: revoking a table link asks in a dialog. Without script, the button
// asks by a GET (?revoke=<link id>) and the page asks the same question at the link.
(function () {
  "use strict";
  document.querySelectorAll("form[data-dialog]").forEach(function (ask) {
    var dialog = document.getElementById(ask.dataset.dialog);
    if (!dialog || !dialog.showModal) return;
    ask.addEventListener("submit", function (e) {
      e.preventDefault();
      dialog.showModal();
    });
  });
})();
