"""Which calendar a learner's plan gives: the intensity's own pace, fitted to the exam date, or
short notice, each shaped by the plan's placement. Plain values in, a phases.schedule.Schedule
out; the plan and the syllabus snapshot come with the request (progress.auth)."""

import dataclasses
import datetime
from collections.abc import Mapping, Sequence
from typing import Any

from phases.own_pace import Pace, lay_on_study_days, total_hours
from phases.schedule import (
    MOCK_HOURS,
    IntensityOption,
    Schedule,
    fit_to,
    hours_by_weight,
    lay_out,
    phase_weights,
    shorten,
)
from phases.short_notice import day_by_day, phase_priorities
from phases.snapshot import Syllabus
from progress.models import StudyPlan
from progress.planning import placement


def _phase_domains(content: Syllabus) -> list[tuple[int, list[tuple[str, int]]]]:
    return [
        (phase.number, [(domain.slug, domain.weight) for domain in phase.domains])
        for phase in content.phases
    ]


def _shortened(
    content: Syllabus, phase_hours: Sequence[tuple[int, int]], intensity: Any, placed: Any
) -> tuple[tuple[tuple[int, int], ...], tuple[tuple[int, int], ...]]:
    """Phase hours shortened where the placement ``placed`` shows strong domains, and the hours
    saved per phase (phases.schedule.shorten); revision and the mock count towards the total."""
    share = placement.strong_share(_phase_domains(content), placement.strong_domains(placed or {}))
    revision = intensity.revision_hours + MOCK_HOURS if intensity.revision_hours else 0
    return shorten(phase_hours, share, other_hours=revision)


def intensity_options(
    intensities: Any, content: Syllabus, placed: Any = None
) -> list[IntensityOption]:
    """Each intensity's pace and hours, shortened by the placement: for fitting_intensity."""
    options = []
    for intensity in intensities:
        hours, _ = _shortened(content, content.phase_hours[intensity.slug], intensity, placed)
        options.append(
            IntensityOption(
                slug=intensity.slug,
                hours_per_week=intensity.hours_per_week,
                phase_hours=hours,
                order=intensity.order,
                revision_hours=intensity.revision_hours,
            )
        )
    return options


def _remaining(
    hours: Sequence[tuple[int, int]], done: frozenset[int]
) -> tuple[tuple[int, int], ...]:
    """The phases still to lay: all but those ``done`` before a re-plan (all of them, should
    that leave none)."""
    return tuple((n, h) for n, h in hours if n not in done) or tuple(hours)


def _done(schedule: Schedule, done: frozenset[int]) -> Schedule:
    laid = {slot.number for slot in schedule.slots}
    return dataclasses.replace(schedule, done_before=tuple(sorted(done - laid)))


def own_pace(
    intensity: Any,
    content: Syllabus,
    start: datetime.date,
    placed: Any = None,
    done: frozenset[int] = frozenset(),
) -> Schedule:
    """The intensity's calendar at its own weekly hours, revision and mock included (the phases
    ``done`` before a re-plan left out)."""
    hours, saved = _shortened(content, content.phase_hours[intensity.slug], intensity, placed)
    hours = _remaining(hours, done)
    schedule = lay_out(
        hours, intensity.hours_per_week, start, revision_hours=intensity.revision_hours
    )
    return _done(dataclasses.replace(schedule, shortened=saved), done)


def fitted_schedule(
    content: Syllabus,
    intensity: Any,
    start: datetime.date,
    exam: datetime.date,
    placed: Any = None,
    done: frozenset[int] = frozenset(),
) -> Schedule:
    """The intensity's total hours, split across the phases by exam weight, shortened where the
    placement shows strong domains, and compressed with the revision stretch to end the day
    before the exam (phases.schedule.fit_to; a ValueError when the days are too few)."""
    weights = phase_weights(_phase_domains(content))
    total = sum(hours for _, hours in content.phase_hours[intensity.slug])
    hours, saved = _shortened(content, hours_by_weight(total, weights), intensity, placed)
    schedule = fit_to(_remaining(hours, done), start, exam, revision_hours=intensity.revision_hours)
    return _done(dataclasses.replace(schedule, shortened=saved), done)


def short_notice_schedule(
    content: Syllabus,
    start: datetime.date,
    exam: datetime.date,
    placed: Mapping[str, Any],
    done: frozenset[int] = frozenset(),
) -> Schedule:
    """The days left, day by day, the phases with the most marks the placement shows at stake
    first (without a placement, by exam weight)."""
    priorities = phase_priorities(_phase_domains(content), placement.missed_share(placed))
    left = [(n, p) for n, p in priorities if n not in done] or list(priorities)
    return _done(day_by_day(left, start, exam), done)


def learner_pace_schedule(
    content: Syllabus,
    intensity: Any,
    start: datetime.date,
    exam: datetime.date | None,
    pace: Pace,
    placed: Any = None,
    done: frozenset[int] = frozenset(),
) -> Schedule:
    """The learner's hours a week on their weekdays (phases.own_pace): ``intensity``'s hours
    (Standard's 38 by default) without an exam date; with one, what the study days before it
    hold, within the guide's least and those; the phases' share by exam weight, shortened where
    the placement shows strong domains, then the intensity's revision hours and the mock; spread
    to the day before the exam when there is one (a ValueError when its study days are too
    few)."""
    revision = intensity.revision_hours
    most = sum(hours for _, hours in content.phase_hours[intensity.slug]) + revision + MOCK_HOURS
    total = total_hours(pace, start, exam, most=most)
    weights = phase_weights(_phase_domains(content))
    hours, saved = _shortened(
        content, hours_by_weight(total - revision - MOCK_HOURS, weights), intensity, placed
    )
    schedule = lay_on_study_days(
        _remaining(hours, done), pace, start, exam, revision_hours=revision
    )
    return _done(dataclasses.replace(schedule, shortened=saved), done)


def schedule_for(plan: StudyPlan, content: Syllabus) -> Schedule:
    placed = plan.placement or {}
    done = plan.skipped
    start, exam = plan.start_date, plan.exam_date
    if (pace := plan.pace) is not None:
        ahead = exam if exam and exam > start else None
        try:
            return learner_pace_schedule(content, plan.intensity, start, ahead, pace, placed, done)
        except ValueError:
            # Too few study days left (a syllabus grown since): the same hours at the pace.
            return learner_pace_schedule(content, plan.intensity, start, None, pace, placed, done)
    if exam is not None and (plan.fitted or plan.short_notice):
        try:
            if plan.short_notice:
                return short_notice_schedule(content, start, exam, placed, done)
            return fitted_schedule(content, plan.intensity, start, exam, placed, done)
        except ValueError:
            # Saving refuses a plan with too few days; only a syllabus grown since (or a
            # passed exam) can get here, and the intensity's own pace is the honest fallback.
            pass
    return own_pace(plan.intensity, content, start, placed, done)


def plan_of(user: Any) -> StudyPlan | None:
    # A reverse one-to-one raises an AttributeError subclass when there is no plan.
    return getattr(user, "study_plan", None)


def recall_day(
    plan: StudyPlan | None, schedule: Schedule | None, today: datetime.date
) -> datetime.date:
    """The day recall is predicted for: the exam date, even once it has passed (the figures are
    then read as of that day); without one, the day after the plan's mock ends; without a plan
    (or once that day has passed), today."""
    if plan is not None and plan.exam_date is not None:
        return plan.exam_date
    if schedule is not None:
        return max(schedule.finish + datetime.timedelta(days=1), today)
    return today
