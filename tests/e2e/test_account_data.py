"""My data in the browser: the download holds the review state and every attempt with its
answers; logging out says so."""

import json

from playwright.sync_api import Page, expect

from tests.e2e.steps import (
    answer_drill_question,
    answer_from_memory,
    choose_schedule,
    open_phase,
    sign_up,
)


def test_the_download_holds_ratings_attempts_and_answers(page: Page) -> None:
    sign_up(page, "grace")
    choose_schedule(page)
    open_phase(page, "core-ml-foundations", "Core ML foundations")
    first = page.locator("li.check").first
    answer_from_memory(first, "Shaky: mark done, review sooner", typed="Gradients flow back.")
    expect(first.get_by_text("Done: shaky")).to_be_visible()

    page.goto("/practice/")
    page.get_by_role("button", name="Start the drill").click()
    answer_drill_question(page)

    page.goto("/account/")
    with page.expect_download() as download:
        page.get_by_role("link", name="Download my data (JSON)").click()
    data = json.loads(download.value.path().read_text(encoding="utf-8"))

    (tick,) = data["ticks"]
    assert tick["confidence"] == "shaky"
    (review,) = [row for row in data["reviews"] if row["kind"] == "check"]
    assert (review["rating"], review["answer"]) == (2, "Gradients flow back.")
    assert tick["stability_days"] > 0 and tick["due"] and tick["reviews"] == 1
    (attempt,) = data["attempts"]
    assert attempt["kind"] == "drill"
    answered = [q for q in attempt["questions"] if q["answered_at"]]
    assert len(answered) == 1 and answered[0]["chosen"]
    assert data["login_records"] is not None


def test_logging_out_says_so(page: Page) -> None:
    sign_up(page, "hedy")
    choose_schedule(page)
    page.get_by_role("navigation", name="Main").get_by_role("button", name="Log out").first.click()
    expect(page.get_by_role("status")).to_contain_text("You are logged out.")
    nav = page.get_by_role("navigation", name="Main")
    expect(nav.get_by_role("link", name="Log in")).to_be_visible()
