"""Memory on exam day, in real Chromium: a learner with an exam a month out ticks a few checks,
sees their predicted recall on the dashboard, reviews each card with a different rating, sees
each card's next review move, and sees the exam-day figure rise."""

import datetime
import re

import fsrs
from django.utils import timezone
from django.utils.formats import date_format
from playwright.sync_api import Page, expect

from phases.models import SelfCheck
from progress.models import CheckOff, Confidence
from progress.timezones import start_of_day
from tests.e2e.steps import (
    PHASE_ONE,
    domain_row,
    log_in,
    main_nav,
    open_dashboard,
    open_phase,
    tick,
)
from tests.e2e.test_review import back_date

CORE_ML = "Core Machine Learning and AI Knowledge"
CHECKS = ["p1-backprop", "p1-training-stability", "p1-validation-vs-test", "p1-multimodal-loss"]
RATINGS = {
    "Forgot": fsrs.Rating.Again,
    "Hard": fsrs.Rating.Hard,
    "Knew it": fsrs.Rating.Good,
    "Easy": fsrs.Rating.Easy,
}
PLAIN = fsrs.Scheduler(learning_steps=(), relearning_steps=(), enable_fuzzing=False)


def card_of(row: CheckOff) -> fsrs.Card:
    return fsrs.Card(
        card_id=1,
        state=fsrs.State(row.state),
        stability=row.stability,
        difficulty=row.difficulty,
        due=row.due,
        last_review=row.last_review,
    )


def core_ml_recall_percent(learner, exam: datetime.date) -> int:
    """The domain's predicted recall at the start of exam day, by fsrs itself: the mean
    retrievability over its self-checks, a check never ticked counting 0."""
    total = SelfCheck.objects.current().filter(domain__slug="core-ml").count()
    at = start_of_day(exam)
    recall = sum(
        PLAIN.get_card_retrievability(card_of(row), at)
        for row in CheckOff.objects.filter(user=learner, self_check__domain__slug="core-ml")
    )
    return round(100 * recall / total)


def percent(text: str) -> int:
    return int(re.search(r"(\d+)%", text).group(1))


def exam_day_recall(page: Page) -> int:
    figure = page.locator(".figure-pair p").filter(has_text="recall on exam day")
    return percent(figure.locator(".big-figure-recall").inner_text())


def domain_recall(page: Page) -> int:
    cell = domain_row(page, CORE_ML).locator('td[data-label="Recall on exam day"]')
    return percent(cell.inner_text())


def next_review_text(page: Page, slug: str) -> str:
    return page.locator(f"#check-{slug} .check-next-review").inner_text()


def interval_days(row: CheckOff, rating: fsrs.Rating, now: datetime.datetime) -> int:
    """The days fsrs gives this card for ``rating`` now, before fuzz: what a button promises."""
    return (PLAIN.review_card(card_of(row), rating, now)[0].due - now).days


def test_reviews_with_each_rating_move_the_cards_and_raise_recall_on_exam_day(page: Page, learner):
    today = timezone.localdate()
    exam = today + datetime.timedelta(days=30)
    log_in(page, learner.username)
    page.goto("/plan/choose/")
    page.get_by_role("radio", name=re.compile(r"^Standard\b")).check()
    page.get_by_label("Start date").fill(today.isoformat())
    page.get_by_label("Exam date (optional)").fill(exam.isoformat())
    page.get_by_role("button", name="Save my schedule").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("My plan")

    open_dashboard(page)
    label = page.locator(".figure-pair .figure-label").filter(has_text="recall on exam day")
    expect(label).to_have_text(f"recall on exam day, {date_format(exam, 'j M')}")
    assert exam_day_recall(page) == 0  # nothing ticked, nothing remembered

    open_phase(page, "core-ml-foundations", PHASE_ONE)
    for slug in CHECKS:
        tick(page.locator(f"#check-{slug}"))
    page.reload()
    first_due = {slug: next_review_text(page, slug) for slug in CHECKS}
    in_two_days = date_format(today + datetime.timedelta(days=2), "D j M")
    assert set(first_due.values()) == {f"Back for review on {in_two_days}."}

    open_dashboard(page)
    before = exam_day_recall(page)
    domain_before = domain_recall(page)
    assert domain_before == core_ml_recall_percent(learner, exam)
    # A month without a review: four ticks of six, each about two-thirds remembered.
    assert 0 < before < domain_before < 80

    back_date(learner, days=3)  # three days on: every tick is due
    page.reload()
    header = page.locator("#header-review")
    expect(header).to_have_text(f"Review today ({len(CHECKS)})")
    main_nav(page, f"Review today ({len(CHECKS)})")
    card = page.locator("#review-card")
    prompts = {
        " ".join(check.prompt.split()): check.slug
        for check in SelfCheck.objects.filter(slug__in=CHECKS)
    }
    rated = {}
    for left, words in zip(range(len(CHECKS), 0, -1), RATINGS, strict=True):
        expect(card.get_by_role("heading", level=2)).to_have_text(f"Review today: {left} left")
        slug = prompts[" ".join(card.locator(".review-prompt").inner_text().split())]
        row = CheckOff.objects.get(user=learner, self_check__slug=slug)
        card.get_by_role("button", name="Reveal the reference answer").click()
        now = timezone.now()
        for choice, rating in RATINGS.items():
            days = interval_days(row, rating, now)
            button = card.get_by_role("button", name=re.compile(f"^{choice} ·"))
            expect(button).to_have_text(f"{choice} · again in {days} day{'s' if days != 1 else ''}")
        card.get_by_role("button", name=re.compile(f"^{words} ·")).click()
        expect(header).to_have_text(f"Review today ({left - 1})")
        rated[slug] = words
    expect(card.get_by_role("heading", level=2)).to_have_text("Nothing to review today")

    open_phase(page, "core-ml-foundations", PHASE_ONE)
    for slug, words in rated.items():
        row = CheckOff.objects.get(user=learner, self_check__slug=slug)
        assert row.reviews == 2
        due = date_format(timezone.localdate(row.due), "D j M")
        expect(page.locator(f"#check-{slug} .check-next-review")).to_have_text(
            f"Back for review on {due}."
        )
        assert next_review_text(page, slug) != first_due[slug], words
        if words == "Forgot":
            assert row.confidence == Confidence.SHAKY
            expect(page.locator(f"#check-{slug}").get_by_text("Done: shaky")).to_be_visible()

    open_dashboard(page)
    domain_after = domain_recall(page)
    assert domain_after == core_ml_recall_percent(learner, exam)
    assert domain_after > domain_before
    assert exam_day_recall(page) > before
