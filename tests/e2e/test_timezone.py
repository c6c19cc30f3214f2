"""A learner's own time zone in a real browser: Chromium set to Los Angeles proposes it at
sign-up, and the mock's deadline is shown on the browser's own clock; without JavaScript the
site's zone applies until the learner picks one on the account page."""

from collections.abc import Iterator

import pytest
from django.conf import settings
from playwright.sync_api import Browser, Page, expect

from progress.models import Profile
from tests.e2e.conftest import _new_page
from tests.e2e.steps import sign_up

LOS_ANGELES = "America/Los_Angeles"

# "HH:MM" of a moment on the browser's own clock (its time zone is the context's timezone_id),
# or on UTC's.
CLOCK = """
([moment, utc]) => {
  const at = new Date(moment);
  const [hours, minutes] = utc
    ? [at.getUTCHours(), at.getUTCMinutes()]
    : [at.getHours(), at.getMinutes()];
  return String(hours).padStart(2, "0") + ":" + String(minutes).padStart(2, "0");
}
"""


@pytest.fixture
def page_in_los_angeles(browser: Browser, site: str) -> Iterator[Page]:
    yield from _new_page(browser, site, timezone_id=LOS_ANGELES)


def test_a_browser_in_los_angeles_signs_up_in_its_zone_and_sees_the_mock_end_on_its_clock(
    page_in_los_angeles: Page,
):
    page = page_in_los_angeles
    page.goto("/accounts/signup/")
    # The sign-up form says which zone it will use, read from the browser.
    expect(page.locator("[data-browser-time-zone-name]")).to_have_text(LOS_ANGELES)

    sign_up(page, "lin")

    assert Profile.objects.get(user__username="lin").time_zone == LOS_ANGELES
    page.goto("/account/")
    expect(page.get_by_label("Your time zone")).to_have_value(LOS_ANGELES)

    page.goto("/practice/")
    started = page.evaluate("Date.now()")
    page.get_by_role("button", name="Start a mock exam").click()
    shown = page.locator("#countdown .muted")
    expect(shown).to_contain_text("ends at")
    finished = page.evaluate("Date.now()")

    minutes = settings.MOCK_MINUTES * 60 * 1000
    # The mock started between the two readings of the browser's clock.
    on_the_clock = {page.evaluate(CLOCK, [at + minutes, False]) for at in (started, finished)}
    in_utc = {page.evaluate(CLOCK, [at + minutes, True]) for at in (started, finished)}
    assert in_utc.isdisjoint(on_the_clock)  # Los Angeles is never on UTC
    assert shown.inner_text().removeprefix("(ends at ").removesuffix(")") in on_the_clock


def test_without_javascript_the_site_zone_applies_until_the_account_page_changes_it(
    page_without_js: Page,
):
    page = page_without_js
    sign_up(page, "noor")

    assert Profile.objects.get(user__username="noor").time_zone == ""

    page.goto("/account/")
    zone = page.get_by_label("Your time zone")
    expect(zone).to_have_value("")
    zone.select_option("Asia/Kolkata")
    page.get_by_role("button", name="Save my time zone").click()

    expect(page.get_by_role("status")).to_contain_text("Your time zone is now Asia/Kolkata.")
    expect(page.get_by_label("Your time zone")).to_have_value("Asia/Kolkata")
    expect(page.locator("section[aria-labelledby=time-zone-heading]")).to_contain_text(
        "shown in Asia/Kolkata time"
    )
    assert Profile.objects.get(user__username="noor").time_zone == "Asia/Kolkata"
