// Proposes the browser's own time zone at sign-up. Without JavaScript the hidden field stays
// empty and the site's zone applies until the learner picks one on their account page.
(function () {
  "use strict";
  var zone = "";
  try {
    zone = Intl.DateTimeFormat().resolvedOptions().timeZone || "";
  } catch (error) {
    return;
  }
  if (!zone) {
    return;
  }
  document.querySelectorAll("input[data-browser-time-zone]").forEach(function (field) {
    if (!field.value) {
      field.value = zone;
    }
  });
  document.querySelectorAll("[data-browser-time-zone-name]").forEach(function (name) {
    name.textContent = zone;
  });
})();
