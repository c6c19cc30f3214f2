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
from progress.memory.scheduling import Memory
from progress.memory.ticks import set_done
from progress.models import Attempt, AttemptQuestion, CheckOff, Confidence, QuestionCard, ReviewLog
from progress.timezones import end_of_day, start_of_day
from tests.conftest import HTMX, days
from tests.factories import (
    AttemptFactory,
    AttemptQuestionFactory,
    UserFactory,
    answer_again,
    make_due,
    make_plan,
    miss,
    review_from_memory,
    shown,
    tick,
    wrong_option,
)
from tests.fsrs_fuzz import fuzz_range
from tests.html import descendants, element_by_id, elements, page_text, with_tag

pytestmark = pytest.mark.django_db

REVIEW = reverse("progress:review")
CHECK = "p1-backprop"
WORDS = {1: "Forgot", 2: "Hard", 3: "Knew it", 4: "Easy"}


def review_answer_url(slug: str = CHECK) -> str:
    return reverse("progress:review-answer", args=[slug])


def review_question_url(card: QuestionCard) -> str:
    return reverse("progress:review-question", args=[card.pk])


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
    """As if the ticks had been made ``reviewed_days_ago`` days ago (on that day of the
    learner's), and come due (or not) ``due_in_days`` from today."""
    reviewed = timezone.now() - days(reviewed_days_ago) - datetime.timedelta(hours=1)
    CheckOff.objects.filter(user=user, self_check__slug__in=slugs).update(
        last_review=reviewed,
        last_review_day=timezone.localdate(reviewed),
        due=start_of_day(timezone.localdate() + days(due_in_days)),
    )


def make_card_due(card: QuestionCard) -> None:
    """Bring a missed question back to today's queue, as if missed a few days ago."""
    missed = timezone.now() - days(3) - datetime.timedelta(hours=1)
    QuestionCard.objects.filter(pk=card.pk).update(
        last_review=missed,
        last_review_day=timezone.localdate(missed),
        due=start_of_day(timezone.localdate() - days(1)),
    )


def memory_of(row: CheckOff | QuestionCard) -> Memory:
    """A card's memory as its row stores it, the day of its last review included."""
    return Memory(
        row.state, row.stability, row.difficulty, row.due, row.last_review, row.last_review_day
    )


def reference() -> fsrs.Scheduler:
    return fsrs.Scheduler(learning_steps=(), relearning_steps=(), enable_fuzzing=False)


def midnight_utc(day: datetime.date) -> datetime.datetime:
    """A learner's day as FSRS counts it (docs/memory.md): whole days between two are the days
    between the dates."""
    return datetime.datetime.combine(day, datetime.time.min, tzinfo=datetime.UTC)


def fsrs_after(before: Memory, rating: int, day: datetime.date) -> fsrs.Card:
    """The card fsrs itself gives for this review on the learner's ``day``, before fuzz."""
    card = fsrs.Card(
        card_id=1,
        state=fsrs.State(before.state),
        stability=before.stability,
        difficulty=before.difficulty,
        due=before.due,
        last_review=midnight_utc(before.last_review_day),
    )
    return reference().review_card(card, fsrs.Rating(rating), midnight_utc(day))[0]


def days_after(before: Memory, rating: int, day: datetime.date) -> int:
    """The days fsrs itself would send the card away for, before fuzz."""
    return (fsrs_after(before, rating, day).due - midnight_utc(day)).days


def assert_scheduled_as_fsrs(after, before: Memory, rating: int, since, until) -> None:
    """``after`` (a card's row) is ``before`` reviewed with ``rating`` at a moment between
    ``since`` and ``until``, on that moment's day, as fsrs schedules it, fuzz included: due at
    the start of the learner's day it falls on."""
    assert since <= after.last_review <= until
    day = timezone.localdate(after.last_review)
    assert after.last_review_day == day
    expected = fsrs_after(before, rating, day)
    assert (after.state, after.stability, after.difficulty) == (
        int(expected.state),
        expected.stability,
        expected.difficulty,
    )
    due_day = timezone.localdate(after.due)
    assert after.due == start_of_day(due_day)
    low, high = fuzz_range(days_after(before, rating, day))
    assert low <= (due_day - day).days <= high


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

    review_from_memory(learner_client, "p1-backprop", "3")

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
    review_from_memory(learner_client, CHECK, "3")
    assert prompt(heavy.slug) in review_card(learner_client.get(REVIEW))
    review_from_memory(learner_client, heavy.slug, "3")
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
    before = memory_of(row_of(learner))

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
    assert memory_of(row_of(learner)) == before  # turning the card over changes nothing
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
    intervals = [days_after(before, r, timezone.localdate()) for r in (1, 2, 3, 4)]
    assert buttons == [
        f"{WORDS[r]} · again in {n} day{'s' if n != 1 else ''}"
        for r, n in zip((1, 2, 3, 4), intervals, strict=True)
    ]
    assert intervals == sorted(intervals) and intervals[0] < intervals[-1]


def test_a_card_left_turned_over_is_face_down_again_six_hours_later(
    learner_client, learner, monkeypatch
):
    tick(learner, CHECK)
    back_date(learner, CHECK)
    answer = " ".join(SelfCheck.objects.get(slug=CHECK).answer.split())
    learner_client.post(REVEAL, {"answer": "Gradients flow backwards."})
    assert answer in review_card(learner_client.get(REVIEW))
    later = timezone.now() + datetime.timedelta(hours=6, minutes=1)
    monkeypatch.setattr(timezone, "now", lambda: later)

    # The next sitting answers it from memory first: no reference, no rating taken.
    assert answer not in review_card(learner_client.get(REVIEW))
    assert learner_client.post(review_answer_url(), {"rating": 3}).status_code == 409
    assert row_of(learner).reviews == 1


# Rating a self-check


@pytest.mark.parametrize("rating", [1, 2, 3, 4])
def test_a_rating_on_a_due_check_schedules_it_as_fsrs_does_and_takes_it_off_todays_queue(
    learner_client, learner, rating
):
    tick(learner, CHECK)
    back_date(learner, CHECK)
    before = row_of(learner)
    since = timezone.now()

    response = review_from_memory(learner_client, CHECK, str(rating))

    assertRedirects(response, REVIEW, fetch_redirect_response=False)
    after = row_of(learner)
    assert_scheduled_as_fsrs(after, memory_of(before), rating, since, timezone.now())
    assert after.reviews == before.reviews + 1
    assert after.confidence == (Confidence.SHAKY if rating == 1 else Confidence.UNRATED)
    assert after.due.date() > timezone.localdate()
    assert review_card(learner_client.get(REVIEW)).startswith("Nothing to review today")


def test_forgot_on_a_solid_check_makes_it_shaky_and_brings_it_back_sooner_than_knew_it(
    learner_client, learner
):
    for slug in (CHECK, "p2-fid-direction"):
        set_done(
            user=learner,
            self_check_id=SelfCheck.objects.get(slug=slug).pk,
            done=True,
            confidence=Confidence.SOLID,
        )
    back_date(learner, CHECK, "p2-fid-direction")

    review_from_memory(learner_client, CHECK, "1")
    review_from_memory(learner_client, "p2-fid-direction", "3")

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
        response = review_from_memory(learner_client, CHECK, rating)
        assert response.status_code == 409
        assert "not in today's review queue" in review_card(response)

    after = row_of(learner)
    assert (memory_of(after), after.reviews) == (memory_of(before), before.reviews)


def test_a_refused_review_with_htmx_says_why_and_keeps_the_count(learner_client, learner):
    tick(learner, "p1-backprop", "p2-fid-direction")
    back_date(learner, "p1-backprop", due_in_days=2)
    back_date(learner, "p2-fid-direction", due_in_days=-1)

    response = review_from_memory(learner_client, "p1-backprop", "4", **HTMX)

    assert response.status_code == 409
    assert "not in today's review queue" in review_card(response)
    assert header_count(response) == "Review today (1)"
    assert row_of(learner, "p1-backprop").reviews == 1


def test_a_card_is_reviewed_at_most_once_a_day(learner_client, learner):
    tick(learner, CHECK)
    back_date(learner, CHECK, reviewed_days_ago=5, due_in_days=-1)

    first = review_from_memory(learner_client, CHECK, "1")
    again = review_from_memory(learner_client, CHECK, "4")

    assert first.status_code == 302
    assert again.status_code == 409
    assert row_of(learner).reviews == 2


def test_reviewing_with_htmx_answers_the_next_card_and_the_headers_new_count(
    learner_client, learner
):
    tick(learner, "p1-backprop", "p2-fid-direction")
    back_date(learner, "p1-backprop", due_in_days=-2)
    back_date(learner, "p2-fid-direction", due_in_days=-1)

    response = review_from_memory(learner_client, "p1-backprop", "3", **HTMX)

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

    last = review_from_memory(learner_client, "p2-fid-direction", "1", **HTMX)
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

    assert review_from_memory(learner_client, CHECK, value).status_code == 400
    # A missed question takes an answer, not a rating: no option chosen, the card says so.
    assert learner_client.post(review_question_url(card), {"rating": value}).status_code == 422
    after = row_of(learner)
    assert (memory_of(after), after.reviews, after.confidence) == (
        memory_of(before),
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
    assert review_from_memory(learner_client, CHECK, "3").status_code == 404
    assert not CheckOff.objects.exists()


def test_reviewing_an_unknown_check_is_a_404(learner_client):
    assert review_from_memory(learner_client, "no-such-check", "3").status_code == 404


# Missed questions


def test_a_missed_question_comes_back_as_the_same_question_options_reshuffled_no_key_shown(
    learner_client, learner
):
    card = miss_in_a_drill(learner_client, learner)
    question = card.question
    missed_in = AttemptQuestion.objects.get(attempt__user=learner, question=question).order
    assert (card.reviews, card.right_in_a_row, card.left_at) == (1, 0, None)
    # Missed today, it first comes back tomorrow.
    assert review_card(learner_client.get(REVIEW)).startswith("Nothing to review today")
    make_card_due(card)

    response = learner_client.get(REVIEW)

    front = element_by_id(response.content, "review-card")
    assert " ".join(question.prompt.split()) in front.text
    # The same options, in an order of the card's own, not the one it was missed in.
    assert sorted(card.order) == list(range(len(question.options))) and card.order != missed_in
    texts = [" ".join(option.text.split()) for option in with_tag(response.content, "label")]
    options = [" ".join(question.options[index]["text"].split()) for index in card.order]
    assert [text for text in texts if text in options] == options
    # Each option's value is its place as shown, so a value says nothing about the key.
    values = [
        e.attrs["value"]
        for e in with_tag(response.content, "input")
        if e.attrs.get("name") == "option"
    ]
    assert values == [str(n) for n in range(1, len(options) + 1)]
    assert " ".join(question.explanation.split()) not in front.text
    assert "Right answer" not in front.text
    # Revealing is for self-checks: it shows no missed question's key.
    revealed = element_by_id(learner_client.post(REVEAL, {"answer": ""}).content, "review-card")
    assert " ".join(question.explanation.split()) not in revealed.text


def test_a_wrong_answer_is_scored_forgot_shows_the_key_mine_and_why_and_is_logged(
    learner_client, learner
):
    card = miss_in_a_drill(learner_client, learner)
    make_card_due(card)
    before = QuestionCard.objects.get(pk=card.pk)
    shown_then = list(before.order)
    since = timezone.now()

    response = answer_again(learner_client, card, right=False)

    assertRedirects(response, REVIEW, fetch_redirect_response=False)
    after = QuestionCard.objects.get(pk=card.pk)
    assert_scheduled_as_fsrs(after, memory_of(before), 1, since, timezone.now())
    assert (after.reviews, after.right_in_a_row) == (2, 0)
    # Back tomorrow in a new order.
    assert after.order != shown_then
    log = ReviewLog.objects.filter(user=learner, first=False).get()
    question = card.question
    mine = question.options[wrong_option(question)]["text"]
    assert (log.kind, log.rating, log.answer) == ("question", 1, mine)

    result = learner_client.get(REVIEW)
    text = review_card(result)
    assert "Not quite." in text
    right = next(o["text"] for o in question.options if o.get("correct"))
    assert f"{' '.join(right.split())} Right answer" in text
    assert f"{' '.join(mine.split())} Your answer" in text
    assert " ".join(question.explanation.split()) in text
    # The options in the order they were shown when answered.
    listed = [" ".join(e.text.split()) for e in with_tag(result.content, "li")]
    in_order = [" ".join(question.options[index]["text"].split()) for index in shown_then]
    assert [
        next(text for text in in_order if item.startswith(text))
        for item in listed
        if any(item.startswith(text) for text in in_order)
    ] == in_order
    # Shown once: the next visit is the queue again.
    assert "Not quite." not in review_card(learner_client.get(REVIEW))


def test_a_missed_question_leaves_after_two_right_answers_in_a_row_and_comes_back_when_missed(
    learner_client, learner
):
    card = miss_in_a_drill(learner_client, learner)

    for in_a_row in (1, 2):
        make_card_due(card)
        assert header_count(learner_client.get(REVIEW)) == "Review today (1)"
        assert answer_again(learner_client, card, right=True).status_code == 302
        assert QuestionCard.objects.get(pk=card.pk).right_in_a_row == in_a_row
        assert ReviewLog.objects.filter(user=learner).latest("pk").rating == 3

    card.refresh_from_db()
    assert card.left_at is not None
    make_card_due(card)
    assert "Right on two days in a row" in review_card(learner_client.get(REVIEW))
    assert review_card(learner_client.get(REVIEW)).startswith("Nothing to review today")
    assert answer_again(learner_client, card, right=True).status_code == 404

    again = miss_in_a_drill(learner_client, learner, card.question)

    assert again.pk == card.pk
    assert (again.left_at, again.right_in_a_row, again.reviews) == (None, 0, 1)
    make_card_due(again)
    assert header_count(learner_client.get(REVIEW)) == "Review today (1)"


def test_a_wrong_answer_resets_the_streak_of_a_missed_question(learner_client, learner):
    card = miss_in_a_drill(learner_client, learner)

    for right, in_a_row in ((True, 1), (False, 0), (True, 1)):
        make_card_due(card)
        answer_again(learner_client, card, right=right)
        card.refresh_from_db()
        assert (card.right_in_a_row, card.left_at) == (in_a_row, None)

    make_card_due(card)
    answer_again(learner_client, card, right=True)
    card.refresh_from_db()
    assert card.right_in_a_row == 2
    assert card.left_at is not None


def test_a_missed_question_is_answered_once_a_day(learner_client, learner):
    card = miss_in_a_drill(learner_client, learner)
    make_card_due(card)
    answer_again(learner_client, card, right=False)
    QuestionCard.objects.filter(pk=card.pk).update(due=start_of_day(timezone.localdate()))
    before = QuestionCard.objects.get(pk=card.pk)

    response = answer_again(learner_client, card, right=True)

    assert response.status_code == 409
    assert memory_of(QuestionCard.objects.get(pk=card.pk)) == memory_of(before)


@pytest.mark.parametrize("headers", [{}, HTMX], ids=["plain", "htmx"])
@pytest.mark.parametrize("options", [["0"], ["5"], ["x"], ["1" * 5000], ["1", "²"]])
def test_an_answer_that_is_no_option_of_the_question_is_a_400(
    learner_client, learner, headers, options
):
    card = miss_in_a_drill(learner_client, learner)
    make_card_due(card)
    before = QuestionCard.objects.get(pk=card.pk)

    response = learner_client.post(review_question_url(card), {"option": options}, **headers)

    assert response.status_code == 400
    assert "Choose among this question's options." in response.text
    assert memory_of(QuestionCard.objects.get(pk=card.pk)) == memory_of(before)


def test_a_choose_two_question_answered_with_one_or_three_says_so_and_changes_nothing(
    learner_client, learner
):
    question = next(q for q in Question.objects.current() if len(q.correct_options) == 2)
    (card,) = miss(learner, question)
    make_card_due(card)
    before = QuestionCard.objects.get(pk=card.pk)
    assert "Your answer: choose 2" in review_card(learner_client.get(REVIEW))

    for options, chose in ((["1"], 1), ([], 0), (["1", "2", "3"], 3)):
        response = learner_client.post(review_question_url(card), {"option": options}, **HTMX)

        # The card again, the reason on it (htmx swaps a 422 in, base.html).
        assert response.status_code == 422
        assert f"asks for 2 answers and you chose {chose}" in review_card(response)
        assert "Check my answer" in review_card(response)
    assert memory_of(QuestionCard.objects.get(pk=card.pk)) == memory_of(before)


def test_answering_a_question_with_htmx_shows_the_verdict_then_the_next_card(
    learner_client, learner
):
    card = miss_in_a_drill(learner_client, learner)
    make_card_due(card)
    tick(learner, CHECK)
    back_date(learner, CHECK, due_in_days=0)

    response = answer_again(learner_client, card, right=True, **HTMX)

    top = [e for e in elements(response.content) if e.depth == 0]
    assert [e.attrs.get("id") for e in top] == ["review-card", "header-review"]
    assert "Right." in top[0].text
    assert " ".join(card.question.explanation.split()) in top[0].text
    assert "Next card (1 left)" in top[0].text
    assert top[1].text == "Review today (1)"
    following = learner_client.get(REVIEW, **HTMX)
    assert prompt(CHECK) in element_by_id(following.content, "review-card").text


def test_another_learners_question_card_is_a_404(client, learner):
    other = UserFactory()
    client.force_login(other)
    card = miss_in_a_drill(client, other)
    make_card_due(card)
    client.force_login(learner)

    assert answer_again(client, card, right=True).status_code == 404
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
    # What the rating's form carries cannot rewrite the answer given before the reveal.
    learner_client.post(shown_action(revealed), {"rating": "3", "answer": "The chain rule."})

    (row,) = ReviewLog.objects.filter(user=learner, first=False)
    assert row.answer == "The chain rule, layer by layer."


def test_a_rating_before_the_reveal_is_refused_and_changes_nothing(learner_client, learner):
    tick(learner, CHECK)
    back_date(learner, CHECK)
    before = memory_of(row_of(learner))

    plain = learner_client.post(review_answer_url(), {"rating": "4"})
    with_htmx = learner_client.post(review_answer_url(), {"rating": "4"}, **HTMX)

    for response in (plain, with_htmx):
        assert response.status_code == 409
        card = review_card(response)
        assert "Reveal the reference answer first" in card
        assert "Nothing was changed." in card
        assert prompt(CHECK) in card
        assert "Knew it" not in card  # still face down: no ratings
    assert memory_of(row_of(learner)) == before
    assert not ReviewLog.objects.filter(user=learner, first=False).exists()


def test_a_revealed_card_stays_revealed_through_a_reload_until_it_is_rated(learner_client, learner):
    tick(learner, CHECK)
    back_date(learner, CHECK)

    learner_client.post(REVEAL, {"answer": "Gradients, backwards."})
    reloaded = review_card(learner_client.get(REVIEW))

    assert "The reference answer" in reloaded
    assert "Gradients, backwards." in reloaded
    assert "Knew it" in reloaded
    rated = learner_client.post(review_answer_url(), {"rating": "3"})
    assert rated.status_code == 302
    again = learner_client.post(review_answer_url(), {"rating": "4"})
    assert again.status_code == 409  # rated once: neither revealed nor in today's queue now


@pytest.mark.parametrize("answer", ["x" * 4001, "a\x00b"])
def test_an_answer_that_cannot_be_kept_is_a_400_that_says_why_and_changes_nothing(
    learner_client, learner, answer
):
    tick(learner, CHECK)
    back_date(learner, CHECK)
    before = memory_of(row_of(learner))

    reveal = learner_client.post(REVEAL, {"answer": answer})
    rating = learner_client.post(review_answer_url(), {"rating": "3"})

    assert reveal.status_code == 400
    assert "Nothing was changed." in reveal.text
    assert rating.status_code == 409  # the card was not turned over
    assert memory_of(row_of(learner)) == before
    assert not ReviewLog.objects.filter(user=learner, first=False).exists()


def test_an_empty_queue_turns_over_nothing(learner_client, learner):
    response = learner_client.post(REVEAL, {"answer": "anything"})

    assert response.status_code == 200
    assert review_card(response).startswith("Nothing to review today")
