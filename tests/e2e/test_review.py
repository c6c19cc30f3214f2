"""The review queue in real Chromium: ticked self-checks come back when due, "knew it" moves them
out and the header's count follows, with htmx and without JavaScript."""

import datetime
import re

from django.utils import timezone
from playwright.sync_api import Page, expect

from phases.models import SelfCheck
from progress import leitner
from progress.models import CheckOff, Confidence
from tests.e2e.steps import (
    PHASE_ONE,
    expect_same_document,
    log_in,
    main_nav,
    mark_page,
    open_phase,
    tick,
)

SHAKY = "p1-backprop"
PLAIN = "p1-training-stability"


def make_due(learner) -> None:
    """Bring the learner's ticks back to the review queue today, as time would."""
    CheckOff.objects.filter(user=learner).update(due_on=timezone.localdate())


def test_knew_it_on_due_checks_moves_them_out_and_the_header_count_down_without_reload(
    page: Page, learner
):
    shaky, plain = (SelfCheck.objects.current().get(slug=slug) for slug in (SHAKY, PLAIN))
    log_in(page, learner.username)
    open_phase(page, shaky.phase.slug, PHASE_ONE)
    tick(page.locator(f"#check-{PLAIN}"))
    row = page.locator(f"#check-{SHAKY}")
    tick(row)
    row.get_by_role("button", name="Shaky").click()
    expect(row.get_by_role("button", name="Shaky")).to_have_attribute("aria-pressed", "true")
    assert CheckOff.objects.get(user=learner, self_check=shaky).box == 0
    header = page.locator("#header-review")
    expect(header).to_have_text("Review today (0)")
    make_due(learner)

    page.reload()
    expect(header).to_have_text("Review today (2)")
    main_nav(page, "Review today (2)")
    expect(page.get_by_role("heading", level=1)).to_have_text("Review")
    expect(page.locator(".lede")).to_contain_text(f"after {leitner.intervals_text()}")
    card = page.locator("#review-card")
    expect(card.get_by_role("heading")).to_have_text("Review today: 2 left")
    # The shaky one (the lower box) comes first.
    expect(card.get_by_text(shaky.prompt)).to_be_visible()
    answer = card.get_by_text(shaky.answer)
    expect(answer).to_be_hidden()
    mark_page(page)

    card.get_by_text("Reveal the reference answer").click()
    expect(answer).to_be_visible()
    card.get_by_role("button", name="Knew it").click()

    expect(header).to_have_text("Review today (1)")
    expect(card.get_by_role("heading")).to_have_text("Review today: 1 left")
    expect(card.get_by_text(plain.prompt)).to_be_visible()
    card.get_by_role("button", name="Knew it").click()

    expect(header).to_have_text("Review today (0)")
    expect(card.get_by_role("heading")).to_have_text("Nothing to review today")
    expect_same_document(page)  # both swapped in place by htmx
    today = timezone.localdate()
    ticks = {t.self_check.slug: t for t in CheckOff.objects.filter(user=learner)}
    # Each moved up one box: shaky (box 0) to box 1, three days out; a plain tick (box 1) to
    # box 2, a week out.
    assert (ticks[SHAKY].box, ticks[SHAKY].due_on) == (1, today + datetime.timedelta(days=3))
    assert (ticks[PLAIN].box, ticks[PLAIN].due_on) == (2, today + datetime.timedelta(days=7))


def test_review_without_javascript_didnt_reloads_to_an_empty_queue(page_without_js: Page, learner):
    page = page_without_js
    check = SelfCheck.objects.current().get(slug=SHAKY)
    log_in(page, learner.username)
    open_phase(page, check.phase.slug, PHASE_ONE)
    page.locator(f"#check-{SHAKY}").get_by_role("button", name=re.compile("^Mark done:")).click()
    make_due(learner)

    page.goto("/review/")
    expect(page.locator("#header-review")).to_have_text("Review today (1)")
    card = page.locator("#review-card")
    expect(card.get_by_text(check.prompt)).to_be_visible()
    card.get_by_role("button", name="Didn't").click()

    expect(page).to_have_url(re.compile(r"/review/$"))
    expect(card.get_by_role("heading")).to_have_text("Nothing to review today")
    expect(page.locator("#header-review")).to_have_text("Review today (0)")
    tick_row = CheckOff.objects.get(user=learner)
    assert (tick_row.box, tick_row.confidence) == (0, Confidence.SHAKY)
    assert tick_row.due_on == timezone.localdate() + datetime.timedelta(days=1)
