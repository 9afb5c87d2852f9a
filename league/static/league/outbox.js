// Deals confirmed on this phone and not yet stored by the server, kept in localStorage so that
// a reload, a closed tab or a lost connection loses none. Each deal keeps its form token, the
// page's idempotency key (league/forms.py deal_record_once): sent twice, it is stored once.
// The server stays the judge: a deal it refuses stays listed with its reason until dismissed.
(function () {
  var STORE = "league-outbox";
  var sending = null;  // the flush under way
  var listeners = [];

  function load() {
    try { return JSON.parse(localStorage.getItem(STORE)) || []; } catch (e) { return []; }
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

  function waiting(url) {
    return load().filter(function (item) {
      return item.state === "waiting" && (!url || item.url === url);
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

  // One deal to the server: {sent: answer}, {refused: reason}, or {retry: true} when the
  // server could not judge it (no connection, a server fault).
  function send(item) {
    var body = new URLSearchParams(item.fields);
    return fetch(item.url, {
      method: "POST", body: body, credentials: "same-origin", redirect: "manual",
      headers: {"Accept": "application/json", "Idempotency-Key": item.key}
    }).then(function (response) {
      if (response.status >= 500 || response.type === "opaqueredirect") return {retry: true};
      return response.json().catch(function () { return null; }).then(function (data) {
        if (response.ok) return {sent: data};
        if (data && data.error) return {refused: data.error};
        if (response.status === 403) {
          return {refused: "the server refused it (403): sign in again, open this page " +
                           "while online, and enter the deal again"};
        }
        return {refused: "the server refused it (" + response.status + ")"};
      });
    }, function () { return {retry: true}; });
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
      item.state = "refused";
      item.reason = result.refused;
      save(items);
      changed({refused: item});
    }
  }

  // Send the waiting deals in the order they were confirmed; stop at the first that cannot
  // be judged now (they are tried again when the connection returns).
  function flush() {
    if (sending) return sending;
    function next() {
      var item = waiting()[0];
      if (!item) return Promise.resolve();
      return send(item).then(function (result) {
        if (result.retry) return undefined;
        settle(item.key, result);
        return next();
      });
    }
    sending = next().then(function () { sending = null; }, function () { sending = null; });
    return sending;
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
    document.getElementById("outbox-count").textContent = count
      ? count + " deal" + (count === 1 ? "" : "s") + " waiting to send" : "";
    document.getElementById("outbox-send").hidden = count === 0;
    var list = document.getElementById("outbox-list");
    list.textContent = "";
    items.forEach(function (item) {
      var li = document.createElement("li");
      li.className = item.state;
      li.textContent = item.game + ", deal " + item.number + ": " + item.order + ". ";
      var state = document.createElement("strong");
      if (item.state === "refused") {
        state.textContent = "Refused by the server: " + item.reason + ".";
        li.appendChild(state);
        var button = document.createElement("button");
        button.type = "button";
        button.className = "secondary";
        button.textContent = "Dismiss";
        button.addEventListener("click", function () { dismiss(item.key); });
        li.appendChild(button);
      } else {
        state.textContent = "Waiting to send.";
        li.appendChild(state);
      }
      list.appendChild(li);
    });
  }

  window.Outbox = {
    add: add, flush: flush, waiting: waiting, newKey: newKey, render: render,
    onChange: function (listener) { listeners.push(listener); }
  };

  document.addEventListener("DOMContentLoaded", function () {
    var button = document.getElementById("outbox-send");
    if (button) button.addEventListener("click", flush);
    render();
    flush();
  });
  window.addEventListener("online", flush);
  window.addEventListener("storage", function (e) { if (e.key === STORE) render(); });
  setInterval(function () { if (waiting().length) flush(); }, 15000);
})();
