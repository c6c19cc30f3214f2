"""Retrieval, then the rating, in real Chromium: on a phase page an answer typed from memory,
the reveal, then "Got it" or "Not yet" (back the next day, on the Review page); a question
missed in a drill asked again on the Review page, options reshuffled, wrong then right on later
days. With htmx, and the phase page without JavaScript."""

import datetime
import random
import re

from django.db.models import F
from django.utils import timezone
from django.utils.formats import date_format
from playwright.sync_api import Locator, Page, expect

from phases.models import Domain, SelfCheck
from progress.models import CheckOff, NotYet, QuestionCard, ReviewLog
from progress.practice.services import answer, start_drill, submit
from tests.e2e.steps import (
    PHASE_ONE,
    PHASE_ONE_PATH,
    expect_done,
    expect_not_done,
    expect_phase_progress,
    expect_same_document,
    log_in,
    mark_page,
    open_phase,
    reveal_button,
)
from tests.factories import days_later

GOT_IT = "p1-backprop"
NOT_YET = "p1-training-stability"
DAY = datetime.timedelta(days=1)


def a_day_passes(learner) -> None:
    """As if every "not yet" and every missed question's review were a day older: time moved on
    (the learner's rows back-dated, as the other journeys do)."""
    NotYet.objects.filter(user=learner).update(tried_at=F("tried_at") - DAY, due=F("due") - DAY)
    QuestionCard.objects.filter(user=learner).update(
        missed_at=F("missed_at") - DAY,
        last_review=F("last_review") - DAY,
        last_review_day=F("last_review_day") - DAY,
        due=F("due") - DAY,
    )
    days_later(learner)


def tomorrow() -> str:
    return date_format(timezone.localdate() + DAY, "D j M")


def answer_on_the_phase_page(page: Page) -> tuple[Locator, Locator]:
    """Type an answer to one check, reveal, "Got it"; reveal another and say "Not yet"."""
    got_it, not_yet = (page.locator(f"#check-{slug}") for slug in (GOT_IT, NOT_YET))
    reference = SelfCheck.objects.get(slug=GOT_IT).answer
    expect(got_it.get_by_text(reference)).to_have_count(0)
    # No outcome before the reveal.
    expect(got_it.get_by_role("button", name="Got it: mark done")).to_have_count(0)

    got_it.get_by_label(re.compile("^Your answer")).fill("Forward pass, loss, gradients back.")
    reveal_button(got_it).click()
    expect(got_it.get_by_text(reference)).to_be_visible()
    expect(got_it.get_by_text("Forward pass, loss, gradients back.")).to_be_visible()
    for words in ("Got it: mark done", "Shaky: mark done, review sooner", "Not yet"):
        expect(got_it.get_by_role("button", name=words, exact=True)).to_be_visible()
    got_it.get_by_role("button", name="Got it: mark done").click()
    expect_done(got_it)
    expect(got_it.get_by_text("Done: got it")).to_be_visible()

    reveal_button(not_yet).click()
    not_yet.get_by_role("button", name="Not yet", exact=True).click()
    expect(not_yet.get_by_text(f"Not yet: back on {tomorrow()}")).to_be_visible()
    expect_not_done(not_yet)
    expect_phase_progress(page, "1 of 7")
    return got_it, not_yet


def test_type_reveal_got_it_and_not_yet_which_is_on_the_review_page_the_next_day(
    page: Page, learner
):
    log_in(page, learner.username)
    open_phase(page, "core-ml-foundations", PHASE_ONE)
    mark_page(page)

    answer_on_the_phase_page(page)

    expect_same_document(page)  # every step swapped in place by htmx
    ticked = CheckOff.objects.get(user=learner)
    assert ticked.self_check.slug == GOT_IT
    logged = {row.self_check.slug: row for row in ReviewLog.objects.filter(user=learner)}
    assert (logged[GOT_IT].rating, logged[GOT_IT].answer) == (
        3,
        "Forward pass, loss, gradients back.",
    )
    assert logged[NOT_YET].rating == 1
    # Not in today's queue: it comes back tomorrow.
    page.goto("/review/")
    expect(page.locator("#review-card").get_by_role("heading", level=2)).to_have_text(
        "Nothing to review today"
    )

    a_day_passes(learner)
    page.goto(PHASE_ONE_PATH)
    expect(
        page.locator(f"#check-{NOT_YET}").get_by_text("Not yet last time: due again today")
    ).to_be_visible()
    page.goto("/review/")
    card = page.locator("#review-card")
    prompt = " ".join(SelfCheck.objects.get(slug=NOT_YET).prompt.split())
    expect(card.locator(".review-prompt")).to_have_text(prompt)
    expect(card).to_contain_text("not yet known last time")
    card.get_by_role("button", name="Reveal the reference answer").click()
    expect(card.get_by_role("button", name="Not yet · back tomorrow")).to_be_visible()
    card.get_by_role("button", name=re.compile(r"^Got it: mark done · again in \d+ days?$")).click()
    expect(card.get_by_role("heading", level=2)).to_have_text("Nothing to review today")
    assert set(
        CheckOff.objects.filter(user=learner).ticked().values_list("self_check__slug", flat=True)
    ) == {
        GOT_IT,
        NOT_YET,
    }
    assert not NotYet.objects.filter(user=learner).exists()


def test_the_phase_page_flow_works_without_javascript(page_without_js: Page, learner):
    page = page_without_js
    log_in(page, learner.username)
    open_phase(page, "core-ml-foundations", PHASE_ONE)

    got_it, not_yet = answer_on_the_phase_page(page)

    # Each step was a full page: the revealed state survived its redirect.
    expect(page).to_have_url(re.compile(rf"{PHASE_ONE_PATH}#check-{NOT_YET}$"))
    assert CheckOff.objects.filter(user=learner).ticked().count() == 1
    assert NotYet.objects.filter(user=learner, self_check__slug=NOT_YET).exists()
    # Unticking needs no reveal.
    got_it.get_by_role("button", name=re.compile("^Done:")).click()
    expect_not_done(page.locator(f"#check-{GOT_IT}"))
    # Unticked: no tick stands, and the card is kept for when it is ticked again.
    assert not CheckOff.objects.filter(user=learner).ticked().exists()


def miss_a_question(learner) -> QuestionCard:
    """A drill in core ML with its first question answered wrong, handed in."""
    now = timezone.now()
    drill = start_drill(
        user=learner, domain=Domain.objects.get(slug="core-ml"), now=now, rng=random.Random(5)
    )
    item = drill.questions.select_related("question").order_by("position").first()
    question = item.question
    wrong = [i for i in range(len(question.options)) if i not in question.correct_options]
    chosen = [wrong[0], *sorted(question.correct_options)[1:]]
    answer(user=learner, attempt=drill, item=item, chosen=chosen, now=now)
    submit(user=learner, attempt=drill, now=now)
    return QuestionCard.objects.get(user=learner, question=question)


def shown_options(card: Locator) -> list[str]:
    return [" ".join(text.split()) for text in card.locator("label.option").all_inner_texts()]


def choose(card: Locator, texts: list[str]) -> None:
    for text in texts:
        card.locator("label.option").filter(has_text=text).locator("input").check()
    card.get_by_role("button", name="Check my answer").click()


def test_a_missed_question_is_asked_again_reshuffled_answered_wrong_then_right_twice(
    page: Page, learner
):
    card_row = miss_a_question(learner)
    question = card_row.question
    right = [
        " ".join(question.options[i]["text"].split()) for i in sorted(question.correct_options)
    ]
    wrong = [
        " ".join(o["text"].split())
        for i, o in enumerate(question.options)
        if i not in question.correct_options
    ]
    log_in(page, learner.username)
    a_day_passes(learner)
    page.goto("/review/")
    mark_page(page)
    card = page.locator("#review-card")
    expect(card.locator(".review-prompt")).to_have_text(" ".join(question.prompt.split()))
    first_order = shown_options(card)
    assert sorted(first_order) == sorted(" ".join(o["text"].split()) for o in question.options)
    # Nothing on the page says which is right before the answer.
    expect(card.get_by_text("Right answer")).to_have_count(0)
    expect(card.get_by_text(" ".join(question.explanation.split()))).to_have_count(0)

    # Day one: wrong.
    choose(card, [wrong[0], *right[1:]])
    expect(card.locator(".feedback")).to_have_text("Not quite.")
    expect(card.locator("li.option-correct")).to_contain_text(right[0])
    expect(card.locator("li.option-wrong")).to_contain_text(wrong[0])
    expect(card.get_by_text(" ".join(question.explanation.split()))).to_be_visible()
    expect(card).to_contain_text("Counted as “forgot”")
    card.get_by_role("link", name=re.compile("^Done: see what comes next")).click()
    expect(card.get_by_role("heading", level=2)).to_have_text("Nothing to review today")

    # Day two: the same question, its options in a new order; right.
    a_day_passes(learner)
    page.goto("/review/")
    second_order = shown_options(card)
    assert sorted(second_order) == sorted(first_order) and second_order != first_order
    choose(card, right)
    expect(card.locator(".feedback")).to_have_text("Right.")
    expect(card).to_contain_text("Counted as “knew it”")

    # Day three: right again, and it leaves the queue.
    a_day_passes(learner)
    page.goto("/review/")
    assert shown_options(card) != second_order
    choose(card, right)
    expect(card.locator(".feedback")).to_have_text("Right.")
    expect(card).to_contain_text("Right on two days in a row: it leaves your review queue.")
    card_row.refresh_from_db()
    assert card_row.left_at is not None
    ratings = list(
        ReviewLog.objects.filter(user=learner, question=question).values_list("rating", flat=True)
    )
    assert ratings == [1, 1, 3, 3]  # the miss, then wrong, right, right
