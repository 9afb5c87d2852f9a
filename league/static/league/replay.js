// Step through a replay the server computed with the engine (JSON in #replay-data).
(function () {
  var source = document.getElementById("replay-data");
  if (!source) return;
  var data = JSON.parse(source.textContent);
  var steps = data.steps, at = 0;
  var range = document.getElementById("step-range");
  function text(id, value) { document.getElementById(id).textContent = value; }
  function show(i) {
    at = Math.max(0, Math.min(steps.length - 1, i));
    var s = steps[at];
    text("step-number", at + 1);
    text("step-text", "Deal " + s.deal + ": " + s.text);
    text("step-events", s.events.length ? s.events.join("; ") : "–");
    text("step-pile", s.pile.length ? s.pile.join(" ") : "empty");
    text("step-out", s.out.length ? s.out.join(", ") : "–");
    range.value = at + 1;
    var items = document.querySelectorAll("#step-hands li");
    items.forEach(function (li, seat) {
      li.querySelector(".cards").textContent = s.hands[seat].length ? s.hands[seat].join(" ") : "(none)";
      li.classList.toggle("turn", s.turn === seat);
      if (s.turn === seat) li.setAttribute("aria-current", "step"); else li.removeAttribute("aria-current");
    });
  }
  document.getElementById("step-first").addEventListener("click", function () { show(0); });
  document.getElementById("step-prev").addEventListener("click", function () { show(at - 1); });
  document.getElementById("step-next").addEventListener("click", function () { show(at + 1); });
  document.getElementById("step-last").addEventListener("click", function () { show(steps.length - 1); });
  range.addEventListener("input", function () { show(parseInt(range.value, 10) - 1); });
  document.addEventListener("keydown", function (e) {
    if (e.target.tagName === "INPUT" || e.target.tagName === "TEXTAREA") return;
    if (e.key === "ArrowRight") show(at + 1);
    if (e.key === "ArrowLeft") show(at - 1);
  });
  show(0);
})();
