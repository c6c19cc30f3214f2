"""A handed-in attempt's result, and the history of attempts."""

from collections import defaultdict
from collections.abc import Iterable

from django.contrib.auth.decorators import login_required
from django.http import HttpResponse
from django.shortcuts import redirect, render
from django.utils import timezone
from django.views.decorators.http import require_GET

from phases.snapshot import DomainInfo
from progress import charts as chart
from progress.auth import learner_syllabus
from progress.models import Attempt, AttemptQuestion
from progress.planning import placement
from progress.planning.schedules import plan_of
from progress.practice import scoring as practice
from progress.practice import services
from progress.practice.views import (
    attempt_items,
    learner_attempt,
    refused_while_mock_live,
    shown_options,
)
from progress.verdicts.figures import rules
from progress.web import HtmxHttpRequest

HISTORY_LENGTH = 20  # finished attempts on the history page


def _score(
    results: Iterable[tuple[str, bool | None]], domains: Iterable[DomainInfo]
) -> practice.AttemptScore:
    the = rules()
    return practice.score(results, domains, the.accurate, the.confidence, the.min_answers)


RESULT_FILTERS = {"": "All", "wrong": "Wrong only", "unanswered": "Skipped only"}


@login_required
@require_GET
def attempt_result(request: HtmxHttpRequest, attempt_id: int) -> HttpResponse:
    attempt = learner_attempt(request, attempt_id)
    now = timezone.now()
    over = services.close_if_over(user=request.user, attempt=attempt, now=now)
    items = attempt_items(attempt)
    if not over and not (attempt.kind == Attempt.Kind.DRILL and all(i.answered_at for i in items)):
        return redirect("progress:attempt", attempt.pk)
    if (refusal := refused_while_mock_live(request, attempt, now)) is not None:
        return refusal
    # A drill reveals only what the learner answered: its unanswered questions stay unseen.
    shown = [item for item in items if item.answered_at or attempt.kind != Attempt.Kind.DRILL]
    show = request.GET.get("show", "")
    show = show if show in RESULT_FILTERS else ""
    listed = [
        item
        for item in shown
        if not show
        or (show == "wrong" and item.answered_at and not item.is_correct)
        or (show == "unanswered" and not item.answered_at)
    ]
    score = _score(
        ((item.question.domain.slug, item.is_correct) for item in shown),
        learner_syllabus(request.user).domains,
    )
    return render(
        request,
        "progress/attempt_result.html",
        {
            "attempt": attempt,
            "items": [(item, shown_options(item, reveal=True)) for item in listed],
            "hidden": len(items) - len(shown),
            "score": score,
            "rules": rules(),
            "timed_out": attempt.timed_out,
            "strong": [
                row.name for row in score.domains if placement.is_strong(row.right, row.asked)
            ]
            if attempt.placement
            else None,
            "strong_text": placement.STRONG_TEXT,
            "has_plan": (plan := plan_of(request.user)) is not None,
            "short_notice": plan is not None and plan.short_notice,
            "show": show,
            "filters": RESULT_FILTERS.items(),
        },
    )


@login_required
@require_GET
def practice_history(request: HtmxHttpRequest) -> HttpResponse:
    now = timezone.now()
    kind = request.GET.get("kind", "")
    attempts = Attempt.objects.for_user(request.user).closed(now).order_by("-started_at")
    if kind in Attempt.Kind.values:
        attempts = attempts.filter(kind=kind)
    chosen = list(attempts.select_related("domain")[:HISTORY_LENGTH])  # newest first
    rows = (
        AttemptQuestion.objects.filter(attempt__in=[a.pk for a in chosen])
        # A drill's skipped questions were never shown an answer: they are not scored.
        .exclude(attempt__kind=Attempt.Kind.DRILL, answered_at__isnull=True)
        .values_list("attempt_id", "question__domain__slug", "is_correct")
    )
    by_attempt: defaultdict[int, list[tuple[str, bool | None]]] = defaultdict(list)
    for attempt_id, domain, correct in rows:
        by_attempt[attempt_id].append((domain, correct))
    content = learner_syllabus(request.user)
    history = [(attempt, _score(by_attempt[attempt.pk], content.domains)) for attempt in chosen]
    return render(
        request,
        "progress/practice_history.html",
        {
            "history": history,
            "kind": kind,
            "kinds": Attempt.Kind.choices,
            "domains": content.domains,
            "rules": rules(),
            "chart": chart.history(
                [
                    (score.percent, score.weakest.percent if score.weakest else None)
                    for _, score in reversed(history)
                ],
                bar=rules().accurate_percent,
            ),
        },
    )
