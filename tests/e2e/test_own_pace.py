"""A plan from your own hours in Chromium, with JavaScript and without: an exam three weeks out,
6 hours a week on Monday, Wednesday and Saturday; today's task on the dashboard; a week behind,
one click lays the plan again from today, on the plan page and in the calendar file."""

import datetime
import re

import icalendar
import pytest
from django.utils import timezone
from playwright.sync_api import Page, expect

from progress.models import StudyPlan
from tests.e2e.steps import open_dashboard, sign_up

DAYS = ("Mon", "Wed", "Sat")


def plan_at_my_own_pace(page: Page, exam: datetime.date, *, javascript: bool) -> None:
    page.get_by_label("Exam date (optional)").fill(exam.isoformat())
    page.get_by_label("Hours a week (1 to 40)").fill("6")
    for day in DAYS:
        page.get_by_label(day, exact=True).check()
    if not javascript:
        page.get_by_role("button", name="Preview the calendar").click()
    own = page.get_by_role("region", name=re.compile("^At your own pace"))
    expect(own).to_contain_text("6 h a week on Mon, Wed, Sat")
    own.get_by_role("button", name=re.compile("^Save my own-pace plan")).click()
    expect(page.get_by_role("heading", level=1)).to_have_text("My plan")


@pytest.mark.parametrize("javascript", [True, False], ids=["js", "no-js"])
def test_own_hours_today_and_catching_up(page: Page, page_without_js: Page, javascript: bool):
    page = page if javascript else page_without_js
    today = timezone.localdate()
    exam = today + datetime.timedelta(weeks=3)
    sign_up(page)

    plan_at_my_own_pace(page, exam, javascript=javascript)

    expect(page.locator(".lede")).to_contain_text(
        "At your own pace: 6 hours a week on Mon, Wed, Sat"
    )
    rows = page.locator("table.plan-table tbody tr")
    expect(rows.last).to_contain_text("Your exam")
    expect(rows.nth(-2)).to_contain_text("Full mock exam")
    plan = StudyPlan.objects.get()
    assert (plan.kind, plan.hours_per_week, plan.study_weekdays) == ("own_pace", 6, "025")

    open_dashboard(page)
    box = page.locator(".today-phase")
    expect(box).to_contain_text("21 days to your exam")
    expect(box.locator(".todays-task")).to_contain_text(
        re.compile(r"^(\d+ h( \d\d)?: phase 1|No study planned today)")
    )

    # The clock moves on: the plan began nine days ago and nothing is ticked.
    StudyPlan.objects.update(start_date=today - datetime.timedelta(days=9))
    page.goto("/dashboard/")
    expect(page.locator(".today-behind")).to_contain_text("days behind your plan")
    page.locator(".today-behind").get_by_role("link", name="re-plan from today").click()
    offer = page.get_by_role("region", name=re.compile("behind this plan"))
    offer.get_by_role("button", name="Re-plan from today").click()

    expect(page.get_by_role("status").first).to_contain_text("Your plan starts again today")
    expect(page.get_by_role("region", name=re.compile("behind this plan"))).to_have_count(0)
    first = next(
        day
        for day in (today + datetime.timedelta(days=n) for n in range(7))
        if day.weekday() in (0, 2, 5)
    )
    first_row = page.locator("table.plan-table tbody tr").first
    expect(first_row).to_contain_text(f"{first:%a} {first.day} {first:%b}")
    expect(page.get_by_role("heading", name="Earlier plans")).to_be_visible()
    calendar = icalendar.Calendar.from_ical(page.request.get("/plan/calendar.ics").body())
    starts = sorted(event.decoded("dtstart") for event in calendar.walk("VEVENT"))
    assert starts[0] >= today and starts[-1] == exam
