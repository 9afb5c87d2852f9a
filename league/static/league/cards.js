// Cards as pictures, from the transcript's card notation (TRANSCRIPT.md): "10H", "QS", "JK";
// on the presidents deck "1".."12", "B", "BR", "DG". Used by the replay and the entry page.
(function () {
  var SUITS = {C: ["♣", "clubs"], S: ["♠", "spades"], D: ["♦", "diamonds"], H: ["♥", "hearts"]};
  var RANKS = {J: "jack", Q: "queen", K: "king", A: "ace"};
  // RULES.md, presidents-deck: the numbered cards' names.
  var PRESIDENTS = {1: "Turd", 2: "Couch Potato", 3: "Citizen", 5: "Police", 7: "Governor",
                    10: "Speaker of the House", 11: "Vice President", 12: "President"};
  var SPECIALS = {B: ["Bomb", "bomb"], BR: ["Bomb Reverse", "bomb"], DG: ["Doppelgänger", "wild"]};

  function el(tag, cls, text) {
    var e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text !== undefined) e.textContent = text;
    return e;
  }

  // RULES.md, presidents-deck: the numbered cards' names, and the short form the corner shows.
  var SHORT = {1: "Turd", 2: "Couch", 3: "Cit", 5: "Pol", 7: "Gov", 10: "Spkr", 11: "VP", 12: "Pres",
               B: "Bomb", BR: "Rev", DG: "Dopp"};

  // One card: a corner index (rank over suit or short name) that shows when cards overlap,
  // a big pip for a card seen whole, and a spoken label.
  function card(token, presidents) {
    var c = el("span", "card"), corner = el("span", "corner"), label, rank, mark, pip;
    c.setAttribute("role", "img");
    if (presidents) {
      var special = SPECIALS[token];
      rank = token;
      mark = SHORT[token] || "";
      pip = "";
      if (special) { c.classList.add(special[1]); label = special[0]; }
      else { c.classList.add("numbered"); label = token + (PRESIDENTS[token] ? " " + PRESIDENTS[token] : ""); }
    } else if (token === "JK") {
      c.classList.add("joker");
      rank = "JK"; mark = "★"; pip = "★"; label = "Joker";
    } else {
      var suitLetter = token.slice(-1), suit = SUITS[suitLetter] || ["?", "?"];
      rank = token.slice(0, -1); mark = suit[0]; pip = suit[0];
      if (suitLetter === "D" || suitLetter === "H") c.classList.add("red");
      label = (RANKS[rank] || rank) + " of " + suit[1];
    }
    corner.append(el("span", "rank", rank), el("span", "mark", mark));
    c.append(corner, el("span", "pip", pip));
    c.setAttribute("aria-label", label);
    c.title = label;
    return c;
  }

  // Replace ``container``'s content with the cards (or a word when there are none).
  function render(container, tokens, presidents, empty) {
    container.replaceChildren();
    container.classList.toggle("presidents", !!presidents);
    if (!tokens.length) { container.append(el("span", "no-cards", empty || "no cards")); return; }
    tokens.forEach(function (t) { container.append(card(t, presidents)); });
  }

  window.Cards = {card: card, render: render};
})();
