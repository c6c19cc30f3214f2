import time
from collections.abc import Callable
from typing import Any, cast

from allauth.account import views as allauth_views
from django.http import HttpRequest, HttpResponse, HttpResponseBase
from django.shortcuts import render
from django.views import View
from django.views.decorators.http import require_GET


def csrf_failure(request: HttpRequest, reason: str = "") -> HttpResponse:
    # Django's own page is for developers; a learner needs to know nothing was saved.
    return render(request, "403_csrf.html", status=403)


@require_GET
def healthz(request: HttpRequest) -> HttpResponse:
    # No database query: load balancers and benchmarks poll this.
    return HttpResponse("ok", content_type="text/plain")


class RefusedIs400:
    """allauth's form views answer a refused form with 200; here, as on every other form of the
    site, a refused form is a 400 with its messages (nothing was saved)."""

    def form_invalid(self, form: Any) -> HttpResponse:
        response = super().form_invalid(form)  # type: ignore[misc]
        response.status_code = 400
        return response


def refusing_with_400(view: type[View]) -> Callable[..., HttpResponseBase]:
    return cast(type[View], type(view.__name__, (RefusedIs400, view), {})).as_view()


# A reset request is answered no sooner than this after it arrived: an address with an account
# costs the site more work (its key, its link) than one without, and the difference, about 1.5 ms
# in bench/reset_timing.py, would otherwise tell which addresses are registered. Both kinds take
# a few milliseconds, and a mail server's time is spent for both (each gets one mail).
RESET_ANSWER_FLOOR = 0.2  # seconds


class PasswordResetView(RefusedIs400, allauth_views.PasswordResetView):
    def post(self, request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        arrived = time.monotonic()
        response = super().post(request, *args, **kwargs)
        time.sleep(max(0.0, RESET_ANSWER_FLOOR - (time.monotonic() - arrived)))
        return response


class PasswordChangeView(RefusedIs400, allauth_views.PasswordChangeView):
    """allauth's, handing the request to the form (studyplan.accounts.LimitedChangePasswordForm)."""

    def get_form_kwargs(self) -> dict[str, Any]:
        return {**super().get_form_kwargs(), "request": self.request}
