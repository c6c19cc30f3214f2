// The written exercise saves as the learner types (htmx). When a save fails, say so where
// "Saved" is shown: the server's reason for a refusal (a 400 that says why), or that the server
// could not be reached. The text stays in the box either way, and Save tries again.
(function () {
  "use strict";
  function show(event, words) {
    var form = event.detail.elt.closest("[data-error-into]");
    var status = form && document.getElementById(form.getAttribute("data-error-into"));
    if (status) {
      status.textContent = words;
    }
  }
  document.addEventListener("htmx:responseError", function (event) {
    show(event, event.detail.xhr.responseText);
  });
  document.addEventListener("htmx:sendError", function (event) {
    show(event, "Not saved: the server could not be reached. Your text is still here; press Save to try again.");
  });
})();
