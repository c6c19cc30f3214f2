"""Fit my exam date: when no intensity finishes before the exam, the choose page offers the same
phases compressed into the days left, and a fitted plan is laid out that way everywhere."""

import datetime
import math

import icalendar
import pytest
from django.urls import reverse
from django.utils.formats import date_format
from pytest_django.asserts import assertRedirects

from phases.models import Intensity, Phase, PhaseHours
from phases.schedule import HEAVY_WEEK_TEXT, Schedule, fit_to, hours_by_weight, lay_out
from progress.models import StudyPlan
from progress.planning.forms import PlanForm
from progress.planning.services import save_plan
from tests.conftest import HTMX, days, today
from tests.html import element_by_id, elements, page_text, table_rows, with_class

pytestmark = pytest.mark.django_db

CHOOSE = reverse("progress:plan-choose")
PREVIEW = reverse("progress:plan-preview")
PLAN = reverse("progress:plan")
CALENDAR = reverse("progress:plan-calendar")
DASHBOARD = reverse("progress:dashboard")


def own_pace(slug: str, start: datetime.date) -> Schedule:
    intensity = Intensity.objects.get(slug=slug)
    hours = PhaseHours.objects.filter(intensity=intensity).order_by("phase__number")
    return lay_out(
        hours.values_list("phase__number", "hours"),
        intensity.hours_per_week,
        start,
        revision_hours=intensity.revision_hours,
    )


def fitted(slug: str, start: datetime.date, exam: datetime.date) -> Schedule:
    """The fitted calendar, worked out here from the loaded syllabus: the intensity's total
    hours split by the exam weight of each phase's domains, then its revision and the mock."""
    total = sum(PhaseHours.objects.filter(intensity__slug=slug).values_list("hours", flat=True))
    revision = Intensity.objects.get(slug=slug).revision_hours
    weights = [
        (phase.number, sum(domain.exam_weight for domain in phase.domains.all()))
        for phase in Phase.objects.order_by("number").prefetch_related("domains")
    ]
    return fit_to(hours_by_weight(total, weights), start, exam, revision_hours=revision)


def none_fits(start: datetime.date, exam: datetime.date) -> bool:
    return not any(own_pace(i.slug, start).fits(exam) for i in Intensity.objects.all())


def choice(slug: str, start: datetime.date, exam: datetime.date | None, **extra) -> dict:
    return {
        "intensity": slug,
        "start_date": start.isoformat(),
        "exam_date": exam.isoformat() if exam else "",
        **extra,
    }


def fit_option(html: bytes):
    (option,) = with_class(html, "fit-option")
    return option


def fit_button(html: bytes):
    (button,) = [e for e in elements(html) if e.tag == "button" and e.attrs.get("name") == "fit"]
    return button


def short_date(day: datetime.date) -> str:
    return date_format(day, "D j M")


def assert_rows_follow(rows: list[list[str]], expected: Schedule) -> None:
    """The phases, then the revision days and the mock (the day before the exam), then the
    exam day."""
    *rows, exam = rows
    assert exam[0] == "Your exam"
    assert exam[1] == short_date(expected.finish + datetime.timedelta(days=1))
    assert len(rows) == len(expected.slots) + 2
    for row, slot in zip(rows, expected.slots, strict=False):
        assert row[0].startswith(f"{slot.number}. ")
        assert row[1:4] == [short_date(slot.start), short_date(slot.end), f"{slot.hours} h"]
    revision = expected.revision
    assert rows[-2][0].startswith("Revision")
    assert rows[-2][1:3] == [short_date(revision.start), short_date(revision.last_revision_day)]
    assert rows[-1][0].startswith("Full mock exam")
    assert rows[-1][1:3] == [short_date(revision.mock_day)] * 2


# The offer on the choose page


@pytest.mark.parametrize("headers", [{}, HTMX], ids=["plain", "htmx"])
def test_when_no_intensity_fits_the_preview_offers_the_plan_fitted_to_the_exam(
    learner_client, headers
):
    start, exam = today(), today() + days(8)
    assert none_fits(start, exam)
    expected = fitted("standard", start, exam)

    response = learner_client.post(PREVIEW, choice("standard", start, exam), **headers)

    assert response.status_code == 200
    option = fit_option(response.content)
    weeks = f"{expected.weeks:.1f}".rstrip("0").rstrip(".")
    assert f"Fit my exam date: {expected.hours_per_week} h a week for {weeks} weeks" in option.text
    assert expected.hours_per_week == math.ceil(expected.total_hours * 7 / 8)
    assert f"{expected.total_hours} hours as Standard" in option.text
    assert expected.finish == exam - days(1)
    assert_rows_follow(table_rows(response.content, "fit-table"), expected)
    button = fit_button(response.content)
    assert button.attrs["value"] == "1"
    assert button.attrs["formaction"] == CHOOSE
    assert button.attrs["form"] == "plan-form"


def test_the_fit_button_belongs_to_the_plan_form_on_the_whole_page(learner_client):
    start, exam = today(), today() + days(8)

    response = learner_client.post(PREVIEW, choice("fast-track", start, exam))

    (form,) = [e for e in elements(response.content) if e.tag == "form" and e.attrs.get("id")]
    assert form.attrs["id"] == fit_button(response.content).attrs["form"]
    assert form.attrs["method"] == "post"


def test_more_than_25_hours_a_week_carries_the_warning(learner_client):
    start, exam = today(), today() + days(8)
    assert fitted("standard", start, exam).hours_per_week > 25

    response = learner_client.post(PREVIEW, choice("standard", start, exam), **HTMX)

    (warning,) = with_class(response.content, "fit-heavy")
    assert HEAVY_WEEK_TEXT in warning.text
    assert "more than 25 hours a week is a lot alongside a job" in warning.text


def test_25_hours_a_week_or_fewer_carries_no_warning(learner_client):
    # The fast track's 31 h in 9 days: 24.1 h a week.
    start, exam = today(), today() + days(9)
    assert none_fits(start, exam)
    assert fitted("fast-track", start, exam).hours_per_week <= 25

    response = learner_client.post(PREVIEW, choice("fast-track", start, exam), **HTMX)

    assert fit_option(response.content)
    assert with_class(response.content, "fit-heavy") == []
    assert "alongside a job" not in page_text(response.content)


def test_no_fit_is_offered_when_an_intensity_fits(learner_client):
    start = today()
    exam = own_pace("fast-track", start).finish + days(1)  # fast track fits, standard does not

    response = learner_client.post(PREVIEW, choice("standard", start, exam), **HTMX)

    assert with_class(response.content, "fit-option") == []
    assert "Fast track fits" in element_by_id(response.content, "preview").text


def test_too_few_days_for_the_phases_are_explained_and_a_short_notice_plan_offered(
    learner_client,
):
    start, exam = today(), today() + days(7)

    response = learner_client.post(PREVIEW, choice("fast-track", start, exam), **HTMX)

    (offer,) = with_class(response.content, "fit-option")
    assert "short-notice" in offer.attrs["class"]
    text = element_by_id(response.content, "preview").text
    assert "7 days before your exam are too few to give each of the 6 phases a day" in text
    assert "keep days for revision and a mock" in text


def test_an_exam_on_the_start_date_offers_nothing(learner_client):
    response = learner_client.post(PREVIEW, choice("fast-track", today(), today()), **HTMX)

    assert with_class(response.content, "fit-option") == []
    text = element_by_id(response.content, "preview").text
    assert "There is no day left before your exam to plan." in text


# Saving it


def test_saving_the_fitted_plan_stores_it_as_fitted(learner_client, learner):
    start, exam = today(), today() + days(8)

    response = learner_client.post(CHOOSE, choice("standard", start, exam, fit="1"), follow=True)

    assertRedirects(response, PLAN)
    plan = StudyPlan.objects.get(user=learner)
    assert (plan.intensity.slug, plan.start_date, plan.exam_date, plan.fitted) == (
        "standard",
        start,
        exam,
        True,
    )
    expected = fitted("standard", start, exam)
    assert f"about {expected.hours_per_week} hours a week" in page_text(response.content)


def test_the_plain_save_button_saves_the_intensitys_own_pace(learner_client, learner):
    start, exam = today(), today() + days(8)
    learner_client.post(CHOOSE, choice("standard", start, exam, fit="1"))

    response = learner_client.post(CHOOSE, choice("standard", start, exam))

    assertRedirects(response, PLAN)
    assert StudyPlan.objects.get(user=learner).fitted is False


def test_a_fit_when_an_intensity_fits_is_refused_and_nothing_saved(learner_client, learner):
    start = today()
    exam = own_pace("fast-track", start).finish + days(1)

    response = learner_client.post(CHOOSE, choice("standard", start, exam, fit="1"))

    assert response.status_code == 400
    (errors,) = [e for e in with_class(response.content, "form-errors") if e.attrs.get("role")]
    assert "Fast track ends at least a day before your exam: choose it." in errors.text
    assert not StudyPlan.objects.filter(user=learner).exists()


def test_a_fit_with_too_few_days_is_refused_and_nothing_saved(learner_client, learner):
    response = learner_client.post(CHOOSE, choice("standard", today(), today() + days(7), fit="1"))

    assert response.status_code == 400
    assert "too few to give each of the 6 phases a day" in page_text(response.content)
    assert not StudyPlan.objects.filter(user=learner).exists()


def test_a_fit_without_an_exam_date_asks_for_one(learner_client, learner):
    response = learner_client.post(CHOOSE, choice("standard", today(), None, fit="1"))

    assert response.status_code == 400
    assert "Enter your exam date to fit your plan to it." in page_text(response.content)
    assert not StudyPlan.objects.filter(user=learner).exists()


def test_a_fit_value_other_than_0_or_1_is_a_400_with_a_message(learner_client, learner):
    response = learner_client.post(
        CHOOSE, choice("standard", today(), today() + days(8), fit="yes please")
    )

    assert response.status_code == 400
    message = PlanForm.base_fields["fit"].error_messages["invalid_choice"]
    assert message in page_text(response.content)
    assert not StudyPlan.objects.filter(user=learner).exists()


def test_a_fitted_plan_changing_intensity_keeps_the_dates_it_was_fitted_to(learner_client, learner):
    start, exam = today() - days(2), today() + days(7)
    save_plan(
        user=learner,
        intensity=Intensity.objects.get(slug="standard"),
        start_date=start,
        exam_date=exam,
        today=today(),
    )

    learner_client.post(CHOOSE, choice("fast-track", start, exam, fit="1"))

    plan = StudyPlan.objects.get(user=learner)
    assert (plan.intensity.slug, plan.start_date, plan.fitted) == ("fast-track", start, True)


def test_the_choose_page_says_which_plan_is_fitted_now(learner_client, learner):
    start, exam = today(), today() + days(8)
    learner_client.post(CHOOSE, choice("standard", start, exam, fit="1"))

    response = learner_client.get(CHOOSE)
    other = learner_client.post(PREVIEW, choice("extended", start, exam), **HTMX)

    assert "This is the plan you have now." in fit_option(response.content).text
    assert "This is the plan you have now." not in fit_option(other.content).text


# Everywhere a schedule is laid out


@pytest.fixture
def fitted_plan(learner):
    """Standard's hours fitted into the week and two days from three days ago to the exam."""
    start, exam = today() - days(3), today() + days(6)
    save_plan(
        user=learner,
        intensity=Intensity.objects.get(slug="standard"),
        start_date=start,
        exam_date=exam,
        today=today(),
        kind=StudyPlan.Kind.FITTED,
    )
    expected = fitted("standard", start, exam)
    # The fitted calendar differs from standard's own pace, here and today.
    assert expected.current(today()).number != own_pace("standard", start).current(today()).number
    return expected


def test_my_plan_says_it_is_fitted_with_its_weekly_hours_and_fitted_dates(
    learner_client, fitted_plan
):
    response = learner_client.get(PLAN)

    assert response.status_code == 200
    (lede,) = with_class(response.content, "fitted-plan")
    assert "A fitted plan" in lede.text
    assert f"about {fitted_plan.hours_per_week} hours a week" in lede.text
    assert_rows_follow(table_rows(response.content, "plan-table"), fitted_plan)
    (current,) = [e for e in elements(response.content) if e.attrs.get("aria-current") == "date"]
    assert current.text.startswith(f"{fitted_plan.current(today()).number}. ")
    assert "after your exam" not in page_text(response.content)
    assert HEAVY_WEEK_TEXT in page_text(response.content)  # 38 h in 9 days


def test_the_calendar_file_carries_the_fitted_dates(learner_client, fitted_plan):
    response = learner_client.get(CALENDAR)

    events = list(icalendar.Calendar.from_ical(response.content).walk("VEVENT"))
    phases = [event for event in events if "phase" in str(event["SUMMARY"])]
    assert len(phases) == 6
    for event, slot in zip(phases, fitted_plan.slots, strict=True):
        assert event.decoded("DTSTART") == slot.start
        assert event.decoded("DTEND") == slot.end + days(1)
        assert f"({slot.hours} h)" in str(event["SUMMARY"])


def test_the_dashboard_follows_the_fitted_calendar(learner_client, fitted_plan):
    response = learner_client.get(DASHBOARD)

    text = page_text(response.content)
    assert f"fitted to your exam date at about {fitted_plan.hours_per_week} hours a week" in text
    assert f"the calendar has you in phase {fitted_plan.current(today()).number} today" in text
