"""The review queue in real Chromium: ticked self-checks come back when due, a rating ("forgot",
"hard", "knew it", "easy") sends each to its next day and the header's count follows, with htmx
and without JavaScript."""

import datetime
import re

from django.conf import settings
from django.db.models import F
from django.utils import timezone
from playwright.sync_api import Page, expect

from phases.models import SelfCheck
from progress.models import CheckOff, Confidence, ReviewLog
from progress.timezones import start_of_day
from tests.e2e.steps import (
    PHASE_ONE,
    expect_same_document,
    log_in,
    main_nav,
    mark_page,
    open_phase,
    tick,
)
from tests.factories import days_later

SHAKY = "p1-backprop"
PLAIN = "p1-training-stability"


def back_date(learner, days: int = 3) -> None:
    """As if the learner had ticked and reviewed everything ``days`` days ago: each card comes
    back that much sooner, as time would bring it back."""
    shift = datetime.timedelta(days=days)
    CheckOff.objects.filter(user=learner).update(
        done_at=F("done_at") - shift,
        last_review=F("last_review") - shift,
        last_review_day=F("last_review_day") - shift,
        due=F("due") - shift,
    )
    days_later(learner)


def test_knew_it_on_due_checks_moves_them_out_and_the_header_count_down_without_reload(
    page: Page, learner
):
    shaky, plain = (SelfCheck.objects.current().get(slug=slug) for slug in (SHAKY, PLAIN))
    log_in(page, learner.username)
    open_phase(page, shaky.phase.slug, PHASE_ONE)
    tick(page.locator(f"#check-{PLAIN}"))
    row = page.locator(f"#check-{SHAKY}")
    tick(row, "Shaky: mark done, review sooner")
    expect(row.get_by_text("Done: shaky")).to_be_visible()
    ticks = {t.self_check.slug: t for t in CheckOff.objects.filter(user=learner)}
    # Shaky is a "hard" first review: it comes back sooner than a plain tick.
    assert ticks[SHAKY].confidence == Confidence.SHAKY
    assert ticks[SHAKY].due < ticks[PLAIN].due
    header = page.locator("#header-review")
    expect(header).to_have_text("Review today (0)")
    back_date(learner)

    page.reload()
    expect(header).to_have_text("Review today (2)")
    main_nav(page, "Review today (2)")
    expect(page.get_by_role("heading", level=1)).to_have_text("Review")
    expect(page.locator(".lede")).to_contain_text(
        f"At most {settings.REVIEW_DAILY_CAP} cards a day"
    )
    card = page.locator("#review-card")
    expect(card.get_by_role("heading")).to_have_text("Review today: 2 left")
    # The shaky one came due first, so it comes first.
    expect(card.get_by_text(shaky.prompt)).to_be_visible()
    answer = card.get_by_text(shaky.answer)
    expect(answer).to_have_count(0)
    # No rating before the reveal: first an answer from memory, typed if the learner likes.
    expect(card.get_by_role("button", name=re.compile("^Knew it"))).to_have_count(0)
    mark_page(page)

    card.get_by_label(re.compile("^Your answer, before you look")).fill(
        "Gradients, layer by layer."
    )
    card.get_by_role("button", name="Reveal the reference answer").click()
    expect(answer).to_be_visible()
    expect(card.get_by_text("Gradients, layer by layer.")).to_be_visible()
    for words in ("Forgot", "Hard", "Knew it", "Easy"):
        button = card.get_by_role("button", name=re.compile(rf"^{words} · again in \d+ days?$"))
        expect(button).to_be_visible()
    card.get_by_role("button", name=re.compile("^Knew it")).click()

    expect(header).to_have_text("Review today (1)")
    expect(card.get_by_role("heading", level=2)).to_have_text("Review today: 1 left")
    expect(card.get_by_text(plain.prompt)).to_be_visible()
    card.get_by_role("button", name="Reveal the reference answer").click()
    card.get_by_role("button", name=re.compile("^Knew it")).click()

    expect(header).to_have_text("Review today (0)")
    expect(card.get_by_role("heading")).to_have_text("Nothing to review today")
    expect_same_document(page)  # both swapped in place by htmx
    today = timezone.localdate()
    for slug, before in ticks.items():
        after = CheckOff.objects.get(user=learner, self_check__slug=slug)
        assert after.reviews == 2
        assert timezone.localdate(after.last_review) == today
        # Known after three days: back later than it was ever due before.
        assert timezone.localdate(after.due) > timezone.localdate(before.due)
        assert after.stability > before.stability


def test_review_without_javascript_forgot_reloads_to_an_empty_queue(page_without_js: Page, learner):
    page = page_without_js
    check = SelfCheck.objects.current().get(slug=SHAKY)
    log_in(page, learner.username)
    open_phase(page, check.phase.slug, PHASE_ONE)
    row = page.locator(f"#check-{SHAKY}")
    row.get_by_role("button", name="Reveal the reference answer").click()
    row.get_by_role("button", name="Got it: mark done").click()
    expect(row.get_by_text("Done: got it")).to_be_visible()
    back_date(learner)

    page.goto("/review/")
    expect(page.locator("#header-review")).to_have_text("Review today (1)")
    card = page.locator("#review-card")
    expect(card.get_by_text(check.prompt)).to_be_visible()
    card.get_by_label(re.compile("^Your answer, before you look")).fill("I am not sure.")
    card.get_by_role("button", name="Reveal the reference answer").click()
    expect(card.get_by_text(check.answer)).to_be_visible()
    card.get_by_role("button", name=re.compile("^Forgot")).click()

    expect(page).to_have_url(re.compile(r"/review/$"))
    expect(card.get_by_role("heading")).to_have_text("Nothing to review today")
    expect(page.locator("#header-review")).to_have_text("Review today (0)")
    tick_row = CheckOff.objects.get(user=learner)
    assert (tick_row.confidence, tick_row.reviews) == (Confidence.SHAKY, 2)
    # What was typed before the reveal is kept with the review.
    assert ReviewLog.objects.get(user=learner, first=False).answer == "I am not sure."
    # Forgotten: back at the start of the learner's next day.
    assert tick_row.last_review_day == timezone.localdate(tick_row.last_review)
    assert tick_row.due == start_of_day(tick_row.last_review_day + datetime.timedelta(days=1))
