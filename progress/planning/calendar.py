"""The study plan as an iCalendar file: one all-day event per phase, the revision days and the
full mock, plus the exam day.

Written with the icalendar library (RFC 5545 folding, escaping and dates are its business).
Every event links to the page where the learner does that work; the links come in from the
view, absolute, so this module knows no settings and no request.
"""

import datetime
from collections.abc import Mapping
from typing import NamedTuple

import icalendar

from phases.schedule import Schedule

PRODUCT_ID = "-//NCA-GENM Study Tracker//EN"

# Reminders, relative to the event's start, the midnight that begins its first day (all-day
# events have no time of their own): a phase at 18:00 the evening before it starts, the exam
# at 9:00 the day before.
PHASE_ALARM = datetime.timedelta(hours=-6)
EXAM_ALARM = datetime.timedelta(hours=-15)


class PhaseEntry(NamedTuple):
    title: str
    goal: str
    url: str  # absolute: the phase's page


class RevisionEntry(NamedTuple):
    title: str
    url: str  # absolute: where revision is done (the review page)
    mock_title: str
    mock_url: str  # absolute: where the mock is sat (the practice page)


def plan_calendar(
    *,
    schedule: Schedule,
    phases: Mapping[int, PhaseEntry],
    exam_date: datetime.date | None,
    exam_url: str,
    owner: str,
    stamp: datetime.datetime,
    revision: RevisionEntry | None = None,
) -> bytes:
    """``phases`` maps a phase number to its title, goal and page; ``exam_url`` is the page the
    exam event links to; ``revision`` names the revision days' and the mock's pages; ``owner``
    makes the UIDs unique."""
    calendar = icalendar.Calendar()
    calendar.add("prodid", PRODUCT_ID)
    calendar.add("version", "2.0")
    calendar.add("calscale", "GREGORIAN")
    calendar.add("method", "PUBLISH")
    calendar.add("x-wr-calname", "NCA-GENM study plan")

    def all_day(
        kind: str,
        summary: str,
        start: datetime.date,
        end: datetime.date,
        url: str,
        description: str,
        alarm: str,
        *,
        exam: bool = False,
    ) -> None:
        event = icalendar.Event()
        event.add("uid", f"{kind}-{owner}@nca-genm-studyplan")
        event.add("dtstamp", stamp.astimezone(datetime.UTC))
        event.add("dtstart", start)
        event.add("dtend", end + datetime.timedelta(days=1))  # exclusive for all-day events
        event.add("summary", summary)
        event.add("url", url)
        # The exam is an appointment; a phase spans days or weeks of a few hours' study, so it
        # would wrongly mark every one of them busy.
        event.add("transp", "OPAQUE" if exam else "TRANSPARENT")
        event.add("description", description)
        reminder = icalendar.Alarm()
        reminder.add("action", "DISPLAY")
        reminder.add("description", alarm)
        reminder.add("trigger", EXAM_ALARM if exam else PHASE_ALARM)
        event.add_component(reminder)
        calendar.add_component(event)

    for slot in schedule.slots:
        phase = phases[slot.number]
        all_day(
            f"phase-{slot.number}",
            f"NCA-GENM phase {slot.number}: {phase.title} ({slot.hours} h)",
            slot.start,
            slot.end,
            phase.url,
            f"{phase.goal}\n\nStudy this phase: {phase.url}",
            f"NCA-GENM phase {slot.number} starts tomorrow: {phase.title}",
        )
    if (stretch := schedule.revision) is not None and revision is not None:
        stretches = (
            ("revision", revision.title, stretch.start, stretch.last_revision_day, revision.url),
            ("mock", revision.mock_title, stretch.mock_day, stretch.mock_day, revision.mock_url),
        )
        for kind, title, start, end, url in stretches:
            summary = f"NCA-GENM {title[0].lower()}{title[1:]}"
            description = f"{title}\n\nDo it here: {url}"
            all_day(kind, summary, start, end, url, description, f"NCA-GENM tomorrow: {title}")
    if exam_date is not None:
        description = f"Your NCA-GENM exam. Your dashboard: {exam_url}"
        alarm = "NCA-GENM exam tomorrow"
        all_day(
            "exam", "NCA-GENM exam", exam_date, exam_date, exam_url, description, alarm, exam=True
        )
    return bytes(calendar.to_ical())
