// Step through a replay the server computed with the engine (JSON in #replay-data): the table
// with every hand as cards, the pile, who passed, who is out and the special rules that fired.
(function () {
  var source = document.getElementById("replay-data");
  if (!source) return;
  var data = JSON.parse(source.textContent);
  var steps = data.steps, at = 0;
  var range = document.getElementById("step-range");
  var ORDINALS = ["1st", "2nd", "3rd"];
  function text(id, value) { document.getElementById(id).textContent = value; }
  function ordinal(n) { return ORDINALS[n - 1] || n + "th"; }
  function show(i) {
    at = Math.max(0, Math.min(steps.length - 1, i));
    var s = steps[at];
    text("step-number", at + 1);
    text("step-shown", "Deal " + s.deal + " · " + s.text);
    text("step-said", "Deal " + s.deal + ": " + s.said);
    text("step-events", s.events.length ? s.events.join("; ") : "–");
    Cards.render(document.getElementById("step-pile"), s.pile, data.presidents, "empty");
    text("step-out", s.out.length ? s.out.join(", ") : "–");
    range.value = at + 1;
    decided(s.decided || []);
    document.querySelectorAll("#step-hands li").forEach(function (li, seat) {
      var hand = s.hands[seat], out = s.out_seats.indexOf(seat), badge = "";
      Cards.render(li.querySelector(".hand"), hand, data.presidents, out >= 0 ? "out" : "no cards");
      li.querySelector(".count").textContent = hand.length + (hand.length === 1 ? " card" : " cards");
      if (out >= 0) badge = out === s.hands.length - 1 ? "last" : "out " + ordinal(out + 1);
      else if (s.turn === seat) badge = "to play";
      else if (s.passed.indexOf(seat) >= 0) badge = "passed";
      var b = li.querySelector(".badge");
      b.textContent = badge;
      b.className = "badge" + (badge ? " " + badge.split(" ")[0].replace(/ /g, "-") : "");
      li.classList.toggle("turn", s.turn === seat);
      li.classList.toggle("acted", s.seat === seat);
      if (s.turn === seat) li.setAttribute("aria-current", "step"); else li.removeAttribute("aria-current");
    });
  }
  // Each seat's decision at this step: its time, a safe move played for it, its own logs
  // (only its author's page has them), always as text.
  function decided(marks) {
    var box = document.getElementById("step-decided");
    box.replaceChildren();
    marks.forEach(function (m) {
      var p = document.createElement("p");
      p.textContent = m.bot + ": " + Math.round(m.ms) + " ms" + (m.safe ? ", safe move played for it" : "");
      if (m.safe) p.className = "safe";
      box.appendChild(p);
      m.logs.forEach(function (log) {
        var pre = document.createElement("pre");
        pre.className = "log";
        pre.textContent = log;
        box.appendChild(pre);
      });
    });
  }
  // A link to "#step-N" (a fault's, a log's) opens the replay at the game's step N; a replay
  // of one deal starts at the game's step data.first.
  function fromHash() {
    var m = /^#step-(\d+)$/.exec(location.hash);
    if (!m) return false;
    show(parseInt(m[1], 10) - (data.first || 1));
    document.getElementById("replay").scrollIntoView();
    return true;
  }
  window.addEventListener("hashchange", fromHash);
  document.getElementById("step-first").addEventListener("click", function () { show(0); });
  document.getElementById("step-prev").addEventListener("click", function () { show(at - 1); });
  document.getElementById("step-next").addEventListener("click", function () { show(at + 1); });
  document.getElementById("step-last").addEventListener("click", function () { show(steps.length - 1); });
  range.addEventListener("input", function () { show(parseInt(range.value, 10) - 1); });
  document.addEventListener("keydown", function (e) {
    if (e.target.tagName === "TEXTAREA" || (e.target.tagName === "INPUT" && e.target !== range)) return;
    var moves = {ArrowRight: at + 1, ArrowLeft: at - 1, Home: 0, End: steps.length - 1};
    if (!(e.key in moves) || e.altKey || e.ctrlKey || e.metaKey) return;
    e.preventDefault();
    show(moves[e.key]);
  });
  if (!fromHash()) show(0);
})();
