"""The review log: every review of every card kept as it happened, and the forecast checked
against it."""

import datetime
import math

import pytest
from django.urls import reverse
from django.utils import timezone
from fsrs import Rating

from phases.models import Question, SelfCheck
from progress.memory import calibration
from progress.memory.reviews import review_question
from progress.memory.ticks import set_done
from progress.models import CheckOff, Confidence, ReviewLog
from tests.factories import miss, review_revealed, tick
from tests.html import page_text, table_rows

DAY = datetime.timedelta(days=1)


def check_id(slug: str = "p1-backprop") -> int:
    return SelfCheck.objects.get(slug=slug).pk


@pytest.mark.django_db
def test_a_tick_is_a_first_review_and_each_review_after_it_is_kept(learner):
    start = timezone.now() - 10 * DAY
    set_done(user=learner, self_check_id=check_id(), done=True, now=start)
    review_revealed(learner, self_check_id=check_id(), rating=Rating.Good, now=start + 3 * DAY)
    review_revealed(learner, self_check_id=check_id(), rating=Rating.Again, now=start + 8 * DAY)

    first, second, third = ReviewLog.objects.filter(user=learner)
    assert (first.first, first.rating, first.elapsed_days, first.predicted_recall) == (
        True,
        3,
        None,
        None,
    )
    assert first.state_before is None and first.stability_after > 0
    assert (second.first, second.rating) == (False, 3)
    assert second.elapsed_days == pytest.approx(3)
    assert 0 < second.predicted_recall < 1
    # The memory before a review is the memory the previous one left.
    assert second.stability_before == pytest.approx(first.stability_after)
    assert third.stability_before == pytest.approx(second.stability_after)
    assert third.rating == 1 and not third.recalled
    card = CheckOff.objects.get(user=learner)
    assert third.stability_after == pytest.approx(card.stability)
    assert third.scheduled_days == pytest.approx((card.due - card.last_review) / DAY)


@pytest.mark.django_db
def test_a_shaky_tick_is_one_row_rated_hard_with_what_was_typed(learner):
    now = timezone.now()
    set_done(
        user=learner,
        self_check_id=check_id(),
        done=True,
        confidence=Confidence.SHAKY,
        answer="The chain rule, backwards.",
        now=now,
    )

    (row,) = ReviewLog.objects.filter(user=learner)
    assert (row.rating, row.answer) == (int(Rating.Hard), "The chain rule, backwards.")
    assert row.stability_after == pytest.approx(CheckOff.objects.get(user=learner).stability)


@pytest.mark.django_db
def test_a_miss_is_a_first_review_rated_forgot_and_its_reviews_are_kept(learner):
    question = Question.objects.current().filter(domain__slug="core-ml").first()
    (card,) = miss(learner, question)
    card.last_review = timezone.now() - 2 * DAY
    card.last_review_day = timezone.localdate(card.last_review)
    card.save()

    review_question(user=learner, card_id=card.pk, rating=Rating.Good, now=timezone.now())

    first, second = ReviewLog.objects.filter(user=learner, kind="question")
    assert (first.first, first.rating, first.question) == (True, 1, question)
    assert (second.first, second.rating, second.question) == (False, 3, question)


@pytest.mark.django_db
def test_unticking_keeps_the_history_and_the_export_carries_it(learner_client, learner):
    tick(learner, "p1-backprop")
    set_done(user=learner, self_check_id=check_id(), done=False)

    assert ReviewLog.objects.filter(user=learner).count() == 1
    export = learner_client.get(reverse("progress:account-export")).json()
    (review,) = export["reviews"]
    assert (review["self_check"], review["first"], review["rating"]) == ("p1-backprop", True, 3)


# The forecast against what happened


def test_a_forecast_that_comes_true_beats_the_constant_guess():
    # 50 reviews at 90% forecast, 45 remembered; 50 at 50%, 25 remembered.
    pairs = [(0.9, n < 45) for n in range(50)] + [(0.5, n < 25) for n in range(50)]

    fit = calibration.fit(pairs)

    assert fit.shown and fit.reviews == 100
    assert [(b.label, b.remembered, b.reviews) for b in fit.bins] == [
        ("50–60%", 25, 50),
        ("90–100%", 45, 50),
    ]
    assert fit.bins[1].remembered_percent == 90
    expected = -(45 * math.log(0.9) + 5 * math.log(0.1) + 50 * math.log(0.5)) / 100
    assert fit.log_loss == pytest.approx(expected)
    assert fit.constant_log_loss == pytest.approx(-(math.log(0.7) * 70 + math.log(0.3) * 30) / 100)
    assert fit.beats_constant


def test_a_forecast_that_says_nothing_does_not_beat_the_constant_guess():
    # Whatever was forecast, the learner remembered half of the time.
    pairs = [(0.95, True), (0.95, False), (0.55, True), (0.55, False)] * 10

    fit = calibration.fit(pairs)

    assert not fit.beats_constant
    assert fit.needed == 0


def test_below_thirty_reviews_the_fit_says_how_many_more_are_needed():
    fit = calibration.fit([(0.8, True)] * 12)

    assert not fit.shown and fit.needed == 18


@pytest.mark.django_db
def test_the_review_page_shows_the_fit_once_there_are_thirty_logged_reviews(
    learner_client, learner
):
    response = learner_client.get(reverse("progress:review"))
    assert "30 more to go" in page_text(response.content)

    now = timezone.now()
    ReviewLog.objects.bulk_create(
        ReviewLog(
            user=learner,
            kind="check",
            self_check_id=check_id(),
            reviewed_at=now - n * DAY,
            first=False,
            rating=3 if n % 5 else 1,
            predicted_recall=0.85,
        )
        for n in range(1, 31)
    )

    page = learner_client.get(reverse("progress:review")).content
    assert "How well the forecast fits you" in page_text(page)
    assert ["80–90%", "24 of 30", "80%"] in table_rows(page, "forecast-table")
