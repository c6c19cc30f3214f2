"""A learner's journey in a real browser: sign up, choose a schedule, tick self-checks."""

import datetime
import re

from playwright.sync_api import Locator, Page, expect

from phases.models import SelfCheck
from tests.factories import PASSWORD

PHASE_ONE_PATH = "/study/core-ml-foundations/"
CORE_ML = "Core Machine Learning and AI Knowledge"
DASHBOARD_SCREENSHOT = "/tmp/e2e-dashboard.png"
PHONE_SCREENSHOT = "/tmp/e2e-phase-phone.png"


def sign_up(page: Page, username: str = "ada") -> None:
    page.goto("/")
    page.get_by_role("link", name="Sign up and choose your schedule").click()
    page.get_by_label("Username").fill(username)
    page.get_by_label("Password", exact=True).fill(PASSWORD)
    page.get_by_label("Password confirmation").fill(PASSWORD)
    page.get_by_role("button", name="Create my account").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Choose your schedule")


def choose_standard(page: Page) -> None:
    page.get_by_role("radio", name=re.compile(r"^Standard\b")).check()
    page.get_by_role("button", name="Save my schedule").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("My plan")


def log_in(page: Page, username: str) -> None:
    page.goto("/accounts/login/")
    page.get_by_label("Username").fill(username)
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Log in").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Where you stand")


def open_phase_one(page: Page) -> None:
    page.get_by_role("navigation", name="Main").get_by_role("link", name="Phases").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Core ML foundations")


def core_ml_rows(page: Page) -> list[Locator]:
    """Phase 1's Core ML self-checks, each located by its id so it survives an htmx swap."""
    core_ml_tag = page.locator(".tag").get_by_text(CORE_ML, exact=True)
    rows = page.locator("li.check").filter(has=core_ml_tag)
    ids = [row.get_attribute("id") for row in rows.all()]
    return [page.locator(f"#{row_id}") for row_id in ids]


def tick_button(row: Locator) -> Locator:
    return row.get_by_role("button", name=re.compile(r"^(Mark done|Done):"))


def expect_done(row: Locator) -> None:
    expect(tick_button(row)).to_have_accessible_name(re.compile(r"^Done:"))
    expect(tick_button(row)).to_have_text("✓ Done")
    expect(tick_button(row)).to_have_attribute("aria-pressed", "true")


def expect_not_done(row: Locator) -> None:
    expect(tick_button(row)).to_have_accessible_name(re.compile(r"^Mark done:"))
    expect(tick_button(row)).to_have_text("Mark done")
    expect(tick_button(row)).to_have_attribute("aria-pressed", "false")


def expect_phase_progress(page: Page, figure: str) -> None:
    expect(page.locator("#phase-progress .phase-progress-figure")).to_have_text(figure)


def expect_header_readiness(page: Page, percent: str) -> None:
    expect(page.locator("#header-readiness .header-readiness-value")).to_have_text(percent)


def lagging_card(page: Page) -> Locator:
    heading = page.get_by_role("heading", name="Lagging domain")
    return page.locator("section").filter(has=heading)


def test_signup_choose_standard_tick_three_core_ml_checks_without_reload_names_experimentation_lagging(  # noqa: E501
    page: Page,
):
    sign_up(page)
    choose_standard(page)
    open_phase_one(page)
    expect(page).to_have_url(re.compile(re.escape(PHASE_ONE_PATH) + "$"))
    expect_header_readiness(page, "0%")
    expect_phase_progress(page, "0 of 7")
    page.evaluate("window.__noReload = 1")

    rows = core_ml_rows(page)
    # Phase 1 has seven checks: six count for Core ML, one for Multimodal Data.
    assert len(rows) == 6
    for row in rows[:3]:
        tick_button(row).click()
        # Wait for each swap before the next click: one tick in flight at a time.
        expect_done(row)

    for row in rows[:3]:
        expect_done(row)
    for row in rows[3:]:
        expect_not_done(row)
    expect_phase_progress(page, "3 of 7")
    # 3 of 6 Core ML checks, and Core ML is 20% of the exam: 0.5 x 20 = 10%.
    expect_header_readiness(page, "10%")
    assert page.evaluate("window.__noReload") == 1

    page.get_by_role("navigation", name="Main").get_by_role("link", name="Dashboard").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Where you stand")
    card = lagging_card(page)
    # Every other domain is at 0%: the tie goes to the heaviest, Experimentation (25%).
    expect(card.locator(".focus-name")).to_have_text("Experimentation")
    expect(card.get_by_text("the lagging domain is the one with the lowest share")).to_be_visible()
    expect(page.locator(".big-figure")).to_have_text("10%")
    expect(page.get_by_text("3 of 42 self-checks done")).to_be_visible()

    page.set_viewport_size({"width": 1280, "height": 900})
    page.screenshot(path=DASHBOARD_SCREENSHOT, full_page=True)
    page.set_viewport_size({"width": 390, "height": 844})
    page.goto(PHASE_ONE_PATH)
    expect_phase_progress(page, "3 of 7")
    page.screenshot(path=PHONE_SCREENSHOT, full_page=True)


def test_tick_and_untick_without_javascript_reloads_the_same_phase_page(page_without_js: Page):
    page = page_without_js
    sign_up(page)
    choose_standard(page)
    open_phase_one(page)
    row = core_ml_rows(page)[0]
    expect_not_done(row)

    tick_button(row).click()
    expect(page).to_have_url(re.compile(re.escape(PHASE_ONE_PATH) + "(#.*)?$"))
    expect_done(row)
    expect_phase_progress(page, "1 of 7")
    # 1 of 6 Core ML checks x 20% = 3.33%, shown rounded.
    expect_header_readiness(page, "3%")

    tick_button(row).click()
    expect(page).to_have_url(re.compile(re.escape(PHASE_ONE_PATH) + "(#.*)?$"))
    expect_not_done(row)
    expect_phase_progress(page, "0 of 7")
    expect_header_readiness(page, "0%")

    page.get_by_role("navigation", name="Main").get_by_role("link", name="Dashboard").click()
    expect(page.locator(".big-figure")).to_have_text("0%")
    expect(page.get_by_text("0 of 42 self-checks done")).to_be_visible()
    expect(page.get_by_role("heading", name="Where to start")).to_be_visible()

    open_phase_one(page)
    tick_button(row).click()
    expect_done(row)
    page.get_by_role("navigation", name="Main").get_by_role("link", name="Dashboard").click()
    expect(page.locator(".big-figure")).to_have_text("3%")
    expect(page.get_by_text("1 of 42 self-checks done")).to_be_visible()
    expect(lagging_card(page).locator(".focus-name")).to_have_text("Experimentation")
    core_ml = page.locator(".domain-table tbody tr").filter(
        has=page.get_by_role("rowheader", name=CORE_ML)
    )
    expect(core_ml.locator("td").nth(1)).to_have_text("1/6")


def test_schedule_preview_warns_when_standard_finishes_after_the_exam_and_suggests_fast_track(
    page: Page,
):
    sign_up(page)
    page.evaluate("window.__noReload = 1")
    page.get_by_role("radio", name=re.compile(r"^Standard\b")).check()
    start = datetime.date.fromisoformat(page.get_by_label("Start date").input_value())
    # Standard takes 32 days and the fast track 10: an exam two weeks out fits only the latter.
    exam = start + datetime.timedelta(days=14)
    page.get_by_label("Exam date (optional)").fill(exam.isoformat())

    preview = page.locator("#preview")
    expect(preview.get_by_role("heading")).to_have_text("Your calendar: Standard")
    warning = preview.get_by_role("alert")
    expect(warning).to_contain_text(
        re.compile(r"This schedule finishes \d+ days? after your exam on " + f"{exam.day} ")
    )
    expect(warning.locator("strong")).to_have_text("Fast track")
    expect(warning).to_contain_text("Fast track fits")
    assert page.evaluate("window.__noReload") == 1


def test_reveal_the_reference_answer_shows_it(page: Page, learner):
    check = SelfCheck.objects.current().get(slug="p1-residual-gradient-flow")
    log_in(page, learner.username)
    open_phase_one(page)
    row = page.locator(f"#check-{check.slug}")
    answer = row.get_by_text(check.answer)
    expect(answer).to_be_hidden()

    row.get_by_text("Reveal the reference answer").click()
    expect(answer).to_be_visible()
