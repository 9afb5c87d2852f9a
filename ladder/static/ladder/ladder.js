// A ladder bot's rating chart (ladder/templates/ladder/bot.html) with the vendored Chart.js:
// its rating (μ − 3σ), μ, and μ's 95% range as a band, after each rated game; a dashed
// vertical line, labelled, where each new version of the bot played its first rated game.
(function () {
  var source = document.getElementById("ladder-rating-data");
  if (!source || typeof Chart === "undefined") return;
  var data = JSON.parse(source.textContent);
  var css = getComputedStyle(document.documentElement);
  function colour(name, fallback) { return css.getPropertyValue(name).trim() || fallback; }
  Chart.defaults.color = colour("--muted", Chart.defaults.color);
  Chart.defaults.borderColor = colour("--line", Chart.defaults.borderColor);
  var accent = colour("--accent", "#1b5e20"), link = colour("--link", "#0b57d0");
  var band = colour("--line-strong", "#767f8c");
  var marks = data.marks || [];
  var marked = {};
  marks.forEach(function (m) { marked[m.index] = true; });
  var versionLines = {
    id: "versionLines",
    afterDatasetsDraw: function (chart) {
      var ctx = chart.ctx, area = chart.chartArea;
      ctx.save();
      ctx.strokeStyle = band; ctx.fillStyle = Chart.defaults.color;
      ctx.setLineDash([4, 4]); ctx.lineWidth = 1; ctx.textBaseline = "top";
      marks.forEach(function (m) {
        var x = chart.scales.x.getPixelForValue(m.index);
        ctx.beginPath(); ctx.moveTo(x, area.top); ctx.lineTo(x, area.bottom); ctx.stroke();
        ctx.textAlign = x > (area.left + area.right) / 2 ? "right" : "left";
        ctx.fillText("v" + m.version, x + (ctx.textAlign === "left" ? 4 : -4), area.top + 2);
      });
      ctx.restore();
    }
  };
  new Chart(document.getElementById("ladder-rating-chart"), {
    type: "line",
    data: {labels: data.labels, datasets: [
      {label: "rating (μ − 3σ)", data: data.ordinal, borderColor: accent, backgroundColor: accent,
       borderWidth: 3, tension: 0, pointStyle: "rectRot",
       pointRadius: data.ordinal.map(function (_, i) { return marked[i] ? 6 : 0; })},
      {label: "μ", data: data.mu, borderColor: link, backgroundColor: link, borderWidth: 2,
       pointRadius: 0, tension: 0},
      {label: "μ's 95% range", data: data.high, borderColor: "transparent", backgroundColor: band + "33",
       pointRadius: 0, fill: "+1", tension: 0},
      {label: "low", data: data.low, borderColor: "transparent", pointRadius: 0, tension: 0}
    ]},
    plugins: [versionLines],
    options: {animation: false, maintainAspectRatio: false, interaction: {mode: "index", intersect: false},
              plugins: {legend: {labels: {filter: function (item) { return item.text !== "low"; }}},
                        tooltip: {filter: function (item) { return item.dataset.label !== "low"; },
                                  callbacks: {footer: function (items) {
                                    var i = items.length ? items[0].dataIndex : -1;
                                    var m = marks.filter(function (k) { return k.index === i; })[0];
                                    return m ? m.label : "version " + data.versions[i];
                                  }}}},
              scales: {x: {title: {display: true, text: "rated deals played"}}}}
  });
})();
