from functools import cache
from typing import Any

from django.http import HttpRequest
from django.urls import reverse
from django.utils import timezone
from django.utils.functional import SimpleLazyObject

from progress.summary.keep import due_count


@cache
def _nav_urls() -> dict[str, str]:
    # The site's fixed links, reversed once per process: every page's header needs them.
    return {
        "home": reverse("phases:home"),
        "syllabus": reverse("phases:syllabus"),
        "dashboard": reverse("progress:dashboard"),
        "plan": reverse("progress:plan"),
        "phases": reverse("progress:study"),
        "account": reverse("progress:account"),
        "practice": reverse("progress:practice"),
        "review": reverse("progress:review"),
        "login": reverse("account_login"),
        "logout": reverse("account_logout"),
        "signup": reverse("account_signup"),
    }


def nav(request: HttpRequest) -> dict[str, Any]:
    return {"nav": _nav_urls()}


def review_due(request: HttpRequest) -> dict[str, Any]:
    """How many cards today's review queue holds, for the header, as the learner's summary
    keeps it; read only if a page shows it (a view that already knows the figure passes its
    own ``review_due``)."""
    user = getattr(request, "user", None)
    if user is None or not user.is_authenticated:
        return {}
    return {"review_due": SimpleLazyObject(lambda: due_count(user, now=timezone.now()))}
