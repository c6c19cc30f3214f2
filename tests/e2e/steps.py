"""What a learner does in the browser, step by step, shared by the journeys."""

import datetime
import re

from playwright.sync_api import Locator, Page, expect

PASSWORD = "correct-horse-battery-9"
PHASE_ONE = "Core ML foundations"
PHASE_ONE_PATH = "/study/core-ml-foundations/"


def sign_up(page: Page, username: str = "ada") -> None:
    page.goto("/")
    page.get_by_role("link", name="Sign up and choose your schedule").click()
    page.get_by_label("Username").fill(username)
    page.get_by_label("Password", exact=True).fill(PASSWORD)
    page.get_by_label("Password (again)").fill(PASSWORD)
    page.get_by_role("button", name="Create my account").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Choose your schedule")


def choose_schedule(page: Page, name: str = "Standard", start: datetime.date | None = None) -> None:
    page.get_by_role("radio", name=re.compile(rf"^{name}\b")).check()
    if start is not None:
        page.get_by_label("Start date").fill(start.isoformat())
    page.get_by_role("button", name="Save my schedule").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("My plan")


def log_in(page: Page, username: str) -> None:
    page.goto("/accounts/login/")
    page.get_by_label("Username or email address").fill(username)
    page.get_by_label("Password", exact=True).fill(PASSWORD)
    page.get_by_role("button", name="Log in").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Where you stand")


def main_nav(page: Page, name: str) -> None:
    page.get_by_role("navigation", name="Main").get_by_role("link", name=name).click()


def open_dashboard(page: Page) -> None:
    main_nav(page, "Dashboard")
    expect(page.get_by_role("heading", level=1)).to_have_text("Where you stand")


def open_phase(page: Page, slug: str, title: str) -> None:
    page.goto(f"/study/{slug}/")
    expect(page.get_by_role("heading", level=1)).to_have_text(title)


def check_ids(page: Page, domain: str | None = None) -> list[str]:
    """The ids of the phase's self-checks in page order (only ``domain``'s when given)."""
    rows = page.locator("li.check")
    if domain is not None:
        rows = rows.filter(has=page.locator(".tag").get_by_text(domain, exact=True))
    return [row.get_attribute("id") or "" for row in rows.all()]


def check_rows(page: Page, domain: str | None = None) -> list[Locator]:
    """The phase's self-checks, each located by its id so it survives an htmx swap."""
    return [page.locator(f"#{row_id}") for row_id in check_ids(page, domain)]


def tick_button(row: Locator) -> Locator:
    """A ticked check's button, which unticks it."""
    return row.get_by_role("button", name=re.compile(r"^Done:"))


def reveal_button(row: Locator) -> Locator:
    return row.get_by_role("button", name="Reveal the reference answer")


def expect_done(row: Locator) -> None:
    expect(tick_button(row)).to_have_accessible_name(re.compile(r"^Done:"))
    expect(tick_button(row)).to_have_text("✓ Done")
    expect(tick_button(row)).to_have_attribute("aria-pressed", "true")


def expect_not_done(row: Locator) -> None:
    expect(reveal_button(row)).to_be_visible()
    expect(tick_button(row)).to_have_count(0)


def answer_from_memory(row: Locator, outcome: str = "Got it: mark done", typed: str = "") -> None:
    """Answer a self-check as its phase page asks: type (if anything), reveal, say how it went."""
    if typed:
        row.get_by_label(re.compile(r"^Your answer")).fill(typed)
    reveal_button(row).click()
    row.get_by_role("button", name=outcome).click()


def tick(row: Locator, outcome: str = "Got it: mark done") -> None:
    answer_from_memory(row, outcome)
    # Wait for each swap before the next click: one tick in flight at a time.
    expect_done(row)


def expect_phase_progress(page: Page, figure: str) -> None:
    expect(page.locator("#phase-progress .phase-progress-figure")).to_have_text(figure)


def expect_header_readiness(page: Page, percent: str) -> None:
    expect(page.locator("#header-readiness .header-readiness-value")).to_have_text(percent)


def mark_page(page: Page) -> None:
    """Leave a mark on this document: a reload or a navigation wipes it."""
    page.evaluate("window.__noReload = 1")


def expect_same_document(page: Page) -> None:
    assert page.evaluate("window.__noReload") == 1, "the page was reloaded"


def focus_card(page: Page) -> Locator:
    """The dashboard's verdict: where to start, the lagging domain, or on plan."""
    return page.locator("section.summary-card-focus")


def domain_row(page: Page, domain: str) -> Locator:
    return page.locator(".domain-table tbody tr").filter(
        has=page.get_by_role("rowheader", name=re.compile(rf"^{re.escape(domain)}\b"))
    )


def answer_drill_question(page: Page) -> None:
    """Answer the drill question on the page (as many options as it asks for) and check it."""
    options = page.locator("input[name=option]")
    wanted = 2 if options.first.get_attribute("type") == "checkbox" else 1
    for n in range(wanted):
        options.nth(n).check()
    page.get_by_role("button", name="Check my answer").click()
    expect(page.locator(".feedback")).to_be_visible()
