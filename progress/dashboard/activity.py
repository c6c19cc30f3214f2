"""Study activity: the dashboard's calendar of the last weeks, from one query."""

import datetime
from collections import defaultdict
from dataclasses import dataclass
from typing import Any

from django.db.models import Count, QuerySet, Value
from django.db.models.functions import TruncDate
from django.utils import timezone

from phases.schedule import SESSIONS_TEXT, Schedule, session_length, sessions_per_week
from progress import charts as chart
from progress.models import AttemptQuestion, CheckOff, ReviewLog
from progress.timezones import start_of_day


@dataclass(frozen=True)
class DayActivity:
    ticks: int = 0
    reviews: int = 0  # reviews after a card's first (self-checks and missed questions)
    answers: int = 0


@dataclass(frozen=True)
class Activity:
    grid: chart.ActivityGrid
    days: dict[datetime.date, DayActivity]  # only the days with something done
    study_days_this_week: int
    planned_sessions: int | None  # None without a plan
    session_length: str | None  # "3½ hours": the weekly hours over the planned sessions
    sessions_text: str = SESSIONS_TEXT
    weeks: int = chart.ACTIVITY_WEEKS
    levels = chart.level_ranges()  # not a field: the same key for everyone

    @property
    def newest_first(self) -> list[tuple[str, DayActivity]]:
        """Each study day as the day-by-day table heads its row ("Wed 2 Dec 2026 (today)"):
        a long history has a row for most of the grid's days."""
        today = self.grid.today.day
        return [
            (f"{day:%a} {day.day} {day:%b %Y}{' (today)' if day == today else ''}", counts)
            for day, counts in sorted(self.days.items(), reverse=True)
        ]


def study_activity(user: Any, *, today: datetime.date, schedule: Schedule | None) -> Activity:
    """Ticks, reviews and answers per day of the learner's own calendar (the active time zone)
    over the grid's weeks, from one query."""
    first = chart.activity_start(today)
    since = start_of_day(first)
    zone = timezone.get_current_timezone()

    def per_day(rows: QuerySet[Any], moment: str, field: str) -> QuerySet[Any]:
        return (
            rows.filter(**{f"{moment}__gte": since})
            .annotate(local_day=TruncDate(moment, tzinfo=zone))
            .order_by()
            .values("local_day")
            .annotate(n=Count("pk"))
            .values_list(Value(field), "local_day", "n")
        )

    # One UNION ALL, counted per day of the learner's calendar by the database: the ticks, the
    # counted answers (a live mock's answers show nowhere until it closes) and the logged
    # reviews (every review after a card's first: the tick or the miss is the first).
    rows = per_day(CheckOff.objects.for_user(user).ticked(), "done_at", "ticks").union(
        per_day(AttemptQuestion.objects.counted(user, timezone.now()), "answered_at", "answers"),
        per_day(ReviewLog.objects.filter(user=user, first=False), "reviewed_at", "reviews"),
        all=True,
    )
    counts: defaultdict[datetime.date, dict[str, int]] = defaultdict(dict)
    for field, day, count in rows:
        counts[day][field] = count
    days = {day: DayActivity(**counts[day]) for day in sorted(counts) if first <= day <= today}
    monday = today - datetime.timedelta(days=today.weekday())
    return Activity(
        grid=chart.activity_grid(
            {day: sum(counts[day].values()) for day in days},
            today,
            # Before the learner joined there is no square (nor, in real use, any activity).
            joined=min([timezone.localdate(user.date_joined), today, *days]),
        ),
        days=days,
        study_days_this_week=sum(1 for day in days if day >= monday),
        planned_sessions=sessions_per_week(schedule.hours_per_week) if schedule else None,
        session_length=session_length(schedule.hours_per_week) if schedule else None,
    )
