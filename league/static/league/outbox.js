// Deals confirmed on this phone and not yet stored by the server, kept in localStorage so that
// a reload, a closed tab or a lost connection loses none. Each deal keeps its form token, the
// page's idempotency key (league/services.py deal_record_once): sent twice, it is stored once.
// The server stays the judge: a deal it refuses stays listed with its reason until dismissed.
// Each deal names its number; one the server already has (entered on another phone: 409) is a
// conflict for the organiser to resolve, kept with the server's words, never sent again.
// A deal this phone may not send now (403: its session lapsed, its cookies were cleared, its
// table link was revoked) was not judged: it is held with the reason, and sent again when an
// entry page next loads from the server, which it does once the phone may enter deals again.
(function () {
  var STORE = "league-outbox";
  var sending = null;  // the flush under way
  var flying = null;  // the key of the deal on its way to the server now
  var stopped = null;  // why the last flush stopped with deals left: "connection" or "server"
  var listeners = [];

  function load() {
    try { return (JSON.parse(localStorage.getItem(STORE)) || []).map(current); } catch (e) {
      return [];
    }
  }

  // Each deal names its entry page (page) and where it is recorded (url). A deal kept before
  // each action on the page had its own address named only the page (as url), and was
  // recorded there: it goes to the page's address for recording deals (league/web/urls.py).
  function current(item) {
    if (!item.page) {
      item.page = item.url;
      item.url = item.url + "deal/";
      delete item.fields.action;
    }
    return item;
  }
  function save(items) { localStorage.setItem(STORE, JSON.stringify(items)); }

  function newKey() {
    var bytes = new Uint8Array(16);
    crypto.getRandomValues(bytes);
    return Array.prototype.map.call(bytes, function (b) {
      return b.toString(16).padStart(2, "0");
    }).join("");
  }

  function changed(event) {
    render();
    listeners.forEach(function (listener) { listener(event || {}); });
  }

  function waiting(page) {
    return load().filter(function (item) {
      return item.state === "waiting" && (!page || item.page === page);
    });
  }

  function add(item) {
    var items = load();
    if (!items.some(function (i) { return i.key === item.key; })) {
      item.state = "waiting";
      items.push(item);
      save(items);
    }
    changed();
    return flush();
  }

  // One deal to the server: {sent: answer}, {refused: reason}, {conflict: reason}, or
  // {retry: true} when the server could not judge it (no connection, a server fault).
  // The phone's security token as it is now (Django's CSRF cookie): the one in a deal's form
  // is stale once the cookie was cleared or renewed while the deal waited.
  function csrfToken() {
    var found = document.cookie.split("; ").find(function (c) {
      return c.indexOf("csrftoken=") === 0;
    });
    return found ? found.slice("csrftoken=".length) : null;
  }

  // One deal to the server: {sent: answer}, {refused: reason}, {conflict: reason}, {held:
  // reason} when this phone may not enter deals now, or {retry: why} when the server could
  // not judge it: "connection" (none), "server" (a fault, or too many from this table).
  function send(item) {
    var body = new URLSearchParams(item.fields);
    var headers = {"Accept": "application/json", "Idempotency-Key": item.key};
    var token = csrfToken();
    if (token) {
      body.delete("csrfmiddlewaretoken");
      headers["X-CSRFToken"] = token;
    }
    flying = item.key;
    render();
    return fetch(item.url, {
      method: "POST", body: body, credentials: "same-origin", redirect: "manual",
      headers: headers
    }).then(function (response) {
      // 429: too many from this table link for now (league.web.table_links): sent later.
      if (response.status >= 500 || response.status === 429 ||
          response.type === "opaqueredirect") return {retry: "server"};
      return response.json().catch(function () { return null; }).then(function (data) {
        if (response.ok) return {sent: data};
        if (response.status === 409 && data && data.error) {
          return {conflict: data.error, stored: data.stored};
        }
        if (response.status === 403) {  // our own words when the security check failed
          return {held: data && data.error ? data.error : "this phone's session has ended: " +
                        "scan the code on the table card again, or sign in again"};
        }
        if (data && data.error) return {refused: data.error};
        return {refused: "the server could not read it (error " + response.status + ")"};
      });
    }, function () { return {retry: "connection"}; });
  }

  function settle(key, result) {
    var items = load();
    var at = items.findIndex(function (i) { return i.key === key; });
    if (at < 0) return;
    var item = items[at];
    if (result.sent) {
      items.splice(at, 1);
      save(items);
      changed({sent: item, answer: result.sent});
    } else {
      item.state = result.conflict ? "conflict" : result.held ? "held" : "refused";
      item.reason = result.conflict || result.held || result.refused;
      item.stored = result.stored || null;  // the stored deal's order, for a conflict
      save(items);
      changed({refused: item});
    }
  }

  // Send the waiting deals in the order they were confirmed; stop at the first that cannot
  // be judged now (they are tried again when the connection returns).
  function flush() {
    if (sending) return sending;
    if (!navigator.onLine) {  // surely offline: tried when the "online" event comes
      stopped = "connection";
      render();
      return Promise.resolve();
    }
    function next() {
      var item = waiting()[0];
      if (!item) return Promise.resolve();
      return send(item).then(function (result) {
        flying = null;
        if (result.retry) {
          stopped = result.retry;
          render();
          return undefined;
        }
        stopped = null;
        settle(item.key, result);
        return next();
      });
    }
    sending = next().then(function () { sending = null; }, function () { sending = null; });
    return sending;
  }

  // The deals held because this phone could not enter deals, to send again: this page came
  // from the server, so the phone may enter deals here now.
  function release() {
    var items = load();
    items.forEach(function (i) { if (i.state === "held") i.state = "waiting"; });
    save(items);
  }

  function dismiss(key) {
    save(load().filter(function (i) { return i.key !== key; }));
    changed();
  }

  function render() {
    var box = document.getElementById("outbox");
    if (!box) return;
    var items = load();
    var count = items.filter(function (i) { return i.state === "waiting"; }).length;
    box.hidden = items.length === 0;
    var deals = count + " deal" + (count === 1 ? "" : "s");
    document.getElementById("outbox-count").textContent = !count ? ""
      : flying ? "Sending " + deals + "…" : deals + " waiting to send";
    document.getElementById("outbox-send").hidden = count === 0 || Boolean(flying);
    var list = document.getElementById("outbox-list");
    list.textContent = "";
    items.forEach(function (item) {
      var li = document.createElement("li");
      li.className = item.state;
      if (item.state === "conflict") {
        conflict(li, item);
      } else {
        li.textContent = item.game + ", deal " + item.number + ": " + item.order + ". ";
        var state = document.createElement("strong");
        if (item.state === "refused") {
          state.textContent = "Refused by the server: " + sentence(item.reason);
        } else if (item.state === "held") {
          state.textContent = "Not sent yet: " + sentence(item.reason) + " It stays on this " +
            "phone and is sent by itself once this phone may enter deals again.";
        } else {
          state.textContent = waitingWords(item, items);
        }
        li.appendChild(state);
        if (item.state !== "waiting") li.appendChild(discardButton(item, "Dismiss"));
      }
      list.appendChild(li);
    });
  }

  // Where a waiting deal is: on its way, behind the one on its way, or kept until the
  // connection (or the server) can take it.
  function waitingWords(item, items) {
    if (item.key === flying) return "Sending…";
    var ahead = items.find(function (i) { return i.key === flying; });
    if (ahead) return "Sent once deal " + ahead.number + " is stored.";
    if (!navigator.onLine || stopped === "connection") {
      return "Waiting for the connection: it is sent by itself when the connection returns.";
    }
    if (stopped === "server") {
      return "The server could not take it just now: it is sent again by itself shortly.";
    }
    return "Waiting to send.";
  }

  // A deal the server already has under its number: both finishing orders side by side, so
  // the organiser can tell the same deal entered twice from a different one.
  function conflict(li, item) {
    var head = document.createElement("strong");
    head.textContent = "Conflict: " + item.game + ", deal " + item.number + " from this " +
      "phone was not stored.";
    var server = document.createElement("p");
    server.textContent = sentence(item.reason);
    var mine = document.createElement("p");
    mine.textContent = item.stored === item.order
      ? "The same order as the stored deal " + item.number + ": the same deal, entered on " +
        "another phone too. Nothing is lost by discarding this phone's copy."
      : "This phone had: " + item.order + ". If it is another deal, enter it again as the " +
        "next deal.";
    li.append(head, server, mine, discardButton(item, "Discard this phone's copy"));
  }

  // The server's words as a sentence: a capital first, one full stop at the end.
  function sentence(words) {
    var said = words.charAt(0).toUpperCase() + words.slice(1);
    return /[.!?]$/.test(said) ? said : said + ".";
  }

  function discardButton(item, text) {
    var button = document.createElement("button");
    button.type = "button";
    button.className = "secondary";
    button.textContent = text;
    button.addEventListener("click", function () { dismiss(item.key); });
    return button;
  }

  window.Outbox = {
    add: add, flush: flush, waiting: waiting, newKey: newKey, render: render,
    onChange: function (listener) { listeners.push(listener); }
  };

  document.addEventListener("DOMContentLoaded", function () {
    var button = document.getElementById("outbox-send");
    if (button) button.addEventListener("click", flush);
    var entry = document.getElementById("entry");
    if (entry && entry.dataset.offline !== "1") release();
    render();
    flush();
  });
  window.addEventListener("online", flush);
  window.addEventListener("offline", render);
  window.addEventListener("storage", function (e) { if (e.key === STORE) render(); });
  setInterval(function () { if (waiting().length) flush(); }, 15000);
})();
