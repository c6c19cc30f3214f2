"""Review, drills and the timed mock: the learner's practice pages.

Every attempt is looked up from request.user, so another learner's attempt is a 404.
"""

import dataclasses
import random

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpResponse, HttpResponseBadRequest
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone
from django.views.decorators.http import require_GET, require_POST

from phases.content import syllabus
from phases.models import Domain, Question

from . import chart, practice, services
from .learner import learner_state
from .models import Attempt, AttemptQuestion, CheckOff
from .views import back_to_check, current_check


def _number(raw: str) -> int | None:
    # str.isdigit() accepts "²" (int() then raises) and "١": only ASCII digits are a number here.
    return int(raw) if raw.isascii() and raw.isdigit() else None


def _bad(message: str) -> HttpResponse:
    return HttpResponseBadRequest(f"{message} Nothing was changed.", content_type="text/plain")


# Confidence and review


@login_required
@require_POST
def selfcheck_confidence(request, slug: str) -> HttpResponse:
    check = current_check(slug)
    confidence = request.POST.get("confidence")
    if confidence not in ("shaky", "solid"):
        return _bad("Say confidence=shaky or confidence=solid.")
    if not services.rate(
        user=request.user,
        self_check_id=check.id,
        confidence=confidence,
        today=timezone.localdate(),
    ):
        return _bad("Tick the self-check done before saying how well you know it.")
    if not request.htmx:
        return redirect(back_to_check(request, check))
    return render(
        request,
        "progress/phase.html#check-row",
        {"check": dataclasses.replace(check, done=True, confidence=confidence)},
    )


def _review_queue(user, today):
    content = syllabus()
    due = (
        CheckOff.objects.for_user(user)
        .filter(due_on__lte=today)
        .order_by("due_on", "box", "pk")
        .values_list("self_check_id", "box")
    )
    by_id = {check.id: check for check in content.checks}
    return [(by_id[check_id], box) for check_id, box in due if check_id in by_id]


def _review_page(request) -> HttpResponse:
    queue = _review_queue(request.user, timezone.localdate())
    context = {"queue": queue, "card": queue[0] if queue else None, "review_count": len(queue)}
    if request.htmx:
        return render(request, "progress/review.html#review-card", context)
    return render(request, "progress/review.html", context)


@login_required
@require_GET
def review(request) -> HttpResponse:
    return _review_page(request)


@login_required
@require_POST
def review_answer(request, slug: str) -> HttpResponse:
    check = current_check(slug)
    knew = request.POST.get("knew")
    if knew not in ("0", "1"):
        return _bad("Say knew=1 (knew it) or knew=0 (didn't).")
    if not services.review(
        user=request.user, self_check_id=check.id, knew=knew == "1", today=timezone.localdate()
    ):
        return HttpResponse("You have not ticked this self-check.", status=404)
    if request.htmx:
        return _review_page(request)
    return redirect("progress:review")


# Drills and mocks


@login_required
@require_GET
def practice_home(request) -> HttpResponse:
    state = learner_state(request.user, today=timezone.localdate(), with_practice=True)
    report = state.report
    suggested = report.lagging.slug if report.lagging else None
    recent = Attempt.objects.for_user(request.user).select_related("domain")[:5]
    return render(
        request,
        "progress/practice.html",
        {
            "overall": report,
            "report": report,
            "suggested": suggested,
            "open_mock": services.open_mock(request.user, timezone.now()),
            "recent": recent,
            "mock_questions": settings.MOCK_QUESTIONS,
            "mock_minutes": settings.MOCK_MINUTES,
        },
    )


@login_required
@require_POST
def drill_start(request) -> HttpResponse:
    domain = Domain.objects.filter(slug=request.POST.get("domain", "")).first()
    if domain is None:
        return _bad("Choose one of the seven domains to drill.")
    if not Question.objects.current().filter(domain=domain).exists():
        return _bad(f"There are no practice questions for {domain.name} yet.")
    attempt = services.start_drill(
        user=request.user, domain=domain, now=timezone.now(), rng=random.Random()
    )
    return redirect("progress:attempt", attempt.pk)


@login_required
@require_POST
def mock_start(request) -> HttpResponse:
    attempt = services.start_mock(user=request.user, now=timezone.now(), rng=random.Random())
    return redirect("progress:attempt", attempt.pk)


def _attempt(request, attempt_id: int) -> Attempt:
    return get_object_or_404(Attempt.objects.for_user(request.user), pk=attempt_id)


def _items(attempt: Attempt) -> list[AttemptQuestion]:
    return list(attempt.questions.select_related("question__domain"))


def _position(request, items: list[AttemptQuestion]) -> int | None:
    raw = request.GET.get("q")
    if raw is not None:
        number = _number(raw)
        return number if number is not None and 1 <= number <= len(items) else None
    open_items = [item.position for item in items if item.answered_at is None]
    if open_items:
        return open_items[0]
    return items[-1].position if items else None


def _options(item: AttemptQuestion) -> list[dict]:
    chosen = set(item.chosen or ())
    return [
        {
            "index": index,
            "text": item.question.options[index]["text"],
            "correct": bool(item.question.options[index].get("correct")),
            "chosen": index in chosen,
        }
        for index in item.order
    ]


@login_required
@require_GET
def attempt_question(request, attempt_id: int) -> HttpResponse:
    attempt = _attempt(request, attempt_id)
    now = timezone.now()
    if services.close_if_over(attempt, now):
        return redirect("progress:attempt-result", attempt.pk)
    items = _items(attempt)
    position = _position(request, items)
    if position is None:
        return HttpResponse("That question is not in this attempt.", status=404)
    item = items[position - 1]
    if (
        attempt.kind == Attempt.Kind.DRILL
        and all(i.answered_at for i in items)
        and ("q" not in request.GET)
    ):
        return redirect("progress:attempt-result", attempt.pk)
    return render(
        request,
        "progress/attempt.html",
        {
            "attempt": attempt,
            "items": items,
            "item": item,
            "options": _options(item),
            "choose": len(item.question.correct_options),
            "show_feedback": attempt.kind == Attempt.Kind.DRILL and item.answered_at is not None,
            "next_position": position + 1 if position < len(items) else None,
            "previous_position": position - 1 if position > 1 else None,
            "answered": sum(1 for i in items if i.answered_at),
            "flagged": [i for i in items if i.flagged],
            "seconds_left": int((attempt.deadline - now).total_seconds())
            if attempt.deadline
            else None,
        },
    )


@login_required
@require_POST
def attempt_answer(request, attempt_id: int, position: int) -> HttpResponse:
    attempt = _attempt(request, attempt_id)
    item = get_object_or_404(
        AttemptQuestion.objects.select_related("question"), attempt=attempt, position=position
    )
    raw = request.POST.getlist("option")
    chosen = [_number(value) for value in raw]
    if not all(index is not None and index < len(item.question.options) for index in chosen):
        return _bad("Choose among this question's options.")
    if not chosen and attempt.kind == Attempt.Kind.DRILL:
        return _bad("Choose an answer first.")
    now = timezone.now()
    if chosen and not services.answer(attempt=attempt, item=item, chosen=chosen, now=now):
        messages.warning(request, "Time is up: answers after the deadline are not counted.")
        return redirect("progress:attempt-result", attempt.pk)
    if attempt.kind == Attempt.Kind.DRILL:
        return redirect(f"{reverse('progress:attempt', args=[attempt.pk])}?q={position}")
    if request.POST.get("then") == "flagged" or position >= attempt.questions.count():
        return redirect("progress:attempt-flagged", attempt.pk)
    return redirect(f"{reverse('progress:attempt', args=[attempt.pk])}?q={position + 1}")


@login_required
@require_POST
def attempt_flag(request, attempt_id: int, position: int) -> HttpResponse:
    attempt = _attempt(request, attempt_id)
    item = get_object_or_404(AttemptQuestion, attempt=attempt, position=position)
    if request.POST.get("flagged") not in ("0", "1"):
        return _bad("Say flagged=1 or flagged=0.")
    if not services.flag(
        attempt=attempt, item=item, flagged=request.POST["flagged"] == "1", now=timezone.now()
    ):
        return redirect("progress:attempt-result", attempt.pk)
    return redirect(f"{reverse('progress:attempt', args=[attempt.pk])}?q={position}")


@login_required
@require_GET
def attempt_flagged(request, attempt_id: int) -> HttpResponse:
    attempt = _attempt(request, attempt_id)
    now = timezone.now()
    if services.close_if_over(attempt, now):
        return redirect("progress:attempt-result", attempt.pk)
    items = _items(attempt)
    return render(
        request,
        "progress/attempt_flagged.html",
        {
            "attempt": attempt,
            "items": items,
            "flagged": [item for item in items if item.flagged],
            "unanswered": [item for item in items if item.answered_at is None],
            "seconds_left": int((attempt.deadline - now).total_seconds())
            if attempt.deadline
            else None,
        },
    )


@login_required
@require_POST
def attempt_submit(request, attempt_id: int) -> HttpResponse:
    attempt = _attempt(request, attempt_id)
    now = timezone.now()
    if not services.close_if_over(attempt, now):
        services.submit(attempt=attempt, now=now)
    return redirect("progress:attempt-result", attempt.pk)


def _weights() -> dict[str, int]:
    return {domain.slug: domain.weight for domain in syllabus().domains}


def _names() -> dict[str, str]:
    return {domain.slug: domain.name for domain in syllabus().domains}


@login_required
@require_GET
def attempt_result(request, attempt_id: int) -> HttpResponse:
    attempt = _attempt(request, attempt_id)
    over = services.close_if_over(attempt, timezone.now())
    items = _items(attempt)
    if not over and not (attempt.kind == Attempt.Kind.DRILL and all(i.answered_at for i in items)):
        return redirect("progress:attempt", attempt.pk)
    weights, names = _weights(), _names()
    scores = practice.domain_scores(
        ((item.question.domain.slug, item.is_correct) for item in items), weights
    )
    weakest = practice.weakest(scores, weights)
    right = sum(1 for item in items if item.is_correct)
    return render(
        request,
        "progress/attempt_result.html",
        {
            "attempt": attempt,
            "items": [(item, _options(item)) for item in items],
            "right": right,
            "total": len(items),
            "percent": round(100 * right / len(items)) if items else 0,
            "scores": [
                {
                    "name": names.get(slug, slug),
                    "right": r,
                    "asked": n,
                    "percent": round(100 * r / n) if n else 0,
                    "weakest": slug == weakest,
                }
                for slug, r, n in scores
            ],
            "weakest": names.get(weakest),
        },
    )


@login_required
@require_GET
def practice_history(request) -> HttpResponse:
    now = timezone.now()
    mocks = [
        mock
        for mock in Attempt.objects.for_user(request.user).mocks().order_by("started_at")
        if mock.is_over(now)
    ][-20:]
    rows = AttemptQuestion.objects.filter(attempt__in=[mock.pk for mock in mocks]).values_list(
        "attempt_id", "question__domain__slug", "is_correct"
    )
    by_attempt: dict[int, list] = {mock.pk: [] for mock in mocks}
    for attempt_id, domain, correct in rows:
        by_attempt[attempt_id].append((domain, correct))
    weights, names = _weights(), _names()
    history = []
    for mock in mocks:
        results = by_attempt[mock.pk]
        scores = practice.domain_scores(results, weights)
        weakest = practice.weakest(scores, weights)
        weakest_row = next((row for row in scores if row[0] == weakest), None)
        history.append(
            {
                "attempt": mock,
                "percent": round(100 * sum(bool(c) for _, c in results) / len(results))
                if results
                else 0,
                "scores": {slug: round(100 * r / n) for slug, r, n in scores},
                "weakest": names.get(weakest),
                "weakest_percent": round(100 * weakest_row[1] / weakest_row[2])
                if weakest_row
                else 0,
            }
        )
    return render(
        request,
        "progress/practice_history.html",
        {
            "history": list(reversed(history)),
            "domains": syllabus().domains,
            "chart": chart.history([(row["percent"], row["weakest_percent"]) for row in history]),
        },
    )
