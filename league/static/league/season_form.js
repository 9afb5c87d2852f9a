// The season form (organiser/season_form.html): picking a preset sets every option control to
// that preset's values and hides the options it does not take; picking a scoring system
// hides the parameters it does not take. Without this script the server does the same on the
// next post (SeasonForm.preset_switched), so nothing here decides what is saved.
(function () {
  var form = document.getElementById("season-form");
  if (!form) return;
  var options = document.getElementById("options");
  var scoring = document.getElementById("scoring");
  var presets = JSON.parse(options.dataset.presets);
  var parameters = JSON.parse(scoring.dataset.parameters);

  function pickPreset(name) {
    var values = presets[name];
    if (!values) return;
    Object.keys(values).forEach(function (option) {
      var input = form.querySelector('[data-option="' + option + '"]');
      if (!input) return;
      var value = values[option];
      if (input.type === "checkbox") input.checked = value;
      else input.value = value === null ? "" : String(value);
    });
    options.querySelectorAll("[data-presets]").forEach(function (row) {
      row.hidden = row.dataset.presets.split(" ").indexOf(name) < 0;
    });
    form.elements.shown_preset.value = name;
    document.getElementById("options-preset").textContent = name;
  }

  function pickSystem(name) {
    var taken = parameters[name] || [];
    scoring.querySelectorAll("[data-parameter-row]").forEach(function (row) {
      row.hidden = taken.indexOf(row.dataset.parameterRow.replace("scoring_", "")) < 0;
    });
  }

  form.querySelectorAll('input[name="preset"]').forEach(function (radio) {
    radio.addEventListener("change", function () { pickPreset(radio.value); });
  });
  form.querySelectorAll('input[name="scoring_system"]').forEach(function (radio) {
    radio.addEventListener("change", function () { pickSystem(radio.value); });
    if (radio.checked) pickSystem(radio.value);
  });
})();
