"""Drills and the timed mock: the practice page and an attempt's questions (results.py shows what
is handed in). Every attempt is looked up from request.user: another learner's is a 404."""

import random
from typing import Any

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone
from django.views.decorators.http import require_GET, require_POST

from phases.models import Question
from progress.models import Attempt, AttemptQuestion
from progress.practice import scoring as practice
from progress.practice import services
from progress.practice.forms import AnswerForm, DrillForm
from progress.verdicts.figures import learner_state
from progress.web import HtmxHttpRequest, bad_request, first_error, number, unchanged


def _practice_page(
    request: HtmxHttpRequest, *, status: int = 200, refused: Attempt | None = None, gone: str = ""
) -> HttpResponse:
    # A mock whose time ran out is closed first: its answers count from then on.
    open_mock = services.close_overdue_mock(user=request.user, now=timezone.now())
    report = learner_state(request.user, today=timezone.localdate(), with_practice=True).report
    return render(
        request,
        "progress/practice.html",
        {
            "overall": report,
            "report": report,
            "rules": report.rules,
            "suggested": report.lagging.slug if report.lagging else None,
            "open_mock": open_mock,
            "refused": refused,
            "gone": gone,
            "recent": Attempt.objects.for_user(request.user).select_related("domain")[:5],
            "drill_length": practice.DRILL_LENGTH,
            "mock_questions": settings.MOCK_QUESTIONS,
            "mock_minutes": settings.MOCK_MINUTES,
            "flag_seconds": settings.MOCK_FLAG_SECONDS,
        },
        status=status,
    )


@login_required
@require_GET
def practice_home(request: HtmxHttpRequest) -> HttpResponse:
    return _practice_page(request)


@login_required
@require_POST
def drill_start(request: HtmxHttpRequest) -> HttpResponse:
    form = DrillForm(request.POST)
    if not form.is_valid():
        return bad_request(first_error(form))
    domain = form.cleaned_data["domain"]
    if not Question.objects.current().filter(domain=domain).exists():
        return bad_request(f"There are no practice questions for {domain.name} yet.")
    try:
        attempt = services.start_drill(
            user=request.user, domain=domain, now=timezone.now(), rng=random.Random()
        )
    except services.MockIsOpen as refusal:
        return _practice_page(request, status=409, refused=refusal.mock)
    return redirect("progress:attempt", attempt.pk)


@login_required
@require_POST
def mock_start(request: HtmxHttpRequest) -> HttpResponse:
    attempt = services.start_mock(user=request.user, now=timezone.now(), rng=random.Random())
    return redirect("progress:attempt", attempt.pk)


def learner_attempt(request: HtmxHttpRequest, attempt_id: int) -> Attempt:
    return get_object_or_404(Attempt.objects.for_user(request.user), pk=attempt_id)


def attempt_items(attempt: Attempt) -> list[AttemptQuestion]:
    return list(
        attempt.questions.select_related("question__domain", "question__topic", "question__subarea")
    )


def _position(request: HtmxHttpRequest, items: list[AttemptQuestion]) -> int | None:
    raw = request.GET.get("q")
    if raw is not None:
        position = number(raw)
        return position if position is not None and 1 <= position <= len(items) else None
    first_unanswered = (item.position for item in items if item.answered_at is None)
    return next(first_unanswered, items[-1].position if items else None)


def shown_options(item: AttemptQuestion, *, reveal: bool) -> list[dict[str, Any]]:
    """The options in the attempt's own shuffled order. Each one's form value is its place in
    that order (1 for the first shown), so a value says nothing about which option is right."""
    chosen = set(item.chosen or ())
    return [
        {
            "value": shown,
            "text": item.question.options[index]["text"],
            "correct": reveal and bool(item.question.options[index].get("correct")),
            "chosen": index in chosen,
        }
        for shown, index in enumerate(item.order, start=1)
    ]


def refused_while_mock_live(
    request: HtmxHttpRequest, attempt: Attempt, now: Any
) -> HttpResponse | None:
    """While a mock is live, no other attempt's page opens: it could show the key of one of the
    mock's questions. The practice page says why, with a link back to the mock."""
    if attempt.kind == Attempt.Kind.MOCK:
        return None
    mock = services.close_overdue_mock(user=request.user, now=now)
    return None if mock is None else _practice_page(request, status=409, refused=mock)


def _question_page(
    request: HtmxHttpRequest,
    attempt: Attempt,
    items: list[AttemptQuestion],
    position: int,
    now: Any,
    *,
    error: str = "",
    status: int = 200,
) -> HttpResponse:
    item = items[position - 1]
    show_feedback = attempt.kind == Attempt.Kind.DRILL and item.answered_at is not None
    choose = len(item.question.correct_options)
    partly = bool(item.chosen) and item.answered_at is None and not error
    return render(
        request,
        "progress/attempt.html",
        {
            "attempt": attempt,
            "items": items,
            "item": item,
            "options": shown_options(item, reveal=show_feedback),
            "choose": choose,
            "show_feedback": show_feedback,
            # A mock's question chosen in part: said until it is complete.
            "answer_status": practice.choice_status(choose, len(item.chosen or []))
            if partly
            else "",
            "next_position": position + 1 if position < len(items) else None,
            "previous_position": position - 1 if position > 1 else None,
            "answered": sum(1 for i in items if i.answered_at),
            "flagged": [i for i in items if i.flagged],
            "seconds_left": attempt.seconds_left(now),
            "flag_seconds": settings.MOCK_FLAG_SECONDS,
            "error": error,
        },
        status=status,
    )


@login_required
@require_GET
def attempt_question(request: HtmxHttpRequest, attempt_id: int) -> HttpResponse:
    attempt = learner_attempt(request, attempt_id)
    now = timezone.now()
    if services.close_if_over(user=request.user, attempt=attempt, now=now):
        return redirect("progress:attempt-result", attempt.pk)
    if (refusal := refused_while_mock_live(request, attempt, now)) is not None:
        return refusal
    items = attempt_items(attempt)
    position = _position(request, items)
    if position is None:
        return HttpResponse("That question is not in this attempt.", status=404)
    drill_done = attempt.kind == Attempt.Kind.DRILL and all(i.answered_at for i in items)
    if drill_done and "q" not in request.GET:
        return redirect("progress:attempt-result", attempt.pk)
    return _question_page(request, attempt, items, position, now)


def _answer_status(request: HtmxHttpRequest, words: str, *, status: int = 200) -> HttpResponse:
    """The answer form's status line, swapped in by htmx after an autosave."""
    return render(
        request,
        "progress/attempt.html#answer-status",
        {"answer_status": words, "refused": status != 200},
        status=status,
    )


@login_required
@require_POST
def attempt_answer(request: HtmxHttpRequest, attempt_id: int, position: int) -> HttpResponse:
    """Save the learner's choice. Every button of the question's form saves it: "Check my
    answer" (a drill), "Save and next", "Save and see flagged", and the flag, which also marks
    the question to revisit. An htmx post as an option is chosen (autosave) saves it alone."""
    attempt = learner_attempt(request, attempt_id)
    now = timezone.now()
    items = attempt_items(attempt)
    if not 1 <= position <= len(items):
        return HttpResponse("That question is not in this attempt.", status=404)
    item = items[position - 1]
    form = AnswerForm(request.POST, places=len(item.order))
    if not form.is_valid():
        return bad_request(first_error(form))
    chosen = practice.chosen_options(item.order, form.cleaned_data["option"])
    then = form.cleaned_data["then"]
    autosave = bool(request.htmx) and form.cleaned_data["autosave"]
    choose = len(item.question.correct_options)
    drill = attempt.kind == Attempt.Kind.DRILL
    refusal = ""
    if len(chosen) > choose:
        refusal = unchanged(practice.choose_exactly(choose, len(chosen)))
    elif drill and not autosave and len(chosen) < choose:
        # A drill shows the key once answered: only a whole answer is checked.
        refusal = practice.choose_more(choose, len(chosen))
    if refusal:
        item.chosen = chosen  # shown as the learner left it: nothing they ticked is lost
        if autosave:
            return _answer_status(request, refusal, status=422)
        return _question_page(request, attempt, items, position, now, error=refusal, status=400)
    flagging = then == "flag" and attempt.kind == Attempt.Kind.MOCK and not autosave
    in_time = services.save_question(
        user=request.user,
        attempt=attempt,
        item=item,
        chosen=chosen,
        flagged=not item.flagged if flagging else None,
        now=now,
    )
    if not in_time:
        messages.warning(request, "Time is up: answers after the deadline are not counted.")
        if autosave:
            response = HttpResponse(status=204)
            response["HX-Redirect"] = reverse("progress:attempt-result", args=[attempt.pk])
            return response
        return redirect("progress:attempt-result", attempt.pk)
    if autosave:
        return _answer_status(request, practice.choice_status(choose, len(chosen)))
    if 0 < len(chosen) < choose:
        messages.info(
            request, f"Question {position}: {practice.choice_status(choose, len(chosen))}"
        )
    here = reverse("progress:attempt", args=[attempt.pk])
    if attempt.kind == Attempt.Kind.DRILL or flagging:
        return redirect(f"{here}?q={position}")
    if then == "flagged" or position >= len(items):
        return redirect("progress:attempt-flagged", attempt.pk)
    return redirect(f"{here}?q={position + 1}")


@login_required
@require_POST
def attempt_discard(request: HtmxHttpRequest, attempt_id: int) -> HttpResponse:
    attempt = learner_attempt(request, attempt_id)
    kind = attempt.get_kind_display().lower()
    try:
        services.discard(user=request.user, attempt=attempt, now=timezone.now())
    except services.DiscardRefused as refusal:
        return _practice_page(request, status=409, gone=str(refusal))
    messages.success(
        request, f"The {kind} was discarded: it counts nowhere and its answers stay unseen."
    )
    return redirect("progress:practice")


@login_required
@require_GET
def attempt_flagged(request: HtmxHttpRequest, attempt_id: int) -> HttpResponse:
    attempt = learner_attempt(request, attempt_id)
    now = timezone.now()
    if services.close_if_over(user=request.user, attempt=attempt, now=now):
        return redirect("progress:attempt-result", attempt.pk)
    items = attempt_items(attempt)
    return render(
        request,
        "progress/attempt_flagged.html",
        {
            "attempt": attempt,
            "items": items,
            "flagged": [item for item in items if item.flagged],
            "unanswered": [item for item in items if item.answered_at is None],
            "mostly_unanswered": mostly_unanswered(attempt, items),
            "seconds_left": attempt.seconds_left(now),
            "flag_seconds": settings.MOCK_FLAG_SECONDS,
        },
    )


def mostly_unanswered(attempt: Attempt, items: list[AttemptQuestion] | None = None) -> bool:
    """A mock with more than half its questions unanswered: handing it in asks first."""
    if attempt.kind != Attempt.Kind.MOCK:
        return False
    items = attempt_items(attempt) if items is None else items
    return 2 * sum(1 for item in items if item.answered_at is None) > len(items)


@login_required
@require_POST
def attempt_submit(request: HtmxHttpRequest, attempt_id: int) -> HttpResponse:
    attempt = learner_attempt(request, attempt_id)
    now = timezone.now()
    if services.close_if_over(user=request.user, attempt=attempt, now=now):
        return redirect("progress:attempt-result", attempt.pk)
    drill = attempt.kind == Attempt.Kind.DRILL
    if drill and not attempt.questions.filter(answered_at__isnull=False).exists():
        return bad_request("Answer at least one question before finishing the drill.")
    if not drill and request.POST.get("confirmed") != "1" and mostly_unanswered(attempt):
        # More than half would count as wrong: the page before handing in asks first.
        return redirect("progress:attempt-flagged", attempt.pk)
    services.submit(user=request.user, attempt=attempt, now=now)
    return redirect("progress:attempt-result", attempt.pk)
