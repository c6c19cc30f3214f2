"""Outcomes in Chromium, without JavaScript (plain forms all the way): the day after the exam the
dashboard asks; the learner records a result with a domain's figure, sees it on the account page,
and deletes it; the public page says "not enough results yet" below the floor."""

import datetime

from django.utils import timezone
from playwright.sync_api import Page, expect

from progress.models import ExamOutcome, StudyPlan
from tests.e2e.steps import choose_schedule, open_dashboard, sign_up


def test_asked_recorded_seen_and_deleted(page_without_js: Page):
    page = page_without_js
    sign_up(page)
    choose_schedule(page)
    exam = timezone.localdate() - datetime.timedelta(days=1)
    StudyPlan.objects.update(exam_date=exam)

    open_dashboard(page)
    ask = page.get_by_role("region", name="How did your exam go?")
    ask.get_by_role("link", name="Record your result").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Your exam result")
    expect(page.get_by_label("The day you sat the exam")).to_have_value(exam.isoformat())
    page.get_by_label("Yes, I passed").check()
    page.get_by_label("Experimentation (%)").fill("68")
    page.get_by_label("Count my result in the public figures").check()
    page.get_by_role("button", name="Record my result").click()

    expect(page.get_by_role("status")).to_contain_text(
        "Your result is recorded, and counted in the public figures."
    )
    result = page.get_by_role("region", name="Your exam result")
    expect(result).to_contain_text("passed, with 1 domain figure from your score report")
    expect(result).to_contain_text("Counted in the public figures.")
    assert ExamOutcome.objects.get().domain_scores == {"experimentation": 68}

    page.goto("/how-well-we-predict/")
    expect(page.locator(".alert")).to_contain_text("Not enough results yet: fewer than 10")

    page.goto("/account/")
    page.get_by_role("button", name="Delete my result").click()
    expect(page.get_by_role("status")).to_contain_text("Your result is deleted")
    assert not ExamOutcome.objects.exists()
