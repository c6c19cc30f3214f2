"""Today's task from the plan, for the dashboard and the phase page: what the calendar has the
learner do today and for how long, and the days left to the exam. Plain values in, words out."""

import datetime
from dataclasses import dataclass
from typing import Any

from phases.own_pace import WEEKDAY_NAMES, hours_text
from phases.schedule import Schedule, session_length
from phases.words import counted


@dataclass(frozen=True)
class TodaysTask:
    heading: str  # "Today, 2 h" or "No study planned today"
    task: str  # "phase 1, Core ML foundations: 4 self-checks left and part 2 of the exercise"
    days_to_exam: int | None


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
    """None outside the plan's dates (before its start, after its mock)."""
    days_to_exam = (exam - today).days if exam is not None and exam >= today else None
    if not schedule.start <= today <= schedule.finish:
        return None
    if schedule.own_pace and not schedule.is_study_day(today):
        following = _next_study_day(schedule, today)
        task = (
            f"your next study day is {WEEKDAY_NAMES[following.weekday()]} {following.day} "
            f"{following:%b}"
            if following is not None
            else "your plan has no study day left"
        )
        return TodaysTask("No study planned today", task, days_to_exam)
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
    return TodaysTask(f"Today, {hours}", task, days_to_exam)
