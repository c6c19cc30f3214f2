import dataclasses

from django.contrib import messages
from django.contrib.auth import logout
from django.contrib.auth.decorators import login_required
from django.core.cache import cache
from django.http import Http404, HttpResponse, HttpResponseBadRequest, JsonResponse
from django.middleware.csrf import get_token
from django.shortcuts import redirect, render
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import timezone
from django.utils.http import url_has_allowed_host_and_scheme
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from phases.content import CheckInfo, syllabus
from phases.models import Intensity
from phases.schedule import fitting_intensity, lay_out

from . import chart, ics, services
from .forms import DeleteAccountForm, PlanForm
from .learner import intensity_options, learner_state, plan_of

DASHBOARD_TTL = 24 * 60 * 60
# The one part of a cached dashboard that belongs to the request, not to the learner.
CSRF_HOLE = "__csrf-token-of-this-request__"


def _dashboard_key(user, today) -> str | None:
    """A key that changes whenever anything on the dashboard can: ticks, plan, day, content.

    The version lives in the database (bumped on every tick), so a cached copy in one server
    process is never served after a tick handled by another.
    """
    plan = plan_of(user)
    if plan is None:
        return None
    return (
        f"dashboard:{user.pk}:{plan.progress_version}:{plan.updated_at.timestamp()}:"
        f"{today.isoformat()}:{syllabus().version}"
    )


def _render_dashboard(request, today) -> str:
    state = learner_state(request.user, today=today, with_practice=True)
    report = state.report
    focus = report.lagging if report.started and not report.ready_to_book else None
    current = state.schedule.current(today) if state.schedule else None
    context = {
        "state": state,
        "report": report,
        "overall": report,
        "columns": chart.columns(report.domains),
        "chart": chart,
        "first_phase": state.content.phases[0] if state.content.phases else None,
        "next_check": state.first_open_check(focus.slug if focus else None),
        "current_slot": current,
        "current_phase": state.content.phase_numbered(current.number) if current else None,
        "current_progress": state.phases.get(current.number) if current else None,
        "csrf_token": CSRF_HOLE,
    }
    return render_to_string("progress/dashboard.html", context, request)


@login_required
@require_GET
def dashboard(request) -> HttpResponse:
    """The learner's home, cached whole until their next tick or plan change.

    Rendering it is most of its cost and it changes only when the learner acts, so the page is
    kept per learner and only the CSRF token is filled in per request. A page carrying one-off
    messages is rendered fresh and not kept.
    """
    today = timezone.localdate()
    key = None if len(messages.get_messages(request)) else _dashboard_key(request.user, today)
    page = cache.get(key) if key else None
    if page is None:
        page = _render_dashboard(request, today)
        if key:
            cache.set(key, page, DASHBOARD_TTL)
    return HttpResponse(page.replace(CSRF_HOLE, get_token(request)))


@login_required
@require_GET
def plan(request) -> HttpResponse:
    today = timezone.localdate()
    state = learner_state(request.user, today=today)
    if state.plan is None:
        messages.info(request, "Choose your schedule first.")
        return redirect("progress:plan-choose")
    phases = {phase.number: phase for phase in state.content.phases}
    current = state.schedule.current(today)
    rows = [
        {
            "slot": slot,
            "phase": phases.get(slot.number),
            "current": current is not None and slot.number == current.number,
            "past": slot.end < today,
            "progress": state.phases.get(slot.number),
        }
        for slot in state.schedule.slots
    ]
    exam = state.plan.exam_date
    return render(
        request,
        "progress/plan.html",
        {
            "state": state,
            "overall": state.report,
            "rows": rows,
            "days_to_exam": (exam - today).days if exam else None,
            "days_late": state.schedule.days_late(exam),
        },
    )


def _preview(intensities, intensity: Intensity | None, start, exam) -> dict | None:
    """The calendar the plan form's values would lay out, for the live preview."""
    if intensity is None or start is None:
        return None
    content = syllabus()
    options = {option.slug: option for option in intensity_options(intensities, content)}
    chosen = options[intensity.slug]
    schedule = lay_out(chosen.phase_hours, chosen.hours_per_week, start)
    days_late = schedule.days_late(exam)
    suggestion = None
    if days_late:
        slug = fitting_intensity(list(options.values()), start, exam)
        suggestion = next((i for i in intensities if i.slug == slug), None)
    phases = {phase.number: phase for phase in content.phases}
    return {
        "intensity": intensity,
        "schedule": schedule,
        "rows": [{"slot": slot, "phase": phases.get(slot.number)} for slot in schedule.slots],
        "exam_date": exam,
        "days_late": days_late,
        "suggestion": suggestion,
    }


def _preview_of(form: PlanForm, intensities) -> dict | None:
    values = form.cleaned_data if form.is_bound else form.initial
    return _preview(
        intensities, values.get("intensity"), values.get("start_date"), values.get("exam_date")
    )


def _plan_page(request, form: PlanForm, *, status: int = 200) -> HttpResponse:
    intensities = list(Intensity.objects.all())
    content = syllabus()
    return render(
        request,
        "progress/plan_choose.html",
        {
            "form": form,
            "intensities": [
                (intensity, sum(hours for _, hours in content.phase_hours[intensity.slug]))
                for intensity in intensities
            ],
            "preview": _preview_of(form, intensities),
            "has_plan": plan_of(request.user) is not None,
        },
        status=status,
    )


@login_required
@require_http_methods(["GET", "POST"])
def plan_choose(request) -> HttpResponse:
    if request.method == "POST":
        form = PlanForm(request.POST)
        if not form.is_valid():
            return _plan_page(request, form, status=400)
        services.save_plan(
            user=request.user,
            intensity=form.cleaned_data["intensity"],
            start_date=form.cleaned_data["start_date"],
            exam_date=form.cleaned_data["exam_date"],
            today=timezone.localdate(),
        )
        messages.success(request, "Your schedule is saved.")
        return redirect("progress:plan")
    existing = plan_of(request.user)
    if existing:
        initial = {
            "intensity": existing.intensity,
            "start_date": existing.start_date,
            "exam_date": existing.exam_date,
        }
    else:
        initial = {"intensity": Intensity.objects.default(), "start_date": timezone.localdate()}
    return _plan_page(request, PlanForm(initial=initial))


@login_required
@require_GET
def plan_preview(request) -> HttpResponse:
    form = PlanForm(request.GET)
    valid = form.is_valid()
    if request.htmx:
        preview = _preview_of(form, list(Intensity.objects.all()))
        return render(
            request,
            "progress/plan_choose.html#preview",
            {"preview": preview, "form": form, "show_errors": True},
        )
    return _plan_page(request, form, status=200 if valid else 400)


@login_required
@require_GET
def plan_calendar(request) -> HttpResponse:
    state = learner_state(request.user, today=timezone.localdate())
    if state.plan is None:
        return HttpResponse(
            "You have no study plan yet: choose your schedule first.",
            status=404,
            content_type="text/plain",
        )
    phases = {phase.number: phase for phase in state.content.phases}
    events = [
        ics.AllDayEvent(
            uid=f"phase-{slot.number}-{request.user.pk}@nca-genm-studyplan",
            summary=f"NCA-GENM phase {slot.number}: {phases[slot.number].title} ({slot.hours} h)",
            start=slot.start,
            end=slot.end,
            description=phases[slot.number].goal,
        )
        for slot in state.schedule.slots
    ]
    if state.plan.exam_date:
        events.append(
            ics.AllDayEvent(
                uid=f"exam-{request.user.pk}@nca-genm-studyplan",
                summary="NCA-GENM exam",
                start=state.plan.exam_date,
                end=state.plan.exam_date,
            )
        )
    body = ics.calendar(events, stamp=timezone.now(), name="NCA-GENM study plan")
    response = HttpResponse(body, content_type="text/calendar; charset=utf-8")
    response["Content-Disposition"] = 'attachment; filename="nca-genm-study-plan.ics"'
    return response


@login_required
@require_GET
def phase(request, slug: str) -> HttpResponse:
    state = learner_state(request.user, today=timezone.localdate())
    content = state.content
    phase = content.phase(slug)
    if phase is None:
        raise Http404("No such phase: the six phases are listed on the syllabus page.")
    position = content.phases.index(phase)
    return render(
        request,
        "progress/phase.html",
        {
            "phase": phase,
            "phases": content.phases,
            "previous_phase": content.phases[position - 1] if position > 0 else None,
            "next_phase": content.phases[position + 1]
            if position + 1 < len(content.phases)
            else None,
            "sections": [(domain, content.topics[domain.slug]) for domain in phase.domains],
            "checks": state.with_state(content.checks_in_phase(phase.number)),
            "progress": state.phases.get(phase.number),
            "overall": state.report,
        },
    )


def current_check(slug: str) -> CheckInfo:
    check = syllabus().check(slug)
    if check is None:
        raise Http404("No such self-check in the current syllabus.")
    return check


def back_to_check(request, check: CheckInfo) -> str:
    fallback = f"{reverse('progress:phase', args=[check.phase.slug])}#check-{check.slug}"
    target = request.POST.get("next", "")
    if target and url_has_allowed_host_and_scheme(
        target, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    ):
        return target
    return fallback


@login_required
@require_POST
def selfcheck_toggle(request, slug: str) -> HttpResponse:
    check = current_check(slug)
    # The form says what the learner wants (done or not), so a repeated post is harmless.
    wanted = request.POST.get("done")
    if wanted not in ("0", "1"):
        return HttpResponseBadRequest(
            "Say done=1 to tick this self-check or done=0 to untick it; nothing was changed.",
            content_type="text/plain; charset=utf-8",
        )
    done = wanted == "1"
    services.set_done(user=request.user, self_check_id=check.id, done=done)
    if not request.htmx:
        return redirect(back_to_check(request, check))
    state = learner_state(request.user, today=timezone.localdate())
    return render(
        request,
        "progress/phase.html#toggle-response",
        {
            "check": dataclasses.replace(check, done=done),
            "phase": check.phase,
            "progress": state.phases.get(check.phase.number),
            "overall": state.report,
        },
    )


@login_required
@require_GET
def account(request) -> HttpResponse:
    return render(request, "progress/account.html", {"form": DeleteAccountForm(request.user)})


@login_required
@require_GET
def account_export(request) -> JsonResponse:
    data = services.export_learner(request.user, now=timezone.now())
    response = JsonResponse(data, json_dumps_params={"indent": 2, "ensure_ascii": False})
    response["Content-Disposition"] = 'attachment; filename="nca-genm-study-tracker-my-data.json"'
    return response


@login_required
@require_POST
def account_delete(request) -> HttpResponse:
    form = DeleteAccountForm(request.user, request.POST)
    if not form.is_valid():
        return render(request, "progress/account.html", {"form": form}, status=400)
    services.delete_learner(request.user)
    logout(request)
    messages.success(request, "Your account and everything attached to it have been deleted.")
    return redirect("phases:home")
