"""The Review page: today's cards (ticked self-checks and questions missed in practice), rated
"forgot", "hard", "knew it" or "easy", scheduled by FSRS, with and without htmx."""

import datetime

import fsrs
import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone
from django.utils.formats import date_format
from pytest_django.asserts import assertRedirects

from phases.models import Question, SelfCheck
from progress.memory import Memory
from progress.models import Attempt, CheckOff, Confidence, QuestionCard, ReviewLog
from progress.timezones import end_of_day, start_of_day
from tests.factories import (
    AttemptFactory,
    AttemptQuestionFactory,
    UserFactory,
    make_due,
    make_plan,
    shown,
    tick,
    wrong_option,
)
from tests.fsrs_fuzz import fuzz_range
from tests.html import descendants, element_by_id, elements, page_text, with_tag

pytestmark = pytest.mark.django_db

HTMX = {"HTTP_HX_REQUEST": "true"}
REVIEW = reverse("progress:review")
CHECK = "p1-backprop"
WORDS = {1: "Forgot", 2: "Hard", 3: "Knew it", 4: "Easy"}


def review_answer_url(slug: str = CHECK) -> str:
    return reverse("progress:review-answer", args=[slug])


def review_question_url(card: QuestionCard) -> str:
    return reverse("progress:review-question", args=[card.pk])


def days(n: float) -> datetime.timedelta:
    return datetime.timedelta(days=n)


def review_card(response) -> str:
    return element_by_id(response.content, "review-card").text


def header_count(response) -> str:
    return element_by_id(response.content, "header-review").text


REVEAL = reverse("progress:review-reveal")


def shown_action(response) -> str:
    """Where the card on show posts its rating (once revealed)."""
    card = element_by_id(response.content, "review-card")
    return next(
        e.attrs["action"]
        for e in descendants(card)
        if e.tag == "form" and e.attrs["action"] != REVEAL
    )


def prompt(slug: str) -> str:
    return " ".join(SelfCheck.objects.get(slug=slug).prompt.split())


def row_of(user, slug: str = CHECK) -> CheckOff:
    return CheckOff.objects.get(user=user, self_check__slug=slug)


def back_date(user, *slugs: str, reviewed_days_ago: float = 3, due_in_days: int = -1) -> None:
    """As if the ticks had been made ``reviewed_days_ago`` days ago, and come due (or not)
    ``due_in_days`` from today."""
    CheckOff.objects.filter(user=user, self_check__slug__in=slugs).update(
        last_review=timezone.now() - days(reviewed_days_ago) - datetime.timedelta(hours=1),
        due=start_of_day(timezone.localdate() + days(due_in_days)),
    )


def make_card_due(card: QuestionCard) -> None:
    """Bring a missed question back to today's queue, as if missed a few days ago."""
    QuestionCard.objects.filter(pk=card.pk).update(
        last_review=timezone.now() - days(3) - datetime.timedelta(hours=1),
        due=start_of_day(timezone.localdate() - days(1)),
    )


def reference() -> fsrs.Scheduler:
    return fsrs.Scheduler(learning_steps=(), relearning_steps=(), enable_fuzzing=False)


def fsrs_after(before: Memory, rating: int, when: datetime.datetime) -> fsrs.Card:
    """The card fsrs itself gives for this review, before fuzz."""
    card = fsrs.Card(
        card_id=1,
        state=fsrs.State(before.state),
        stability=before.stability,
        difficulty=before.difficulty,
        due=before.due,
        last_review=before.last_review,
    )
    return reference().review_card(card, fsrs.Rating(rating), when)[0]


def assert_scheduled_as_fsrs(after, before: Memory, rating: int, since, until) -> None:
    """``after`` (a card's row) is ``before`` reviewed with ``rating`` at a moment between
    ``since`` and ``until``, as fsrs schedules it, fuzz included."""
    assert since <= after.last_review <= until
    expected = fsrs_after(before, rating, after.last_review)
    assert (after.state, after.stability, after.difficulty) == (
        int(expected.state),
        expected.stability,
        expected.difficulty,
    )
    interval = after.due - after.last_review
    assert interval % days(1) == datetime.timedelta(0)
    low, high = fuzz_range((expected.due - after.last_review).days)
    assert low <= interval.days <= high


def miss_in_a_drill(client, learner, question: Question | None = None) -> QuestionCard:
    """Answer a drill question wrong, through the practice page."""
    question = question or Question.objects.current().filter(domain__slug="core-ml").first()
    attempt = AttemptFactory(user=learner, drill=True)
    item = AttemptQuestionFactory(attempt=attempt, question=question)
    response = client.post(
        reverse("progress:attempt-answer", args=[attempt.pk, item.position]),
        {"option": shown(item, [wrong_option(question)])},
    )
    assert response.status_code == 302
    return QuestionCard.objects.get(user=learner, question=question)


# The queue


def test_the_review_page_lists_only_my_due_cards_the_longest_overdue_first(learner_client, learner):
    tick(learner, "p1-backprop", "p1-validation-vs-test", "p2-fid-direction")
    make_due(learner, "p1-backprop", days_ago=1)
    make_due(learner, "p2-fid-direction", days_ago=0)  # due today counts too
    other = UserFactory()
    tick(other, "p5-chart-choice")
    make_due(other, "p5-chart-choice", days_ago=3)

    response = learner_client.get(REVIEW)

    assert response.status_code == 200
    card = review_card(response)
    assert card.startswith("Review today: 2 left")
    assert prompt("p1-backprop") in card
    text = page_text(response.content)
    assert prompt("p1-validation-vs-test") not in text
    assert prompt("p5-chart-choice") not in text

    learner_client.post(review_answer_url("p1-backprop"), {"rating": "3"})

    card = review_card(learner_client.get(REVIEW))
    assert card.startswith("Review today: 1 left")
    assert prompt("p2-fid-direction") in card


def test_nothing_due_says_so(learner_client, learner):
    tick(learner, CHECK)  # a tick is a first review rated "knew it": back in two days

    assert review_card(learner_client.get(REVIEW)).startswith("Nothing to review today")


def test_a_retired_check_leaves_the_queue(learner_client, learner):
    from phases.content import content_changed

    tick(learner, CHECK)
    make_due(learner, CHECK)
    SelfCheck.objects.filter(slug=CHECK).update(retired=True)
    content_changed()

    assert review_card(learner_client.get(REVIEW)).startswith("Nothing to review today")


def test_with_an_exam_ahead_cards_not_yet_due_follow_the_due_ones_heaviest_domain_first(
    learner_client, learner
):
    make_plan(learner, exam_in=30)
    heavy = SelfCheck.objects.current().filter(domain__slug="experimentation").first()
    light = SelfCheck.objects.current().filter(domain__slug="trustworthy-ai").first()
    tick(learner, CHECK, heavy.slug, light.slug)
    back_date(learner, CHECK, due_in_days=-1)
    # The same memory in both: reviewed three days ago, due in two. Only the weight differs.
    back_date(learner, heavy.slug, light.slug, due_in_days=2)

    response = learner_client.get(REVIEW)

    assert header_count(response) == "Review today (3)"
    assert prompt(CHECK) in review_card(response)  # the due card first
    learner_client.post(review_answer_url(CHECK), {"rating": "3"})
    assert prompt(heavy.slug) in review_card(learner_client.get(REVIEW))
    learner_client.post(review_answer_url(heavy.slug), {"rating": "3"})
    assert prompt(light.slug) in review_card(learner_client.get(REVIEW))


def test_without_an_exam_date_or_plan_only_due_cards_are_offered(learner_client, learner):
    tick(learner, CHECK, "p2-fid-direction")
    back_date(learner, CHECK, due_in_days=-1)
    back_date(learner, "p2-fid-direction", due_in_days=2)

    assert header_count(learner_client.get(REVIEW)) == "Review today (1)"


def test_the_daily_cap_limits_the_count_in_the_header_and_on_the_page(
    learner_client, learner, settings
):
    settings.REVIEW_DAILY_CAP = 2
    slugs = ["p1-backprop", "p1-validation-vs-test", "p2-fid-direction", "p5-chart-choice"]
    tick(learner, *slugs)
    back_date(learner, *slugs, due_in_days=-1)

    response = learner_client.get(REVIEW)

    assert header_count(response) == "Review today (2)"
    assert review_card(response).startswith("Review today: 2 left")
    assert "At most 2 cards a day" in page_text(response.content)

    for expected in (1, 0):
        revealed = learner_client.post(REVEAL, {"answer": ""}, **HTMX)
        response = learner_client.post(shown_action(revealed), {"rating": "3"}, **HTMX)
        assert header_count(response) == f"Review today ({expected})"

    assert review_card(response).startswith("Nothing to review today")
    # The cap, not the calendar, ended the day: two cards are still due.
    end_of_today = end_of_day(timezone.localdate())
    assert CheckOff.objects.filter(user=learner, due__lt=end_of_today).count() == 2


def test_the_header_says_how_many_reviews_are_in_todays_queue(learner_client, learner):
    make_plan(learner)
    tick(learner, "p1-backprop", "p1-validation-vs-test", "p2-fid-direction")
    make_due(learner, "p1-backprop", "p2-fid-direction")

    for page in ("progress:dashboard", "progress:practice", "progress:review"):
        response = learner_client.get(reverse(page))
        assert header_count(response) == "Review today (2)", page


def test_the_review_page_costs_the_same_queries_for_many_cards(learner_client, learner):
    slugs = list(SelfCheck.objects.current().order_by("pk").values_list("slug", flat=True)[:12])
    tick(learner, *slugs[:2])
    back_date(learner, *slugs[:2])
    miss_in_a_drill(learner_client, learner)
    learner_client.get(REVIEW)  # the syllabus snapshot, cached once per process
    with CaptureQueriesContext(connection) as few:
        learner_client.get(REVIEW)

    tick(learner, *slugs[2:])
    back_date(learner, *slugs)
    for question in Question.objects.current().filter(domain__slug="experimentation")[:4]:
        make_card_due(miss_in_a_drill(learner_client, learner, question))
    with CaptureQueriesContext(connection) as many:
        response = learner_client.get(REVIEW)

    assert header_count(response) == "Review today (16)"
    assert len(many) == len(few)


# The card


def test_the_card_hides_the_answer_until_revealed_and_offers_four_ratings(learner_client, learner):
    tick(learner, CHECK)
    back_date(learner, CHECK)
    check = SelfCheck.objects.get(slug=CHECK)
    before = row_of(learner).memory

    front = learner_client.get(REVIEW)

    # The front: the prompt and a place to answer, no reference answer and no rating yet.
    card = element_by_id(front.content, "review-card")
    answer = " ".join(check.answer.split())
    assert answer not in card.text
    assert not [e for e in descendants(card) if e.attrs.get("name") == "rating"]
    (reveal,) = [e for e in descendants(card) if e.tag == "form"]
    assert reveal.attrs["action"] == REVEAL
    assert [e.attrs["name"] for e in descendants(reveal) if e.tag == "textarea"] == ["answer"]

    response = learner_client.post(REVEAL, {"answer": "Gradients flow backwards."})

    card = element_by_id(response.content, "review-card")
    assert answer in card.text
    assert "Your answer Gradients flow backwards." in card.text
    assert row_of(learner).memory == before  # turning the card over changes nothing
    forms = [
        f
        for f in with_tag(response.content, "form")
        if f.attrs.get("action") == (review_answer_url())
    ]
    # Each works without JavaScript; htmx posts the same form.
    assert {f.attrs["hx-post"] for f in forms} == {review_answer_url()}
    ratings = [
        next(e.attrs["value"] for e in descendants(f) if e.attrs.get("name") == "rating")
        for f in forms
    ]
    assert ratings == ["1", "2", "3", "4"]
    buttons = [next(e.text for e in descendants(f) if e.tag == "button") for f in forms]
    now = timezone.now()
    intervals = [(fsrs_after(before, r, now).due - now).days for r in (1, 2, 3, 4)]
    assert buttons == [
        f"{WORDS[r]} · again in {n} day{'s' if n != 1 else ''}"
        for r, n in zip((1, 2, 3, 4), intervals, strict=True)
    ]
    assert intervals == sorted(intervals) and intervals[0] < intervals[-1]


# Rating a self-check


@pytest.mark.parametrize("rating", [1, 2, 3, 4])
def test_a_rating_on_a_due_check_schedules_it_as_fsrs_does_and_takes_it_off_todays_queue(
    learner_client, learner, rating
):
    tick(learner, CHECK)
    back_date(learner, CHECK)
    before = row_of(learner)
    since = timezone.now()

    response = learner_client.post(review_answer_url(), {"rating": str(rating)})

    assertRedirects(response, REVIEW, fetch_redirect_response=False)
    after = row_of(learner)
    assert_scheduled_as_fsrs(after, before.memory, rating, since, timezone.now())
    assert after.reviews == before.reviews + 1
    assert after.confidence == (Confidence.SHAKY if rating == 1 else Confidence.UNRATED)
    assert after.due.date() > timezone.localdate()
    assert review_card(learner_client.get(REVIEW)).startswith("Nothing to review today")


def test_forgot_on_a_solid_check_makes_it_shaky_and_brings_it_back_sooner_than_knew_it(
    learner_client, learner
):
    tick(learner, CHECK, "p2-fid-direction")
    learner_client.post(
        reverse("progress:selfcheck-confidence", args=[CHECK]), {"confidence": "solid"}
    )
    learner_client.post(
        reverse("progress:selfcheck-confidence", args=["p2-fid-direction"]),
        {"confidence": "solid"},
    )
    back_date(learner, CHECK, "p2-fid-direction")

    learner_client.post(review_answer_url(CHECK), {"rating": "1"})
    learner_client.post(review_answer_url("p2-fid-direction"), {"rating": "3"})

    forgot, knew = row_of(learner, CHECK), row_of(learner, "p2-fid-direction")
    assert (forgot.confidence, knew.confidence) == (Confidence.SHAKY, Confidence.SOLID)
    assert forgot.stability < knew.stability
    assert forgot.due < knew.due


def test_a_review_of_a_card_not_in_todays_queue_is_refused_and_changes_nothing(
    learner_client, learner
):
    tick(learner, CHECK)
    back_date(learner, CHECK, reviewed_days_ago=1, due_in_days=2)  # not due for two days
    before = row_of(learner)

    for rating in ("4", "4", "3", "4"):
        response = learner_client.post(review_answer_url(), {"rating": rating})
        assert response.status_code == 409
        assert "not in today's review queue" in review_card(response)

    after = row_of(learner)
    assert (after.memory, after.reviews) == (before.memory, before.reviews)


def test_a_refused_review_with_htmx_says_why_and_keeps_the_count(learner_client, learner):
    tick(learner, "p1-backprop", "p2-fid-direction")
    back_date(learner, "p1-backprop", due_in_days=2)
    back_date(learner, "p2-fid-direction", due_in_days=-1)

    response = learner_client.post(review_answer_url("p1-backprop"), {"rating": "4"}, **HTMX)

    assert response.status_code == 409
    assert "not in today's review queue" in review_card(response)
    assert header_count(response) == "Review today (1)"
    assert row_of(learner, "p1-backprop").reviews == 1


def test_a_card_is_reviewed_at_most_once_a_day(learner_client, learner):
    tick(learner, CHECK)
    back_date(learner, CHECK, reviewed_days_ago=5, due_in_days=-1)

    first = learner_client.post(review_answer_url(), {"rating": "1"})
    again = learner_client.post(review_answer_url(), {"rating": "4"})

    assert first.status_code == 302
    assert again.status_code == 409
    assert row_of(learner).reviews == 2


def test_reviewing_with_htmx_answers_the_next_card_and_the_headers_new_count(
    learner_client, learner
):
    tick(learner, "p1-backprop", "p2-fid-direction")
    back_date(learner, "p1-backprop", due_in_days=-2)
    back_date(learner, "p2-fid-direction", due_in_days=-1)

    response = learner_client.post(review_answer_url("p1-backprop"), {"rating": "3"}, **HTMX)

    assert response.status_code == 200
    assert "<html" not in response.content.decode()
    top = [e for e in elements(response.content) if e.depth == 0]
    assert [e.attrs.get("id") for e in top] == ["review-card", "header-review"]
    card, header = top
    assert card.text.startswith("Review today: 1 left")
    assert prompt("p2-fid-direction") in card.text
    assert header.attrs.get("hx-swap-oob") == "true"
    assert header.text == "Review today (1)"
    assert header.attrs["href"] == REVIEW

    last = learner_client.post(review_answer_url("p2-fid-direction"), {"rating": "1"}, **HTMX)
    assert review_card(last).startswith("Nothing to review today")
    assert header_count(last) == "Review today (0)"


@pytest.mark.parametrize("value", ["", "0", "5", "-1", "3.0", "yes", "knew", "٣"])
def test_a_rating_that_is_not_one_to_four_is_refused_and_changes_nothing(
    learner_client, learner, value
):
    tick(learner, CHECK)
    back_date(learner, CHECK)
    before = row_of(learner)
    card = miss_in_a_drill(learner_client, learner)

    assert learner_client.post(review_answer_url(), {"rating": value}).status_code == 400
    assert learner_client.post(review_question_url(card), {"rating": value}).status_code == 400
    after = row_of(learner)
    assert (after.memory, after.reviews, after.confidence) == (
        before.memory,
        before.reviews,
        before.confidence,
    )
    assert QuestionCard.objects.get(pk=card.pk).reviews == 1


def test_the_old_knew_it_form_is_refused(learner_client, learner):
    tick(learner, CHECK)
    back_date(learner, CHECK)

    assert learner_client.post(review_answer_url(), {"knew": "1"}).status_code == 400
    assert row_of(learner).reviews == 1


def test_reviewing_a_check_never_ticked_is_a_404_and_ticks_nothing(learner_client):
    assert learner_client.post(review_answer_url(), {"rating": "3"}).status_code == 404
    assert not CheckOff.objects.exists()


def test_reviewing_an_unknown_check_is_a_404(learner_client):
    assert (
        learner_client.post(review_answer_url("no-such-check"), {"rating": "3"}).status_code == 404
    )


# Missed questions


def test_a_question_missed_in_a_drill_comes_back_with_my_answer_the_key_and_the_explanation(
    learner_client, learner
):
    card = miss_in_a_drill(learner_client, learner)
    question = card.question
    assert (card.reviews, card.right_in_a_row, card.left_at) == (1, 0, None)
    # Missed today, it first comes back tomorrow.
    assert review_card(learner_client.get(REVIEW)).startswith("Nothing to review today")
    make_card_due(card)

    front = element_by_id(learner_client.get(REVIEW).content, "review-card")
    right = next(o["text"] for o in question.options if o.get("correct"))
    assert "(right answer)" not in front.text
    response = learner_client.post(REVEAL, {"answer": ""})

    shown = element_by_id(response.content, "review-card")
    assert shown.text.startswith("Review today: 1 left")
    assert " ".join(question.prompt.split()) in shown.text
    assert "A question you missed in practice" in shown.text
    mine = question.options[wrong_option(question)]["text"]
    assert f"{right} (right answer)" in shown.text
    assert f"{mine} (your answer in practice)" in shown.text
    assert " ".join(question.explanation.split()) in shown.text
    forms = [
        f
        for f in with_tag(response.content, "form")
        if f.attrs.get("action") == review_question_url(card)
    ]
    assert [f.attrs["hx-post"] for f in forms] == [review_question_url(card)] * 4


def test_a_missed_question_is_scheduled_as_fsrs_does(learner_client, learner):
    card = miss_in_a_drill(learner_client, learner)
    make_card_due(card)
    before = QuestionCard.objects.get(pk=card.pk)
    since = timezone.now()

    response = learner_client.post(review_question_url(card), {"rating": "2"})

    assertRedirects(response, REVIEW, fetch_redirect_response=False)
    after = QuestionCard.objects.get(pk=card.pk)
    assert_scheduled_as_fsrs(after, before.memory, 2, since, timezone.now())
    assert (after.reviews, after.right_in_a_row) == (2, 1)


def test_a_missed_question_leaves_after_two_right_reviews_in_a_row_and_comes_back_when_missed(
    learner_client, learner
):
    card = miss_in_a_drill(learner_client, learner)

    for rating, in_a_row in (("3", 1), ("2", 2)):
        make_card_due(card)
        assert header_count(learner_client.get(REVIEW)) == "Review today (1)"
        assert learner_client.post(review_question_url(card), {"rating": rating}).status_code == 302
        assert QuestionCard.objects.get(pk=card.pk).right_in_a_row == in_a_row

    card.refresh_from_db()
    assert card.left_at is not None
    make_card_due(card)
    assert review_card(learner_client.get(REVIEW)).startswith("Nothing to review today")
    assert learner_client.post(review_question_url(card), {"rating": "3"}).status_code == 404

    again = miss_in_a_drill(learner_client, learner, card.question)

    assert again.pk == card.pk
    assert (again.left_at, again.right_in_a_row, again.reviews) == (None, 0, 1)
    make_card_due(again)
    assert header_count(learner_client.get(REVIEW)) == "Review today (1)"


def test_forgot_resets_the_streak_of_a_missed_question(learner_client, learner):
    card = miss_in_a_drill(learner_client, learner)

    for rating, in_a_row in (("4", 1), ("1", 0), ("3", 1)):
        make_card_due(card)
        learner_client.post(review_question_url(card), {"rating": rating})
        card.refresh_from_db()
        assert (card.right_in_a_row, card.left_at) == (in_a_row, None)

    make_card_due(card)
    learner_client.post(review_question_url(card), {"rating": "3"})
    card.refresh_from_db()
    assert card.right_in_a_row == 2
    assert card.left_at is not None


def test_reviewing_a_question_with_htmx_answers_the_next_card_and_the_count(
    learner_client, learner
):
    card = miss_in_a_drill(learner_client, learner)
    make_card_due(card)
    tick(learner, CHECK)
    back_date(learner, CHECK, due_in_days=0)

    response = learner_client.post(review_question_url(card), {"rating": "3"}, **HTMX)

    top = [e for e in elements(response.content) if e.depth == 0]
    assert [e.attrs.get("id") for e in top] == ["review-card", "header-review"]
    assert top[0].text.startswith("Review today: 1 left")
    assert prompt(CHECK) in top[0].text
    assert top[1].text == "Review today (1)"


def test_another_learners_question_card_is_a_404(client, learner):
    other = UserFactory()
    client.force_login(other)
    card = miss_in_a_drill(client, other)
    make_card_due(card)
    client.force_login(learner)

    assert client.post(review_question_url(card), {"rating": "3"}).status_code == 404
    assert QuestionCard.objects.get(pk=card.pk).reviews == 1


def test_a_missed_question_in_the_live_mock_is_not_shown_until_the_mock_is_over(
    learner_client, learner
):
    card = miss_in_a_drill(learner_client, learner)
    make_card_due(card)
    mock = AttemptFactory(user=learner, mock=True)
    AttemptQuestionFactory(attempt=mock, question=card.question)

    during = review_card(learner_client.get(REVIEW))

    assert card.question.prompt not in during
    assert card.question.explanation not in during
    Attempt.objects.filter(pk=mock.pk).update(submitted_at=timezone.now())
    assert card.question.prompt in review_card(learner_client.get(REVIEW))


def test_an_empty_review_page_says_when_the_next_card_comes_back(learner_client, learner):
    tick(learner, CHECK)  # a tick is a first review: back in a couple of days
    due = timezone.localdate(row_of(learner).due)

    response = learner_client.get(REVIEW)

    assert review_card(response).startswith("Nothing to review today")
    assert f"Your next card comes back on {date_format(due, 'l j F')}." in page_text(
        response.content
    )


def test_what_the_learner_typed_before_the_reveal_is_kept_with_the_review(learner_client, learner):
    tick(learner, CHECK)
    back_date(learner, CHECK)

    revealed = learner_client.post(REVEAL, {"answer": "  The chain rule, layer by layer.  "})
    learner_client.post(shown_action(revealed), {"rating": "3", "answer": "The chain rule."})

    (row,) = ReviewLog.objects.filter(user=learner, first=False)
    assert row.answer == "The chain rule."


@pytest.mark.parametrize("answer", ["x" * 4001, "a\x00b"])
def test_an_answer_that_cannot_be_kept_is_a_400_that_says_why_and_changes_nothing(
    learner_client, learner, answer
):
    tick(learner, CHECK)
    back_date(learner, CHECK)
    before = row_of(learner).memory

    reveal = learner_client.post(REVEAL, {"answer": answer})
    rating = learner_client.post(review_answer_url(), {"rating": "3", "answer": answer})

    assert reveal.status_code == 400
    assert rating.status_code == 400
    assert "Nothing was changed." in reveal.text
    assert row_of(learner).memory == before
    assert not ReviewLog.objects.filter(user=learner, first=False).exists()


def test_an_empty_queue_turns_over_nothing(learner_client, learner):
    response = learner_client.post(REVEAL, {"answer": "anything"})

    assert response.status_code == 200
    assert review_card(response).startswith("Nothing to review today")
