"""Reporting a problem with a question in the browser, and reading the report in the admin."""

from django.contrib.auth import get_user_model
from playwright.sync_api import Page, expect

from tests.e2e.steps import PASSWORD, answer_drill_question, choose_schedule, sign_up


def test_a_report_made_after_a_drill_answer_shows_in_the_admin(page: Page) -> None:
    sign_up(page, "rosalind")
    choose_schedule(page)
    page.goto("/practice/")
    page.get_by_role("button", name="Start the drill").click()
    answer_drill_question(page)
    prompt = page.locator("h1.question-prompt").inner_text()

    page.get_by_role("link", name="Report a problem with this question").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Report a problem with this question")
    page.get_by_role("radio", name="More than one option is right").check()
    page.get_by_label("Anything you want to add (optional)").fill("B and C both fit the stem.")
    page.get_by_role("button", name="Send the report").click()

    expect(page.get_by_role("status").first).to_contain_text(
        "Thank you: your report on this question was saved."
    )
    expect(page.locator(".feedback")).to_be_visible()  # back on the answer it came from

    get_user_model().objects.create_superuser("keeper", "keeper@example.com", PASSWORD)
    page.goto("/admin/login/")
    page.get_by_label("Username").fill("keeper")
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Log in").click()
    page.goto("/admin/progress/questionreport/")
    row = page.locator("#result_list tbody tr").first
    expect(row).to_contain_text("More than one option is right")
    expect(row).to_contain_text("rosalind")
    expect(row).to_contain_text(prompt[:40])
