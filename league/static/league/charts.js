// Rating charts drawn with the vendored Chart.js (league/static/league/vendor/, docs/pages.md).
(function () {
  // Axis text and grid lines in the page's own colours, light or dark (league.css).
  var css = getComputedStyle(document.documentElement);
  Chart.defaults.color = css.getPropertyValue("--muted").trim() || Chart.defaults.color;
  Chart.defaults.borderColor = css.getPropertyValue("--line").trim() || Chart.defaults.borderColor;
  // Each player a colour of their own: Tableau 10, told apart by most eyes and readable on the
  // light and the dark background; past ten players the colours come round again, dashed.
  var COLOURS = ["#4e79a7", "#f28e2b", "#e15759", "#76b7b2", "#59a14f",
                 "#edc948", "#b07aa1", "#ff9da7", "#9c755f", "#bab0ac"];
  var DASHES = [[], [8, 4], [2, 3], [10, 3, 2, 3]];
  function line(i, label, data) {
    var colour = COLOURS[i % COLOURS.length];
    return {label: label, data: data, borderColor: colour, backgroundColor: colour,
            borderDash: DASHES[Math.floor(i / COLOURS.length) % DASHES.length],
            borderWidth: 2.5, pointRadius: 0, tension: 0};  // a rating moves at a deal: no curves
  }
  var legend = {position: "bottom", labels: {boxWidth: 24, boxHeight: 3}};
  function data(id) { var el = document.getElementById(id); return el && JSON.parse(el.textContent); }
  var player = data("rating-data");
  if (player) {
    new Chart(document.getElementById("rating-chart"), {
      type: "line",
      data: {labels: player.labels, datasets: [line(0, "rating (μ − 3σ)", player.ordinal)]},
      options: {animation: false, maintainAspectRatio: false, plugins: {legend: legend},
                scales: {x: {title: {display: true, text: "deals played"}}}}
    });
  }
  var season = data("season-rating-data");
  if (season) {
    new Chart(document.getElementById("season-rating-chart"), {
      type: "line",
      data: {datasets: season.series.map(function (s, i) { return line(i, s.label, s.data); })},
      options: {animation: false, maintainAspectRatio: false, parsing: true,
                plugins: {legend: legend},
                scales: {x: {type: "linear", ticks: {precision: 0},
                             title: {display: true, text: "deal of the season"}}}}
    });
  }
})();
