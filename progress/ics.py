"""The study plan as an iCalendar file: one all-day event per phase, plus the exam day.

Written with the icalendar library (RFC 5545 folding, escaping and dates are its business).
"""

import datetime
from collections.abc import Mapping

import icalendar

from phases.schedule import Schedule

PRODUCT_ID = "-//NCA-GENM Study Tracker//EN"


def _all_day(
    *, uid: str, summary: str, start: datetime.date, end: datetime.date, stamp: datetime.datetime
) -> icalendar.Event:
    event = icalendar.Event()
    event.add("uid", uid)
    event.add("dtstamp", stamp.astimezone(datetime.UTC))
    event.add("dtstart", start)
    event.add("dtend", end + datetime.timedelta(days=1))  # exclusive for all-day events
    event.add("summary", summary)
    event.add("transp", "TRANSPARENT")
    return event


def plan_calendar(
    *,
    schedule: Schedule,
    phases: Mapping[int, tuple[str, str]],
    exam_date: datetime.date | None,
    owner: str,
    stamp: datetime.datetime,
) -> bytes:
    """``phases`` maps a phase number to its (title, goal); ``owner`` makes the UIDs unique."""
    calendar = icalendar.Calendar()
    calendar.add("prodid", PRODUCT_ID)
    calendar.add("version", "2.0")
    calendar.add("calscale", "GREGORIAN")
    calendar.add("method", "PUBLISH")
    calendar.add("x-wr-calname", "NCA-GENM study plan")
    for slot in schedule.slots:
        title, goal = phases[slot.number]
        event = _all_day(
            uid=f"phase-{slot.number}-{owner}@nca-genm-studyplan",
            summary=f"NCA-GENM phase {slot.number}: {title} ({slot.hours} h)",
            start=slot.start,
            end=slot.end,
            stamp=stamp,
        )
        event.add("description", goal)
        calendar.add_component(event)
    if exam_date is not None:
        calendar.add_component(
            _all_day(
                uid=f"exam-{owner}@nca-genm-studyplan",
                summary="NCA-GENM exam",
                start=exam_date,
                end=exam_date,
                stamp=stamp,
            )
        )
    body: bytes = calendar.to_ical()
    return body
