"""The phase pages and what is done on them: answering a self-check from memory, revealing the
reference, saying how it went; unticking."""

from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpResponse
from django.shortcuts import redirect, render
from django.template.loader import render_to_string
from django.utils import timezone
from django.views.decorators.http import require_GET, require_POST

from phases.snapshot import CheckInfo
from progress.auth import learner_syllabus
from progress.exercises.models import exercise_status
from progress.memory.forms import OutcomeForm, TypedAnswerForm, UntickForm
from progress.memory.ticks import (
    NOT_REVEALED,
    OUTCOMES_TEXT,
    NotRevealed,
    Outcome,
    reveal,
    revealed,
    set_done,
    settle,
)
from progress.planning.today import learner_task
from progress.study_time.views import phase_time
from progress.verdicts.figures import CheckRow, check_figures, learner_state
from progress.web import (
    HtmxHttpRequest,
    back_to_check,
    bad_request,
    current_check,
    first_error,
    unchanged,
)


@login_required
@require_GET
def study(request: HtmxHttpRequest) -> HttpResponse:
    """The phase the learner's calendar has them in today (else the first)."""
    state = learner_state(request.user, today=timezone.localdate())
    phase = state.study_phase
    if phase is None:
        raise Http404("The syllabus has no phases loaded yet.")
    return redirect("progress:phase", phase.slug)


@login_required
@require_GET
def phase(request: HtmxHttpRequest, slug: str) -> HttpResponse:
    """A phase page: its topics, its self-checks and the learner's ticks, and its exercise."""
    today = timezone.localdate()
    content = learner_syllabus(request.user)
    phase = content.phase(slug)
    if phase is None:
        raise Http404("No such phase: the syllabus page lists every phase.")

    state = learner_state(request.user, today=today)
    position = content.phases.index(phase)
    turned_over = revealed(request.user, timezone.now())
    exercise = exercise_status(request.user, phase)
    current = state.current_slot
    # The page's exercise stands for today's: the task is shown only on the page of the phase it
    # names (or, on a revision or mock day, which names none, on every phase page).
    task = learner_task(state, exercise)
    context = {
        "todays_task": task if task and (not current or current.number == phase.number) else None,
        "phase": phase,
        "phases": content.phases,
        "previous_phase": content.phases[position - 1] if position > 0 else None,
        "next_phase": content.phases[position + 1] if position + 1 < len(content.phases) else None,
        "sections": [(domain, content.topics[domain.slug]) for domain in phase.domains],
        "rows": [state.row(check, turned_over) for check in content.checks_in_phase(phase.number)],
        "progress": state.phases.get(phase.number),
        "overall": state.report,
        **phase_time(request, phase),
        "exercise": exercise,
        "outcomes": Outcome.choices,
        "outcomes_text": OUTCOMES_TEXT,
    }
    return render(request, "progress/phase.html", context)


def _answered(request: HtmxHttpRequest, check: CheckInfo) -> HttpResponse:
    """A plain post goes back to the check; htmx gets the row, and out of band the phase's
    count and the header's figure, rendered for this learner alone."""
    if not request.htmx:
        return redirect(back_to_check(request, check))
    figures = check_figures(request.user, check, revealed(request.user, timezone.now()))
    return HttpResponse(
        row_fragment(request, figures.row)
        + render_to_string(
            "progress/phase.html#phase-progress",
            {"progress": figures.progress, "oob": True},
            request,
        )
        + render_to_string(
            "base.html#header-readiness",
            # The header's figure reads overall.weighted_recall_percent on every page.
            {"overall": figures, "oob": True},
            request,
        )
    )


@login_required
@require_POST
def selfcheck_toggle(request: HtmxHttpRequest, slug: str) -> HttpResponse:
    """Untick a check (no reveal needed). A tick is an outcome of an answer from memory."""
    check = current_check(request, slug)
    form = UntickForm(request.POST)
    if not form.is_valid():
        return bad_request(first_error(form))
    # The form says what the learner wants, so a repeated post is harmless.
    set_done(user=request.user, self_check_id=check.id, done=False)
    return _answered(request, check)


@login_required
@require_POST
def selfcheck_reveal(request: HtmxHttpRequest, slug: str) -> HttpResponse:
    """The reference answer, beside what the learner typed first, and then the outcomes.
    Only the reveal is written (a row of its own: tabs revealing at once all stand)."""
    check = current_check(request, slug)
    form = TypedAnswerForm(request.POST)
    if not form.is_valid():
        return bad_request(first_error(form))
    answer = form.cleaned_data["answer"]
    reveal(user=request.user, self_check_id=check.id, answer=answer, now=timezone.now())
    if not request.htmx:
        return redirect(back_to_check(request, check))
    return HttpResponse(
        row_fragment(
            request, check_figures(request.user, check, revealed(request.user, timezone.now())).row
        )
    )


@login_required
@require_POST
def selfcheck_outcome(request: HtmxHttpRequest, slug: str) -> HttpResponse:
    """How the answer from memory went (progress.memory.ticks), once revealed."""
    check = current_check(request, slug)
    form = OutcomeForm(request.POST)
    if not form.is_valid():
        return bad_request(first_error(form))
    outcome = form.cleaned_data["outcome"]
    try:
        settle(user=request.user, self_check_id=check.id, outcome=outcome, now=timezone.now())
    except NotRevealed:
        # Another tab said how it went, or nothing was revealed: htmx swaps the row as it is.
        refused = unchanged(NOT_REVEALED)
        if request.htmx:
            row = check_figures(request.user, check, revealed(request.user, timezone.now())).row
            return HttpResponse(row_fragment(request, row, refused=refused), status=409)
        return HttpResponse(refused, status=409, content_type="text/plain; charset=utf-8")
    return _answered(request, check)


def row_fragment(request: HtmxHttpRequest, row: CheckRow, refused: str = "") -> str:
    return render_to_string(
        "progress/phase.html#check-row",
        {"row": row, "outcomes": Outcome.choices, "refused": refused},
        request,
    )
