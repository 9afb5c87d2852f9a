// A page part that refreshes itself (the night's standings, league/night/tonight.html; a
// ladder's table, ladder/table.html): the box marked data-live asks its JSON endpoint
// (data-url) for news every data-seconds and puts the server's fragment in place of its
// data-live-board when it has changed; no reload, so a screen can show it all night. Slower
// once the news says done, and after a failure. A static script: the site's CSP allows it.
(function () {
  "use strict";
  var box = document.querySelector("[data-live]");
  if (!box) return;
  var board = box.querySelector("[data-live-board]");
  var status = box.querySelector("[data-live-status]");
  var seconds = Number(box.dataset.seconds) || 5;
  var shown = null;
  function tick() {
    fetch(box.dataset.url, {headers: {"Accept": "application/json"}, cache: "no-store"})
      .then(function (answer) {
        if (!answer.ok) throw new Error("status " + answer.status);
        return answer.json();
      })
      .then(function (news) {
        if (news.version !== shown) {
          board.innerHTML = news.html;  // rendered and escaped by the server's template
          shown = news.version;
        }
        box.dataset.done = news.done ? "yes" : "no";
        status.textContent = "Updated " + new Date().toLocaleTimeString() + ".";
        setTimeout(tick, (news.done ? 6 : 1) * seconds * 1000);
      })
      .catch(function () {
        status.textContent = "No connection to the site: trying again.";
        setTimeout(tick, 2 * seconds * 1000);
      });
  }
  setTimeout(tick, seconds * 1000);
})();
