"""Choosing a schedule, the plan page and its calendar file."""

import datetime
import math
import random
from collections.abc import Mapping
from operator import itemgetter
from typing import Any

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from phases.models import Intensity
from phases.own_pace import Pace, hours_text, study_days
from phases.schedule import (
    GUIDE_HOURS,
    HEAVY_WEEK_HOURS,
    HEAVY_WEEK_TEXT,
    MOCK_HOURS,
    Schedule,
    fitting_intensity,
    session_length,
    sessions_per_week,
)
from phases.short_notice import SHORT_NOTICE_HOURS_PER_DAY
from phases.snapshot import Syllabus
from phases.words import counted
from progress.auth import learner_syllabus
from progress.exercises.models import exercise_statuses
from progress.links import site_link
from progress.planning import calendar as ics
from progress.planning import placement
from progress.planning.forms import PlanForm
from progress.planning.models import StudyPlan, earlier_plans
from progress.planning.schedules import (
    fitted_schedule,
    intensity_options,
    learner_pace_schedule,
    own_pace,
    plan_of,
    short_notice_schedule,
)
from progress.planning.services import CannotCatchUp, catch_up, save_plan
from progress.planning.today import CATCH_UP_DAYS, behind_days
from progress.practice import services
from progress.verdicts.figures import learner_state
from progress.web import HtmxHttpRequest


def _row(kind: str, title: str, url: str, start: Any, end: Any, hours: int) -> dict[str, Any]:
    return {"kind": kind, "title": title, "url": url, "start": start, "end": end, "hours": hours}


def calendar_rows(schedule: Schedule, content: Syllabus, placed: Any) -> list[dict[str, Any]]:
    """The calendar's rows as the plan page and the preview show them: each phase (with why a
    strong placement shortened it), then the revision days and the full mock, each linking to
    the page where that work is done; a short-notice plan's in the order of its days."""
    strong = placement.strong_domains(placed)
    phases = {phase.number: phase for phase in content.phases}
    rows = []
    for slot in schedule.slots:
        phase = phases[slot.number]
        url = reverse("progress:phase", args=[phase.slug])
        row = _row("phase", f"{slot.number}. {phase.title}", url, slot.start, slot.end, slot.hours)
        if saved := schedule.saved(slot.number):
            why = ", ".join(
                f"{domain.name} ({placed[domain.slug][0]} of {placed[domain.slug][1]} right)"
                for domain in phase.domains
                if domain.slug in strong
            )
            row["shortened"] = f"{saved} h shorter: your placement showed you strong in {why}"
        rows.append(row | {"number": slot.number})
    if (revision := schedule.revision) is not None:
        review, practice = reverse("progress:review"), reverse("progress:practice")
        first, last = revision.start, revision.last_revision_day
        rows += [
            _row("revision", REVISION_TITLE, review, first, last, revision.hours),
            _row("mock", mock_title(), practice, revision.mock_day, revision.mock_day, MOCK_HOURS),
        ]
    return sorted(rows, key=itemgetter("start")) if schedule.day_by_day else rows


# The figures the plan pages state, from their one home each.
# A plan ending more than a week before the exam is offered spread to the day before it: a
# week idle before the exam is time the material could have had to settle.
SPREAD_AFTER_DAYS = 7

PAGE_WORDS = {
    "strong_text": placement.STRONG_TEXT,
    "short_notice_hours": SHORT_NOTICE_HOURS_PER_DAY,
    "placement_questions": placement.QUESTIONS,
    "placement_minutes": placement.MINUTES,
    "guide_hours": GUIDE_HOURS,
}
SHORT_NOTICE_REFUSAL = (
    "A plan fitted to your exam date still works for these dates, revision included: "
    "short notice is for when none can."
)
REVISION_TITLE = "Revision: your review queue, then drills in your weakest domain"


def mock_title() -> str:
    return f"Full mock exam: {settings.MOCK_QUESTIONS} questions in {settings.MOCK_MINUTES} minutes"


def short_notice_start(start: datetime.date) -> datetime.date:
    return max(start, timezone.localdate())


def by_day(
    rows: list[dict[str, Any]], hours_per_day: int = SHORT_NOTICE_HOURS_PER_DAY
) -> list[tuple[datetime.date, list[dict[str, Any]]]]:
    """A short-notice plan's rows, day by day: the phases fill ``hours_per_day`` a day in
    their order (phases.short_notice), so a phase longer than what is left of a day goes on the
    next with the rest of its hours ("continued"); the revision and the mock on their days."""
    phases = [row for row in rows if row["kind"] == "phase"]
    first_day = min((row["start"] for row in phases), default=None)
    days: dict[datetime.date, list[dict[str, Any]]] = {}
    used = 0
    for row in phases:
        begins, used = used, used + row["hours"]
        for index in range(begins // hours_per_day, math.ceil(used / hours_per_day)):
            assert first_day is not None
            day = first_day + datetime.timedelta(days=index)
            hours = min(used, (index + 1) * hours_per_day) - max(begins, index * hours_per_day)
            days.setdefault(day, []).append(
                row
                | {
                    "start": day,
                    "end": day,
                    "hours": hours,
                    "continued": index > begins // hours_per_day,
                    "continues": (index + 1) * hours_per_day < used,
                }
            )
    for row in rows:
        if row["kind"] != "phase":
            days.setdefault(row["start"], []).append(row)
    return sorted(days.items(), key=itemgetter(0))


@login_required
@require_GET
def plan(request: HtmxHttpRequest) -> HttpResponse:
    today = timezone.localdate()
    state = learner_state(request.user, today=today)
    if state.plan is None or state.schedule is None:
        messages.info(request, "Choose your schedule first.")
        return redirect("progress:plan-choose")
    rows = calendar_rows(state.schedule, state.content, state.plan.placement)
    exercises = exercise_statuses(request.user, state.content.phases)
    for row in rows:
        row["current"] = row["start"] <= today <= row["end"]
        row["past"] = row["end"] < today
        if row["kind"] == "phase":
            row["progress"] = state.phases.get(row["number"])
            row["exercise"] = exercises.get(row["number"])
    exam = state.plan.exam_date
    pace = state.plan.pace
    behind = behind_days(state)
    return render(
        request,
        "progress/plan.html",
        {
            "behind": behind if behind >= CATCH_UP_DAYS else 0,
            "earlier_plans": earlier_plans(request.user),
            "pace": pace,
            **pace_words(state.schedule, pace),
            "state": state,
            "overall": state.report,
            "rows": rows,
            "days": by_day(rows) if state.schedule.day_by_day else [],
            "study_phase": state.study_phase,  # the page's main action, unless revising:
            "revising": next((r for r in rows if r["current"] and r["kind"] != "phase"), None),
            "days_to_exam": (exam - today).days if exam else None,
            "days_late": state.schedule.days_late(exam),
            "heavy": state.schedule.fitted and state.schedule.hours_per_week > HEAVY_WEEK_HOURS,
            "heavy_text": HEAVY_WEEK_TEXT,
            "placed": state.plan.placement,
            **PAGE_WORDS,
        },
    )


def _preview(
    request: HtmxHttpRequest, form: PlanForm, intensities: list[Intensity]
) -> dict[str, Any] | None:
    """The calendar the plan form's values would lay out, for the live preview; when no
    intensity ends a day before the exam, the same hours fitted to it (``fitted``); when too
    few days are left even for that, a short-notice plan (``short``); or why none can be
    (``fit_refusal``). Each is shaped by the learner's newest placement."""
    values = form.cleaned_data if form.is_bound else form.initial
    intensity, start = values.get("intensity"), values.get("start_date")
    exam = values.get("exam_date")
    if intensity is None or start is None:
        return None
    content = learner_syllabus(request.user)
    plan = plan_of(request.user)
    # A plan keeps the newest placement's results (handing one in updates it): a query only
    # for a learner who has none yet.
    placed = plan.placement if plan is not None else services.placed(request.user)
    schedule = own_pace(intensity, content, start, placed)
    days_late = schedule.days_late(exam)
    suggestion = None
    if days_late and exam is not None:
        options = intensity_options(intensities, content, placed)
        slug = fitting_intensity(options, start, exam)
        suggestion = next((i for i in intensities if i.slug == slug), None)
    fitted, short, fit_refusal = None, None, ""
    if exam is None:
        fit_refusal = "Enter your exam date to fit your plan to it."
    elif not days_late and (exam - schedule.finish).days <= SPREAD_AFTER_DAYS:
        fit_refusal = f"{intensity.name} already ends before your exam: no fitting needed."
    elif not days_late:
        # Ends long before the exam: the same hours spread to the day before it.
        fitted = fitted_schedule(content, intensity, start, exam, placed)
    elif suggestion is not None:
        fit_refusal = (
            f"{suggestion.name} ends at least a day before your exam: choose it. "
            "Fitting is for when no schedule does."
        )
    else:
        try:
            fitted = fitted_schedule(content, intensity, start, exam, placed)
        except ValueError:
            # Short notice runs over the days left: from today when the start has passed.
            first = short_notice_start(start)
            if exam > first:
                short = short_notice_schedule(content, first, exam, placed)
            fit_refusal = (
                "There is no day left before your exam to plan. Move your exam date."
                if exam <= first
                else f"{counted((exam - start).days, 'day')} before your "
                f"exam are too few to give each of the {len(content.phases)} phases a day and "
                "keep days for revision and a mock."
            )
    short_rows = calendar_rows(short, content, placed) if short else []
    own = _own_pace_preview(form, values, content, intensity, start, exam, placed)
    return {
        **own,
        "intensity": intensity,
        "schedule": schedule,
        "rows": calendar_rows(schedule, content, placed),
        "exam_date": exam,
        "days_late": days_late,
        "suggestion": suggestion,
        "fitted": fitted,
        "fitted_rows": calendar_rows(fitted, content, placed) if fitted else [],
        "short": short,
        "short_days": by_day(short_rows),
        "fit_refusal": fit_refusal,
        # The learner's plan already is this intensity fitted to these dates.
        "fit_chosen": fitted is not None
        and plan is not None
        and plan.fitted
        and (plan.intensity_id, plan.start_date, plan.exam_date) == (intensity.pk, start, exam),
        "heavy": fitted is not None and fitted.hours_per_week > HEAVY_WEEK_HOURS,
        "spread": fitted is not None and not days_late,
        # What a study day asks: the week's hours in sessions (phases.schedule.sessions_per_week).
        "session": session_length(schedule.hours_per_week),
        "sessions": sessions_per_week(schedule.hours_per_week),
        "fitted_session": session_length(fitted.hours_per_week) if fitted else "",
        "fitted_sessions": sessions_per_week(fitted.hours_per_week) if fitted else 0,
        # A fitted plan asking more a week than the schedule's own pace.
        "fitted_more": fitted is not None and fitted.hours_per_week > intensity.hours_per_week,
        "heavy_text": HEAVY_WEEK_TEXT,
        "placed": placed,
        "strong": [d.name for d in content.domains if d.slug in placement.strong_domains(placed)],
    }


@login_required
@require_POST
def plan_catch_up(request: HtmxHttpRequest) -> HttpResponse:
    """Lay the plan again from today (progress.planning.services.catch_up) and say what moved."""
    today = timezone.localdate()
    state = learner_state(request.user, today=today)
    before = state.schedule
    if before is not None and behind_days(state) < CATCH_UP_DAYS:
        # Nothing to catch up (a second click, a stale page): the plan stays as it is.
        messages.info(request, "You are on plan: there is nothing to catch up.")
        return redirect("progress:plan")
    try:
        catch_up(user=request.user, today=today, now=timezone.now())
    except CannotCatchUp as refusal:
        messages.error(request, str(refusal))
        return redirect("progress:plan")
    after = learner_state(request.user, today=today).schedule
    assert after is not None  # the plan was just laid again
    moved = (
        f" The full mock moves from {before.finish:%a} {before.finish.day} {before.finish:%b} to "
        f"{after.finish:%a} {after.finish.day} {after.finish:%b}."
        if before is not None and before.finish != after.finish
        else ""
    )
    done = counted(len(after.done_before), "phase")
    messages.success(
        request,
        f"Your plan starts again today with phase {after.slots[0].number}"
        f"{f', the {done} you had finished left out' if after.done_before else ''}.{moved} "
        "Every tick, review and answer is kept; the plan as it was is under Earlier plans.",
    )
    return redirect("progress:plan")


def pace_words(schedule: Schedule | None, pace: Pace | None) -> dict[str, Any]:
    """What a study day of the plan asks (``own_day``) against what the learner gives
    (``pace_day``), and ``own_over`` when it asks more: only when the guide's least cannot fit
    the study days before the exam."""
    return {
        "own_day": hours_text(schedule.day_hours) if schedule else "",
        "pace_day": hours_text(pace.day_hours) if pace else "",
        "own_over": schedule is not None
        and pace is not None
        and schedule.day_hours > pace.day_hours + 1e-9,
    }


def _own_pace_preview(
    form: PlanForm,
    values: Mapping[str, Any],
    content: Syllabus,
    intensity: Intensity,
    start: datetime.date,
    exam: datetime.date | None,
    placed: Any,
) -> dict[str, Any]:
    """The plan at the learner's own pace, when the form holds their hours and days: spread to
    the day before the exam when there is one, with the hours each study day asks against the
    hours they give (``own_over`` when it asks more), or why it cannot be (``own_refusal``)."""
    if form.is_bound:
        pace = form.pace
    else:
        hours, days = values.get("own_hours"), values.get("own_days")
        pace = Pace(hours, frozenset(days)) if hours and days else None
    if pace is None:
        return {"own": None, "own_rows": [], "own_refusal": "", "pace": None}
    refusal = ""
    try:
        own = learner_pace_schedule(content, intensity, start, exam, pace, placed)
    except ValueError:
        own = None
        count = len(study_days(pace.weekdays, start, exam)) if exam else 0
        refusal = (
            f"Your study days ({pace.weekday_names}) give {counted(count, 'day')} before your "
            f"exam: too few for the {len(content.phases)} phases, a revision day and the mock. "
            "Add days, move your exam date, or take the short-notice plan."
        )
    return {
        "own": own,
        "own_rows": calendar_rows(own, content, placed) if own else [],
        "own_refusal": refusal,
        "pace": pace,
        **pace_words(own, pace),
    }


def _choose_page(request: HtmxHttpRequest, form: PlanForm, *, status: int = 200) -> HttpResponse:
    intensities = list(Intensity.objects.all())
    content = learner_syllabus(request.user)
    return render(
        request,
        "progress/plan_choose.html",
        {
            "form": form,
            "intensities": [
                (intensity, own_pace(intensity, content, timezone.localdate()).total_hours)
                for intensity in intensities
            ],
            "preview": _preview(request, form, intensities),
            "has_plan": plan_of(request.user) is not None,
            "domain_count": len(content.domains),
            **PAGE_WORDS,
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
        data = form.cleaned_data
        fit = data["fit"]  # "" when the plain save button was used
        fitted = None
        if fit == "own":
            preview = _preview(request, form, list(Intensity.objects.all()))
            if preview is None or preview["own"] is None:
                form.add_error(None, preview["own_refusal"] if preview else SHORT_NOTICE_REFUSAL)
                return _choose_page(request, form, status=400)
            save_plan(
                user=request.user,
                intensity=data["intensity"],
                start_date=data["start_date"],
                exam_date=data["exam_date"],
                today=timezone.localdate(),
                kind=StudyPlan.Kind.OWN_PACE,
                pace=form.pace,
            )
            messages.success(
                request,
                f"Your plan at your own pace is saved: about {preview['own_day']} on each study "
                f"day ({preview['pace'].weekday_names}).",
            )
            return redirect("progress:plan")
        if fit:
            preview = _preview(request, form, list(Intensity.objects.all()))
            fitted = preview["fitted" if fit == "1" else "short"] if preview else None
            if fitted is None:
                refusal = preview["fit_refusal"] if preview else ""
                form.add_error(None, refusal or SHORT_NOTICE_REFUSAL)
                return _choose_page(request, form, status=400)
        start = short_notice_start(data["start_date"]) if fit == "short" else data["start_date"]
        save_plan(
            user=request.user,
            intensity=data["intensity"],
            start_date=start,
            exam_date=data["exam_date"],
            today=timezone.localdate(),
            kind={"1": StudyPlan.Kind.FITTED, "short": StudyPlan.Kind.SHORT_NOTICE}.get(
                fit, StudyPlan.Kind.PACED
            ),
        )
        if request.GET.get("then") == "placement":  # the button's own address says it
            return redirect(_start_placement(request))
        if fit == "short":
            messages.success(request, "Your short-notice plan is saved: day by day to your exam.")
        elif fitted is not None:
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
            name: getattr(existing, name) for name in ("intensity", "start_date", "exam_date")
        }
        if (pace := existing.pace) is not None:
            initial |= {"own_hours": pace.hours_per_week, "own_days": sorted(pace.weekdays)}
    else:
        initial = {"intensity": Intensity.objects.default(), "start_date": timezone.localdate()}
    return _choose_page(request, PlanForm(initial=initial))


def _start_placement(request: HtmxHttpRequest) -> str:
    """Start (or resume) the learner's placement; the address of its first question."""
    attempt = services.start_mock(
        user=request.user, now=timezone.now(), rng=random.Random(), is_placement=True
    )
    if not attempt.placement:
        messages.info(request, "Finish your open mock exam first: the placement comes after it.")
    return reverse("progress:attempt", args=[attempt.pk])


@login_required
@require_POST
def placement_start(request: HtmxHttpRequest) -> HttpResponse:
    return redirect(_start_placement(request))


@login_required
@require_http_methods(["GET", "POST"])
def plan_preview(request: HtmxHttpRequest) -> HttpResponse:
    """The calendar the form's values would give, saving nothing. The form posts here (so the
    CSRF token never lands in a URL); a GET with the same fields works too."""
    form = PlanForm(request.POST if request.method == "POST" else request.GET)
    valid = form.is_valid()
    if request.htmx:
        preview = _preview(request, form, list(Intensity.objects.all()))
        return render(
            request,
            "progress/plan_choose.html#preview",
            {"preview": preview, "form": form, "show_errors": True, **PAGE_WORDS},
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
        revision=ics.RevisionEntry(
            REVISION_TITLE,
            site_link(reverse("progress:review")),
            mock_title(),
            site_link(reverse("progress:practice")),
        ),
        owner=str(request.user.pk),
        stamp=timezone.now(),
    )
    response = HttpResponse(body, content_type="text/calendar; charset=utf-8")
    response["Content-Disposition"] = 'attachment; filename="nca-genm-study-plan.ics"'
    return response
