// A refused form (any page): where the page lands may be screens away from the field that was
// refused. Its first invalid field (aria-invalid, set by the server) is brought into view and
// focused, its error beside it; a page with a summary of the errors (#form-errors, linking to
// each field) focuses the summary instead.
(function () {
  var summary = document.getElementById("form-errors");
  var field = summary || document.querySelector('main [aria-invalid="true"]');
  if (!field) return;
  if (summary) summary.tabIndex = -1;
  field.scrollIntoView({block: "center"});
  field.focus({preventScroll: true});
})();
