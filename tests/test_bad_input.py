"""Bad input gets a clear 4xx and changes nothing; never a 500."""

import datetime
import urllib.parse

import pytest
from django.urls import reverse
from django.utils import timezone
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from phases.models import Question, SelfCheck
from progress.models import Attempt, AttemptQuestion, CheckOff, QuestionCard, StudyPlan
from tests.factories import (
    AttemptFactory,
    drill_for,
    items_of,
    make_due,
    make_missed_due,
    make_plan,
    miss,
    mock_for,
    practise,
    tick,
)
from tests.html import links

pytestmark = pytest.mark.django_db

CHOOSE = reverse("progress:plan-choose")
TODAY = timezone.localdate()


def state_of(user) -> tuple:
    """The plan, the standing ticks, and the unticked checks (an untick keeps the card's row)."""
    plan = StudyPlan.objects.filter(user=user).values_list(
        "intensity__slug", "start_date", "exam_date"
    )
    cards = CheckOff.objects.filter(user=user)
    ticks = cards.ticked().values_list("self_check__slug", flat=True)
    unticked = cards.filter(unticked_at__isnull=False).values_list("self_check__slug", flat=True)
    return tuple(plan), tuple(sorted(ticks)), tuple(sorted(unticked))


@pytest.fixture
def settled(learner):
    make_plan(learner, intensity="standard", exam_in=60)
    tick(learner, "p1-backprop")
    return learner


@pytest.mark.parametrize(
    ("form", "message"),
    [
        ({"intensity": "standard", "start_date": "2026-02-30"}, "Enter the start date as a date"),
        ({"intensity": "standard", "start_date": "yesterday"}, "Enter the start date as a date"),
        ({"intensity": "standard", "start_date": "9" * 300}, "Enter the start date as a date"),
        (
            {"intensity": "turbo", "start_date": TODAY.isoformat()},
            "Choose one of the schedules: fast track, standard, extended.",
        ),
        (
            {"intensity": "x" * 5000, "start_date": TODAY.isoformat()},
            "Choose one of the schedules: fast track, standard, extended.",
        ),
        ({"intensity": "standard", "start_date": "0001-01-01"}, "within a year of today"),
        (
            {
                # Both ahead: only their order is wrong (a day passed is refused for that).
                "intensity": "standard",
                "start_date": (TODAY + datetime.timedelta(days=10)).isoformat(),
                "exam_date": (TODAY + datetime.timedelta(days=9)).isoformat(),
            },
            "cannot be before your start date",
        ),
        (
            {"intensity": "standard", "start_date": TODAY.isoformat(), "exam_date": "9999-12-31"},
            "within three years",
        ),
        ({"intensity": "standard\x00", "start_date": "2026-01-01\x00"}, "Null characters"),
        ({}, "This field is required."),
    ],
)
def test_a_bad_schedule_form_says_why_and_changes_nothing(learner_client, settled, form, message):
    before = state_of(settled)
    for url in (CHOOSE, reverse("progress:plan-preview")):
        send = learner_client.post if url == CHOOSE else learner_client.get
        response = send(url, form)
        assert response.status_code == 400, (url, response.status_code)
        assert message in response.text
    assert state_of(settled) == before


@pytest.mark.parametrize(
    ("method", "name", "args"),
    [
        ("get", "progress:selfcheck-toggle", ["p1-backprop"]),
        ("get", "progress:account-delete", []),
        ("post", "progress:dashboard", []),
        ("post", "progress:plan", []),
        ("post", "progress:plan-calendar", []),
        ("post", "progress:phase", ["core-ml-foundations"]),
        ("post", "progress:account-export", []),
        ("put", "progress:plan-choose", []),
        ("delete", "progress:selfcheck-toggle", ["p1-backprop"]),
        ("get", "progress:drill-start", []),
        ("get", "progress:mock-start", []),
        ("get", "progress:review-answer", ["p1-backprop"]),
        ("get", "progress:review-question", [1]),
        ("put", "progress:review-question", [1]),
        ("get", "progress:selfcheck-reveal", ["p1-backprop"]),
        ("get", "progress:selfcheck-outcome", ["p1-backprop"]),
        ("post", "progress:practice", []),
        ("post", "progress:practice-history", []),
        ("post", "progress:review", []),
        ("post", "progress:study", []),
    ],
)
def test_the_wrong_method_is_405_and_changes_nothing(learner_client, settled, method, name, args):
    before = state_of(settled)
    response = getattr(learner_client, method)(reverse(name, args=args))
    assert response.status_code == 405
    assert state_of(settled) == before
    assert not Attempt.objects.exists()


@pytest.mark.parametrize(
    "path",
    [
        "/study/no-such-phase/",
        "/study/checks/no-such-check/",
        "/study/checks/" + "a" * 3000 + "/",
        "/study/checks/%00/",
        "/study/checks/../../etc/passwd/",
        "/plan/calendar.ics/extra",
        "/account/export.json/../../admin/",
    ],
)
def test_unknown_addresses_are_refused_and_change_nothing(learner_client, settled, path):
    before = state_of(settled)
    for method in ("get", "post"):
        response = getattr(learner_client, method)(path, {"done": "1"})
        # 404, or 405 where the address shape exists but only for the other method.
        assert response.status_code in (404, 405), (method, path[:80], response.status_code)
    assert state_of(settled) == before


def test_an_unknown_self_check_is_404_with_a_clear_message(learner_client, settled):
    response = learner_client.post("/study/checks/no-such-check/", {"done": "1"})
    assert response.status_code == 404
    assert "No such self-check in the current syllabus." in response.text


def test_an_oversized_body_is_refused_with_400(learner_client, settled):
    before = state_of(settled)
    response = learner_client.post(
        reverse("progress:selfcheck-toggle", args=["p2-fid-direction"]),
        {"done": "1", "padding": "x" * 3_000_000},
    )
    assert response.status_code == 400
    assert state_of(settled) == before


def test_an_oversized_sign_up_says_why(client, syllabus):
    response = client.post(
        reverse("account_signup"),
        {"username": "u" * 500, "password1": "a-Long-pass-9981", "password2": "a-Long-pass-9981"},
    )
    assert response.status_code == 400
    assert "at most 150 characters" in response.text


# A practice attempt's questions, options and flags


def stored(attempt: Attempt) -> tuple[list[dict], list[dict]]:
    """Every column of the attempt and its questions: to show a request changed nothing."""
    return (
        list(Attempt.objects.filter(pk=attempt.pk).values()),
        list(AttemptQuestion.objects.filter(attempt=attempt).order_by("position").values()),
    )


def attempt_url(attempt: Attempt, q: str) -> str:
    return f"{reverse('progress:attempt', args=[attempt.pk])}?q={q}"


@pytest.fixture
def mock(learner, settings):
    settings.MOCK_QUESTIONS = 60
    settings.MOCK_MINUTES = 60
    return mock_for(learner)


@pytest.mark.parametrize(
    "options",
    [["9"], ["5"], ["-1"], ["a"], [""], ["0", "x"], ["1.0"], ["²"], ["0x1"], [" 1"]],
    ids=[
        "nine",
        "five",
        "negative",
        "letter",
        "empty",
        "one-bad",
        "float",
        "superscript",
        "hex",
        "space",
    ],
)
@pytest.mark.parametrize("kind", ["mock", "drill"])
def test_an_option_that_is_not_one_of_the_questions_is_refused(
    learner, learner_client, settings, options, kind
):
    settings.MOCK_QUESTIONS = 60
    attempt = mock_for(learner) if kind == "mock" else drill_for(learner)
    # The five-option questions make "5" valid; pick a four-option one.
    item = next(i for i in items_of(attempt) if len(i.question.options) == 4)
    before = stored(attempt)

    response = learner_client.post(
        reverse("progress:attempt-answer", args=[attempt.pk, item.position]), {"option": options}
    )

    assert response.status_code == 400
    assert stored(attempt) == before


@pytest.mark.parametrize("q", ["999", "0", "61", "-1", "abc", "", "1.5", "²", "١"])
def test_a_question_number_outside_the_attempt_is_a_404(learner_client, mock, q):
    before = stored(mock)

    assert learner_client.get(attempt_url(mock, q)).status_code == 404
    assert stored(mock) == before


@pytest.mark.parametrize("position", [0, 61, 999])
def test_posting_to_a_position_outside_the_attempt_is_a_404(learner_client, mock, position):
    before = stored(mock)

    for name, data in [
        ("progress:attempt-answer", {"option": "0"}),
        ("progress:attempt-answer", {"then": "flag"}),
    ]:
        assert learner_client.post(reverse(name, args=[mock.pk, position]), data).status_code == 404
    assert stored(mock) == before


def test_attempt_actions_refuse_get(learner_client, mock):
    before = stored(mock)

    for name, args in [
        ("progress:attempt-answer", [mock.pk, 1]),
        ("progress:attempt-submit", [mock.pk]),
    ]:
        assert learner_client.get(reverse(name, args=args)).status_code == 405
    assert stored(mock) == before


@pytest.mark.parametrize("kind", ["", "quiz", "drill'--", "x" * 500])
def test_an_unknown_history_filter_shows_every_kind(learner_client, learner, kind):
    drill = practise(learner, "core-ml", right=1)
    mock = AttemptFactory(user=learner, mock=True, submitted=True)

    response = learner_client.get(reverse("progress:practice-history"), {"kind": kind})

    assert response.status_code == 200
    for attempt in (drill, mock):
        assert reverse("progress:attempt-result", args=[attempt.pk]) in links(response.content)


# A review's rating: one of FSRS's four, by number


RATING_HELP = "Say rating=1 (forgot), 2 (hard), 3 (knew it) or 4 (easy). Nothing was changed."


@pytest.fixture
def reviewer(settled):
    """A learner with a ticked check and a missed question, both due for review."""
    make_due(settled, "p1-backprop")
    (card,) = miss(settled, Question.objects.current().filter(domain__slug="core-ml").first())
    make_missed_due(settled, card)
    return settled, card


def review_state(user) -> tuple[list[dict], list[dict]]:
    """Every column of the learner's cards: to show a review changed nothing."""
    return (
        list(CheckOff.objects.filter(user=user).order_by("pk").values()),
        list(QuestionCard.objects.filter(user=user).order_by("pk").values()),
    )


def review_urls(card: QuestionCard) -> list[str]:
    return [
        reverse("progress:review-answer", args=["p1-backprop"]),
        reverse("progress:review-question", args=[card.pk]),
    ]


@pytest.mark.parametrize(
    "form",
    [
        {"rating": "0"},
        {"rating": "5"},
        {"rating": "-1"},
        {"rating": ""},
        {"rating": "3.0"},
        {"rating": "three"},
        {"rating": "Good"},
        {"rating": "knew it"},
        {"rating": "0x3"},
        {"knew": "1"},  # the old Leitner form
        {},
    ],
    ids=[
        "zero",
        "five",
        "negative",
        "empty",
        "float",
        "word",
        "fsrs-name",
        "button-words",
        "hex",
        "old-knew-form",
        "missing",
    ],
)
@pytest.mark.parametrize("htmx", [False, True], ids=["plain", "htmx"])
def test_a_rating_that_is_not_one_to_four_is_a_400_that_says_so(
    learner_client, reviewer, form, htmx
):
    learner, card = reviewer
    before = review_state(learner)
    headers = {"HTTP_HX_REQUEST": "true"} if htmx else {}

    # A self-check is rated; a missed question is answered (progress.memory.review_page).
    response = learner_client.post(review_urls(card)[0], form, **headers)
    assert response.status_code == 400
    assert response.text == RATING_HELP

    assert review_state(learner) == before


@pytest.mark.parametrize("card_id", [0, 999999])
def test_reviewing_a_missed_question_card_that_does_not_exist_is_a_404(
    learner_client, reviewer, card_id
):
    learner, _ = reviewer
    before = review_state(learner)

    response = learner_client.post(
        reverse("progress:review-question", args=[card_id]), {"rating": "3"}
    )

    assert response.status_code == 404
    assert "This question is not in your review queue." in response.text
    assert review_state(learner) == before


@pytest.mark.parametrize(
    "path",
    [
        "/review/questions/-1/",
        "/review/questions/1.5/",
        "/review/questions/abc/",
        "/review/questions/%00/",
        "/review/questions/",
        "/review/questions/1/extra/",
    ],
)
def test_a_missed_question_address_that_is_no_card_id_is_refused(learner_client, reviewer, path):
    learner, _ = reviewer
    before = review_state(learner)

    response = learner_client.post(path, {"rating": "3"})

    assert response.status_code == 404
    assert review_state(learner) == before


# Property-based: whatever arrives, the answer is never a 5xx and nothing unintended is written.

any_text = st.text(max_size=40)
date_like = st.one_of(
    st.dates(min_value=datetime.date(1, 1, 1), max_value=datetime.date(9999, 12, 31)).map(
        datetime.date.isoformat
    ),
    st.dates(
        min_value=TODAY - datetime.timedelta(days=400), max_value=TODAY + datetime.timedelta(400)
    ).map(datetime.date.isoformat),
    any_text,
)
FUZZ = settings(
    max_examples=60,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)


@FUZZ
@given(
    intensity=st.one_of(st.sampled_from(["fast-track", "standard", "extended"]), any_text),
    start=date_like,
    exam=st.one_of(st.just(""), date_like),
)
def test_the_schedule_form_never_fails_and_writes_only_what_it_accepts(
    learner_client, settled, intensity, start, exam
):
    before = state_of(settled)
    form = {"intensity": intensity, "start_date": start, "exam_date": exam}

    preview = learner_client.get(reverse("progress:plan-preview"), form, HTTP_HX_REQUEST="true")
    assert preview.status_code < 500
    assert state_of(settled) == before

    response = learner_client.post(CHOOSE, form)
    assert response.status_code in (302, 400)
    if response.status_code == 400:
        assert state_of(settled) == before
    else:
        plan = StudyPlan.objects.get(user=settled)
        assert plan.intensity.slug == intensity
        assert plan.exam_date == (datetime.date.fromisoformat(exam) if exam else None)
        assert state_of(settled)[1:] == before[1:]  # a schedule change never touches ticks


@FUZZ
@given(
    rating=st.one_of(st.sampled_from(["1", "2", "3", "4"]), any_text),
    kind=st.sampled_from(["check", "question"]),
    htmx=st.booleans(),
)
def test_a_review_never_fails_and_records_only_a_rating_it_accepts(
    learner_client, reviewer, rating, kind, htmx
):
    learner, card = reviewer
    check_url, question_url = review_urls(card)
    url, row = (
        (check_url, CheckOff.objects.get(user=learner))
        if kind == "check"
        else (question_url, QuestionCard.objects.get(pk=card.pk))
    )
    headers = {"HTTP_HX_REQUEST": "true"} if htmx else {}
    before = review_state(learner)

    # A missed question is answered by the places of its options as shown, 1 to 4.
    field = "rating" if kind == "check" else "option"
    response = learner_client.post(url, {field: rating}, **headers)

    assert response.status_code < 500
    # A question answered right twice in a row has left the queue (earlier examples review the
    # same card): then no rating reaches it.
    in_queue = kind == "check" or row.left_at is None
    if rating in ("1", "2", "3", "4") and in_queue:
        # A card reviewed by an earlier example today takes no other review until tomorrow.
        assert response.status_code in ((200 if htmx else 302), 409)
    after = review_state(learner)
    if response.status_code < 400:
        # One review, of the card named, and nothing else.
        assert type(row).objects.get(pk=row.pk).reviews == row.reviews + 1
        changed = [
            (table, new["id"])
            for table in (0, 1)
            for old, new in zip(before[table], after[table], strict=True)
            if old != new
        ]
        assert changed == [(0 if kind == "check" else 1, row.pk)]
    else:
        assert after == before


@FUZZ
@given(
    slug=st.one_of(st.sampled_from(["p1-backprop", "p2-fid-direction"]), any_text),
    done=st.one_of(st.sampled_from(["0", "1"]), any_text),
    htmx=st.booleans(),
)
def test_the_toggle_never_fails_and_changes_only_the_check_it_names(
    learner_client, settled, slug, done, htmx
):
    plan, ticks, unticked = state_of(settled)
    before, before_unticked = set(ticks), set(unticked)
    headers = {"HTTP_HX_REQUEST": "true"} if htmx else {}
    url = f"/study/checks/{urllib.parse.quote(slug, safe='')}/"

    response = learner_client.post(url, {"done": done}, **headers)

    assert response.status_code < 500
    after_plan, ticks, unticked = state_of(settled)
    after, after_unticked = set(ticks), set(unticked)
    assert after_plan == plan
    real = slug in set(SelfCheck.objects.current().values_list("slug", flat=True))
    # done=1 is refused: a tick is said after the reveal (progress.memory.phase_page).
    if real and done == "0":
        assert response.status_code in (200, 302)
        assert after == before - {slug}
        # An untick keeps the card, unticked; a check never ticked gets no row.
        assert after_unticked == before_unticked | (before & {slug})
    else:
        assert 400 <= response.status_code < 500
        assert (after, after_unticked) == (before, before_unticked)
