// Keeps a keyboard or screen-reader user where they were when htmx swaps part of a page.
// An outerHTML swap removes the control that was just used and the browser drops focus to
// <body>: focus goes instead to its replacement in the new content (the button in the same place
// among those of forms posting to the same address, else the button in the same place, else the
// first control, else the new content itself). A reference answer the learner had revealed stays
// open. What changed is written by the server on the swapped elements (data-announce) and read
// out through the page's one polite live region, #announcer.
(function () {
  "use strict";
  var CONTROLS = "button, summary, a[href], input:not([type=hidden]), select, textarea";
  var before = null;
  var swapped = [];

  function formAction(element) {
    var form = element.closest("form");
    return form ? form.getAttribute("action") : null;
  }

  function buttonsPosting(root, action) {
    return Array.prototype.filter.call(root.querySelectorAll("button"), function (button) {
      return formAction(button) === action;
    });
  }

  function replacement(root, was) {
    var sameAction = was.action === null ? [] : buttonsPosting(root, was.action);
    return (
      sameAction[was.actionIndex] ||
      sameAction[0] ||
      root.querySelectorAll("button")[was.buttonIndex] ||
      root.querySelector(CONTROLS)
    );
  }

  // The swapped target speaks first, then the out-of-band parts in the order they came.
  function announce(elements, targetId) {
    var announcer = document.getElementById("announcer");
    var words = elements
      .slice()
      .sort(function (a, b) {
        return (b.id === targetId) - (a.id === targetId);
      })
      .filter(function (element) {
        return element.isConnected && element.hasAttribute && element.hasAttribute("data-announce");
      })
      .map(function (element) {
        return element.getAttribute("data-announce");
      })
      .join(" ");
    if (announcer && words) {
      announcer.textContent = words;
    }
  }

  function restore(was) {
    was.opened.forEach(function (id) {
      var details = document.getElementById(id);
      if (details && details.tagName === "DETAILS") {
        details.open = true;
      }
    });
    var root = document.getElementById(was.targetId);
    var active = document.activeElement;
    // Only when focus was in the swapped part and nothing has taken it since.
    if (!root || was.focus === null || (active && active !== document.body)) {
      return;
    }
    var next = replacement(root, was.focus);
    if (!next) {
      next = root;
      next.setAttribute("tabindex", "-1");
    }
    next.focus();
  }

  document.addEventListener("htmx:beforeSwap", function (event) {
    before = null;
    var target = event.detail.target;
    if (!event.detail.shouldSwap || !target || !target.id) {
      return;
    }
    var opened = Array.prototype.map.call(target.querySelectorAll("details[id][open]"), function (details) {
      return details.id;
    });
    before = { targetId: target.id, opened: opened, focus: null };
    var active = document.activeElement;
    if (active && active !== document.body && target.contains(active)) {
      var action = formAction(active);
      before.focus = {
        action: action,
        actionIndex: action === null ? -1 : buttonsPosting(target, action).indexOf(active),
        buttonIndex: Array.prototype.indexOf.call(target.querySelectorAll("button"), active),
      };
    }
  });

  // htmx fires afterSwap once for each element it swapped in (the target and every out-of-band
  // element), all within one task: gather them, then act once, before the next paint.
  document.addEventListener("htmx:afterSwap", function (event) {
    if (swapped.push(event.target) > 1) {
      return;
    }
    Promise.resolve().then(function () {
      var elements = swapped;
      var was = before;
      swapped = [];
      before = null;
      if (was !== null) {
        restore(was);
      }
      announce(elements, was === null ? null : was.targetId);
    });
  });
})();
