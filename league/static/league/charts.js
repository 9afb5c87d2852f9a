// Rating charts drawn with the vendored Chart.js (league/static/league/vendor/, docs/pages.md).
(function () {
  // Axis text and grid lines in the page's own colours, light or dark (league.css).
  var css = getComputedStyle(document.documentElement);
  Chart.defaults.color = css.getPropertyValue("--muted").trim() || Chart.defaults.color;
  Chart.defaults.borderColor = css.getPropertyValue("--line").trim() || Chart.defaults.borderColor;
  function data(id) { var el = document.getElementById(id); return el && JSON.parse(el.textContent); }
  var player = data("rating-data");
  if (player) {
    new Chart(document.getElementById("rating-chart"), {
      type: "line",
      data: {labels: player.labels, datasets: [{label: "rating (μ − 3σ)", data: player.ordinal, tension: 0.2, pointRadius: 0}]},
      options: {animation: false, maintainAspectRatio: false,
                scales: {x: {title: {display: true, text: "deals played"}}}}
    });
  }
  var season = data("season-rating-data");
  if (season) {
    new Chart(document.getElementById("season-rating-chart"), {
      type: "line",
      data: {datasets: season.series.map(function (s) { return {label: s.label, data: s.data, pointRadius: 0, tension: 0.2}; })},
      options: {animation: false, maintainAspectRatio: false, parsing: true,
                scales: {x: {type: "linear", title: {display: true, text: "deal of the season"}}}}
    });
  }
})();
