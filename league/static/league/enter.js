// Result entry on a phone. Every form works without script; with it:
// - tapping a player fills the next empty "Nth out" select (tap again to free that place; no
//   one else moves), and the tapped order survives a reload; correcting a deal, each player's
//   place is chosen by its own buttons, a place someone has swapping the two;
// - the action bar at the screen's foot says the order so far;
// - a confirmed deal goes through the outbox (outbox.js): kept on the phone until the server
//   has judged it, so a lost connection loses nothing;
// - with no connection, the order is checked on the phone with the roles and exchange the
//   server gave for each position (#by-position), and kept to send later;
// - undo and deleting an earlier deal ask in a dialog; the leave/join preview replaces its
//   section in place;
// - correcting an earlier deal uses the same tapping, prefilled with its order; it needs a
//   connection (the server checks it and works the totals out again);
// - a service worker keeps the page and its assets for offline use.
(function () {
  var page = document.getElementById("entry");
  if (!page) return;
  var here = page.dataset.page;  // the entry page; each thing done on it posts to its own address
  var record = page.dataset.record;  // where a deal is recorded (the outbox sends it there)
  // The page again after a deal, still knowing the page the organiser came from (its "next").
  var again = page.dataset.again || here;
  var offline = page.dataset.offline === "1";
  var note = document.getElementById("offline-note");

  function isOffline() { return offline || !navigator.onLine; }
  function showNote() { note.hidden = !isOffline(); }
  if (offline) {  // a copy kept by the service worker: its messages are old news
    var old = document.querySelector(".messages");
    if (old) old.remove();
  }
  showNote();
  window.addEventListener("offline", showNote);
  window.addEventListener("online", function () { offline = false; showNote(); });

  // Tapping players in order.
  var form = document.getElementById("order-form");
  var selects = form ? Array.prototype.slice.call(form.querySelectorAll(".places select")) : [];
  var buttons = form ? Array.prototype.slice.call(form.querySelectorAll("#taps button")) : [];
  var saved = "league-order:" + here;
  var correcting = Boolean(form && form.dataset.correct);  // an earlier deal, prefilled

  var picks = form ? Array.prototype.slice.call(form.querySelectorAll("#place-picks button")) : [];
  var line = document.getElementById("order-line");

  function placeOf(player) {
    return selects.findIndex(function (s) { return s.value === player; });
  }

  function orderLine() {
    var ids = selects.map(function (s) { return s.value; });
    var left = ids.filter(function (id) { return id === ""; }).length;
    if (left === ids.length) return "Tap the players in the order they went out.";
    var said = [];
    ids.forEach(function (id, i) {
      if (id === "") return;
      said.push((i + 1) + " " + nameOf(id));
    });
    return said.join(" · ") + (left ? " · " + left + " more to tap" : "");
  }

  function refresh() {
    buttons.forEach(function (b) {
      var at = placeOf(b.dataset.player);
      b.setAttribute("aria-pressed", at >= 0 ? "true" : "false");
      b.dataset.place = at >= 0 ? String(at + 1) : "";
      b.textContent = b.dataset.name + (at >= 0 ? " — " + (at + 1) : "");
    });
    picks.forEach(function (b) {
      var chosen = placeOf(b.dataset.player) === Number(b.dataset.place) - 1;
      b.setAttribute("aria-pressed", chosen ? "true" : "false");
    });
    if (line) line.textContent = orderLine();
    if (correcting) return;
    sessionStorage.setItem(saved, JSON.stringify(selects.map(function (s) { return s.value; })));
  }

  // A place chosen for a player: whoever had it takes the player's old place.
  function choosePlace(player, place) {
    var was = placeOf(player);
    var other = selects[place].value;
    selects[place].value = player;
    if (was >= 0 && was !== place) selects[was].value = other;
    refresh();
  }

  function clearOrder() {
    selects.forEach(function (s) { s.value = ""; });
    refresh();
  }

  if (form) {
    buttons.forEach(function (b) {
      b.dataset.name = b.textContent;
      b.addEventListener("click", function () {
        var at = placeOf(b.dataset.player);
        if (at >= 0) {
          selects[at].value = "";  // their place is free again; no one else moves
        } else {
          var free = selects.find(function (s) { return s.value === ""; });
          if (free) free.value = b.dataset.player;
        }
        refresh();
      });
    });
    picks.forEach(function (b) {
      b.addEventListener("click", function () {
        choosePlace(b.dataset.player, Number(b.dataset.place) - 1);
      });
    });
    selects.forEach(function (s) { s.addEventListener("change", refresh); });
    document.getElementById("clear-order").addEventListener("click", clearOrder);
    var before = JSON.parse(sessionStorage.getItem(saved) || "null");
    var untouched = selects.every(function (s) { return s.value === ""; });
    if (!correcting && untouched && before && before.length === selects.length) {
      selects.forEach(function (s, i) {
        if (s.querySelector('option[value="' + before[i] + '"]')) s.value = before[i];
      });
    }
    // Each deal sent gets its own key, even from a page kept offline and used twice.
    form.querySelector('input[name="token"]').value = Outbox.newKey();
    // The buttons replace the selects (still what is posted); correcting, the place buttons.
    document.getElementById(picks.length ? "place-picks" : "taps").hidden = false;
    document.getElementById("tap-help").hidden = false;
    document.getElementById("clear-order").hidden = picks.length > 0;
    form.querySelector(".places").hidden = !form.querySelector(".places .errorlist");
    line.hidden = false;
    refresh();
    form.addEventListener("submit", function (e) {
      if (!isOffline()) return;
      e.preventDefault();
      if (correcting) {
        alertIn(form, "Correcting a deal needs a connection: the server checks it. Try " +
                      "again when online.");
        return;
      }
      checkOffline();
    });
  }

  // The check of a deal without the server.
  var check = document.getElementById("offline-check");
  function nameOf(id) {
    var b = buttons.find(function (x) { return x.dataset.player === id; });
    return b ? b.dataset.name : id;
  }
  function nextNumber() {
    return Number(page.dataset.deal) + Outbox.waiting(here).length;
  }

  // The deals this page keeps to send: the page moves on to the deal after them, its dealer
  // (#dealing, the engine's rule for this table), exchange and roles (#by-position), as the
  // server will say them once it has the deals, saying that they wait to be sent.
  function orderOf(item) {  // the kept deal's players, first out first, as its form posts them
    var ids = [];
    for (var i = 1; item.fields["place_" + i]; i++) ids.push(item.fields["place_" + i]);
    return ids;
  }
  function showKept() {
    var box = document.getElementById("next");
    var dealing = document.getElementById("dealing");
    var kept = Outbox.waiting(here);
    if (!box || !dealing || !kept.length) return;
    dealing = JSON.parse(dealing.textContent);
    var rules = JSON.parse(document.getElementById("by-position").textContent);
    var dealer = dealing.dealer;
    kept.forEach(function (item) {
      var ids = orderOf(item);
      dealer = (dealing.after[dealer] || {})[ids[ids.length - 1]];
    });
    var last = orderOf(kept[kept.length - 1]);
    var number = nextNumber();
    document.querySelector("h1").textContent = page.dataset.game + ": deal " + number;
    box.textContent = "";
    var heading = document.createElement("h2");
    heading.id = "next-h";
    heading.textContent = "Before deal " + number;
    box.appendChild(heading);
    if (dealer) {
      var deals = document.createElement("p");
      var who = document.createElement("strong");
      who.appendChild(isolated(nameOf(dealer)));
      deals.append(who, " deals.");
      box.appendChild(deals);
    }
    var note = document.createElement("p");
    note.className = "kept-note";
    var numbers = kept.map(function (item) { return String(item.number); });
    note.textContent = (numbers.length === 1 ? "Deal " + numbers[0] + " is"
      : "Deals " + numbers.slice(0, -1).join(", ") + " and " + numbers[numbers.length - 1] +
        " are") + " kept on this phone, waiting to be sent; the server checks " +
      (numbers.length === 1 ? "it" : "them") + " when the connection returns.";
    box.appendChild(note);
    if (rules.exchange_in_preset) {
      var said = document.createElement("p");
      said.textContent = "Exchange:";
      var list = document.createElement("ul");
      list.className = "exchange";
      rules.exchanges.forEach(function (x) {
        var li = document.createElement("li");
        li.append(isolated(nameOf(last[x[0]])), " gives ", isolated(nameOf(last[x[1]])),
                  " " + x[2] + " card" + (x[2] === 1 ? "" : "s"));
        list.appendChild(li);
      });
      if (!rules.exchanges.length) list.append(document.createElement("li"));
      if (!rules.exchanges.length) list.lastChild.textContent = "none";
      box.append(said, list);
    }
    var roles = document.createElement("p");
    roles.className = "ranking";
    roles.append("Roles: ");
    last.forEach(function (id, i) {
      roles.append(i ? " · " : "", isolated(nameOf(id)), " " + rules.roles[i]);
    });
    box.appendChild(roles);
  }

  function checkOffline() {
    var ids = selects.map(function (s) { return s.value; });
    if (ids.indexOf("") >= 0) {
      alertIn(form, "Tap every player, in the order they went out.");
      return;
    }
    if (new Set(ids).size !== ids.length) {
      alertIn(form, "Each player finishes once.");
      return;
    }
    var rules = JSON.parse(document.getElementById("by-position").textContent);
    var rows = check.querySelector("tbody");
    rows.textContent = "";
    ids.forEach(function (id, i) {
      var tr = document.createElement("tr");
      [String(i + 1), nameOf(id), rules.roles[i]].forEach(function (text) {
        var td = document.createElement("td");
        td.textContent = text;
        tr.appendChild(td);
      });
      rows.appendChild(tr);
    });
    var exchange = check.querySelector(".offline-exchange");
    exchange.textContent = "";
    var p = document.createElement("p");
    if (!rules.exchange_in_preset) {
      p.textContent = "No card exchange in this preset.";
    } else {
      p.append("Next exchange: ");
      rules.exchanges.forEach(function (x, i) {
        p.append(i ? "; " : "", isolated(nameOf(ids[x[0]])), " gives ",
                 isolated(nameOf(ids[x[1]])), " " + x[2] + " card" + (x[2] === 1 ? "" : "s"));
      });
      p.append(rules.exchanges.length ? "." : "none.");
    }
    exchange.appendChild(p);
    check.querySelectorAll(".deal-number").forEach(function (n) {
      n.textContent = String(nextNumber());
    });
    form.hidden = true;
    check.hidden = false;
    check.querySelector("h2").focus();
  }

  // A name in a sentence, isolated so a right-to-left name keeps the words in order.
  function isolated(name) {
    var bdi = document.createElement("bdi");
    bdi.textContent = name;
    return bdi;
  }

  function alertIn(where, text) {
    var p = where.querySelector(".js-alert") || document.createElement("p");
    p.className = "error js-alert";
    p.setAttribute("role", "alert");
    p.textContent = text;
    where.prepend(p);
  }

  function fieldsOf(theForm) {
    var fields = {};
    new FormData(theForm).forEach(function (value, name) { fields[name] = value; });
    return fields;
  }

  if (check) {
    check.querySelector("h2").tabIndex = -1;
    document.getElementById("offline-change").addEventListener("click", function () {
      check.hidden = true;
      form.hidden = false;
    });
    document.getElementById("offline-confirm").addEventListener("click", function () {
      var ids = selects.map(function (s) { return s.value; });
      var number = nextNumber();
      // The deal this is, counted on from the page's: the server refuses it if another phone
      // has recorded that deal meanwhile.
      var fields = fieldsOf(form);
      fields.number = String(number);
      fields.kept_offline = "1";
      Outbox.add({
        key: form.querySelector('input[name="token"]').value, url: record, page: here,
        game: page.dataset.game, number: number, order: ids.map(nameOf).join(", "),
        fields: fields
      });
      form.querySelector('input[name="token"]').value = Outbox.newKey();
      clearOrder();
      check.hidden = true;
      form.hidden = false;
      showKept();
      document.getElementById("outbox").scrollIntoView();
    });
  }

  showKept();

  // Confirming the server's check: through the outbox, so a lost connection loses nothing.
  var confirmForm = document.querySelector("form.confirm-form");
  if (confirmForm) {
    confirmForm.addEventListener("submit", function (e) {
      e.preventDefault();
      var fields = fieldsOf(confirmForm);
      var key = fields.token;
      confirmForm.querySelector("button").disabled = true;
      Outbox.add({key: key, url: record, page: here, game: page.dataset.game,
                  number: Number(confirmForm.dataset.deal), order: confirmForm.dataset.order,
                  fields: fields}).then(function () {
        var left = Outbox.waiting().some(function (i) { return i.key === key; });
        if (!left) {
          sessionStorage.removeItem(saved);
          location.replace(again);
          return;
        }
        var section = confirmForm.closest("section");
        section.textContent = "";
        var p = document.createElement("p");
        p.textContent = "Deal " + confirmForm.dataset.deal + " is kept on this phone and will " +
          "be sent when the connection returns.";
        var next = document.createElement("a");
        next.href = again;
        next.className = "button primary";
        next.textContent = "Enter the next deal";
        section.append(p, next);
        sessionStorage.removeItem(saved);
      });
    });
  }

  // Deals sent or refused in the background: show the page as the server now has it (a deal
  // refused as a conflict leaves its next deal elsewhere), unless the organiser is in the
  // middle of tapping an order (the taps would survive, a check not). A deal held (this phone
  // may not enter deals now) leaves the page be: reloaded, it would be refused.
  function busy() {
    // The confirm form is gone once its deal was kept to send later.
    return Boolean((confirmForm && confirmForm.isConnected) ||
                   document.getElementById("correct") || (check && !check.hidden) ||
                   selects.some(function (s) { return s.value !== ""; }));
  }
  Outbox.onChange(function (event) {
    var judged = event.sent || (event.refused && event.refused.state !== "held" && event.refused);
    if (!judged || judged.page !== here) return;
    Outbox.flush().then(function () {  // once the other waiting deals have gone too
      if (!busy()) location.replace(again);
    });
  });

  // A copy kept offline is replaced by the server's page once the server answers again
  // (asked for the service worker's script: the one address the worker never answers).
  function backOnline() {
    fetch(page.dataset.serviceWorker, {cache: "no-store", credentials: "same-origin"})
      .then(function (response) {
        if (!response.ok) throw new Error(String(response.status));
        return Outbox.flush();  // not away while a deal is on its way
      }).then(function () {
        if (!busy()) location.replace(again);
      }).catch(function () { setTimeout(backOnline, 5000); });
  }
  if (offline) {
    window.addEventListener("online", backOnline);
    if (navigator.onLine) setTimeout(backOnline, 1000);
  }

  // Undo and deleting ask first; both need the server (offline, the browser would leave the
  // page for its own error page).
  [["undo-ask", "undo-dialog", "Undoing"], ["delete-ask", "delete-dialog", "Deleting"]]
    .forEach(function (ids) {
      var ask = document.getElementById(ids[0]);
      var dialog = document.getElementById(ids[1]);
      if (ask && dialog && dialog.showModal) {
        ask.addEventListener("submit", function (e) {
          e.preventDefault();
          dialog.showModal();
        });
      }
      var yes = dialog && dialog.querySelector('form[method="post"]');
      if (yes) {
        yes.addEventListener("submit", function (e) {
          if (!isOffline()) return;
          e.preventDefault();
          alertIn(yes, ids[2] + " a deal needs a connection: the server checks it. Try " +
                       "again when online.");
        });
      }
    });

  // The list of deals asked for by a link (the admin's game page): shown unfolded.
  var list = document.querySelector("#deals details");
  if (list && location.hash === "#deals") list.open = true;

  // A deal asked for from the list of deals: its correction, where the organiser looks.
  var correct = document.getElementById("correct");
  if (correct && location.hash === "#correct") {
    var heading = correct.querySelector("h2");
    heading.tabIndex = -1;
    heading.focus();
  }

  // Leaving and joining: the preview replaces its section, where the organiser is looking.
  function bindSeats(section) {
    var seatForm = section.querySelector("#seat-form");
    var cancel = section.querySelector("#seat-cancel");
    var apply = section.querySelector('form[method="post"]:not(#seat-form)');  // the confirm
    if (apply) {
      apply.addEventListener("submit", function (e) {
        if (!isOffline()) return;
        e.preventDefault();
        alertIn(apply, "Leaving and joining need a connection: the server checks them. " +
                       "Try again when online.");
      });
    }
    if (seatForm) {
      seatForm.addEventListener("submit", function (e) {
        e.preventDefault();
        fetch(seatForm.action, {method: "POST", body: new FormData(seatForm),
                                credentials: "same-origin"})
          .then(function (response) { return response.text(); })
          .then(function (html) {
            var fresh = new DOMParser().parseFromString(html, "text/html")
              .getElementById("seats");
            if (!fresh) {
              // A refusal (its table link stopped, its session lapsed): the server's page,
              // posted again by the form itself (a preview changes nothing).
              seatForm.submit();
              return;
            }
            fresh = document.importNode(fresh, true);
            section.replaceWith(fresh);
            bindSeats(fresh);
            var heading = fresh.querySelector("h3, .error, h2");
            heading.tabIndex = -1;
            heading.focus();
          }, function () {
            alertIn(seatForm, "Leaving and joining need a connection: the server checks " +
                              "them. Try again when online.");
          });
      });
    }
    if (cancel) {
      cancel.addEventListener("submit", function (e) {
        e.preventDefault();
        // The page as it was, still knowing where the organiser came from (its "next").
        var asked = here + "?" + new URLSearchParams(new FormData(cancel));
        fetch(asked, {credentials: "same-origin"}).then(function (r) { return r.text(); })
          .then(function (html) {
            var fresh = new DOMParser().parseFromString(html, "text/html")
              .getElementById("seats");
            fresh = document.importNode(fresh, true);
            section.replaceWith(fresh);
            bindSeats(fresh);
          }).catch(function () { location.assign(asked + "#seats"); });
      });
    }
  }
  var seats = document.getElementById("seats");
  if (seats) bindSeats(seats);

  // The service worker keeps this page and its assets for use with no connection.
  if ("serviceWorker" in navigator && page.dataset.serviceWorker) {
    navigator.serviceWorker.register(page.dataset.serviceWorker).then(function () {
      return navigator.serviceWorker.ready;
    }).then(function (registration) {
      if (!offline && registration.active) registration.active.postMessage({keep: here});
    }).catch(function () { /* no offline copy: the page still works online */ });
  }
})();
