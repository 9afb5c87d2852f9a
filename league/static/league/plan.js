// The plan's table cards (league/night/plan.html): tap one person, then another of the same
// round, and the swap form is sent with those two, as if chosen in its drop-downs (which stay
// for keyboards and pages without scripts). Tapping the first person again lets them go.
(function () {
  "use strict";
  var form = document.getElementById("swap-form");
  if (!form) return;
  var picked = null;
  document.querySelectorAll(".tap-hint").forEach(function (hint) { hint.hidden = false; });
  document.querySelectorAll("button.pick").forEach(function (button) {
    button.classList.add("tappable");
    button.addEventListener("click", function () {
      if (picked === button) {
        button.setAttribute("aria-pressed", "false");
        picked = null;
      } else if (picked === null || picked.dataset.round !== button.dataset.round) {
        if (picked) picked.setAttribute("aria-pressed", "false");
        button.setAttribute("aria-pressed", "true");
        picked = button;
      } else {
        button.setAttribute("aria-pressed", "true");
        form.elements.swap_round.value = button.dataset.round;
        form.elements.swap_a.value = picked.dataset.person;
        form.elements.swap_b.value = button.dataset.person;
        form.submit();
      }
    });
  });
})();
