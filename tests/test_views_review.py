"""The review queue: ticked self-checks due today, "knew it" and "didn't", with and without htmx."""

import datetime

import pytest
from django.urls import reverse
from django.utils import timezone
from pytest_django.asserts import assertRedirects

from phases.models import SelfCheck
from progress import leitner
from progress.models import CheckOff
from tests.factories import UserFactory, make_due, make_plan, tick
from tests.html import descendants, element_by_id, elements, page_text, with_tag

pytestmark = pytest.mark.django_db

HTMX = {"HTTP_HX_REQUEST": "true"}
REVIEW = reverse("progress:review")
CHECK = "p1-backprop"


def review_answer_url(slug: str = CHECK) -> str:
    return reverse("progress:review-answer", args=[slug])


def days_from_today(n: int) -> datetime.date:
    return timezone.localdate() + datetime.timedelta(days=n)


def schedule_of(user, slug: str = CHECK) -> tuple[str, int, datetime.date, datetime.date | None]:
    row = CheckOff.objects.get(user=user, self_check__slug=slug)
    return row.confidence, row.box, row.due_on, row.reviewed_on


def review_card(response) -> str:
    return element_by_id(response.content, "review-card").text


def prompt(slug: str) -> str:
    return " ".join(SelfCheck.objects.get(slug=slug).prompt.split())


# The queue


def test_the_review_page_lists_only_my_checks_due_the_longest_overdue_first(
    learner_client, learner
):
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


def test_nothing_due_says_so(learner_client, learner):
    tick(learner, CHECK)  # due in three days, not today

    assert review_card(learner_client.get(REVIEW)).startswith("Nothing to review today")


def test_a_retired_check_leaves_the_queue(learner_client, learner):
    from studyplan.caching import content_changed

    tick(learner, CHECK)
    make_due(learner, CHECK)
    SelfCheck.objects.filter(slug=CHECK).update(retired=True)
    content_changed()

    assert review_card(learner_client.get(REVIEW)).startswith("Nothing to review today")


def test_the_review_card_hides_the_answer_until_revealed(learner_client, learner):
    tick(learner, CHECK)
    make_due(learner, CHECK)
    check = SelfCheck.objects.get(slug=CHECK)

    response = learner_client.get(REVIEW)

    card = element_by_id(response.content, "review-card")
    (details,) = [e for e in descendants(card) if e.tag == "details"]
    assert "open" not in details.attrs
    assert details.text == f"Reveal the reference answer {' '.join(check.answer.split())}"
    forms = [
        f
        for f in with_tag(response.content, "form")
        if f.attrs.get("action") == (review_answer_url())
    ]
    assert len(forms) == 2  # knew it, didn't; both work without JavaScript
    assert {f.attrs["hx-post"] for f in forms} == {review_answer_url()}


def test_the_page_states_the_intervals_from_the_leitner_schedule(learner_client):
    text = page_text(learner_client.get(REVIEW).content)

    assert f"after {leitner.intervals_text()}" in text


def test_the_header_says_how_many_reviews_are_due_today(learner_client, learner):
    make_plan(learner)
    tick(learner, "p1-backprop", "p1-validation-vs-test", "p2-fid-direction")
    make_due(learner, "p1-backprop", "p2-fid-direction")

    for page in ("progress:dashboard", "progress:practice", "progress:review"):
        response = learner_client.get(reverse(page))
        assert element_by_id(response.content, "header-review").text == "Review today (2)", page


# Knew it, didn't


def test_knew_it_on_a_due_check_moves_it_up_a_box_and_off_todays_queue(learner_client, learner):
    tick(learner, CHECK)
    make_due(learner, CHECK)

    response = learner_client.post(review_answer_url(), {"knew": "1"})

    assertRedirects(response, REVIEW, fetch_redirect_response=False)
    assert schedule_of(learner) == ("", 2, days_from_today(7), timezone.localdate())
    assert review_card(learner_client.get(REVIEW)).startswith("Nothing to review today")


def test_knew_it_on_a_check_not_yet_due_moves_nothing(learner_client, learner):
    tick(learner, CHECK)  # box 1, due in three days
    before = schedule_of(learner)

    for _ in range(5):
        assert learner_client.post(review_answer_url(), {"knew": "1"}).status_code == 302

    confidence, box, due_on, reviewed_on = schedule_of(learner)
    assert (confidence, box, due_on) == before[:3] == ("", 1, days_from_today(3))
    assert reviewed_on == timezone.localdate()  # recorded, but no promotion


def test_didnt_know_it_sends_a_due_check_back_to_the_first_box_due_tomorrow(
    learner_client, learner
):
    tick(learner, CHECK)
    learner_client.post(
        reverse("progress:selfcheck-confidence", args=[CHECK]), {"confidence": "solid"}
    )
    make_due(learner, CHECK)

    learner_client.post(review_answer_url(), {"knew": "0"})

    assert schedule_of(learner) == ("shaky", 0, days_from_today(1), timezone.localdate())
    assert review_card(learner_client.get(REVIEW)).startswith("Nothing to review today")


def test_didnt_know_it_resets_a_check_even_before_it_is_due(learner_client, learner):
    tick(learner, CHECK)
    learner_client.post(
        reverse("progress:selfcheck-confidence", args=[CHECK]), {"confidence": "solid"}
    )

    learner_client.post(review_answer_url(), {"knew": "0"})

    assert schedule_of(learner)[:3] == ("shaky", 0, days_from_today(1))


def test_reviewing_with_htmx_answers_the_next_card_and_the_headers_new_count(
    learner_client, learner
):
    tick(learner, "p1-backprop", "p2-fid-direction")
    make_due(learner, "p1-backprop", days_ago=2)
    make_due(learner, "p2-fid-direction", days_ago=1)

    response = learner_client.post(review_answer_url("p1-backprop"), {"knew": "1"}, **HTMX)

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

    last = learner_client.post(review_answer_url("p2-fid-direction"), {"knew": "0"}, **HTMX)
    assert review_card(last).startswith("Nothing to review today")
    assert element_by_id(last.content, "header-review").text == "Review today (0)"


def test_an_early_knew_it_with_htmx_keeps_the_count(learner_client, learner):
    tick(learner, "p1-backprop", "p2-fid-direction")
    make_due(learner, "p2-fid-direction")

    response = learner_client.post(review_answer_url("p1-backprop"), {"knew": "1"}, **HTMX)

    assert element_by_id(response.content, "header-review").text == "Review today (1)"


@pytest.mark.parametrize("value", ["", "yes", "2", "true"])
def test_a_review_answer_that_is_not_zero_or_one_is_refused(learner_client, learner, value):
    tick(learner, CHECK)
    make_due(learner, CHECK)
    before = schedule_of(learner)

    assert learner_client.post(review_answer_url(), {"knew": value}).status_code == 400
    assert schedule_of(learner) == before


def test_reviewing_a_check_never_ticked_is_a_404_and_ticks_nothing(learner_client):
    assert learner_client.post(review_answer_url(), {"knew": "1"}).status_code == 404
    assert not CheckOff.objects.exists()


def test_reviewing_an_unknown_check_is_a_404(learner_client):
    assert learner_client.post(review_answer_url("no-such-check"), {"knew": "1"}).status_code == 404
