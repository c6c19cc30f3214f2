// A refused htmx request says why where it was made, never over the page: the response's words
// (a 4xx answers in plain text) go into an alert at the top of the form or section that sent it.
// Pages work without JavaScript, where the same refusal is a page of its own.
(function () {
  "use strict";
  var GENERIC = {
    403: "Refused: your session may have ended. Reload the page and try again.",
    404: "That is no longer here. Reload the page.",
    429: "Too many requests: wait a moment, then try again.",
  };

  function host(element) {
    return (element && element.closest("form, section, article")) || document.getElementById("main");
  }

  function say(element, words) {
    var place = host(element);
    if (!place) {
      return;
    }
    var slot = place.querySelector(":scope > .htmx-error");
    if (!slot) {
      slot = document.createElement("p");
      slot.className = "field-error htmx-error";
      slot.setAttribute("role", "alert");
      place.insertBefore(slot, place.firstChild);
    }
    slot.textContent = words;
  }

  document.addEventListener("htmx:responseError", function (event) {
    var xhr = event.detail.xhr;
    var type = xhr.getResponseHeader("Content-Type") || "";
    var words = type.indexOf("text/plain") === 0 ? xhr.responseText.trim().slice(0, 400) : "";
    if (!words) {
      words = GENERIC[xhr.status] ||
        (xhr.status >= 500
          ? "Something went wrong on our side: nothing was saved. Try again in a moment."
          : "That was refused: nothing was changed.");
    }
    say(event.detail.elt, words);
  });

  document.addEventListener("htmx:sendError", function (event) {
    say(event.detail.elt, "Could not reach the server: nothing was saved. Check your connection.");
  });

  // A request that succeeds clears the refusal it left.
  document.addEventListener("htmx:afterRequest", function (event) {
    if (event.detail.successful) {
      var slot = host(event.detail.elt) && host(event.detail.elt).querySelector(":scope > .htmx-error");
      if (slot) {
        slot.remove();
      }
    }
  });
})();
