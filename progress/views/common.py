"""What several learner views share: the request type, bad-input answers, looking up a check."""

import datetime
from typing import Any

from django.http import Http404, HttpRequest, HttpResponse, HttpResponseBadRequest
from django.urls import reverse
from django.utils import timezone
from django.utils.http import url_has_allowed_host_and_scheme
from django_htmx.middleware import HtmxDetails

from phases.snapshot import CheckInfo
from progress.auth import learner_syllabus


class HtmxHttpRequest(HttpRequest):
    htmx: HtmxDetails


def bad_request(message: str) -> HttpResponse:
    """A 400 that says what was wrong and that nothing changed."""
    return HttpResponseBadRequest(
        f"{message} Nothing was changed.", content_type="text/plain; charset=utf-8"
    )


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


# What a learner may type before revealing the reference: a paragraph or a few, not a book.
ANSWER_MAX_LENGTH = 4000
ANSWER_TOO_LONG = (
    f"Your answer is longer than {ANSWER_MAX_LENGTH} characters: shorten it, then reveal."
)


def typed_answer(request: HtmxHttpRequest) -> str | None:
    """What the learner typed before the reveal (empty when nothing); None when it cannot be
    kept (too long, or a NUL character)."""
    answer = request.POST.get("answer", "").strip()
    if len(answer) > ANSWER_MAX_LENGTH or "\x00" in answer:
        return None
    return answer


# The session holds the checks whose reference answer the learner has revealed, on a phase page
# or the Review page, and not yet said how it went (slug: what they typed first, and when), so the
# state survives a redirect, a reload or a plain form, and no outcome or rating is taken for a
# check never revealed. A few phases' worth at most; a card left turned over is turned face down
# again after REVEAL_LASTS, so a later sitting answers it from memory before seeing the answer.
REVEALS = "revealed_checks"
MOST_REVEALS = 40
REVEAL_LASTS = datetime.timedelta(hours=6)


def _fresh(request: HtmxHttpRequest) -> dict[str, dict[str, Any]]:
    since = (timezone.now() - REVEAL_LASTS).timestamp()
    return {
        slug: kept
        for slug, kept in request.session.get(REVEALS, {}).items()
        if isinstance(kept, dict) and kept.get("at", 0) >= since
    }


def _answers(kept: dict[str, dict[str, Any]]) -> dict[str, str]:
    return {slug: reveal["answer"] for slug, reveal in kept.items()}


def reveals(request: HtmxHttpRequest) -> dict[str, str]:
    return _answers(_fresh(request))


def remember_reveal(request: HtmxHttpRequest, slug: str, answer: str) -> dict[str, str]:
    """The check ``slug`` revealed, after ``answer`` was typed: the learner's reveals now."""
    kept = _fresh(request)
    kept.pop(slug, None)
    kept[slug] = {"answer": answer, "at": timezone.now().timestamp()}
    stored = dict(list(kept.items())[-MOST_REVEALS:])
    request.session[REVEALS] = stored
    return _answers(stored)


def forget_reveal(request: HtmxHttpRequest, slug: str) -> str:
    """The check ``slug`` said how it went: what was typed before its reveal."""
    kept = _fresh(request)
    gone = kept.pop(slug, {})
    request.session[REVEALS] = kept
    return str(gone.get("answer", ""))
