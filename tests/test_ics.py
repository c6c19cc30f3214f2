"""The plan as an iCalendar file, read back with the icalendar library as a calendar app would."""

import datetime

import icalendar
import pytest
from django.conf import settings
from django.urls import resolve, reverse

from phases.schedule import lay_out
from progress.planning.calendar import PhaseEntry, RevisionEntry, plan_calendar
from tests.factories import make_plan

D = datetime.date
START = D(2026, 3, 2)
# Standard, 8 h a week: phase 1 runs 2-8 March, ..., phase 6 1-2 April.
SCHEDULE = lay_out(((1, 7), (2, 9), (3, 6), (4, 5), (5, 7), (6, 2)), 8, START)
SITE = "https://study.example.com"
PHASES = {
    n: PhaseEntry(f"Phase {n} title", f"Be able to do thing {n}.", f"{SITE}/study/phase-{n}/")
    for n in range(1, 7)
}
EXAM_URL = f"{SITE}/dashboard/"
STAMP = datetime.datetime(2026, 3, 1, 9, 30, tzinfo=datetime.UTC)


def calendar(
    *,
    phases=PHASES,
    exam_date: datetime.date | None = None,
    owner: str = "17",
    schedule=SCHEDULE,
    stamp=STAMP,
) -> icalendar.Calendar:
    return icalendar.Calendar.from_ical(
        plan_calendar(
            schedule=schedule,
            phases=phases,
            exam_date=exam_date,
            exam_url=EXAM_URL,
            owner=owner,
            stamp=stamp,
        )
    )


def events(cal: icalendar.Calendar) -> list[icalendar.Event]:
    return list(cal.walk("VEVENT"))


def day(event: icalendar.Event, field: str) -> datetime.date:
    return event.decoded(field)


def test_one_all_day_event_per_phase_from_its_first_day_to_the_day_after_its_last():
    phase_events = events(calendar())

    assert len(phase_events) == len(SCHEDULE.slots) == 6
    for event, slot in zip(phase_events, SCHEDULE.slots, strict=True):
        start, end = day(event, "dtstart"), day(event, "dtend")
        # All-day events carry dates, not datetimes, and DTEND is exclusive.
        assert type(start) is datetime.date and type(end) is datetime.date
        assert start == slot.start
        assert end == slot.end + datetime.timedelta(days=1)
    first, last = phase_events[0], phase_events[-1]
    assert (day(first, "dtstart"), day(first, "dtend")) == (D(2026, 3, 2), D(2026, 3, 9))
    assert (day(last, "dtstart"), day(last, "dtend")) == (D(2026, 4, 1), D(2026, 4, 3))


def test_each_phase_event_names_the_phase_its_hours_and_its_goal_and_links_to_its_page():
    first = events(calendar())[0]

    assert str(first["summary"]) == "NCA-GENM phase 1: Phase 1 title (7 h)"
    assert str(first["url"]) == f"{SITE}/study/phase-1/"
    assert str(first["description"]) == (
        f"Be able to do thing 1.\n\nStudy this phase: {SITE}/study/phase-1/"
    )


def test_consecutive_phase_events_neither_overlap_nor_leave_a_gap():
    phase_events = events(calendar())
    for earlier, later in zip(phase_events, phase_events[1:], strict=False):
        assert day(earlier, "dtend") == day(later, "dtstart")


def test_the_exam_day_is_its_own_all_day_event():
    exam_events = [
        event for event in events(calendar(exam_date=D(2026, 4, 20))) if "exam" in event["summary"]
    ]

    (exam,) = exam_events
    assert str(exam["summary"]) == "NCA-GENM exam"
    assert str(exam["url"]) == EXAM_URL
    assert EXAM_URL in str(exam["description"])
    assert (day(exam, "dtstart"), day(exam, "dtend")) == (D(2026, 4, 20), D(2026, 4, 21))


def test_without_an_exam_date_there_is_no_exam_event():
    assert [str(event["summary"]) for event in events(calendar())] == [
        f"NCA-GENM phase {n}: Phase {n} title ({hours} h)"
        for n, hours in ((1, 7), (2, 9), (3, 6), (4, 5), (5, 7), (6, 2))
    ]


@pytest.mark.parametrize(
    "title",
    [
        "Diffusion, CLIP; and fusion: the hard part",
        "Naïve café — Fréchet distance, 日本語 and ✓",
        'Back\\slash, "quotes", and a; semicolon',
        "A very long phase title " * 12,
    ],
    ids=["comma-semicolon", "non-ascii", "backslash-quotes", "long"],
)
def test_titles_and_goals_with_special_characters_come_back_as_written(title):
    goal = f"Be able to explain {title}\nover two lines, with commas; and semicolons."
    raw = plan_calendar(
        schedule=SCHEDULE,
        phases={**PHASES, 3: PhaseEntry(title, goal, f"{SITE}/study/phase-3/")},
        exam_date=None,
        exam_url=EXAM_URL,
        owner="9",
        stamp=STAMP,
    )

    third = events(icalendar.Calendar.from_ical(raw))[2]
    assert str(third["summary"]) == f"NCA-GENM phase 3: {title} (6 h)"
    assert str(third["description"]).startswith(f"{goal}\n\n")
    # Lines are folded at 75 octets, as RFC 5545 asks.
    assert max(len(line) for line in raw.split(b"\r\n")) <= 75


def test_every_event_has_its_own_uid_and_another_learner_gets_other_uids():
    mine = [str(event["uid"]) for event in events(calendar(exam_date=D(2026, 4, 20), owner="17"))]
    theirs = [str(event["uid"]) for event in events(calendar(exam_date=D(2026, 4, 20), owner="18"))]

    assert len(set(mine)) == len(mine) == 7
    assert not set(mine) & set(theirs)


def test_the_same_plan_keeps_its_uids_so_a_calendar_app_updates_rather_than_duplicates():
    before = [str(event["uid"]) for event in events(calendar(exam_date=D(2026, 4, 20)))]
    later = lay_out(((1, 8), (2, 9), (3, 6), (4, 5), (5, 7), (6, 2)), 8, D(2026, 3, 9))
    after = [
        str(event["uid"])
        for event in events(calendar(exam_date=D(2026, 5, 1), schedule=later, stamp=STAMP))
    ]

    assert after == before


def test_the_calendar_says_who_made_it_and_stamps_events_in_utc():
    stamp = datetime.datetime(
        2026, 3, 1, 11, 30, tzinfo=datetime.timezone(datetime.timedelta(hours=2))
    )
    cal = calendar(stamp=stamp)

    assert str(cal["version"]) == "2.0"
    assert str(cal["prodid"]).strip()
    for event in events(cal):
        assert event.decoded("dtstamp") == STAMP
        assert event.decoded("dtstamp").utcoffset() == datetime.timedelta(0)


def alarms(event: icalendar.Event) -> list[icalendar.Alarm]:
    return list(event.walk("VALARM"))


def test_every_event_reminds_before_it_starts():
    cal = calendar(exam_date=D(2026, 4, 20))
    first_phase, exam = events(cal)[0], events(cal)[-1]

    for event in events(cal):
        (alarm,) = alarms(event)
        assert str(alarm["action"]) == "DISPLAY"
        assert str(alarm["description"]).strip()
        assert alarm.decoded("trigger") < datetime.timedelta(0)
    # All-day events start at the midnight of their first day.
    midnight = datetime.datetime.combine(day(first_phase, "dtstart"), datetime.time())
    (phase_alarm,) = alarms(first_phase)
    assert midnight + phase_alarm.decoded("trigger") == datetime.datetime(2026, 3, 1, 18, 0)
    assert "phase 1" in str(phase_alarm["description"])
    (exam_alarm,) = alarms(exam)
    exam_midnight = datetime.datetime.combine(day(exam, "dtstart"), datetime.time())
    assert exam_midnight + exam_alarm.decoded("trigger") == datetime.datetime(2026, 4, 19, 9, 0)
    assert "exam" in str(exam_alarm["description"])


def test_the_exam_marks_the_learner_busy_and_the_phases_do_not():
    cal = calendar(exam_date=D(2026, 4, 20))
    *phase_events, exam = events(cal)

    assert str(exam["transp"]) == "OPAQUE"
    # A phase spans days or weeks of a few hours' study: busy all of them, it would hide every
    # free slot in them from whoever books the learner.
    assert {str(event["transp"]) for event in phase_events} == {"TRANSPARENT"}


# The downloaded file, over the test client, read back as a calendar app would.


def downloaded(client, **extra) -> list[icalendar.Event]:
    response = client.get(reverse("progress:plan-calendar"), **extra)
    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/calendar")
    return events(icalendar.Calendar.from_ical(response.content))


@pytest.fixture
def planned_client(learner_client, learner):
    make_plan(learner, exam_in=60)
    return learner_client


def test_every_downloaded_event_links_to_a_real_page_on_the_site(planned_client):
    downloaded_events = downloaded(planned_client)

    assert len(downloaded_events) == 9
    for event in downloaded_events:
        url = str(event["url"])
        assert url.startswith(settings.SITE_URL + "/"), url
        path = url.removeprefix(settings.SITE_URL)
        assert url in str(event["description"])
        match = resolve(path)  # raises Resolver404 if the link leads nowhere
        assert planned_client.get(path).status_code == 200, path
        summary = str(event["summary"])
        if summary == "NCA-GENM exam":
            assert match.view_name == "progress:dashboard"
        elif "revision" in summary:
            assert match.view_name == "progress:review"
        elif "mock" in summary:
            assert match.view_name == "progress:practice"
        else:
            assert match.view_name == "progress:phase"
    phase_links = [str(event["url"]) for event in downloaded_events[:6]]
    assert len(set(phase_links)) == 6  # each phase its own page


def test_the_links_come_from_the_site_url_not_the_requests_host(planned_client, settings):
    settings.ALLOWED_HOSTS = [*settings.ALLOWED_HOSTS, "evil.example"]
    response = planned_client.get(reverse("progress:plan-calendar"), HTTP_HOST="evil.example:6666")

    assert response.status_code == 200
    assert b"evil" not in response.content.lower()
    downloaded_events = events(icalendar.Calendar.from_ical(response.content))
    assert downloaded_events
    assert all(str(event["url"]).startswith(settings.SITE_URL + "/") for event in downloaded_events)


def test_every_downloaded_event_has_a_reminder_before_it(planned_client):
    downloaded_events = downloaded(planned_client)

    assert len(downloaded_events) == 9
    for event in downloaded_events:
        assert alarms(event), event["summary"]
        for alarm in alarms(event):
            assert str(alarm["action"]) == "DISPLAY"
            assert str(alarm["description"]).strip()
            assert alarm.decoded("trigger") < datetime.timedelta(0)


def test_the_downloaded_exam_is_busy_time(planned_client):
    *study, exam = downloaded(planned_client)

    assert str(exam["summary"]) == "NCA-GENM exam"
    assert str(exam["transp"]) == "OPAQUE"
    # Revision and the mock are a few hours of the day, like the phases: not busy.
    assert {str(event["transp"]) for event in study} == {"TRANSPARENT"}


def test_the_revision_days_and_the_mock_are_on_the_calendar_with_their_pages():
    schedule = lay_out(((1, 7), (2, 9), (3, 6), (4, 5), (5, 7), (6, 2)), 8, START, revision_hours=3)
    raw = plan_calendar(
        schedule=schedule,
        phases=PHASES,
        exam_date=D(2026, 4, 20),
        exam_url=EXAM_URL,
        owner="17",
        stamp=STAMP,
        revision=RevisionEntry("Revision", f"{SITE}/review/", "Full mock", f"{SITE}/practice/"),
    )

    *_, revision, mock, exam = events(icalendar.Calendar.from_ical(raw))
    assert str(revision["summary"]) == "NCA-GENM revision"
    assert (day(revision, "dtstart"), day(revision, "dtend")) == (D(2026, 4, 3), D(2026, 4, 6))
    assert str(revision["url"]) == f"{SITE}/review/"
    assert str(mock["summary"]) == "NCA-GENM full mock"
    assert (day(mock, "dtstart"), day(mock, "dtend")) == (D(2026, 4, 6), D(2026, 4, 7))
    assert str(mock["url"]) == f"{SITE}/practice/"
    assert f"{SITE}/practice/" in str(mock["description"])
    assert all(alarms(event) for event in (revision, mock))
    assert str(exam["summary"]) == "NCA-GENM exam"
