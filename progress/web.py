"""What several learner views share: the request type, bad-input answers, looking up a check."""

from django import forms
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseBadRequest
from django.urls import reverse
from django.utils.http import url_has_allowed_host_and_scheme
from django_htmx.middleware import HtmxDetails

from phases.snapshot import CheckInfo
from progress.auth import learner_syllabus


class HtmxHttpRequest(HttpRequest):
    htmx: HtmxDetails


NOTHING_CHANGED = "Nothing was changed."


def unchanged(message: str) -> str:
    """A refusal's words: what was wrong, and that nothing changed."""
    return f"{message} {NOTHING_CHANGED}"


def first_error(form: forms.Form) -> str:
    """The first thing wrong with a refused form, in its own words."""
    return str(next(iter(form.errors.values()))[0])


def bad_request(message: str) -> HttpResponse:
    """A 400 that says what was wrong and that nothing changed."""
    return HttpResponseBadRequest(unchanged(message), content_type="text/plain; charset=utf-8")


def number(raw: str) -> int | None:
    # str.isdigit() accepts "²" (int() then raises) and "١": only ASCII digits are a number here,
    # and no more of them than any id needs (int() refuses strings over 4,300 digits).
    if raw.isascii() and raw.isdigit() and len(raw) <= 18:
        return int(raw)
    return None


def current_check(request: HtmxHttpRequest, slug: str) -> CheckInfo:
    check = learner_syllabus(request.user).check(slug)
    if check is None:
        raise Http404("No such self-check in the current syllabus.")
    return check


def our_page_or(request: HtmxHttpRequest, target: str, fallback: str) -> str:
    """``target`` if it is a page of this site (a path on this host), else ``fallback``."""
    if target.startswith("/") and url_has_allowed_host_and_scheme(
        target, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    ):
        return target
    return fallback


def back_to_check(request: HtmxHttpRequest, check: CheckInfo) -> str:
    """Where a plain form post returns: the page it came from, or the check on its phase."""
    fallback = f"{reverse('progress:phase', args=[check.phase.slug])}#check-{check.slug}"
    return our_page_or(request, request.POST.get("next", ""), fallback)


class DateInput(forms.DateInput):
    input_type = "date"

    def __init__(self, **kwargs):
        super().__init__(format="%Y-%m-%d", **kwargs)
