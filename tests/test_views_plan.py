"""Choosing a schedule, its live preview, the My plan page and its iCalendar download."""

import datetime

import icalendar
import pytest
from django.urls import reverse
from django.utils.formats import date_format
from django.utils.html import escape
from pytest_django.asserts import assertContains, assertRedirects

from phases.models import Intensity, Phase, PhaseHours
from phases.schedule import MOCK_HOURS, Schedule, lay_out
from progress.models import CheckOff, StudyPlan
from progress.planning.forms import PlanForm
from tests.conftest import HTMX, days, today
from tests.factories import make_plan, tick
from tests.html import element_by_id, elements, page_text, table_rows, with_class

pytestmark = pytest.mark.django_db

CHOOSE = reverse("progress:plan-choose")
PREVIEW = reverse("progress:plan-preview")
PLAN = reverse("progress:plan")
CALENDAR = reverse("progress:plan-calendar")


def total_hours(slug: str) -> int:
    """An intensity's hours over its six phases, its revision and the mock's hour, as loaded
    from the syllabus."""
    phases = sum(PhaseHours.objects.filter(intensity__slug=slug).values_list("hours", flat=True))
    return phases + Intensity.objects.get(slug=slug).revision_hours + MOCK_HOURS


def schedule(slug: str, start: datetime.date) -> Schedule:
    """The calendar an intensity lays out, computed from the pure function, not the views."""
    intensity = Intensity.objects.get(slug=slug)
    hours = PhaseHours.objects.filter(intensity=intensity).order_by("phase__number")
    return lay_out(
        hours.values_list("phase__number", "hours"),
        intensity.hours_per_week,
        start,
        revision_hours=intensity.revision_hours,
    )


def gentlest_fitting(start: datetime.date, exam: datetime.date) -> Intensity | None:
    fitting = [
        intensity
        for intensity in Intensity.objects.all()
        if schedule(intensity.slug, start).finish < exam
    ]
    return max(fitting, key=lambda intensity: intensity.order, default=None)


def long_date(day: datetime.date) -> str:
    return date_format(day, "D j M Y")


def short_date(day: datetime.date) -> str:
    return date_format(day, "D j M")


def radio(html: bytes, slug: str):
    return element_by_id(html, f"intensity-{slug}")


def assert_calendar_rows(rows: list[list[str]], expected: Schedule) -> None:
    """Six phases, then the revision days and the full mock, each with its dates and hours."""
    titles = dict(Phase.objects.values_list("number", "title"))
    assert len(rows) == 8
    for row, slot in zip(rows, expected.slots, strict=False):
        assert row[0] == f"{slot.number}. {titles[slot.number]}"
        assert row[1:4] == [short_date(slot.start), short_date(slot.end), f"{slot.hours} h"]
    revision, mock = rows[6:]
    assert revision[0].startswith("Revision")
    assert revision[1:4] == [
        short_date(expected.revision.start),
        short_date(expected.revision.last_revision_day),
        f"{expected.revision.hours} h",
    ]
    assert mock[0].startswith("Full mock exam: 60 questions in 60 minutes")
    assert mock[1:4] == [
        short_date(expected.revision.mock_day),
        short_date(expected.revision.mock_day),
        f"{MOCK_HOURS} h",
    ]


# The choose page


def test_choose_page_shows_the_three_intensities_with_audience_and_hours(learner_client):
    response = learner_client.get(CHOOSE)

    assert response.status_code == 200
    cards = {
        card.attrs["for"]: card.text
        for card in with_class(response.content, "choice-card")
        if card.tag == "label"
    }
    assert len(cards) == 3
    for intensity in Intensity.objects.all():
        card = cards[f"intensity-{intensity.slug}"]
        assert intensity.name in card
        assert " ".join(intensity.audience.split()) in card
        assert f"{intensity.hours_per_week} h a week" in card
        assert f"{total_hours(intensity.slug)} h in total" in card


def test_choose_page_preselects_standard_and_starts_today(learner_client):
    response = learner_client.get(CHOOSE)

    assert "checked" in radio(response.content, "standard").attrs
    assert "checked" not in radio(response.content, "fast-track").attrs
    assert "checked" not in radio(response.content, "extended").attrs
    start = element_by_id(response.content, "id_start_date")
    assert start.attrs["type"] == "date"
    assert start.attrs["value"] == today().isoformat()
    assert not element_by_id(response.content, "id_exam_date").attrs.get("value")


def test_choose_page_shows_the_standard_calendar_from_today_before_any_choice(learner_client):
    response = learner_client.get(CHOOSE)

    assert_calendar_rows(
        table_rows(response.content, "calendar-table"), schedule("standard", today())
    )


def test_choose_page_for_a_learner_with_a_plan_starts_from_that_plan(learner_client, learner):
    plan = make_plan(learner, intensity="extended", days_ago=3, exam_in=60)

    response = learner_client.get(CHOOSE)

    assert "checked" in radio(response.content, "extended").attrs
    assert "checked" not in radio(response.content, "standard").attrs
    assert element_by_id(response.content, "id_start_date").attrs["value"] == (
        plan.start_date.isoformat()
    )
    assert element_by_id(response.content, "id_exam_date").attrs["value"] == (
        plan.exam_date.isoformat()
    )
    assertContains(response, "keeps every self-check")


@pytest.mark.parametrize("headers", [{}, HTMX], ids=["plain", "htmx"])
def test_choosing_a_schedule_saves_the_plan_and_opens_my_plan(learner_client, learner, headers):
    exam = today() + days(90)

    response = learner_client.post(
        CHOOSE,
        {"intensity": "extended", "start_date": today().isoformat(), "exam_date": exam.isoformat()},
        **headers,
    )

    assertRedirects(response, PLAN)
    plan = StudyPlan.objects.get(user=learner)
    assert (plan.intensity.slug, plan.start_date, plan.exam_date) == ("extended", today(), exam)


def test_the_exam_date_is_optional(learner_client, learner):
    response = learner_client.post(
        CHOOSE, {"intensity": "standard", "start_date": today().isoformat(), "exam_date": ""}
    )

    assertRedirects(response, PLAN)
    assert StudyPlan.objects.get(user=learner).exam_date is None


# The live preview


def test_htmx_preview_returns_only_the_preview_fragment(learner_client):
    start = today() + days(7)

    response = learner_client.get(
        PREVIEW, {"intensity": "standard", "start_date": start.isoformat()}, **HTMX
    )

    assert response.status_code == 200
    assert b"<html" not in response.content
    assert b"<form" not in response.content
    preview = element_by_id(response.content, "preview")
    assert preview.depth == 0
    expected = schedule("standard", start)
    assert_calendar_rows(table_rows(response.content, "calendar-table"), expected)
    assert long_date(expected.finish) in preview.text
    assert f"{total_hours('standard')} hours" in preview.text


@pytest.mark.parametrize("slug", ["fast-track", "standard", "extended"])
def test_htmx_preview_follows_the_chosen_intensity(learner_client, slug):
    response = learner_client.get(
        PREVIEW, {"intensity": slug, "start_date": today().isoformat()}, **HTMX
    )

    expected = schedule(slug, today())
    assert_calendar_rows(table_rows(response.content, "calendar-table"), expected)
    assert f"{total_hours(slug)} hours" in element_by_id(response.content, "preview").text


def test_preview_says_when_the_plan_finishes_after_the_exam_and_suggests_one_that_fits(
    learner_client,
):
    start = today()
    standard = schedule("standard", start)
    exam = standard.finish - days(11)
    suggestion = gentlest_fitting(start, exam)
    assert suggestion is not None and suggestion.slug != "standard"

    response = learner_client.get(
        PREVIEW,
        {"intensity": "standard", "start_date": start.isoformat(), "exam_date": exam.isoformat()},
        **HTMX,
    )

    (warning,) = [alert for alert in with_class(response.content, "alert") if "late" in alert.text]
    assert "ends 12 days too late" in warning.text
    assert f"at least the day before your exam on {date_format(exam, 'j M Y')}" in warning.text
    assert f"{suggestion.name} fits" in warning.text


def test_preview_suggests_the_gentlest_intensity_that_still_fits(learner_client):
    start = today()
    # Standard fits with days to spare; extended does not: standard is the one to suggest,
    # though the fast track fits too.
    exam = schedule("standard", start).finish + days(3)
    extended = schedule("extended", start)
    assert extended.finish > exam
    assert gentlest_fitting(start, exam).slug == "standard"

    response = learner_client.get(
        PREVIEW,
        {"intensity": "extended", "start_date": start.isoformat(), "exam_date": exam.isoformat()},
        **HTMX,
    )

    text = element_by_id(response.content, "preview").text
    assert f"ends {(extended.finish - exam).days + 1} days too late" in text
    assert "Standard fits" in text
    assert "Fast track fits" not in text


def test_preview_says_so_when_no_intensity_fits_before_the_exam(learner_client):
    start = today()
    exam = start + days(2)
    assert gentlest_fitting(start, exam) is None

    response = learner_client.get(
        PREVIEW,
        {"intensity": "fast-track", "start_date": start.isoformat(), "exam_date": exam.isoformat()},
        **HTMX,
    )

    text = element_by_id(response.content, "preview").text
    late = (schedule("fast-track", start).finish - exam).days + 1
    assert f"ends {late} days too late" in text
    assert not any(f"{intensity.name} fits" in text for intensity in Intensity.objects.all())


@pytest.mark.parametrize("intensity", ["fast-track", "standard", "extended"])
def test_preview_with_the_exam_the_day_after_the_mock_says_it_fits(learner_client, intensity):
    finish = schedule(intensity, today()).finish
    exam = finish + days(1)

    response = learner_client.get(
        PREVIEW,
        {"intensity": intensity, "start_date": today().isoformat(), "exam_date": exam.isoformat()},
        **HTMX,
    )

    text = element_by_id(response.content, "preview").text
    assert f"ends on {short_date(finish)}, at least a day before your exam" in text
    assert "too late" not in text


@pytest.mark.parametrize("intensity", ["fast-track", "standard", "extended"])
def test_an_exam_on_the_mock_day_is_one_day_too_late_for_every_intensity(learner_client, intensity):
    exam = schedule(intensity, today()).finish

    response = learner_client.get(
        PREVIEW,
        {"intensity": intensity, "start_date": today().isoformat(), "exam_date": exam.isoformat()},
        **HTMX,
    )

    text = element_by_id(response.content, "preview").text
    assert "ends 1 day too late" in text
    assert "at least a day before your exam on" not in text


def test_preview_without_htmx_returns_the_whole_page_with_the_choice_kept(learner_client):
    start = today() + days(5)

    response = learner_client.get(
        PREVIEW, {"intensity": "fast-track", "start_date": start.isoformat()}
    )

    assert response.status_code == 200
    assertContains(response, "<html")
    assert element_by_id(response.content, "preview").depth > 0
    assert "checked" in radio(response.content, "fast-track").attrs
    assert "checked" not in radio(response.content, "standard").attrs
    assert element_by_id(response.content, "id_start_date").attrs["value"] == start.isoformat()
    assert_calendar_rows(
        table_rows(response.content, "calendar-table"), schedule("fast-track", start)
    )


def test_preview_without_htmx_and_a_bad_date_is_a_400_page_with_the_message(learner_client):
    response = learner_client.get(PREVIEW, {"intensity": "standard", "start_date": "soon"})

    message = PlanForm.base_fields["start_date"].error_messages["invalid"]
    assertContains(response, escape(message), status_code=400)


def test_htmx_preview_with_an_unknown_intensity_swaps_in_the_message(learner_client):
    # htmx does not swap a 4xx response, so the fragment answers 200 and says what is wrong.
    response = learner_client.get(
        PREVIEW, {"intensity": "turbo", "start_date": today().isoformat()}, **HTMX
    )

    assert response.status_code == 200
    assert b"<html" not in response.content
    preview = element_by_id(response.content, "preview")
    assert preview.depth == 0
    assert "Choose one of the schedules: fast track, standard, extended." in preview.text
    assert b"<table" not in response.content


def test_htmx_preview_with_an_exam_before_the_start_says_so(learner_client):
    response = learner_client.get(
        PREVIEW,
        {
            # Both ahead, so the only thing wrong is their order (an exam day already passed
            # is refused for that).
            "intensity": "standard",
            "start_date": (today() + days(10)).isoformat(),
            "exam_date": (today() + days(7)).isoformat(),
        },
        **HTMX,
    )

    assert response.status_code == 200
    text = element_by_id(response.content, "preview").text
    assert "The exam date cannot be before your start date." in text


def test_htmx_preview_with_a_malformed_date_says_so(learner_client):
    response = learner_client.get(
        PREVIEW, {"intensity": "standard", "start_date": "2026-02-30"}, **HTMX
    )

    assert response.status_code == 200
    text = element_by_id(response.content, "preview").text
    assert PlanForm.base_fields["start_date"].error_messages["invalid"] in text


def test_preview_writes_nothing(learner_client, learner):
    form = {"intensity": "standard", "start_date": today().isoformat()}
    for send in (learner_client.get, learner_client.post):
        for headers in ({}, HTMX):
            assert send(PREVIEW, form, **headers).status_code == 200

    assert not StudyPlan.objects.filter(user=learner).exists()


def test_the_form_previews_by_post_so_its_csrf_token_never_lands_in_a_url(learner_client):
    response = learner_client.get(CHOOSE)

    (form,) = [e for e in elements(response.content) if e.tag == "form" and "hx-post" in e.attrs]
    assert form.attrs["hx-post"] == PREVIEW
    assert form.attrs["method"] == "post"
    (button,) = [e for e in elements(response.content) if e.attrs.get("formaction") == PREVIEW]
    assert button.attrs.get("formmethod", "post") == "post"


@pytest.mark.parametrize("headers", [{}, HTMX], ids=["plain", "htmx"])
def test_a_posted_preview_shows_the_calendar_of_the_posted_choice(learner_client, headers):
    start = today() + days(2)

    response = learner_client.post(
        PREVIEW, {"intensity": "fast-track", "start_date": start.isoformat()}, **headers
    )

    assert response.status_code == 200
    assert_calendar_rows(
        table_rows(response.content, "calendar-table"), schedule("fast-track", start)
    )


# Refused plans


def test_an_exam_before_the_start_is_refused_with_a_clear_message(learner_client, learner):
    response = learner_client.post(
        CHOOSE,
        {
            # Both ahead, so the only thing wrong is their order (an exam day already passed
            # is refused for that).
            "intensity": "standard",
            "start_date": (today() + days(10)).isoformat(),
            "exam_date": (today() + days(9)).isoformat(),
        },
    )

    assertContains(response, "The exam date cannot be before your start date.", status_code=400)
    assert not StudyPlan.objects.filter(user=learner).exists()


def test_a_refused_change_leaves_the_existing_plan_as_it_was(learner_client, learner):
    plan = make_plan(learner, intensity="standard", days_ago=2, exam_in=40)

    response = learner_client.post(
        CHOOSE,
        {
            "intensity": "fast-track",
            "start_date": plan.start_date.isoformat(),
            "exam_date": (plan.start_date - days(1)).isoformat(),
        },
    )

    assert response.status_code == 400
    saved = StudyPlan.objects.get(user=learner)
    assert (saved.intensity.slug, saved.start_date, saved.exam_date) == (
        "standard",
        plan.start_date,
        plan.exam_date,
    )


@pytest.mark.parametrize(
    ("field", "value"),
    [("start_date", "31/02/2026"), ("start_date", "tomorrow"), ("exam_date", "2026-13-01")],
)
def test_a_malformed_date_is_refused(learner_client, learner, field, value):
    data = {"intensity": "standard", "start_date": today().isoformat(), "exam_date": ""}
    data[field] = value

    response = learner_client.post(CHOOSE, data)

    message = PlanForm.base_fields[field].error_messages["invalid"]
    assertContains(response, escape(message), status_code=400)
    assert not StudyPlan.objects.filter(user=learner).exists()


@pytest.mark.parametrize("slug", ["turbo", "", "STANDARD"])
def test_an_unknown_intensity_is_refused(learner_client, learner, slug):
    response = learner_client.post(CHOOSE, {"intensity": slug, "start_date": today().isoformat()})

    assert response.status_code == 400
    assert not StudyPlan.objects.filter(user=learner).exists()


def test_an_unknown_intensity_names_the_three_choices(learner_client):
    response = learner_client.post(
        CHOOSE, {"intensity": "turbo", "start_date": today().isoformat()}
    )

    message = "Choose one of the schedules: fast track, standard, extended."
    assertContains(response, message, status_code=400)


def test_a_start_date_years_away_is_refused(learner_client, learner):
    response = learner_client.post(
        CHOOSE, {"intensity": "standard", "start_date": (today() + days(800)).isoformat()}
    )

    assert response.status_code == 400
    assert not StudyPlan.objects.filter(user=learner).exists()


# Changing the plan


def test_changing_intensity_keeps_ticks_and_relays_the_plan_from_today(learner_client, learner):
    plan = make_plan(learner, intensity="standard", days_ago=10, exam_in=50)
    tick(learner, "p1-residual-gradient-flow", "p1-backprop", "p2-fid-direction")

    response = learner_client.post(
        CHOOSE,
        {
            "intensity": "fast-track",
            "start_date": plan.start_date.isoformat(),  # left as it was
            "exam_date": plan.exam_date.isoformat(),
        },
    )

    assertRedirects(response, PLAN)
    plan.refresh_from_db()
    assert plan.intensity.slug == "fast-track"
    assert plan.start_date == today()
    assert CheckOff.objects.filter(user=learner).count() == 3
    assert StudyPlan.objects.filter(user=learner).count() == 1


def test_changing_intensity_and_start_date_keeps_the_chosen_start(learner_client, learner):
    make_plan(learner, intensity="standard", days_ago=10)
    new_start = today() + days(4)

    learner_client.post(CHOOSE, {"intensity": "extended", "start_date": new_start.isoformat()})

    plan = StudyPlan.objects.get(user=learner)
    assert (plan.intensity.slug, plan.start_date) == ("extended", new_start)


def test_changing_only_the_exam_date_keeps_the_start_date(learner_client, learner):
    plan = make_plan(learner, intensity="standard", days_ago=10)
    exam = today() + days(30)

    learner_client.post(
        CHOOSE,
        {
            "intensity": "standard",
            "start_date": plan.start_date.isoformat(),
            "exam_date": exam.isoformat(),
        },
    )

    plan.refresh_from_db()
    assert (plan.start_date, plan.exam_date) == (today() - days(10), exam)


# My plan


def test_my_plan_shows_six_phases_with_dates_hours_and_the_current_phase(learner_client, learner):
    start = today() - days(8)
    expected = schedule("standard", start)
    current = expected.current(today())
    assert current is not None and current.number == 2
    make_plan(learner, intensity="standard", days_ago=8)
    tick(learner, "p1-residual-gradient-flow")

    response = learner_client.get(PLAN)

    assert response.status_code == 200
    rows = table_rows(response.content, "plan-table")
    assert_calendar_rows(rows, expected)
    now = [row for row in rows if "Now" in row[-1]]
    assert [row[0] for row in now] == ["2. Experimentation"]
    assert rows[0][4] == "1/7"
    text = page_text(response.content)
    assert long_date(expected.start) in text
    assert long_date(expected.finish) in text
    assert f"{total_hours('standard')} hours" in text


def test_my_plan_counts_down_to_the_exam(learner_client, learner):
    make_plan(learner, exam_in=45)

    response = learner_client.get(PLAN)

    text = page_text(response.content)
    assert "45 days to your exam" in text
    assert "after your exam" not in text


def test_my_plan_warns_when_the_calendar_runs_past_the_exam(learner_client, learner):
    finish = schedule("extended", today()).finish
    exam_in = (finish - today()).days - 5
    make_plan(learner, intensity="extended", exam_in=exam_in)

    response = learner_client.get(PLAN)

    text = page_text(response.content)
    assert f"{exam_in} days to your exam" in text
    assert f"ends on {short_date(finish)}, 6 days too late" in text
    assert "at least the day before your exam" in text


def test_my_plan_without_an_exam_shows_no_countdown(learner_client, learner):
    make_plan(learner)

    response = learner_client.get(PLAN)

    assert "to your exam" not in page_text(response.content)


def test_my_plan_before_the_start_has_no_current_phase(learner_client, learner):
    make_plan(learner, days_ago=-3)

    response = learner_client.get(PLAN)

    assert not [row for row in table_rows(response.content, "plan-table") if "Now" in row[-1]]


def test_my_plan_without_a_plan_sends_the_learner_to_choose_one(learner_client):
    response = learner_client.get(PLAN)

    assertRedirects(response, CHOOSE)


# The iCalendar download


def read_calendar(response) -> list:
    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/calendar")
    assert ".ics" in response["Content-Disposition"]
    calendar = icalendar.Calendar.from_ical(response.content)
    return list(calendar.walk("VEVENT"))


def test_calendar_has_one_all_day_event_per_phase_the_revision_the_mock_and_the_exam(
    learner_client, learner
):
    plan = make_plan(learner, intensity="standard", days_ago=4, exam_in=60)
    expected = schedule("standard", plan.start_date)
    titles = dict(Phase.objects.values_list("number", "title"))

    events = read_calendar(learner_client.get(CALENDAR))

    assert len(events) == 9
    phases, (revision, mock, exam) = events[:6], events[6:]
    assert "revision" in str(revision["SUMMARY"]).lower()
    assert revision.decoded("DTSTART") == expected.revision.start
    assert revision.decoded("DTEND") == expected.revision.mock_day  # exclusive: the mock's day
    assert str(revision["URL"]).endswith(reverse("progress:review"))
    assert "full mock exam" in str(mock["SUMMARY"]).lower()
    assert mock.decoded("DTSTART") == expected.revision.mock_day
    assert str(mock["URL"]).endswith(reverse("progress:practice"))
    for event, slot in zip(phases, expected.slots, strict=True):
        start, end = event.decoded("DTSTART"), event.decoded("DTEND")
        assert type(start) is datetime.date  # all-day: a date, not a datetime
        assert type(end) is datetime.date
        assert start == slot.start
        assert end == slot.end + days(1)  # DTEND is exclusive
        assert titles[slot.number] in str(event["SUMMARY"])
        assert event["UID"]
    assert len({str(event["UID"]) for event in events}) == 9
    assert "exam" in str(exam["SUMMARY"]).lower()
    assert exam.decoded("DTSTART") == plan.exam_date
    assert exam.decoded("DTEND") == plan.exam_date + days(1)


def test_calendar_without_an_exam_has_the_six_phases_the_revision_and_the_mock(
    learner_client, learner
):
    make_plan(learner, intensity="fast-track")

    events = read_calendar(learner_client.get(CALENDAR))

    assert len(events) == 8
    assert not any(str(event["SUMMARY"]) == "NCA-GENM exam" for event in events)


def test_calendar_follows_a_changed_plan(learner_client, learner):
    make_plan(learner, intensity="standard", days_ago=10)
    learner_client.post(
        CHOOSE, {"intensity": "extended", "start_date": (today() - days(10)).isoformat()}
    )

    events = read_calendar(learner_client.get(CALENDAR))

    expected = schedule("extended", today())
    assert [event.decoded("DTSTART") for event in events] == [
        *(s.start for s in expected.slots),
        expected.revision.start,
        expected.revision.mock_day,
    ]


def test_calendar_without_a_plan_is_a_404_not_an_error(learner_client):
    response = learner_client.get(CALENDAR)

    assert response.status_code == 404


def test_the_plan_pages_main_action_is_to_start_todays_phase(client, syllabus):
    from tests.factories import UserFactory, make_plan

    learner = UserFactory()
    make_plan(learner)
    client.force_login(learner)

    response = client.get(reverse("progress:plan"))

    (first,) = [
        e for e in with_class(response.content, "button") if e.tag == "a" and "Start" in e.text
    ]
    assert first.text == "Start phase 1: Core ML foundations"
    assert first.attrs["href"] == reverse("progress:phase", args=["core-ml-foundations"])
