"""A learner's journey in a real browser: sign up, choose a schedule, tick self-checks, and read
the dashboard's verdict."""

import datetime
import re

from django.utils import timezone
from playwright.sync_api import Page, expect

from phases.models import SelfCheck
from tests.e2e.steps import (
    PHASE_ONE,
    PHASE_ONE_PATH,
    check_ids,
    check_rows,
    choose_schedule,
    domain_row,
    expect_done,
    expect_header_readiness,
    expect_not_done,
    expect_phase_progress,
    expect_same_document,
    focus_card,
    log_in,
    main_nav,
    mark_page,
    open_dashboard,
    open_phase,
    sign_up,
    tick,
    tick_button,
)

CORE_ML = "Core Machine Learning and AI Knowledge"
EXPERIMENTATION = "Experimentation"
DASHBOARD_SCREENSHOT = "/tmp/e2e-dashboard.png"


def plan_by_today(page: Page) -> list[str]:
    """The dashboard table's "Plan by today" figure of every domain (without its badge)."""
    cells = page.locator(".domain-table tbody tr td:last-child").all_inner_texts()
    return [cell.split()[0] for cell in cells]


# Recall on exam day above 0%: its exact figure is FSRS's (tests/test_views_dashboard.py).
SOME_RECALL = re.compile(r"^[1-9]\d*%$")


def test_day_one_ticking_ahead_of_plan_is_on_plan_and_study_next_leads_to_phase_one(page: Page):
    sign_up(page)
    choose_schedule(page, "Standard", start=timezone.localdate())
    # "Phases" goes to the phase the calendar has the learner in today.
    main_nav(page, "Phases")
    expect(page.get_by_role("heading", level=1)).to_have_text(PHASE_ONE)
    expect(page).to_have_url(re.compile(re.escape(PHASE_ONE_PATH) + "$"))
    expect_header_readiness(page, "0%")
    expect_phase_progress(page, "0 of 7")
    mark_page(page)

    ids = check_ids(page)
    # Phase 1 lists its six Core ML checks first, then one that counts for Multimodal Data.
    assert len(ids) == 7 and check_ids(page, CORE_ML) == ids[:6]
    rows = check_rows(page)
    tick(rows[0])
    tick(rows[1])

    expect_done(rows[0])
    expect_done(rows[1])
    for row in rows[2:]:
        expect_not_done(row)
    expect_phase_progress(page, "2 of 7")
    # The header shows recall on exam day: two checks just ticked move it off 0%.
    expect_header_readiness(page, SOME_RECALL)
    header_recall = page.locator("#header-readiness .header-readiness-value").inner_text()
    expect_same_document(page)
    first_open = page.locator("li.check:not(.check-done)").first.get_attribute("id")
    assert first_open == ids[2]

    open_dashboard(page)
    # The plan starts today, so it expects nothing yet: two ticks are ahead of it, not behind.
    expect(page.locator(".badge", has_text="Lagging")).to_have_count(0)
    expect(page.locator(".badge", has_text="Behind plan")).to_have_count(0)
    expect(page.get_by_role("heading", name="Lagging domain")).to_have_count(0)
    assert plan_by_today(page) == ["0%"] * 7
    card = focus_card(page)
    expect(card.get_by_role("heading")).to_have_text("On plan")
    expect(card.locator(".focus-name")).to_have_text("No domain is behind your plan")
    expect(page.locator(".today-phase")).to_contain_text(f"Phase 1: {PHASE_ONE}")
    # 2 of 6 Core ML checks, and Core ML is 20% of the exam: 2/6 x 20 = 6.7% covered, rounded.
    expect(page.locator(".big-figure")).to_have_text("7%")
    expect(page.locator(".big-figure-recall")).to_have_text(header_recall)
    expect(
        page.get_by_text("covered, weighted by exam share (2 of 42 self-checks done)")
    ).to_be_visible()
    # One next action: the verdict's button; the card beside it explains and offers none.
    expect(card.get_by_role("link")).to_have_count(0)
    expect(card.get_by_role("button")).to_have_count(0)
    study_next = page.locator(".next-action").get_by_role("link")
    expect(study_next).to_have_text("Study next: phase 1 →")
    expect(study_next).to_have_attribute("href", f"{PHASE_ONE_PATH}#{first_open}")

    page.set_viewport_size({"width": 1280, "height": 900})
    page.screenshot(path=DASHBOARD_SCREENSHOT, full_page=True)

    study_next.click()
    expect(page.get_by_role("heading", level=1)).to_have_text(PHASE_ONE)
    expect(page).to_have_url(re.compile(re.escape(f"{PHASE_ONE_PATH}#{first_open}") + "$"))
    landed = page.locator(f"#{first_open}")
    expect(landed).to_be_in_viewport()
    expect(page.locator("li.check:target")).to_have_attribute("id", first_open)
    expect_not_done(landed)


def test_once_the_plan_has_ended_the_dashboard_names_the_domain_most_marks_behind_in_its_numbers(
    page: Page,
):
    sign_up(page, "lin")
    # Half a year ago: every phase of the Standard calendar should be finished by today.
    choose_schedule(page, "Standard", start=timezone.localdate() - datetime.timedelta(days=200))
    open_phase(page, "experimentation", "Experimentation")
    experimentation = check_rows(page, EXPERIMENTATION)
    tick(experimentation[0])
    tick(experimentation[1])

    open_dashboard(page)
    assert plan_by_today(page) == ["100%"] * 7
    # Every domain has open checks the plan expected done, so each is behind plan ...
    expect(page.locator(".domain-table .badge", has_text="Behind plan")).to_have_count(7)
    card = focus_card(page)
    expect(card.get_by_role("heading")).to_have_text("Lagging domain")
    # Experimentation, 2 of 7 done, is 25 x 5/7 = 17.9 marks behind; Core ML, none of its 6
    # done, is 20 x 1 = 20 marks behind, so it lags though it weighs less.
    expect(card.locator(".focus-name")).to_have_text(CORE_ML)
    expect(card.locator(".focus-reason")).to_have_text(
        f"{CORE_ML}: 0 of 6 self-checks done, your plan expected 6 by today: 20.0 marks of "
        "the exam's 100 behind."
    )
    # ... but one domain alone is lagging.
    expect(page.locator(".domain-table .badge", has_text="Lagging")).to_have_count(1)
    expect(domain_row(page, CORE_ML).locator(".badge-lagging")).to_have_text("Lagging")
    expect(domain_row(page, EXPERIMENTATION).locator("td").nth(1)).to_have_text("29% 29% (2 of 7)")
    expect(card.get_by_role("button")).to_have_count(0)
    expect(card).to_contain_text("Your next step, the button with the verdict, opens its first")

    study_next = page.locator(".next-action").get_by_role("link")
    expect(study_next).to_have_text(f"Study next: {CORE_ML} →")
    study_next.click()
    expect(page.get_by_role("heading", level=1)).to_have_text(PHASE_ONE)
    # The lagging domain's first open self-check: phase 1's first Core ML one.
    expect(page.locator("li.check:target")).to_have_attribute("id", check_ids(page, CORE_ML)[0])


def test_tick_and_untick_without_javascript_reloads_the_same_phase_page(page_without_js: Page):
    page = page_without_js
    sign_up(page)
    choose_schedule(page)
    main_nav(page, "Phases")
    row = check_rows(page, CORE_ML)[0]
    expect_not_done(row)

    tick(row)
    expect(page).to_have_url(re.compile(re.escape(PHASE_ONE_PATH) + "(#.*)?$"))
    expect_done(row)
    expect_phase_progress(page, "1 of 7")
    expect_header_readiness(page, SOME_RECALL)

    tick_button(row).click()
    expect(page).to_have_url(re.compile(re.escape(PHASE_ONE_PATH) + "(#.*)?$"))
    expect_not_done(row)
    expect_phase_progress(page, "0 of 7")
    expect_header_readiness(page, "0%")

    open_dashboard(page)
    expect(page.locator(".big-figure")).to_have_text("0%")
    expect(page.get_by_text("0 of 42 self-checks done")).to_be_visible()
    expect(focus_card(page).get_by_role("heading")).to_have_text("Where to start")

    main_nav(page, "Phases")
    tick(row)
    open_dashboard(page)
    expect(page.locator(".big-figure")).to_have_text("3%")
    expect(page.get_by_text("1 of 42 self-checks done")).to_be_visible()
    expect(focus_card(page).get_by_role("heading")).to_have_text("On plan")
    expect(domain_row(page, CORE_ML).locator("td").nth(1)).to_contain_text("(1 of 6)")


def test_schedule_preview_warns_when_standard_finishes_after_the_exam_and_suggests_fast_track(
    page: Page,
):
    sign_up(page)
    mark_page(page)
    page.get_by_role("radio", name=re.compile(r"^Standard\b")).check()
    start = datetime.date.fromisoformat(page.get_by_label("Start date").input_value())
    # Standard takes 34 days and the fast track 11, revision and mock included: an exam two
    # weeks out fits only the latter.
    exam = start + datetime.timedelta(days=14)
    page.get_by_label("Exam date (optional)").fill(exam.isoformat())

    preview = page.locator("#preview")
    expect(preview.get_by_role("heading")).to_have_text("Your calendar: Standard")
    warning = preview.get_by_role("alert")
    expect(warning).to_contain_text(
        re.compile(
            r"This schedule ends \d+ days? too late: .* the day before your exam on "
            + f"{exam.day} "
        )
    )
    expect(warning.locator("strong")).to_have_text("Fast track")
    expect(warning).to_contain_text("Fast track fits")
    expect_same_document(page)


def test_reveal_the_reference_answer_shows_it(page: Page, learner):
    check = SelfCheck.objects.current().get(slug="p1-residual-gradient-flow")
    log_in(page, learner.username)
    open_phase(page, check.phase.slug, PHASE_ONE)
    row = page.locator(f"#check-{check.slug}")
    answer = row.get_by_text(check.answer)
    expect(answer).to_be_hidden()

    row.get_by_text("Reveal the reference answer").click()
    expect(answer).to_be_visible()
