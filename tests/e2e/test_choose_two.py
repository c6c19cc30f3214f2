"""A "choose two" question in real Chromium, wherever one is asked (the mock, the placement, a
drill, a missed question asked again), with JavaScript and without, by mouse and by keyboard: a
first tick is kept as the learner's choice so far and the question counts as unanswered until the
second; a third is refused where it was made, never over the page; nothing ticked is lost."""

import random

from django.db import transaction
from django.utils import timezone
from playwright.sync_api import Page, expect

from phases.models import Domain
from progress.memory.reviews import remember_misses
from progress.models import Attempt, AttemptQuestion, QuestionCard
from progress.practice import services
from tests.e2e.steps import log_in
from tests.factories import make_missed_due, wrong_option

KEPT = "Kept as unanswered: this question asks for 2 answers and you have chosen 1. Choose 1 more."
TOO_MANY = (
    "This question asks for 2 answers and you chose 3: choose exactly 2. Nothing was changed."
)


def choose_two_items(attempt: Attempt) -> list[AttemptQuestion]:
    items = attempt.questions.select_related("question").order_by("position")
    return [item for item in items if len(item.question.correct_options) == 2]


def with_a_choose_two(start) -> tuple[Attempt, AttemptQuestion]:
    """An attempt (from ``start(rng)``) that asks a "choose two": another draw until one does."""
    for seed in range(200):
        attempt = start(random.Random(seed))
        if items := choose_two_items(attempt):
            return attempt, items[0]
        attempt.delete()
    raise AssertionError("no draw asked a choose-two question")


def box(page: Page, item: AttemptQuestion, index: int):
    return page.locator(f'input[name="option"][value="{item.order.index(index) + 1}"]')


def wrong(item: AttemptQuestion) -> int:
    return wrong_option(item.question)


def saved(item: AttemptQuestion) -> AttemptQuestion:
    item.refresh_from_db()
    return item


def test_a_mock_keeps_a_first_tick_refuses_a_third_in_place_and_scores_the_pair(
    page: Page, learner
):
    mock, item = with_a_choose_two(
        lambda rng: services.start_mock(user=learner, now=timezone.now(), rng=rng)
    )
    first, second = sorted(item.question.correct_options)
    log_in(page, learner.username)
    page.goto(f"/practice/{mock.pk}/?q={item.position}")
    page.wait_for_load_state("load")
    expect(page.get_by_text("Choose 2.")).to_be_visible()

    # One tick, by mouse: saved as the choice so far, said in the form, the question unanswered.
    with page.expect_response(lambda r: r.request.method == "POST") as one:
        box(page, item, first).check()
    assert one.value.status == 200
    expect(page.locator("#answer-status")).to_have_text(KEPT)
    assert saved(item).chosen == [first] and item.answered_at is None

    # A reload keeps it, and the question's chip says it is only partly chosen.
    page.reload()
    expect(box(page, item, first)).to_be_checked()
    expect(page.locator("#answer-status")).to_have_text(KEPT)
    expect(
        page.get_by_role("link", name=f"Question {item.position}, partly chosen: unanswered")
    ).to_be_visible()

    # The second, by keyboard (its place's number): the answer, saved and right.
    page.wait_for_load_state("load")
    page.locator("body").focus()
    with page.expect_response(lambda r: r.request.method == "POST"):
        page.keyboard.press(str(item.order.index(second) + 1))
    expect(page.locator("#answer-status")).to_have_text("Your answer is saved.")
    assert saved(item).answered_at is not None and item.is_correct is True

    # A third: refused where it was made; the page stays, the saved pair stays.
    with page.expect_response(lambda r: r.request.method == "POST") as three:
        box(page, item, wrong(item)).check()
    assert three.value.status == 422
    expect(page.locator("#answer-status")).to_have_text(TOO_MANY)
    expect(page.locator(".question-prompt")).to_have_text(item.question.prompt)
    assert saved(item).chosen == [first, second] and item.is_correct is True


def test_without_javascript_a_first_tick_is_kept_and_the_mock_moves_on(
    page_without_js: Page, learner
):
    page = page_without_js
    mock, item = with_a_choose_two(
        lambda rng: services.start_mock(user=learner, now=timezone.now(), rng=rng)
    )
    first = sorted(item.question.correct_options)[0]
    log_in(page, learner.username)
    page.goto(f"/practice/{mock.pk}/?q={item.position}")

    box(page, item, first).check()
    page.get_by_role("button", name="Save and next").click()

    expect(
        page.get_by_role("status").filter(has_text=f"Question {item.position}: {KEPT}")
    ).to_be_visible()
    assert saved(item).chosen == [first] and item.answered_at is None
    page.goto(f"/practice/{mock.pk}/?q={item.position}")
    expect(box(page, item, first)).to_be_checked()
    expect(page.locator("#answer-status")).to_have_text(KEPT)


def test_the_placement_keeps_a_first_tick_too(page: Page, learner):
    placement, item = with_a_choose_two(
        lambda rng: services.start_mock(
            user=learner, now=timezone.now(), rng=rng, is_placement=True
        )
    )
    first = sorted(item.question.correct_options)[0]
    log_in(page, learner.username)
    page.goto(f"/practice/{placement.pk}/?q={item.position}")
    page.wait_for_load_state("load")

    with page.expect_response(lambda r: r.request.method == "POST"):
        box(page, item, first).check()

    expect(page.locator("#answer-status")).to_have_text(KEPT)
    expect(page.locator(".eyebrow")).to_contain_text("Placement")
    assert saved(item).chosen == [first] and item.answered_at is None


def test_a_drill_checks_only_a_whole_answer_and_keeps_the_first_tick(page: Page, learner):
    domain = Domain.objects.get(slug="experimentation")
    drill, item = with_a_choose_two(
        lambda rng: services.start_drill(user=learner, domain=domain, now=timezone.now(), rng=rng)
    )
    first, second = sorted(item.question.correct_options)
    log_in(page, learner.username)
    page.goto(f"/practice/{drill.pk}/?q={item.position}")

    box(page, item, first).check()
    page.get_by_role("button", name="Check my answer").click()

    expect(page.get_by_role("alert")).to_have_text(
        "Choose 2 to check your answer: you have chosen 1 so far."
    )
    expect(box(page, item, first)).to_be_checked()
    assert saved(item).answered_at is None
    box(page, item, second).check()
    page.get_by_role("button", name="Check my answer").click()
    expect(page.locator(".feedback")).to_have_text("Right.")


def test_a_missed_choose_two_asked_again_keeps_a_first_tick_on_its_card(page: Page, learner):
    drill, item = with_a_choose_two(
        lambda rng: services.start_drill(
            user=learner,
            domain=Domain.objects.get(slug="experimentation"),
            now=timezone.now(),
            rng=rng,
        )
    )
    # Missed in the drill, then due again: the card is on today's Review page.
    services.answer(
        user=learner, attempt=drill, item=item, chosen=[wrong(item)], now=timezone.now()
    )
    with transaction.atomic():  # as submit calls it, inside its transaction
        remember_misses(user=learner, items=[saved(item)], now=timezone.now())
    card = QuestionCard.objects.get(user=learner, question=item.question)
    make_missed_due(learner, card)
    card.refresh_from_db()
    first = sorted(item.question.correct_options)[0]
    log_in(page, learner.username)
    page.goto("/review/")
    expect(page.get_by_text("Your answer: choose 2")).to_be_visible()

    page.locator(f'input[name="option"][value="{card.order.index(first) + 1}"]').check()
    with page.expect_response(lambda r: r.request.method == "POST") as refused:
        page.get_by_role("button", name="Check my answer").click()

    assert refused.value.status == 422
    expect(page.locator("#review-card").get_by_role("alert")).to_contain_text(
        "This question asks for 2 answers and you chose 1: choose exactly 2."
    )
    expect(
        page.locator(f'input[name="option"][value="{card.order.index(first) + 1}"]')
    ).to_be_checked()
    card.refresh_from_db()
    assert card.right_in_a_row == 0 and card.left_at is None
