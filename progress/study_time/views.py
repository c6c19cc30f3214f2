"""Study time: the timer and "I studied __ minutes" on a phase page, and the learner's sessions,
each of which they can correct or delete."""

from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.db.models import QuerySet
from django.http import Http404, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone
from django.views.decorators.http import require_GET, require_http_methods, require_POST
from django_htmx.http import HTMX_STOP_POLLING, HttpResponseClientRedirect

from phases.snapshot import PhaseInfo, Syllabus
from progress.auth import learner_syllabus
from progress.exercises.views import current_phase
from progress.planning.schedules import plan_of, schedule_for
from progress.study_time import services
from progress.study_time.figures import StudyTime, running_timer, study_time
from progress.study_time.forms import StudyDomainForm, StudySessionForm
from progress.study_time.models import TIMER_CAP_TEXT, StudySession
from progress.web import HtmxHttpRequest


def _session_form(
    request: HtmxHttpRequest, phase: PhaseInfo, *args: Any, **kwargs: Any
) -> StudySessionForm:
    joined = getattr(request.user, "date_joined", timezone.now())  # login_required: always set
    return StudySessionForm(
        phase, *args, joined=timezone.localdate(joined), today=timezone.localdate(), **kwargs
    )


def _stop_form(phase: PhaseInfo, data: Any = None) -> StudyDomainForm:
    # Its own ids: the phase page also holds "I studied __ minutes", with a domain choice too.
    return StudyDomainForm(phase, data, auto_id="stop-%s")


def _figures(request: HtmxHttpRequest) -> tuple[Syllabus, StudyTime]:
    content = learner_syllabus(request.user)
    plan = plan_of(request.user)
    schedule = schedule_for(plan, content) if plan else None
    return content, study_time(request.user, content, schedule, timezone.localdate())


def phase_time(
    request: HtmxHttpRequest, phase: PhaseInfo, stop_form: StudyDomainForm | None = None
) -> dict[str, Any]:
    """The phase page's study-time section: the timer, the phase's hours against the plan's, and
    "I studied __ minutes"; a refused stop form in place of its blank one."""
    content, figures = _figures(request)
    running = running_timer(request.user, content, timezone.now())
    return {
        "phase": phase,
        "time": figures.phase(phase),
        "running": running,
        "cap_text": TIMER_CAP_TEXT,
        "stop_form": stop_form or (_stop_form(running.phase) if running else None),
        "record_form": _session_form(request, phase),
    }


def _section(
    request: HtmxHttpRequest, phase: PhaseInfo, status: int = 200, note: str = "", **kwargs: Any
) -> HttpResponse:
    context = {**phase_time(request, phase, **kwargs), "note": note}
    return render(request, "progress/study_time.html#phase-time", context, status=status)


def _done(request: HtmxHttpRequest, phase: PhaseInfo, note: str = "") -> HttpResponse:
    """With htmx the section, saying ``note`` in it; without, ``note`` as a message and back to
    the section on the phase page."""
    if request.htmx:
        return _section(request, phase, note=note)
    if note:
        messages.info(request, note)
    return redirect(f"{reverse('progress:phase', args=[phase.slug])}#study-time")


@login_required
@require_GET
def timer_status(request: HtmxHttpRequest, slug: str) -> HttpResponse:
    """The running timer's line, polled by the phase page every minute: a few hundred bytes, not
    the page. 286 once no timer runs, which tells htmx to stop polling."""
    phase = current_phase(request, slug)
    running = running_timer(request.user, learner_syllabus(request.user), timezone.now())
    context = {"phase": phase, "running": running}
    return render(
        request,
        "progress/study_time.html#timer-status",
        context,
        status=200 if running else HTMX_STOP_POLLING,
    )


@login_required
@require_POST
def timer_start(request: HtmxHttpRequest, slug: str) -> HttpResponse:
    phase = current_phase(request, slug)
    _, started = services.start_timer(user=request.user, phase_slug=phase.slug, now=timezone.now())
    return _done(request, phase, "" if started else "Your timer was already running: here it is.")


@login_required
@require_POST
def timer_stop(request: HtmxHttpRequest, slug: str) -> HttpResponse:
    """Stop the running timer (whichever phase it is on) from the page of phase ``slug``."""
    phase = current_phase(request, slug)
    content = learner_syllabus(request.user)
    running = running_timer(request.user, content, timezone.now())
    if running is None:
        return _done(
            request, phase, "No timer is running (stopped in another tab?): nothing changed."
        )
    form = _stop_form(running.phase, request.POST)
    if not form.is_valid():
        return _section(request, phase, status=400, stop_form=form)
    try:
        session = services.stop_timer(
            user=request.user, domain_slug=form.cleaned_data["domain"], now=timezone.now()
        )
    except (services.DayIsFull, services.TooShort) as refusal:
        return _done(request, phase, str(refusal))
    if session is not None and session.capped:
        messages.warning(
            request,
            f"Your timer was still running after {TIMER_CAP_TEXT}, so it stopped counting "
            f"there: {session.text} recorded. If you studied a different "
            "time, correct it here.",
        )
        edit = reverse("progress:study-session", args=[session.pk])
        return HttpResponseClientRedirect(edit) if request.htmx else redirect(edit)
    return _done(request, phase, f"{session.text} of study recorded." if session else "")


@login_required
@require_POST
def session_record(request: HtmxHttpRequest, slug: str) -> HttpResponse:
    """ "I studied __ minutes": the no-JavaScript way to log time, and a way to log it later."""
    phase = current_phase(request, slug)
    form = _session_form(request, phase, request.POST)
    if not form.is_valid():
        return render(
            request,
            "progress/study_session.html",
            {"form": form, "phase": phase, "action": request.path},
            status=400,
        )
    try:
        session = services.record_session(
            user=request.user,
            phase_slug=phase.slug,
            domain_slug=form.cleaned_data["domain"],
            day=form.cleaned_data["day"],
            minutes=form.cleaned_data["minutes"],
        )
    except services.DayIsFull as full:
        form.add_error("minutes", str(full))
        return render(
            request,
            "progress/study_session.html",
            {"form": form, "phase": phase, "action": request.path},
            status=400,
        )
    return _done(request, phase, f"{session.text} of study recorded.")


def _recorded(request: HtmxHttpRequest) -> QuerySet[StudySession]:
    return StudySession.objects.for_user(request.user).recorded().select_related("phase", "domain")


@login_required
@require_GET
def sessions(request: HtmxHttpRequest) -> HttpResponse:
    content, figures = _figures(request)
    return render(
        request,
        "progress/study_sessions.html",
        {
            "figures": figures,
            "domains": figures.domains(),
            "phases": [(phase, figures.phase(phase)) for phase in content.phases],
            "sessions": _recorded(request),
        },
    )


def _own_session(request: HtmxHttpRequest, session_id: int) -> tuple[StudySession, PhaseInfo]:
    session = _recorded(request).filter(pk=session_id).first()
    phase = learner_syllabus(request.user).phase(session.phase.slug) if session else None
    if session is None or phase is None:
        raise Http404("No study session of yours by that number: see your study sessions.")
    return session, phase


@login_required
@require_http_methods(["GET", "POST"])
def session_edit(request: HtmxHttpRequest, session_id: int) -> HttpResponse:
    session, phase = _own_session(request, session_id)
    initial = {
        "minutes": session.minutes,
        "day": session.day,
        "domain": session.domain.slug if session.domain else None,
    }
    form = _session_form(request, phase, request.POST or None, initial=initial)
    if request.method == "POST" and form.is_valid():
        try:
            services.correct_session(
                user=request.user,
                session_id=session.pk,
                domain_slug=form.cleaned_data["domain"],
                day=form.cleaned_data["day"],
                minutes=form.cleaned_data["minutes"],
            )
        except services.DayIsFull as full:
            form.add_error("minutes", str(full))
        else:
            messages.success(request, "Study session corrected.")
            return redirect("progress:study-time")
    context = {"form": form, "phase": phase, "session": session, "action": request.path}
    status = 400 if request.method == "POST" else 200
    return render(request, "progress/study_session.html", context, status=status)


@login_required
@require_http_methods(["GET", "POST"])
def session_delete(request: HtmxHttpRequest, session_id: int) -> HttpResponse:
    """Asks first (a page of its own, so the step holds without JavaScript), then deletes."""
    session, phase = _own_session(request, session_id)
    if request.method == "POST":
        services.delete_session(user=request.user, session_id=session.pk)
        messages.success(request, "Study session deleted.")
        return redirect("progress:study-time")
    context = {"phase": phase, "session": session, "deleting": True}
    return render(request, "progress/study_session.html", context)
