// Tonight's standings (league/night/tonight.html): ask the JSON endpoint for news every few
// seconds and put the server's board in place when it has changed; no reload, so a screen in
// the room can show it all night. Slower once every table has ended, and after a failure.
(function () {
  "use strict";
  var box = document.getElementById("tonight");
  if (!box) return;
  var board = document.getElementById("board");
  var status = document.getElementById("tonight-status");
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
