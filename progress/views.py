from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.db.models import Exists, OuterRef, Prefetch
from django.http import HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.http import url_has_allowed_host_and_scheme
from django.views.decorators.http import require_GET, require_http_methods, require_POST
from django_htmx.middleware import HtmxDetails

from phases.models import Intensity, Phase, SelfCheck, Topic
from phases.schedule import fitting_intensity, lay_out

from . import chart, ics, services
from .forms import PlanForm
from .learner import first_open_check, intensity_options, learner_state
from .models import CheckOff


class HtmxHttpRequest:  # for type hints only: request.htmx is set by HtmxMiddleware
    htmx: HtmxDetails


def _phase_titles() -> dict[int, Phase]:
    return {phase.number: phase for phase in Phase.objects.all()}


@login_required
@require_GET
def dashboard(request) -> HttpResponse:
    today = timezone.localdate()
    state = learner_state(request.user, today=today)
    report = state.report
    if report.started:
        focus = report.lagging
        next_check = first_open_check(request.user, domain_slug=focus.slug) if focus else None
    else:
        focus = None
        next_check = first_open_check(request.user)
    current = state.schedule.current(today) if state.schedule else None
    return render(
        request,
        "progress/dashboard.html",
        {
            "state": state,
            "report": report,
            "overall": report,
            "columns": chart.columns(report.domains),
            "chart": chart,
            "next_check": next_check,
            "current_slot": current,
            "lagging_rule": "Lowest share of self-checks done; a tie goes to the heavier domain.",
        },
    )


@login_required
@require_GET
def plan(request) -> HttpResponse:
    today = timezone.localdate()
    state = learner_state(request.user, today=today)
    if state.plan is None:
        messages.info(request, "Choose your schedule first.")
        return redirect("progress:plan-choose")
    phases = _phase_titles()
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


def _preview(intensity: Intensity | None, start, exam) -> dict | None:
    """The calendar the plan form's values would lay out, for the live preview."""
    if intensity is None or start is None:
        return None
    options = {option.slug: option for _, option in intensity_options()}
    chosen = options[intensity.slug]
    schedule = lay_out(chosen.phase_hours, chosen.hours_per_week, start)
    days_late = schedule.days_late(exam)
    suggestion = None
    if days_late:
        slug = fitting_intensity(list(options.values()), start, exam)
        suggestion = Intensity.objects.filter(slug=slug).first() if slug else None
    phases = _phase_titles()
    return {
        "intensity": intensity,
        "schedule": schedule,
        "rows": [{"slot": slot, "phase": phases.get(slot.number)} for slot in schedule.slots],
        "exam_date": exam,
        "days_late": days_late,
        "suggestion": suggestion,
    }


def _preview_of(form: PlanForm) -> dict | None:
    values = form.cleaned_data if form.is_bound else form.initial
    return _preview(values.get("intensity"), values.get("start_date"), values.get("exam_date"))


def _plan_page(request, form: PlanForm, *, status: int = 200) -> HttpResponse:
    options = intensity_options()
    return render(
        request,
        "progress/plan_choose.html",
        {
            "form": form,
            "intensities": [
                (intensity, sum(hours for _, hours in option.phase_hours))
                for intensity, option in options
            ],
            "preview": _preview_of(form),
            "has_plan": hasattr(request.user, "study_plan"),
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
    existing = getattr(request.user, "study_plan", None)
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
        return render(
            request,
            "progress/plan_choose.html#preview",
            {"preview": _preview_of(form), "form": form, "show_errors": True},
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
    phases = _phase_titles()
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


def _checks_with_state(user, **filters):
    return (
        SelfCheck.objects.current()
        .filter(**filters)
        .select_related("domain", "topic")
        .annotate(done=Exists(CheckOff.objects.filter(user=user, self_check=OuterRef("pk"))))
        .order_by("order")
    )


@login_required
@require_GET
def phase(request, slug: str) -> HttpResponse:
    phase = get_object_or_404(
        Phase.objects.prefetch_related(
            "domains",
            Prefetch(
                "domains__topics",
                queryset=Topic.objects.order_by("order"),
            ),
        ),
        slug=slug,
    )
    state = learner_state(request.user, today=timezone.localdate(), with_plan=False)
    phase_nav = list(Phase.objects.values_list("number", "slug", "title"))
    position = [number for number, _, _ in phase_nav].index(phase.number)
    return render(
        request,
        "progress/phase.html",
        {
            "phase": phase,
            "phase_nav": phase_nav,
            "previous_phase": phase_nav[position - 1] if position > 0 else None,
            "next_phase": phase_nav[position + 1] if position + 1 < len(phase_nav) else None,
            "checks": _checks_with_state(request.user, phase=phase),
            "progress": state.phases.get(phase.number),
            "overall": state.report,
        },
    )


def _back_to(request, check: SelfCheck) -> str:
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
    check = get_object_or_404(
        SelfCheck.objects.current().select_related("phase", "domain", "topic"), slug=slug
    )
    # The form says what the learner wants (done or not), so a repeated post is harmless.
    done = request.POST.get("done") == "1"
    services.set_done(user=request.user, self_check=check, done=done)
    if not request.htmx:
        return redirect(_back_to(request, check))
    check.done = done
    state = learner_state(request.user, today=timezone.localdate(), with_plan=False)
    return render(
        request,
        "progress/phase.html#toggle-response",
        {
            "check": check,
            "phase": check.phase,
            "progress": state.phases.get(check.phase.number),
            "overall": state.report,
        },
    )
