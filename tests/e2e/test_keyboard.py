"""By keyboard alone in real Chromium: after an htmx swap focus stays on the control that was
used (or its replacement), and the page's one polite live region says what changed: a reveal,
an outcome, an untick, a review."""

import datetime
import re

from django.utils import timezone
from playwright.sync_api import Locator, Page, expect

from phases.models import SelfCheck
from progress.memory.ticks import set_done
from progress.models import CheckOff
from tests.e2e.steps import (
    PHASE_ONE,
    expect_done,
    expect_not_done,
    expect_same_document,
    log_in,
    mark_page,
    open_phase,
    reveal_button,
    tick_button,
)
from tests.factories import days_later

CHECK = "p1-backprop"


def expect_focused(page: Page, control: Locator) -> None:
    """``control`` is the document's active element (not <body>, not a removed node)."""
    expect(control).to_be_focused()
    assert page.evaluate("document.activeElement !== document.body")


def press(page: Page, control: Locator, key: str) -> None:
    control.focus()
    expect_focused(page, control)
    page.keyboard.press(key)


def settled(page: Page) -> None:
    """htmx has finished with the last swap (its settle, when it wires up the new content): a key
    pressed before then may reach a form htmx has not taken over yet, and post it as a plain
    form, reloading the page."""
    expect(page.locator(".htmx-request, .htmx-swapping, .htmx-settling")).to_have_count(0)


def announcer(page: Page) -> Locator:
    return page.locator("#announcer")


def readiness(page: Page) -> str:
    return page.locator("#header-readiness .header-readiness-value").inner_text()


def test_answering_by_keyboard_keeps_focus_says_what_changed_and_keeps_the_answer_open(
    page: Page, learner
):
    check = SelfCheck.objects.current().get(slug=CHECK)
    in_phase = SelfCheck.objects.current().filter(phase=check.phase).count()
    log_in(page, learner.username)
    open_phase(page, check.phase.slug, PHASE_ONE)
    mark_page(page)
    expect(announcer(page)).to_have_attribute("aria-live", "polite")
    expect(announcer(page)).to_be_empty()
    row = page.locator(f"#check-{CHECK}")
    answer = row.get_by_text(check.answer)

    row.get_by_label(re.compile("^Your answer")).focus()
    page.keyboard.type("Gradients, layer by layer.")
    page.keyboard.press("Tab")
    expect_focused(page, reveal_button(row))
    page.keyboard.press("Enter")
    expect(answer).to_be_visible()
    settled(page)
    # Focus moves to the first outcome, in the swapped-in row; the reference is read out.
    got_it = row.get_by_role("button", name="Got it: mark done")
    expect_focused(page, got_it)
    expect(announcer(page)).to_contain_text("The reference answer: ")
    expect(announcer(page)).to_contain_text("How did it go?")

    page.keyboard.press("Enter")
    expect_done(row)
    settled(page)
    expect_focused(page, tick_button(row))  # the new button, in the swapped-in row
    expect(announcer(page)).to_have_text(
        f"Done: got it. 1 of {in_phase} self-checks done in this phase. "
        f"Recall on exam day {readiness(page)}."
    )
    assert CheckOff.objects.filter(user=learner, self_check=check).ticked().exists()

    # Space works as well as Enter, and undoing is said as plainly; no reveal is needed.
    page.keyboard.press("Space")
    expect_not_done(row)
    settled(page)
    expect(announcer(page)).to_have_text(
        f"Not done. 0 of {in_phase} self-checks done in this phase. Recall on exam day 0%."
    )
    assert not CheckOff.objects.filter(user=learner, self_check=check).ticked().exists()

    # Not yet, by keyboard: the row says when it comes back.
    other = page.locator(
        f"#{page.locator(f'li.check:not(#check-{CHECK})').first.get_attribute('id')}"
    )
    press(page, reveal_button(other), "Enter")
    not_yet = other.get_by_role("button", name="Not yet")
    expect(not_yet).to_be_visible()
    settled(page)
    press(page, not_yet, "Enter")
    expect(other.get_by_text(re.compile(r"^Not yet: back on "))).to_be_visible()
    settled(page)
    expect(announcer(page)).to_contain_text("Not yet: back on ")
    expect_same_document(page)


def test_knew_it_by_keyboard_leaves_focus_on_the_next_cards_control(page: Page, learner):
    first, second = (
        SelfCheck.objects.current().get(slug=slug) for slug in ("p1-backprop", "p2-fid-direction")
    )
    # Ticked days ago (a card takes one review a day), and due now.
    for check in (first, second):
        set_done(
            user=learner,
            self_check_id=check.pk,
            done=True,
            now=timezone.now() - datetime.timedelta(days=3),
        )
    CheckOff.objects.filter(user=learner).update(due=timezone.now())
    days_later(learner)
    log_in(page, learner.username)
    page.goto("/review/")
    card = page.locator("#review-card")
    expect(card.get_by_role("heading")).to_have_text("Review today: 2 left")
    shown = first if card.get_by_text(first.prompt).is_visible() else second
    waiting = second if shown is first else first
    mark_page(page)

    press(page, card.get_by_role("button", name="Reveal the reference answer"), "Enter")
    expect(card.get_by_text(shown.answer)).to_be_visible()
    # Turned over: the reference answer is read out, and focus is on the first rating.
    expect(announcer(page)).to_have_text(f"The reference answer: {shown.answer}")
    expect_focused(page, card.get_by_role("button", name=re.compile("^Forgot")))
    settled(page)

    press(page, card.get_by_role("button", name=re.compile("^Knew it")), "Enter")
    expect(card.get_by_role("heading", level=2)).to_have_text("Review today: 1 left")
    expect(card.get_by_text(waiting.prompt)).to_be_visible()
    # The next card: focus is in its answer box, ready to answer from memory.
    expect_focused(page, card.get_by_label(re.compile("^Your answer, before you look")))
    expect(announcer(page)).to_have_text(f"1 left to review today. Next: {waiting.prompt}")
    expect(page.locator("#header-review")).to_have_text("Review today (1)")
    settled(page)

    page.keyboard.type("No idea")
    page.keyboard.press("Tab")
    page.keyboard.press("Enter")
    expect(card.get_by_text(waiting.answer)).to_be_visible()
    # Settled: focus has moved to the first rating (so it cannot move again under the next key).
    expect_focused(page, card.get_by_role("button", name=re.compile("^Forgot")))
    settled(page)
    press(page, card.get_by_role("button", name=re.compile("^Knew it")), "Enter")
    expect(card.get_by_role("heading", level=2)).to_have_text("Nothing to review today")
    expect_same_document(page)  # swapped by htmx, not posted as a plain form
    # No card left: focus goes to the first thing to do next, still inside the card.
    expect_focused(page, card.get_by_role("link", name="phase pages"))
    expect(announcer(page)).to_have_text("Nothing left to review today.")
    expect(page.locator("#header-review")).to_have_text("Review today (0)")
    expect_same_document(page)
    # Each card had its review: the tick, then "knew it".
    assert set(CheckOff.objects.filter(user=learner).values_list("reviews", flat=True)) == {2}
