"""Fit my exam date, and the study-activity calendar, in real Chromium: with htmx, without
JavaScript, and checked by axe-core at a phone's width and a laptop's."""

import datetime
import re

import pytest
from django.utils import timezone
from django.utils.formats import date_format
from playwright.sync_api import Page, expect

from tests.e2e.steps import PHASE_ONE, PHASE_ONE_PATH, check_rows, sign_up, tick
from tests.e2e.test_accessibility import LAPTOP, PHONE, audit


def fill_dates(page: Page, start: datetime.date, exam: datetime.date) -> None:
    page.get_by_label("Start date").fill(start.isoformat())
    page.get_by_label("Exam date (optional)").fill(exam.isoformat())


def test_a_learner_fits_the_plan_to_an_exam_eight_days_away_and_sees_the_days_studied(
    page: Page,
):
    today = timezone.localdate()
    sign_up(page, "fitter")
    page.get_by_role("radio", name=re.compile(r"^Standard\b")).check()
    fill_dates(page, today, today + datetime.timedelta(days=8))

    # The live preview (htmx) offers the fitted plan: standard's 38 h, revision and mock
    # included, in 8 days.
    offer = page.locator(".fit-option")
    expect(offer.get_by_role("heading")).to_have_text("Fit my exam date: 34 h a week for 1.1 weeks")
    expect(offer).to_contain_text("more than 25 hours a week is a lot alongside a job")
    offer.get_by_role("button", name="Save the fitted plan (34 h a week)").click()

    expect(page.get_by_role("heading", level=1)).to_have_text("My plan")
    expect(page.locator(".fitted-plan")).to_contain_text("about 34 hours a week")
    # The full mock is the day before the exam.
    expect(page.get_by_role("row").filter(has_text="Full mock exam")).to_contain_text(
        date_format(today + datetime.timedelta(days=7), "D j M")
    )

    page.goto("/dashboard/")
    activity = page.get_by_role("region", name="Study activity")
    expect(activity).to_contain_text("Study days this week: 0 of 6 planned sessions")

    page.goto(PHASE_ONE_PATH)
    expect(page.get_by_role("heading", level=1)).to_have_text(PHASE_ONE)
    row = check_rows(page)[0]
    tick(row)

    page.goto("/dashboard/")
    expect(activity).to_contain_text("Study days this week: 1 of 6 planned sessions")
    expect(page.locator(f'rect[data-day="{today.isoformat()}"]')).to_have_class(
        re.compile(r"\blevel-1\b")
    )
    activity.get_by_text("Day by day").click()
    expect(activity.get_by_role("row").filter(has_text="(today)")).to_contain_text("1")


def test_without_javascript_the_fitted_plan_is_previewed_and_saved(page_without_js: Page):
    page = page_without_js
    today = timezone.localdate()
    sign_up(page, "nojs")
    page.get_by_role("radio", name=re.compile(r"^Fast track\b")).check()
    fill_dates(page, today, today + datetime.timedelta(days=9))
    page.get_by_role("button", name="Preview the calendar").click()

    # The fast track's 31 h in 9 days.
    offer = page.locator(".fit-option")
    expect(offer.get_by_role("heading")).to_have_text("Fit my exam date: 25 h a week for 1.3 weeks")
    expect(offer).not_to_contain_text("alongside a job")
    assert "csrfmiddlewaretoken" not in page.url
    offer.get_by_role("button", name=re.compile("^Save the fitted plan")).click()

    expect(page.get_by_role("heading", level=1)).to_have_text("My plan")
    expect(page.locator(".fitted-plan")).to_contain_text("about 25 hours a week")


@pytest.mark.parametrize("viewport", [PHONE, LAPTOP], ids=["390px", "1280px"])
def test_the_fit_offer_and_the_activity_calendar_pass_axe_and_fit_the_screen(
    page: Page, viewport: dict
):
    today = timezone.localdate()
    page.set_viewport_size(viewport)
    sign_up(page, f"axe{viewport['width']}")
    page.get_by_role("radio", name=re.compile(r"^Standard\b")).check()
    fill_dates(page, today, today + datetime.timedelta(days=8))
    page.get_by_role("button", name="Preview the calendar").click()
    expect(page.locator(".fit-option")).to_be_visible()
    page.locator(".fit-option").get_by_role("button").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("My plan")
    page.goto(PHASE_ONE_PATH)
    tick(check_rows(page)[0])

    exam = (today + datetime.timedelta(days=8)).isoformat()
    preview = f"/plan/preview/?intensity=extended&start_date={today.isoformat()}&exam_date={exam}"
    problems = audit(page, [preview, "/plan/", "/dashboard/"], phone=viewport is PHONE)

    assert not problems, "\n".join(problems)
