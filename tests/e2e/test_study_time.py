"""Study time in the browser: the timer kept on the server (start, reload, stop for a domain),
the hours on the phase page and the dashboard; without JavaScript, "I studied 30 minutes",
corrected and deleted, and the timer by plain forms."""

import datetime
import re

from playwright.sync_api import Browser, Page, expect

from progress.models import StudySession
from tests.e2e.steps import (
    choose_schedule,
    expect_same_document,
    log_in,
    main_nav,
    mark_page,
    open_dashboard,
    open_phase,
    sign_up,
)

PHASE_FIVE = ("analysis-and-optimization", "Data analysis and performance optimization")
PHASE_ONE = ("core-ml-foundations", "Core ML foundations")


def study_time(page: Page):
    return page.locator("#study-time")


def started_a_minute_ago() -> None:
    """The running timer as if started a minute ago: one stopped under half a minute records
    nothing, and a test does not wait a minute."""
    running = StudySession.objects.get(minutes__isnull=True)
    StudySession.objects.filter(pk=running.pk).update(
        started_at=running.started_at - datetime.timedelta(seconds=61)
    )


def test_the_timer_runs_on_the_server_through_a_reload_and_stops_for_the_chosen_domain(
    page: Page, browser: Browser, site: str
):
    sign_up(page)
    choose_schedule(page)
    open_phase(page, *PHASE_FIVE)
    section = study_time(page)
    expect(section).to_contain_text("0 min studied for this phase; your plan expected")

    mark_page(page)
    section.get_by_role("button", name="Start studying").click()
    expect(section.locator("#timer-status")).to_contain_text(
        re.compile(r"Studying since \d\d:\d\d")
    )
    expect_same_document(page)  # htmx: the section swapped, no reload

    page.reload()
    expect(section.locator("#timer-status")).to_contain_text("Studying since")
    # Another device sees the same timer.
    other = browser.new_context(base_url=site, timezone_id="UTC")
    phone = other.new_page()
    log_in(phone, "ada")
    open_phase(phone, *PHASE_FIVE)
    expect(study_time(phone).locator("#timer-status")).to_contain_text("Studying since")
    other.close()
    domains = section.get_by_role("group", name="Which domain was it for?")
    # The heavier domain is chosen to begin with; here both weigh 10%, the first studied wins.
    expect(domains.get_by_role("radio", name="Data Analysis")).to_be_checked()
    domains.get_by_role("radio", name="Performance Optimization").check()
    started_a_minute_ago()
    section.get_by_role("button", name="Stop and record").click()

    expect(section.get_by_role("button", name="Start studying")).to_be_visible()
    expect(section).to_contain_text("1 min studied for this phase")
    expect(section).to_contain_text("Data Analysis: 0 min · Performance Optimization: 1 min")

    open_dashboard(page)
    table = page.locator("table.time-shares")
    row = table.get_by_role("row").filter(
        has=page.get_by_role("rowheader", name="Performance Optimization")
    )
    expect(row.get_by_role("cell").nth(0)).to_contain_text("100% (1 min)")
    expect(row.get_by_role("cell").nth(1)).to_contain_text("10%")
    expect(page.locator(".time-section")).to_contain_text(
        "The guide's rule of thumb: study time should follow exam weight."
    )


def test_without_javascript_time_is_typed_in_then_corrected_and_deleted(page_without_js: Page):
    page = page_without_js
    sign_up(page)
    choose_schedule(page)
    main_nav(page, "Phases")
    open_phase(page, *PHASE_ONE)
    section = study_time(page)

    section.get_by_text("Or say how long you studied").click()
    section.get_by_label("I studied").fill("30")
    section.get_by_role("button", name="Record it").click()
    expect(page.get_by_role("status").filter(has_text="30 min of study recorded.")).to_be_visible()
    expect(section).to_contain_text("30 min studied for this phase")

    section.get_by_role("link", name="All your study sessions").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Study time")
    sessions = page.locator("table.session-table")
    expect(sessions.get_by_role("row")).to_have_count(2)  # the header and the session
    expect(sessions).to_contain_text("30 min")

    sessions.get_by_role("link", name=re.compile(r"^Edit")).click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Correct a study session")
    page.get_by_label("I studied").fill("45")
    page.get_by_role("button", name="Save").click()
    expect(page.get_by_role("status").filter(has_text="Study session corrected.")).to_be_visible()
    expect(sessions).to_contain_text("45 min")

    sessions.get_by_role("link", name=re.compile(r"^Delete")).click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Delete this study session?")
    page.get_by_role("button", name="Delete it").click()
    expect(page.get_by_role("status").filter(has_text="Study session deleted.")).to_be_visible()
    expect(page.get_by_text("No study sessions yet.")).to_be_visible()


def test_without_javascript_the_timer_starts_and_stops_by_plain_forms(page_without_js: Page):
    page = page_without_js
    sign_up(page)
    choose_schedule(page)
    open_phase(page, *PHASE_ONE)
    section = study_time(page)

    section.get_by_role("button", name="Start studying").click()
    expect(section.locator("#timer-status")).to_contain_text(
        re.compile(r"Studying since \d\d:\d\d")
    )
    page.reload()
    expect(section.locator("#timer-status")).to_contain_text("Studying since")

    started_a_minute_ago()
    section.get_by_role("button", name="Stop and record").click()
    expect(section.get_by_role("button", name="Start studying")).to_be_visible()
    expect(section).to_contain_text("1 min studied for this phase")
