import time
from typing import Any

from allauth.account import views as allauth_views
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_GET


def csrf_failure(request: HttpRequest, reason: str = "") -> HttpResponse:
    # Django's own page is for developers; a learner needs to know nothing was saved.
    return render(request, "403_csrf.html", status=403)


@require_GET
def healthz(request: HttpRequest) -> HttpResponse:
    # No database query: load balancers and benchmarks poll this.
    return HttpResponse("ok", content_type="text/plain")


# A reset request is answered no sooner than this after it arrived: an address with an account
# costs the site more work (its key, its link) than one without, and the difference, about 1.5 ms
# in bench/reset_timing.py, would otherwise tell which addresses are registered. Both kinds take
# a few milliseconds, and a mail server's time is spent for both (each gets one mail).
RESET_ANSWER_FLOOR = 0.2  # seconds


class PasswordResetView(allauth_views.PasswordResetView):
    def post(self, request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        arrived = time.monotonic()
        response = super().post(request, *args, **kwargs)
        time.sleep(max(0.0, RESET_ANSWER_FLOOR - (time.monotonic() - arrived)))
        return response


class PasswordChangeView(allauth_views.PasswordChangeView):
    """allauth's, handing the request to the form (studyplan.accounts.LimitedChangePasswordForm)."""

    def get_form_kwargs(self) -> dict[str, Any]:
        return {**super().get_form_kwargs(), "request": self.request}
