// Result entry: tapping a player fills the next empty "Nth out" select; tapping them again
// takes them back. The selects stay the real form fields, so the page works without script.
(function () {
  var form = document.getElementById("order-form");
  if (!form) return;
  var taps = document.getElementById("taps");
  var selects = Array.prototype.slice.call(form.querySelectorAll(".places select"));
  var buttons = Array.prototype.slice.call(taps.querySelectorAll("button"));
  function refresh() {
    buttons.forEach(function (b) {
      var at = selects.findIndex(function (s) { return s.value === b.dataset.player; });
      b.setAttribute("aria-pressed", at >= 0 ? "true" : "false");
      b.dataset.place = at >= 0 ? String(at + 1) : "";
      b.textContent = b.dataset.name + (at >= 0 ? " — " + (at + 1) : "");
    });
  }
  buttons.forEach(function (b) {
    b.dataset.name = b.textContent;
    b.addEventListener("click", function () {
      var at = selects.findIndex(function (s) { return s.value === b.dataset.player; });
      if (at >= 0) {
        // Take the player back; those after move up one place.
        for (var i = at; i < selects.length - 1; i++) selects[i].value = selects[i + 1].value;
        selects[selects.length - 1].value = "";
      } else {
        var free = selects.find(function (s) { return s.value === ""; });
        if (free) free.value = b.dataset.player;
      }
      refresh();
    });
  });
  selects.forEach(function (s) { s.addEventListener("change", refresh); });
  document.getElementById("clear-order").addEventListener("click", function () {
    selects.forEach(function (s) { s.value = ""; });
    refresh();
  });
  taps.hidden = false;
  document.getElementById("tap-help").hidden = false;
  document.getElementById("clear-order").hidden = false;
  refresh();
})();
