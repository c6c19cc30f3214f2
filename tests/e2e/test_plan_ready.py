"""A plan that ends ready, in real Chromium: a far exam gets revision days and a full mock on the
calendar (and in the .ics); an exam two days away gets the 15-minute placement, then a
day-by-day plan with the heaviest domains the placement found weakest first, with htmx and
without JavaScript."""

import datetime
import re

import icalendar
from django.utils import timezone
from django.utils.formats import date_format
from playwright.sync_api import Page, expect

from progress.models import Attempt, StudyPlan
from tests.conftest import days
from tests.e2e.steps import sign_up
from tests.e2e.test_mock import box, current_item, right_answer, wrong_answer


def fill_dates(page: Page, start: datetime.date, exam: datetime.date) -> None:
    page.get_by_label("Start date").fill(start.isoformat())
    page.get_by_label("Exam date (optional)").fill(exam.isoformat())


def take_the_placement(page: Page, user, *, right_in: str) -> None:
    """Answer the 15 questions, right in the domain ``right_in`` and wrong elsewhere; hand in."""
    expect(page.locator(".eyebrow")).to_contain_text("Placement · question 1 of 15")
    attempt = Attempt.objects.get(user=user, placement=True)
    for n in range(1, 16):
        expect(page.locator(".eyebrow")).to_contain_text(f"question {n} of 15")
        item = current_item(page, attempt)
        right = item.question.domain.slug == right_in
        for index in right_answer(item) if right else wrong_answer(item):
            box(page, item, index).check()
        page.get_by_role("button", name="Save and next" if n < 15 else "Save and review").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Before you submit")
    page.get_by_role("button", name="Hand in the placement").click()
    result = page.locator(".placement-result")
    expect(result).to_contain_text("Strong, so last: Core Machine Learning and AI Knowledge.")
    expect(result).to_contain_text("every one of its placement questions right")


def expect_day_by_day(page: Page, today: datetime.date) -> None:
    expect(page.get_by_role("heading", level=1)).to_have_text("My plan")
    expect(page.locator(".short-notice-plan")).to_contain_text(
        "the share of your placement's questions you missed"
    )
    cards = page.locator(".day-card")
    expect(cards).to_have_count(2)
    expect(cards.first).to_contain_text(f"Day 1 · {date_format(today, 'D j M')}")
    # Experimentation (25% of the exam, every placement question missed) first; core ML, where
    # every placement question was right, last.
    expect(cards.first.get_by_role("listitem").first).to_contain_text("2. Experimentation")
    expect(cards.last.get_by_role("listitem").last).to_contain_text("1. Core ML foundations")
    expect(page.get_by_text("too late")).to_have_count(0)


def test_two_days_before_the_exam_the_placement_then_a_day_by_day_plan(page: Page):
    today = timezone.localdate()
    sign_up(page, "rosalind")
    page.get_by_role("radio", name=re.compile(r"^Fast track\b")).check()
    fill_dates(page, today, today + days(2))

    # The live preview (htmx): no schedule fits, nor any fitted plan; short notice does.
    offer = page.locator(".short-notice")
    expect(offer.get_by_role("heading", level=3)).to_have_text(
        "A short-notice plan: 2 days, day by day"
    )
    expect(page.locator("#preview")).to_contain_text("2 days before your exam are too few")
    expect(offer.locator(".day-card")).to_have_count(2)
    offer.get_by_role("button", name="Save it and take the 15-minute placement").click()

    user = StudyPlan.objects.get(user__username="rosalind").user
    take_the_placement(page, user, right_in="core-ml")
    page.get_by_role("link", name="See your plan, shaped by it").click()
    expect_day_by_day(page, today)


def test_without_javascript_the_short_notice_plan_is_previewed_saved_and_placed(
    page_without_js: Page,
):
    page = page_without_js
    today = timezone.localdate()
    sign_up(page, "katherine")
    fill_dates(page, today, today + days(2))
    page.get_by_role("button", name="Preview the calendar").click()

    offer = page.locator(".short-notice")
    expect(offer.get_by_role("heading", level=3)).to_have_text(
        "A short-notice plan: 2 days, day by day"
    )
    offer.get_by_role("button", name="Save it without a placement").click()

    expect(page.get_by_role("heading", level=1)).to_have_text("My plan")
    expect(page.locator(".short-notice-plan")).to_contain_text("by exam weight")
    page.get_by_role("button", name="Take the 15-minute placement (15 questions)").click()
    user = StudyPlan.objects.get(user__username="katherine").user
    take_the_placement(page, user, right_in="core-ml")
    page.get_by_role("link", name="See your plan, shaped by it").click()
    expect_day_by_day(page, today)


def test_a_far_exam_keeps_revision_and_a_full_mock_on_the_calendar_and_in_the_ics(page: Page):
    today = timezone.localdate()
    sign_up(page, "ada")
    fill_dates(page, today, today + days(90))
    expect(page.locator(".alert-ok")).to_contain_text("at least a day before your exam")
    page.get_by_role("button", name="Save my schedule").click()

    expect(page.get_by_role("heading", level=1)).to_have_text("My plan")
    plan = StudyPlan.objects.get(user__username="ada")
    revision_row = page.get_by_role("row").filter(has_text="Revision: your review queue")
    mock_row = page.get_by_role("row").filter(has_text="Full mock exam: 60 questions in 60 minutes")
    expect(revision_row).to_have_count(1)
    expect(mock_row).to_have_count(1)
    expect(page.locator(".revision-summary")).to_contain_text("at least a day before your exam")

    calendar = page.request.get("/plan/calendar.ics")
    assert calendar.ok
    events = {
        str(event["summary"]): event
        for event in icalendar.Calendar.from_ical(calendar.body()).walk("VEVENT")
    }
    revision = events["NCA-GENM revision: your review queue, then drills in your weakest domain"]
    mock = events["NCA-GENM full mock exam: 60 questions in 60 minutes"]
    assert str(revision["url"]).endswith("/review/")
    assert str(mock["url"]).endswith("/practice/")
    assert mock.decoded("dtstart") < plan.exam_date
    expect(mock_row).to_contain_text(date_format(mock.decoded("dtstart"), "D j M"))

    mock_row.get_by_role("link").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Practice")
