"""Retrieval, then the rating: on a phase page a self-check is answered from memory (typed if the
learner likes), revealed, then "Got it", "Shaky" or "Not yet"; a "not yet" ticks nothing, is kept
in the review log and comes back the next day, on the Review page. With and without htmx."""

import datetime
import zoneinfo

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone
from pytest_django.asserts import assertRedirects

from phases.models import SelfCheck
from progress.auth import learner_queryset
from progress.dashboard.activity import study_activity
from progress.memory.ticks import Outcome
from progress.models import CheckOff, Confidence, NotYet, Profile, ReviewLog
from progress.verdicts.figures import learner_state
from tests.conftest import HTMX
from tests.factories import (
    UserFactory,
    answer_from_memory,
    make_due,
    make_plan,
    review_from_memory,
    settle_revealed,
    tick,
)
from tests.html import descendants, element_by_id, elements, page_text

pytestmark = pytest.mark.django_db

PHASE = reverse("progress:phase", args=["core-ml-foundations"])
REVIEW = reverse("progress:review")
CHECK = "p1-backprop"
WORDS = ["Got it: mark done", "Shaky: mark done, review sooner", "Not yet"]


def reveal_url(slug: str = CHECK) -> str:
    return reverse("progress:selfcheck-reveal", args=[slug])


def outcome_url(slug: str = CHECK) -> str:
    return reverse("progress:selfcheck-outcome", args=[slug])


def check(slug: str = CHECK) -> SelfCheck:
    return SelfCheck.objects.get(slug=slug)


def row(response, slug: str = CHECK):
    return element_by_id(response.content, f"check-{slug}")


def buttons(element) -> list[str]:
    return [" ".join(e.text.split()) for e in descendants(element) if e.tag == "button"]


def nothing_written(user) -> bool:
    return not (
        CheckOff.objects.filter(user=user).exists()
        or NotYet.objects.filter(user=user).exists()
        or ReviewLog.objects.filter(user=user).exists()
    )


# The reveal


def test_before_the_reveal_a_row_asks_for_an_answer_and_offers_no_outcome(learner_client):
    response = learner_client.get(PHASE)

    shown = row(response)
    assert check().answer not in shown.text
    assert buttons(shown) == ["Reveal the reference answer"]
    (area,) = [e for e in descendants(shown) if e.tag == "textarea"]
    assert area.attrs["name"] == "answer"
    # The page's words say what the buttons do.
    words = page_text(response.content)
    assert "Tick it done only when you got it" not in words
    assert (
        "Got it marks it done; Shaky marks it done and brings it back for review sooner;" in words
    )
    assert "Not yet leaves it open and brings it back tomorrow." in words


def test_a_plain_reveal_redirects_to_the_row_showing_the_reference_my_answer_and_the_outcomes(
    learner_client, learner
):
    response = learner_client.post(reveal_url(), {"answer": "  The chain rule, backwards.  "})

    assertRedirects(response, f"{PHASE}#check-{CHECK}", fetch_redirect_response=False)
    shown = row(learner_client.get(PHASE))
    assert " ".join(check().answer.split()) in shown.text
    assert "Your answer The chain rule, backwards." in shown.text
    assert buttons(shown) == WORDS
    # Revealed survives a reload, and nothing is written but the session.
    assert buttons(row(learner_client.get(PHASE))) == WORDS
    assert nothing_written(learner)
    # Only the check revealed.
    assert buttons(row(learner_client.get(PHASE), "p1-training-stability")) == [
        "Reveal the reference answer"
    ]


def test_a_check_left_turned_over_is_face_down_again_six_hours_later(
    learner_client, learner, monkeypatch
):
    learner_client.post(reveal_url(), {"answer": "The chain rule."})
    assert buttons(row(learner_client.get(PHASE))) == WORDS
    later = timezone.now() + datetime.timedelta(hours=6, minutes=1)
    monkeypatch.setattr(timezone, "now", lambda: later)

    shown = row(learner_client.get(PHASE))

    # The next sitting answers it from memory before it sees the reference again.
    assert buttons(shown) == ["Reveal the reference answer"]
    assert " ".join(check().answer.split()) not in shown.text
    assert learner_client.post(outcome_url(), {"outcome": "got-it"}).status_code == 409
    assert nothing_written(learner)


def test_an_htmx_reveal_answers_with_the_row_alone(learner_client):
    response = learner_client.post(reveal_url(), {"answer": "Gradients."}, **HTMX)

    assert response.status_code == 200
    assert b"<html" not in response.content
    (top,) = [e for e in elements(response.content) if e.depth == 0]
    assert top.attrs["id"] == f"check-{CHECK}"
    assert buttons(top) == WORDS
    assert top.attrs["data-announce"].startswith("The reference answer:")
    (form,) = [e for e in descendants(top) if e.tag == "form"]
    assert form.attrs["action"] == form.attrs["hx-post"] == outcome_url()
    assert form.attrs["hx-target"] == f"#check-{CHECK}"


@pytest.mark.parametrize("answer", ["x" * 4001, "a\x00b"])
@pytest.mark.parametrize("headers", [{}, HTMX], ids=["plain", "htmx"])
def test_an_answer_that_cannot_be_kept_is_a_400_and_reveals_nothing(
    learner_client, learner, answer, headers
):
    response = learner_client.post(reveal_url(), {"answer": answer}, **headers)

    assert response.status_code == 400
    assert "longer than 4000 characters" in response.text
    assert "Nothing was changed." in response.text
    assert learner_client.post(outcome_url(), {"outcome": "got-it"}).status_code == 409
    assert nothing_written(learner)


@pytest.mark.parametrize("name", ["selfcheck-reveal", "selfcheck-outcome"])
def test_an_unknown_or_retired_check_is_a_404(learner_client, name):
    assert learner_client.post(reverse(f"progress:{name}", args=["p9-nothing"])).status_code == 404
    SelfCheck.objects.filter(slug=CHECK).update(retired=True)
    from phases.content import content_changed

    content_changed()
    assert learner_client.post(reverse(f"progress:{name}", args=[CHECK])).status_code == 404


# The outcomes


@pytest.mark.parametrize("headers", [{}, HTMX], ids=["plain", "htmx"])
def test_an_outcome_before_the_reveal_is_refused_and_changes_nothing(
    learner_client, learner, headers
):
    for outcome in Outcome.values:
        response = learner_client.post(outcome_url(), {"outcome": outcome}, **headers)
        assert response.status_code == 409
        assert "Reveal the reference answer first" in response.text
    if headers:
        # htmx swaps the row as it stands, the refusal on it.
        assert buttons(row(response)) == ["Reveal the reference answer"]
    assert nothing_written(learner)


@pytest.mark.parametrize("value", ["", "got it", "GOT-IT", "solid", "1", "x" * 5000])
def test_an_outcome_that_is_none_of_the_three_is_a_400(learner_client, learner, value):
    learner_client.post(reveal_url(), {"answer": ""})

    response = learner_client.post(outcome_url(), {"outcome": value})

    assert response.status_code == 400
    assert "outcome=got-it, outcome=shaky, outcome=not-yet" in response.text
    assert nothing_written(learner)
    # The reveal is still there: nothing lost.
    assert buttons(row(learner_client.get(PHASE))) == WORDS


def test_got_it_ticks_it_as_knew_it_with_what_i_typed_kept_in_the_log(learner_client, learner):
    response = answer_from_memory(learner_client, CHECK, "got-it", answer="The chain rule.")

    assertRedirects(response, f"{PHASE}#check-{CHECK}", fetch_redirect_response=False)
    tick_row = CheckOff.objects.get(user=learner)
    assert (tick_row.confidence, tick_row.reviews) == (Confidence.UNRATED, 1)
    (log,) = ReviewLog.objects.filter(user=learner)
    assert (log.first, log.rating, log.answer) == (True, 3, "The chain rule.")
    shown = row(learner_client.get(PHASE))
    assert "Done: got it" in shown.text
    assert buttons(shown) == ["✓ Done"]
    # The reveal is used up: another outcome needs another reveal.
    assert learner_client.post(outcome_url(), {"outcome": "shaky"}).status_code == 409


def test_shaky_ticks_it_as_hard_so_it_comes_back_sooner_than_got_it(learner_client, learner):
    answer_from_memory(learner_client, CHECK, "shaky")
    answer_from_memory(learner_client, "p1-training-stability", "got-it")

    shaky = CheckOff.objects.get(user=learner, self_check__slug=CHECK)
    got_it = CheckOff.objects.get(user=learner, self_check__slug="p1-training-stability")
    assert shaky.confidence == Confidence.SHAKY
    assert ReviewLog.objects.get(user=learner, self_check__slug=CHECK).rating == 2
    assert shaky.due < got_it.due
    assert "Done: shaky" in row(learner_client.get(PHASE)).text


def test_an_htmx_outcome_answers_the_row_and_the_figures_out_of_band(learner_client, learner):
    response = answer_from_memory(learner_client, CHECK, "got-it", **HTMX)

    top = [e.attrs.get("id") for e in elements(response.content) if e.depth == 0]
    assert top == [f"check-{CHECK}", "phase-progress", "header-readiness"]
    assert "1 of 7" in element_by_id(response.content, "phase-progress").text
    assert row(response).attrs["data-announce"] == "Done: got it."


def test_an_htmx_tick_then_a_rating_each_answer_with_the_learner_s_row_as_it_now_stands(
    learner_client, learner
):
    # Got it with htmx: my row, ticked, in the answer.
    mine = answer_from_memory(learner_client, CHECK, "got-it", **HTMX)
    assert "Done: got it" in row(mine).text
    # Another learner's Shaky on the same check answers with their row, not a copy of mine.
    other = UserFactory()
    client = Client()
    client.force_login(other)
    theirs = answer_from_memory(client, CHECK, "shaky", **HTMX)
    assert "Done: shaky" in row(theirs).text
    # Days later my card is due and I forgot it: the rating, with htmx, then my row says so.
    make_due(learner, CHECK, days_ago=3)
    rated = review_from_memory(learner_client, CHECK, 1, **HTMX)
    assert rated.status_code == 200
    assert "Done: shaky" in row(learner_client.get(PHASE)).text
    # Theirs is theirs still: shaky from the start, untouched by my review.
    assert "Done: shaky" in row(client.get(PHASE)).text
    assert CheckOff.objects.get(user=other).reviews == 1


def test_unticking_needs_no_reveal_and_leaves_the_row_to_answer_again(learner_client, learner):
    tick(learner, CHECK)

    response = learner_client.post(
        reverse("progress:selfcheck-toggle", args=[CHECK]), {"done": "0"}, **HTMX
    )

    assert buttons(row(response)) == ["Reveal the reference answer"]
    assert not CheckOff.objects.filter(user=learner).ticked().exists()


# Not yet


def in_zone(zone: str):
    return timezone.override(zoneinfo.ZoneInfo(zone))


def test_not_yet_ticks_nothing_keeps_the_attempt_and_comes_back_at_the_start_of_my_tomorrow(
    learner_client, learner
):
    Profile.objects.create(user=learner, time_zone="Pacific/Auckland")
    make_plan(learner)

    response = answer_from_memory(learner_client, CHECK, "not-yet", answer="Something about loss?")

    assert response.status_code == 302
    assert not CheckOff.objects.filter(user=learner).exists()
    (log,) = ReviewLog.objects.filter(user=learner)
    assert (log.kind, log.rating, log.answer, log.recalled) == (
        "check",
        1,
        "Something about loss?",
        False,
    )
    # No memory is left behind: a failed attempt raises no recall.
    assert log.stability_after is None
    # A try all the same: a review on the activity calendar, a study day.
    # Read as the next request loads the learner (this test's object predates the request).
    activity = study_activity(
        learner_queryset().get(pk=learner.pk), today=timezone.localdate(), schedule=None
    )
    assert activity.days[timezone.localdate()].reviews == 1
    with in_zone("Pacific/Auckland"):
        tomorrow = timezone.localdate() + datetime.timedelta(days=1)
        due = NotYet.objects.get(user=learner).due
        assert timezone.localtime(due).date() == tomorrow
        assert timezone.localtime(due).time() == datetime.time(0, 0)
    page = learner_client.get(PHASE)
    assert f"Not yet: back on {tomorrow:%a} {tomorrow.day} {tomorrow:%b}" in row(page).text
    assert buttons(row(page)) == ["Reveal the reference answer"]
    assert "0 of 7" in element_by_id(page.content, "phase-progress").text
    state = learner_state(learner, today=timezone.localdate())
    assert (state.report.weighted_recall, state.report.covered) == (0, 0)
    # Not in today's review queue.
    assert "Nothing to review today" in page_text(learner_client.get(REVIEW).content)


def yesterday(user) -> None:
    """As if the learner's "not yet"s had been said a day earlier: each is due now."""
    for row_ in NotYet.objects.filter(user=user):
        row_.tried_at -= datetime.timedelta(days=1)
        row_.due -= datetime.timedelta(days=1)
        row_.save()


def test_the_next_day_a_not_yet_is_on_the_review_page_and_marked_due_on_its_phase_page(
    learner_client, learner
):
    answer_from_memory(learner_client, CHECK, "not-yet")
    yesterday(learner)

    assert "Not yet last time: due again today" in row(learner_client.get(PHASE)).text
    card = element_by_id(learner_client.get(REVIEW).content, "review-card")
    assert card.text.startswith("Review today: 1 left")
    assert " ".join(check().prompt.split()) in card.text
    assert "not yet known last time" in card.text
    assert check().answer not in card.text

    revealed = learner_client.post(reverse("progress:review-reveal"), {"answer": "Backprop."})

    shown = element_by_id(revealed.content, "review-card")
    assert buttons(shown)[:2] == [
        b for b in buttons(shown) if b.startswith(("Got it: mark done", "Shaky: mark done"))
    ]
    assert buttons(shown)[-1] == "Not yet · back tomorrow"
    assert " ".join(check().answer.split()) in shown.text


def test_got_it_on_the_review_page_ticks_a_not_yet_as_its_phase_page_would(learner_client, learner):
    answer_from_memory(learner_client, CHECK, "not-yet")
    yesterday(learner)
    url = reverse("progress:review-answer", args=[CHECK])

    response = review_from_memory(learner_client, CHECK, 3, answer="Backprop.")

    assertRedirects(response, REVIEW, fetch_redirect_response=False)
    tick_row = CheckOff.objects.get(user=learner)
    assert (tick_row.reviews, tick_row.confidence) == (1, Confidence.UNRATED)
    assert not NotYet.objects.filter(user=learner).exists()
    assert list(ReviewLog.objects.filter(user=learner).values_list("rating", "answer")) == [
        (1, ""),
        (3, "Backprop."),
    ]
    # Reviewed today: no second rating until tomorrow.
    assert learner_client.post(url, {"rating": "3"}).status_code == 409


def test_not_yet_again_on_the_review_page_brings_it_back_the_day_after(learner_client, learner):
    answer_from_memory(learner_client, CHECK, "not-yet")
    yesterday(learner)

    review_from_memory(learner_client, CHECK, 1, **HTMX)

    assert not CheckOff.objects.filter(user=learner).exists()
    back = NotYet.objects.get(user=learner).due
    assert timezone.localtime(back).date() == timezone.localdate() + datetime.timedelta(days=1)
    assert ReviewLog.objects.filter(user=learner, rating=1).count() == 2


def test_not_yet_on_a_check_already_ticked_changes_nothing(learner_client, learner):
    learner_client.post(reveal_url(), {"answer": ""})
    tick(learner, CHECK)  # in another tab
    before = CheckOff.objects.get(user=learner).memory

    learner_client.post(outcome_url(), {"outcome": "not-yet"})

    assert CheckOff.objects.get(user=learner).memory == before
    assert not NotYet.objects.filter(user=learner).exists()


def test_saying_not_yet_first_never_leaves_a_tick_better_than_ticking_at_once(learner):
    other = UserFactory()
    now = timezone.now()
    check_id = check().pk
    for day in range(5):
        settle_revealed(
            learner,
            self_check_id=check_id,
            outcome=Outcome.NOT_YET,
            answer="",
            now=now + datetime.timedelta(days=day),
        )
    # Five failed attempts buy no recall and no coverage.
    state = learner_state(learner, today=timezone.localdate())
    assert (state.report.weighted_recall, state.report.covered) == (0, 0)

    later = now + datetime.timedelta(days=5)
    for user in (learner, other):
        settle_revealed(user, self_check_id=check_id, outcome=Outcome.GOT_IT, answer="", now=later)

    mine, theirs = (CheckOff.objects.get(user=user) for user in (learner, other))
    assert mine.stability <= theirs.stability
    assert mine.due <= theirs.due


def test_another_learners_not_yet_is_neither_on_my_page_nor_in_my_queue(learner_client, learner):
    other = UserFactory()
    settle_revealed(
        other,
        self_check_id=check().pk,
        outcome=Outcome.NOT_YET,
        answer="",
        now=timezone.now() - datetime.timedelta(days=1),
    )

    assert "Not yet" not in row(learner_client.get(PHASE)).text
    assert "Nothing to review today" in page_text(learner_client.get(REVIEW).content)
    response = learner_client.post(reverse("progress:review-answer", args=[CHECK]), {"rating": "3"})
    assert response.status_code == 404
    assert NotYet.objects.filter(user=other).exists()
    assert not CheckOff.objects.filter(self_check__slug=CHECK).exists()
