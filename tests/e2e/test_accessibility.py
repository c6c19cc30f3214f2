"""Every page, public and learner, at a phone's width and a laptop's, checked by axe-core in real
Chromium: no serious or critical violation, and at 390 px nothing scrolls sideways.

The learner has used every part of the app (tests/e2e/seasoned.py), so the pages show their
full tables, charts and badges rather than their empty states.
"""

import pytest
from axe_playwright_python.sync_playwright import Axe
from playwright.sync_api import Page, expect

from tests.e2e.seasoned import (
    PUBLIC_PAGES,
    RETRIEVAL_PHASE,
    REVEALED,
    TICKED,
    Learner,
    answering_learner,
    learner_pages,
    make_short_notice,
    mock_pages,
)
from tests.e2e.steps import log_in

PHONE = {"width": 390, "height": 844}
LAPTOP = {"width": 1280, "height": 900}
BLOCKING = {"serious", "critical"}


def describe(violation: dict) -> str:
    nodes = "\n".join(
        f"      {node['target']}: {(node.get('failureSummary') or '').splitlines()[-1:]}"
        for node in violation["nodes"][:5]
    )
    return f"  {violation['id']} ({violation['impact']}): {violation['help']}\n{nodes}"


def overflow(page: Page) -> str | None:
    """None when the page fits its viewport's width, else the widest culprits."""
    return page.evaluate(
        """() => {
            const width = window.innerWidth;
            if (document.documentElement.scrollWidth <= width) return null;
            const wide = [...document.querySelectorAll("body *")]
                .filter((el) => el.getBoundingClientRect().right > width + 0.5)
                .slice(0, 5)
                .map((el) => `${el.tagName.toLowerCase()}.${el.className}`
                    + ` right=${Math.round(el.getBoundingClientRect().right)}`);
            return `scrollWidth ${document.documentElement.scrollWidth} > ${width}: `
                + wide.join(", ");
        }"""
    )


def header_lines(page: Page) -> int:
    """How many lines the header's brand, readiness figure and links take."""
    return page.evaluate(
        """() => {
            const boxes = [...document.querySelectorAll(
                ".site-header .brand, .site-header .header-readiness, .site-nav > ul > li")]
                .map((el) => el.getBoundingClientRect())
                .filter((box) => box.width > 0 && box.height > 0)
                .sort((a, b) => a.top - b.top);
            const lines = [];
            for (const box of boxes) {
                const line = lines.find((l) => box.top < l.bottom && box.bottom > l.top);
                if (line) line.bottom = Math.max(line.bottom, box.bottom);
                else lines.push({ top: box.top, bottom: box.bottom });
            }
            return lines.length;
        }"""
    )


def audit(page: Page, paths: list[str], *, phone: bool) -> list[str]:
    """Visit each path; return what is wrong with each, in words."""
    problems = []
    for path in paths:
        response = page.goto(path)
        assert response is not None and response.ok, f"{path}: HTTP {response and response.status}"
        problems += audit_here(page, path, phone=phone)
    return problems


def audit_here(page: Page, path: str, *, phone: bool) -> list[str]:
    """What is wrong with the page as it stands (``path`` names it), in words."""
    problems = []
    found = [
        violation
        for violation in Axe().run(page).response["violations"]
        if violation["impact"] in BLOCKING
    ]
    if found:
        problems.append(f"{path}:\n" + "\n".join(describe(v) for v in found))
    if phone and (wide := overflow(page)):
        problems.append(f"{path}: scrolls sideways at {PHONE['width']} px: {wide}")
    if phone and (lines := header_lines(page)) > 2:
        problems.append(f"{path}: the header takes {lines} lines at {PHONE['width']} px")
    return problems


def audit_refused_exercise(page: Page, *, phone: bool) -> list[str]:
    """The page a written exercise over the cap comes back on (a plain post, as without
    JavaScript: form.submit() fires no submit event for htmx to take)."""
    page.goto("/study/core-ml-foundations/")
    box = page.locator("#exercise-text")
    box.evaluate("box => box.removeAttribute('maxlength')")
    box.fill("x" * 50_001)
    page.locator("form.exercise-form").evaluate("form => form.submit()")
    expect(page.get_by_role("heading", level=1)).to_have_text("Your exercise was not saved")
    found = [v for v in Axe().run(page).response["violations"] if v["impact"] in BLOCKING]
    problems = ["refused exercise:\n" + "\n".join(describe(v) for v in found)] if found else []
    if phone and (wide := overflow(page)):
        problems.append(f"refused exercise: scrolls sideways at {PHONE['width']} px: {wide}")
    return problems


@pytest.mark.parametrize("viewport", [PHONE, LAPTOP], ids=["390px", "1280px"])
def test_every_page_passes_axe_and_fits_the_screen(page: Page, seasoned: Learner, viewport: dict):
    phone = viewport is PHONE
    page.set_viewport_size(viewport)
    problems = audit(page, PUBLIC_PAGES, phone=phone)
    log_in(page, seasoned.username)
    problems += audit(page, learner_pages(seasoned), phone=phone)
    problems += audit_refused_exercise(page, phone=phone)
    seasoned.open_a_mock()
    problems += audit(page, mock_pages(seasoned), phone=phone)
    hedy, short_notice_pages = make_short_notice()  # the day-by-day plan, the placement
    page.context.clear_cookies()
    log_in(page, hedy.username)
    problems += audit(page, short_notice_pages, phone=phone)
    assert not problems, "\n".join(problems)


def test_on_a_phone_account_and_log_out_are_under_more(page: Page, seasoned: Learner):
    page.set_viewport_size(PHONE)
    log_in(page, seasoned.username)
    nav = page.get_by_role("navigation", name="Main")
    account = nav.get_by_role("link", name="Account")
    expect(account).to_be_hidden()
    expect(nav.get_by_role("link", name="Plan", exact=True)).to_be_visible()
    expect(nav.get_by_role("link", name=f"Review ({TICKED})")).to_be_visible()

    nav.get_by_text("More").click()
    expect(account).to_be_visible()
    assert overflow(page) is None
    violations = Axe().run(page).response["violations"]
    assert not [v for v in violations if v["impact"] in BLOCKING], violations
    nav.get_by_role("button", name="Log out").click()
    expect(nav.get_by_role("link", name="Log in")).to_be_visible()

    page.set_viewport_size(LAPTOP)
    log_in(page, seasoned.username)
    expect(nav.get_by_role("link", name="Account")).to_be_visible()
    expect(nav.get_by_text("More")).to_be_hidden()
    expect(nav.get_by_role("link", name=f"Review today ({TICKED})")).to_be_visible()


@pytest.mark.parametrize("viewport", [PHONE, LAPTOP], ids=["390px", "1280px"])
def test_answering_from_memory_passes_axe_and_fits_the_screen(
    page: Page, site: str, viewport: dict
):
    """A revealed row and "not yet" rows; a missed question asked again, then its verdict."""
    phone = viewport is PHONE
    page.set_viewport_size(viewport)
    answering_learner()
    log_in(page, "hopper")
    page.goto(RETRIEVAL_PHASE)
    page.locator(f"#check-{REVEALED}").get_by_role(
        "button", name="Reveal the reference answer"
    ).click()
    expect(page.get_by_role("button", name="Got it: mark done")).to_be_visible()
    page.reload()  # the revealed row, from the session
    problems = audit_here(page, f"{RETRIEVAL_PHASE} (a row revealed)", phone=phone)
    problems += audit(page, ["/review/"], phone=phone)
    page.locator("#review-card input[name=option]").first.check()
    page.get_by_role("button", name="Check my answer").click()
    expect(page.locator("#review-card .feedback")).to_be_visible()
    problems += audit_here(page, "/review/ (the verdict)", phone=phone)
    assert not problems, "\n".join(problems)
