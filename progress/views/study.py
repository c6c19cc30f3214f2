"""The phase pages and what is done on them: ticking a self-check and rating it."""

from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpResponse
from django.shortcuts import redirect, render
from django.template.loader import render_to_string
from django.utils import timezone
from django.views.decorators.http import require_GET, require_POST

from ..auth import learner_syllabus
from ..exercise import exercise_status
from ..figures import CheckRow, check_figures, learner_state
from ..models import Confidence
from ..services.study import rate, set_done
from .common import HtmxHttpRequest, back_to_check, bad_request, current_check
from .study_time import phase_time


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
        raise Http404("No such phase: the six phases are listed on the syllabus page.")

    state = learner_state(request.user, today=today)
    position = content.phases.index(phase)
    context = {
        "phase": phase,
        "phases": content.phases,
        "previous_phase": content.phases[position - 1] if position > 0 else None,
        "next_phase": content.phases[position + 1] if position + 1 < len(content.phases) else None,
        "sections": [(domain, content.topics[domain.slug]) for domain in phase.domains],
        "rows": state.rows(content.checks_in_phase(phase.number)),
        "progress": state.phases.get(phase.number),
        "overall": state.report,
        **phase_time(request, phase),
        "exercise": exercise_status(request.user, phase),
    }
    return render(request, "progress/phase.html", context)


@login_required
@require_POST
def selfcheck_toggle(request: HtmxHttpRequest, slug: str) -> HttpResponse:
    check = current_check(request, slug)
    # The form says what the learner wants (done or not), so a repeated post is harmless.
    wanted = request.POST.get("done")
    if wanted not in ("0", "1"):
        return bad_request("Say done=1 to tick this self-check or done=0 to untick it.")
    set_done(user=request.user, self_check_id=check.id, done=wanted == "1")
    if not request.htmx:
        return redirect(back_to_check(request, check))
    figures = check_figures(request.user, check)
    # The row, and out of band the phase's count and the header's figure, rendered for this
    # learner alone.
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
def selfcheck_confidence(request: HtmxHttpRequest, slug: str) -> HttpResponse:
    check = current_check(request, slug)
    raw = request.POST.get("confidence")
    if raw not in (Confidence.SHAKY, Confidence.SOLID):
        return bad_request(f"Say confidence={Confidence.SHAKY} or confidence={Confidence.SOLID}.")
    if not rate(
        user=request.user,
        self_check_id=check.id,
        confidence=Confidence(raw),
        now=timezone.now(),
    ):
        return bad_request("Tick the self-check done before saying how well you know it.")
    if not request.htmx:
        return redirect(back_to_check(request, check))
    return HttpResponse(row_fragment(request, check_figures(request.user, check).row))


def row_fragment(request: HtmxHttpRequest, row: CheckRow) -> str:
    return render_to_string("progress/phase.html#check-row", {"row": row}, request)
