"""Study activity: the dashboard's calendar of the last weeks, from the learner's summary."""

import datetime
from dataclasses import dataclass
from typing import Any

from django.utils import timezone
from django.utils.safestring import SafeString, mark_safe

from phases.schedule import SESSIONS_TEXT, Schedule, session_length, sessions_per_week
from progress import charts as chart
from progress.summary.keep import calendar_days, summary_of


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
    def table_rows(self) -> SafeString:
        """The day-by-day table's rows, newest first, each headed by its day ("Wed 2 Dec 2026
        (today)"): made here in one pass, since a long history has a row for most of the
        grid's days."""
        today = self.grid.today.day
        # Plain strings: every part is a number or a date's own words, nothing to escape, and
        # format_html escaping seven parts of some 80 rows cost a long history's page 2 ms.
        return mark_safe(
            "".join(
                f'<tr><th scope="row">{day:%a} {day.day} {day:%b %Y}'
                f"{' (today)' if day == today else ''}</th><td>{counts.ticks}</td>"
                f"<td>{counts.reviews}</td><td>{counts.answers}</td></tr>"
                for day, counts in sorted(self.days.items(), reverse=True)
            )
        )


def study_activity(user: Any, *, today: datetime.date, schedule: Schedule | None) -> Activity:
    """Ticks, reviews and answers per day of the learner's own calendar (the active time zone)
    over the grid's weeks, as their summary keeps them (progress.summary.keep.day_counts)."""
    first = chart.activity_start(today)
    days = {
        day: DayActivity(**counts)
        for day, counts in calendar_days(summary_of(user, now=timezone.now()), first, today).items()
    }
    monday = today - datetime.timedelta(days=today.weekday())
    return Activity(
        grid=chart.activity_grid(
            {day: counts.ticks + counts.reviews + counts.answers for day, counts in days.items()},
            today,
            # Before the learner joined there is no square (nor, in real use, any activity).
            joined=min([timezone.localdate(user.date_joined), today, *days]),
        ),
        days=days,
        study_days_this_week=sum(1 for day in days if day >= monday),
        planned_sessions=sessions_per_week(schedule.hours_per_week) if schedule else None,
        session_length=session_length(schedule.hours_per_week) if schedule else None,
    )
