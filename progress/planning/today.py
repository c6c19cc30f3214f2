"""Today's task from the plan, for the dashboard and the phase page: what the calendar has the
learner do today and for how long, and the days left to the exam. Plain values in, words out."""

import datetime
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from phases.own_pace import WEEKDAY_NAMES, hours_text
from phases.schedule import Schedule, session_length
from phases.words import counted


@dataclass(frozen=True)
class TodaysTask:
    task: str  # "phase 1, Core ML foundations: 4 self-checks left and part 2 of the exercise"
    days_to_exam: int | None
    time: str = ""  # "2 h", "about 2 hours"; empty on a day off

    @property
    def heading(self) -> str:
        """ "Today, 2 h", or "No study planned today" on a day off."""
        return f"Today, {self.time}" if self.time else "No study planned today"


def _next_study_day(schedule: Schedule, today: datetime.date) -> datetime.date | None:
    for offset in range(1, 8):
        day = today + datetime.timedelta(days=offset)
        if schedule.is_study_day(day):
            return day
    return None


def todays_task(
    schedule: Schedule,
    today: datetime.date,
    exam: datetime.date | None,
    *,
    phase: Any = None,  # the calendar's phase today (phases.snapshot.PhaseInfo)
    progress: Any = None,  # its self-checks (done, total)
    exercise: Any = None,  # its written exercise (progress.exercises.models.ExerciseStatus)
) -> TodaysTask | None:
    """None outside the plan's dates (before its start, after its mock); a plan at the learner's
    own pace saved on a day off starts on its first study day, and until then says so."""
    days_to_exam = (exam - today).days if exam is not None and exam >= today else None
    if today > schedule.finish:
        return None
    if schedule.own_pace and not schedule.is_study_day(today):
        following = schedule.start if today < schedule.start else _next_study_day(schedule, today)
        task = (
            f"your next study day is {WEEKDAY_NAMES[following.weekday()]} {following.day} "
            f"{following:%b}"
            if following is not None
            else "your plan has no study day left"
        )
        return TodaysTask(task, days_to_exam)
    if today < schedule.start:
        return None
    hours = (
        hours_text(schedule.day_hours)
        if schedule.own_pace
        else f"about {session_length(schedule.hours_per_week)}"
    )
    revision = schedule.revision
    if revision is not None and today == revision.mock_day:
        task = "the full mock exam, at the exam's pace"
    elif revision is not None and today >= revision.start:
        task = "revision: your review queue, then drills in your weakest domain"
    elif phase is not None:
        left = []
        if progress is not None and progress.total > progress.done:
            left.append(f"{counted(progress.total - progress.done, 'self-check')} left")
        if exercise is not None and exercise.phase.exercise_parts and not exercise.done:
            parts = len(exercise.phase.exercise_parts)
            left.append(
                f"part {exercise.ticked_count + 1} of {parts} of the written exercise"
                if exercise.started
                else "the written exercise"
            )
        rest = " and ".join(left) if left else "everything done: review, or start the next phase"
        task = f"phase {phase.number}, {phase.title}: {rest}"
    else:
        return None
    return TodaysTask(task, days_to_exam, hours)


def learner_task(state: Any, exercise: Any = None) -> TodaysTask | None:
    """Today's task from a learner's figures (progress.verdicts.figures.LearnerState), with
    ``exercise`` the written exercise of the calendar's phase today where the caller has it;
    None without a plan."""
    if state.plan is None or state.schedule is None:
        return None
    current = state.current_slot
    return todays_task(
        state.schedule,
        state.today,
        state.plan.exam_date,
        phase=state.current_phase,
        progress=state.phases.get(current.number) if current else None,
        exercise=exercise,
    )


# Three days or more behind the calendar and the plan page offers to lay it again from today: a
# day or two is a busy evening the plan absorbs; by three the phase dates have stopped meaning
# anything.
CATCH_UP_DAYS = 3


def days_behind(
    schedule: Schedule,
    phase_totals: Mapping[int, int],
    done_by_phase: Mapping[int, int],
    today: datetime.date,
) -> int:
    """How many days ago the calendar expected the self-checks the learner has done: 0 on plan
    or ahead of it. The calendar's expectation on a day is each phase's share due by then times
    its self-checks."""

    def expected(day: datetime.date) -> float:
        due = schedule.share_due(day)
        return sum(total * due.get(number, 0.0) for number, total in phase_totals.items())

    done = sum(done_by_phase.values())
    day = min(today, schedule.finish + datetime.timedelta(days=1))
    if expected(day) <= done + 1e-9:
        return 0
    while day > schedule.start and expected(day) > done + 1e-9:
        day -= datetime.timedelta(days=1)
    return (today - day).days


def behind_days(state: Any) -> int:
    """Days behind the plan's calendar (progress.planning.today.days_behind), from the learner's
    figures."""
    if state.schedule is None:
        return 0
    return days_behind(
        state.schedule,
        {number: phase.total for number, phase in state.phases.items()},
        {number: phase.done for number, phase in state.phases.items()},
        state.today,
    )
