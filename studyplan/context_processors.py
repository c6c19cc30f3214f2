from functools import cache

from django.urls import reverse


@cache
def _nav_urls() -> dict[str, str]:
    # The site's fixed links, reversed once per process: every page's header needs them.
    return {
        "home": reverse("phases:home"),
        "syllabus": reverse("phases:syllabus"),
        "dashboard": reverse("progress:dashboard"),
        "plan": reverse("progress:plan"),
        "phases": reverse("progress:phase", args=["core-ml-foundations"]),
        "account": reverse("progress:account"),
        "practice": reverse("progress:practice"),
        "review": reverse("progress:review"),
        "login": reverse("login"),
        "logout": reverse("logout"),
        "signup": reverse("signup"),
    }


def nav(request) -> dict:
    return {"nav": _nav_urls()}
