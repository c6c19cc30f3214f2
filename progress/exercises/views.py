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
from progress.exercises.models import MAX_CHARS, Exercise, exercise_status, markdown, status
from progress.exercises.services import Stale, save_text, tick_parts
from progress.web import HtmxHttpRequest, bad_request, number


def current_phase(request: HtmxHttpRequest, slug: str) -> PhaseInfo:
    phase = learner_syllabus(request.user).phase(slug)
    if phase is None:
        raise Http404("No such phase: the six phases are listed on the syllabus page.")
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


def _version(request: HtmxHttpRequest) -> int:
    # A page from before versions were kept sends none: it was read at the first version.
    return number(request.POST.get("version", "0")) or 0


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


def text_problem(text: str | None) -> str:
    if text is None:
        return "Send your exercise as the field text."
    if len(text) > MAX_CHARS:
        return (
            f"Your exercise is {len(text):,} characters long; the most one can hold is "
            f"{MAX_CHARS:,}. Shorten it, then save again."
        )
    if "\x00" in text:
        return "Your exercise holds a NUL character, which cannot be stored: remove it."
    return ""


@login_required
@require_POST
def exercise_save(request: HtmxHttpRequest, slug: str) -> HttpResponse:
    phase = current_phase(request, slug)
    text = request.POST.get("text")
    problem = text_problem(text)
    if problem and request.htmx:
        return bad_request(f"Not saved: {problem}")
    if problem:
        # The page again, with the text as sent (less any NUL), so nothing typed is lost.
        given_back = (text or "").replace("\x00", "")
        exercise = replace(exercise_status(request.user, phase), text=given_back)
        context = {"phase": phase, "exercise": exercise, "error": problem}
        return render(request, "progress/exercise_refused.html", context, status=400)
    assert text is not None
    try:
        row = save_text(
            user=request.user, phase=phase, text=text, version=_version(request), now=timezone.now()
        )
    except Stale as stale:
        return _stale_text(request, phase, stale.current, text)
    return _saved(request, phase, row, "exercise", "exercise-saved")


@login_required
@require_POST
def exercise_parts(request: HtmxHttpRequest, slug: str) -> HttpResponse:
    phase = current_phase(request, slug)
    ticked = set(request.POST.getlist("part"))
    unknown = ticked - {part.slug for part in phase.exercise_parts}
    if unknown:
        return bad_request(
            f"This phase's exercise has no part {sorted(unknown)[0][:80]!r}: "
            "tick only the parts listed on the phase page."
        )
    try:
        row = tick_parts(
            user=request.user,
            phase=phase,
            ticked=ticked,
            version=_version(request),
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
