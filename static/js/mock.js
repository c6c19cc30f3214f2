// The mock exam's visible countdown and the nudge to flag and move on (its seconds are the page's). The deadline itself is enforced by
// the server; this only shows it, and reloads when time is up so the server can close the mock.
(function () {
  "use strict";
  var countdown = document.getElementById("countdown");
  if (countdown) {
    var left = parseInt(countdown.dataset.secondsLeft, 10);
    var value = document.getElementById("countdown-value");
    var endsAt = Date.now() + left * 1000;
    var tick = function () {
      var seconds = Math.max(0, Math.round((endsAt - Date.now()) / 1000));
      var minutes = Math.floor(seconds / 60);
      value.textContent = minutes + ":" + String(seconds % 60).padStart(2, "0");
      if (seconds <= 0) {
        window.location.reload();
        return;
      }
      window.setTimeout(tick, 1000);
    };
    tick();
  }
  var nudge = document.getElementById("nudge");
  if (nudge) {
    window.setTimeout(function () { nudge.hidden = false; }, parseInt(nudge.dataset.seconds, 10) * 1000);
  }
})();

// Keys on a mock question: 1-5 choose that option, N saves and goes next, F saves and flags.
(function () {
  "use strict";
  var form = document.querySelector("form.answer-form");
  if (!form) {
    return;
  }
  document.addEventListener("keydown", function (event) {
    if (event.altKey || event.ctrlKey || event.metaKey) {
      return;
    }
    var target = event.target;
    if (target && (target.isContentEditable || /^(TEXTAREA|SELECT)$/.test(target.tagName) ||
        (target.tagName === "INPUT" && !/^(radio|checkbox)$/.test(target.type)))) {
      return;
    }
    var key = event.key.toLowerCase();
    var button = null;
    if (/^[1-9]$/.test(key)) {
      var option = form.querySelector('input[data-key="' + key + '"]');
      if (option) {
        event.preventDefault();
        option.click();
        option.focus();
      }
      return;
    }
    if (key === "n") {
      button = form.querySelector("[data-key-next]");
    } else if (key === "f") {
      button = form.querySelector("[data-key-flag]");
    }
    if (button) {
      event.preventDefault();
      form.requestSubmit(button);
    }
  });
})();
