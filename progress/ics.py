"""An iCalendar (RFC 5545) file of the study plan: one all-day event per phase, plus the exam."""

import datetime
from collections.abc import Iterable
from dataclasses import dataclass


@dataclass(frozen=True)
class AllDayEvent:
    uid: str
    summary: str
    start: datetime.date
    end: datetime.date  # inclusive
    description: str = ""


def _escape(text: str) -> str:
    return text.replace("\\", "\\\\").replace(";", "\\;").replace(",", "\\,").replace("\n", "\\n")


def _fold(line: str) -> str:
    """Fold lines longer than 75 octets, as RFC 5545 section 3.1 requires."""
    encoded = line.encode("utf-8")
    if len(encoded) <= 75:
        return line
    parts, current = [], b""
    for char in line:
        piece = char.encode("utf-8")
        if len(current) + len(piece) > (75 if not parts else 74):
            parts.append(current.decode("utf-8"))
            current = b""
        current += piece
    parts.append(current.decode("utf-8"))
    return "\r\n ".join(parts)


def calendar(events: Iterable[AllDayEvent], *, stamp: datetime.datetime, name: str) -> str:
    lines = [
        "BEGIN:VCALENDAR",
        "VERSION:2.0",
        "PRODID:-//NCA-GENM Study Tracker//EN",
        "CALSCALE:GREGORIAN",
        "METHOD:PUBLISH",
        f"X-WR-CALNAME:{_escape(name)}",
    ]
    dtstamp = stamp.astimezone(datetime.UTC).strftime("%Y%m%dT%H%M%SZ")
    for event in events:
        lines += [
            "BEGIN:VEVENT",
            f"UID:{event.uid}",
            f"DTSTAMP:{dtstamp}",
            f"DTSTART;VALUE=DATE:{event.start:%Y%m%d}",
            # DTEND is exclusive for all-day events.
            f"DTEND;VALUE=DATE:{event.end + datetime.timedelta(days=1):%Y%m%d}",
            f"SUMMARY:{_escape(event.summary)}",
            *([f"DESCRIPTION:{_escape(event.description)}"] if event.description else []),
            "TRANSP:TRANSPARENT",
            "END:VEVENT",
        ]
    lines.append("END:VCALENDAR")
    return "".join(f"{_fold(line)}\r\n" for line in lines)
