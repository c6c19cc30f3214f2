"""A phase's written exercise: saving the text, ticking its parts, downloading it."""

from dataclasses import replace

from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone
from django.views.decorators.http import require_GET, require_POST

from phases.snapshot import PhaseInfo
from progress.auth import learner_syllabus
from progress.exercises.forms import ExercisePartsForm, ExerciseTextForm
from progress.exercises.models import Exercise, exercise_status, markdown, status
from progress.exercises.services import Stale, save_text, tick_parts
from progress.web import HtmxHttpRequest, bad_request, first_error


def current_phase(request: HtmxHttpRequest, slug: str) -> PhaseInfo:
    phase = learner_syllabus(request.user).phase(slug)
    if phase is None:
        raise Http404("No such phase: the syllabus page lists every phase.")
    return phase


def _saved(
    request: HtmxHttpRequest, phase: PhaseInfo, row: Exercise, anchor: str, partial: str
) -> HttpResponse:
    """With htmx the part of the section that changed; without, back to it on the phase page."""
    if not request.htmx:
        return redirect(f"{reverse('progress:phase', args=[phase.slug])}#{anchor}")
    context = {"phase": phase, "exercise": status(row, phase), "oob": True}
    return render(request, f"progress/exercise.html#{partial}", context)


STALE_TEXT = (
    "Your exercise was saved from another tab or device after this page was opened, so this "
    "save was refused: the saved text is in the box now. Your text from this page is below it, "
    "not saved: copy what you need, then save."
)
STALE_PARTS = (
    "These ticks were changed from another tab or device after this page was opened, so yours "
    "were not saved: here they are as saved now. Tick again if you need to."
)


def _stale_text(
    request: HtmxHttpRequest, phase: PhaseInfo, current: Exercise | None, mine: str
) -> HttpResponse:
    """The newer text in the box, the learner's own below it to copy: a 409, swapped in place of
    the form by htmx, or the page that says so without it."""
    context = {
        "phase": phase,
        "exercise": status(current, phase),
        "error": STALE_TEXT,
        "stale": True,
        "mine": mine,
    }
    if request.htmx:
        response = render(request, "progress/exercise.html#exercise-form", context, status=409)
        response["HX-Retarget"] = "#exercise-form-block"
        response["HX-Reswap"] = "outerHTML"
        return response
    return render(request, "progress/exercise_refused.html", context, status=409)


@login_required
@require_POST
def exercise_save(request: HtmxHttpRequest, slug: str) -> HttpResponse:
    phase = current_phase(request, slug)
    form = ExerciseTextForm(request.POST)
    if not form.is_valid() and request.htmx:
        return bad_request(f"Not saved: {first_error(form)}")
    if not form.is_valid():
        # The page again, with the text as sent, so nothing typed is lost.
        exercise = replace(exercise_status(request.user, phase), text=form.given_back())
        context = {"phase": phase, "exercise": exercise, "error": first_error(form)}
        return render(request, "progress/exercise_refused.html", context, status=400)
    text, version = form.cleaned_data["text"], form.cleaned_data["version"]
    try:
        row = save_text(
            user=request.user, phase=phase, text=text, version=version, now=timezone.now()
        )
    except Stale as stale:
        return _stale_text(request, phase, stale.current, text)
    return _saved(request, phase, row, "exercise", "exercise-saved")


@login_required
@require_POST
def exercise_parts(request: HtmxHttpRequest, slug: str) -> HttpResponse:
    phase = current_phase(request, slug)
    form = ExercisePartsForm(request.POST, phase=phase)
    if not form.is_valid():
        return bad_request(first_error(form))
    try:
        row = tick_parts(
            user=request.user,
            phase=phase,
            ticked=set(form.cleaned_data["part"]),
            version=form.cleaned_data["version"],
            now=timezone.now(),
        )
    except Stale as stale:
        context = {
            "phase": phase,
            "exercise": status(stale.current, phase),
            "error": STALE_PARTS,
            "parts_refused": True,
        }
        if request.htmx:
            return render(request, "progress/exercise.html#exercise-parts", context, status=409)
        return render(request, "progress/exercise_refused.html", context, status=409)
    return _saved(request, phase, row, "exercise-parts", "exercise-parts")


@login_required
@require_GET
def exercise_download(request: HtmxHttpRequest, slug: str) -> HttpResponse:
    phase = current_phase(request, slug)
    response = HttpResponse(
        markdown(exercise_status(request.user, phase)), content_type="text/markdown; charset=utf-8"
    )
    response["Content-Disposition"] = (
        f'attachment; filename="nca-genm-phase-{phase.number}-exercise.md"'
    )
    return response
