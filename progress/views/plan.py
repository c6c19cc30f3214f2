"""Choosing a schedule, the plan page and its calendar file."""

import datetime
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone
from django.views.decorators.http import require_GET, require_http_methods

from phases.models import Intensity
from phases.schedule import HEAVY_WEEK_HOURS, HEAVY_WEEK_TEXT, fitting_intensity, lay_out
from progress.auth import learner_syllabus
from progress.links import site_link

from .. import ics
from ..figures import fitted_schedule, intensity_options, learner_state, plan_of
from ..forms import PlanForm
from ..services.plan import save_plan
from .common import HtmxHttpRequest


@login_required
@require_GET
def plan(request: HtmxHttpRequest) -> HttpResponse:
    today = timezone.localdate()
    state = learner_state(request.user, today=today)
    if state.plan is None or state.schedule is None:
        messages.info(request, "Choose your schedule first.")
        return redirect("progress:plan-choose")
    phases = {phase.number: phase for phase in state.content.phases}
    current = state.current_slot
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
            "study_phase": state.study_phase,  # the page's main action
            "days_to_exam": (exam - today).days if exam else None,
            "days_late": state.schedule.days_late(exam),
            "heavy": state.schedule.fitted and state.schedule.hours_per_week > HEAVY_WEEK_HOURS,
            "heavy_text": HEAVY_WEEK_TEXT,
        },
    )


def _preview(
    request: HtmxHttpRequest,
    intensities: list[Intensity],
    intensity: Intensity | None,
    start: datetime.date | None,
    exam: datetime.date | None,
) -> dict[str, Any] | None:
    """The calendar the plan form's values would lay out, for the live preview; when no
    intensity finishes by the exam, the same hours fitted to it (``fitted``), or why they
    cannot be (``fit_refusal``)."""
    if intensity is None or start is None:
        return None
    content = learner_syllabus(request.user)
    options = {option.slug: option for option in intensity_options(intensities, content)}
    chosen = options[intensity.slug]
    schedule = lay_out(chosen.phase_hours, chosen.hours_per_week, start)
    days_late = schedule.days_late(exam)
    suggestion = None
    if days_late and exam is not None:
        slug = fitting_intensity(list(options.values()), start, exam)
        suggestion = next((i for i in intensities if i.slug == slug), None)
    phases = {phase.number: phase for phase in content.phases}
    fitted, fit_refusal = None, ""
    if exam is None:
        fit_refusal = "Enter your exam date to fit your plan to it."
    elif not days_late:
        fit_refusal = f"{intensity.name} already finishes before your exam: no fitting needed."
    elif suggestion is not None:
        fit_refusal = (
            f"{suggestion.name} finishes before your exam: choose it. "
            "Fitting is for when no schedule does."
        )
    else:
        try:
            fitted = fitted_schedule(content, intensity.slug, start, exam)
        except ValueError:
            available = max(0, (exam - start).days)
            fit_refusal = (
                f"There {'is' if available == 1 else 'are'} only {available} "
                f"day{'' if available == 1 else 's'} between your start date and your exam: too "
                f"few to give each of the {len(content.phases)} phases a day. Move your exam date "
                "or start earlier."
            )
    plan = plan_of(request.user)

    def rows(laid_out: Any) -> list[dict[str, Any]]:
        return [{"slot": slot, "phase": phases.get(slot.number)} for slot in laid_out.slots]

    return {
        "intensity": intensity,
        "schedule": schedule,
        "rows": rows(schedule),
        "exam_date": exam,
        "days_late": days_late,
        "suggestion": suggestion,
        "fitted": fitted,
        "fitted_rows": rows(fitted) if fitted else [],
        "fit_refusal": fit_refusal,
        # The learner's plan already is this intensity fitted to these dates.
        "fit_chosen": fitted is not None
        and plan is not None
        and plan.fitted
        and (plan.intensity_id, plan.start_date, plan.exam_date) == (intensity.pk, start, exam),
        "heavy": fitted is not None and fitted.hours_per_week > HEAVY_WEEK_HOURS,
        "heavy_text": HEAVY_WEEK_TEXT,
    }


def _preview_of(
    request: HtmxHttpRequest, form: PlanForm, intensities: list[Intensity]
) -> dict[str, Any] | None:
    values = form.cleaned_data if form.is_bound else form.initial
    return _preview(
        request,
        intensities,
        values.get("intensity"),
        values.get("start_date"),
        values.get("exam_date"),
    )


def _choose_page(request: HtmxHttpRequest, form: PlanForm, *, status: int = 200) -> HttpResponse:
    intensities = list(Intensity.objects.all())
    content = learner_syllabus(request.user)
    return render(
        request,
        "progress/plan_choose.html",
        {
            "form": form,
            "intensities": [
                (
                    intensity,
                    lay_out(
                        content.phase_hours[intensity.slug],
                        intensity.hours_per_week,
                        timezone.localdate(),
                    ).total_hours,
                )
                for intensity in intensities
            ],
            "preview": _preview_of(request, form, intensities),
            "has_plan": plan_of(request.user) is not None,
        },
        status=status,
    )


@login_required
@require_http_methods(["GET", "POST"])
def plan_choose(request: HtmxHttpRequest) -> HttpResponse:
    if request.method == "POST":
        form = PlanForm(request.POST)
        if not form.is_valid():
            return _choose_page(request, form, status=400)
        fit = bool(form.cleaned_data["fit"])  # "" when the plain save button was used
        fitted = None
        if fit:
            preview = _preview_of(request, form, list(Intensity.objects.all()))
            fitted = preview["fitted"] if preview else None
            if fitted is None:
                form.add_error(None, preview["fit_refusal"] if preview else "")
                return _choose_page(request, form, status=400)
        save_plan(
            user=request.user,
            intensity=form.cleaned_data["intensity"],
            start_date=form.cleaned_data["start_date"],
            exam_date=form.cleaned_data["exam_date"],
            today=timezone.localdate(),
            fitted=fit,
        )
        if fitted is not None:
            messages.success(
                request,
                "Your plan is fitted to your exam date: about "
                f"{fitted.hours_per_week} hours a week.",
            )
        else:
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
    return _choose_page(request, PlanForm(initial=initial))


@login_required
@require_http_methods(["GET", "POST"])
def plan_preview(request: HtmxHttpRequest) -> HttpResponse:
    """The calendar the form's values would give, saving nothing. The form posts here (so the
    CSRF token never lands in a URL); a GET with the same fields works too."""
    form = PlanForm(request.POST if request.method == "POST" else request.GET)
    valid = form.is_valid()
    if request.htmx:
        preview = _preview_of(request, form, list(Intensity.objects.all()))
        return render(
            request,
            "progress/plan_choose.html#preview",
            {"preview": preview, "form": form, "show_errors": True},
        )
    return _choose_page(request, form, status=200 if valid else 400)


@login_required
@require_GET
def plan_calendar(request: HtmxHttpRequest) -> HttpResponse:
    state = learner_state(request.user, today=timezone.localdate())
    if state.plan is None or state.schedule is None:
        return HttpResponse(
            "You have no study plan yet: choose your schedule first.",
            status=404,
            content_type="text/plain",
        )
    body = ics.plan_calendar(
        schedule=state.schedule,
        phases={
            phase.number: ics.PhaseEntry(
                phase.title, phase.goal, site_link(reverse("progress:phase", args=[phase.slug]))
            )
            for phase in state.content.phases
        },
        exam_date=state.plan.exam_date,
        exam_url=site_link(reverse("progress:dashboard")),
        owner=str(request.user.pk),
        stamp=timezone.now(),
    )
    response = HttpResponse(body, content_type="text/calendar; charset=utf-8")
    response["Content-Disposition"] = 'attachment; filename="nca-genm-study-plan.ics"'
    return response
