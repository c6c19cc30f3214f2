"""Drills and the timed mock through their pages: starting, answering, flagging, handing in,
results and history, and the rules that keep practice honest (a live mock counts nowhere, drills
wait while a mock is open, unanswered counts as wrong, one open mock per learner)."""

import datetime
from collections import Counter

import pytest
from django.db import IntegrityError, transaction
from django.test import Client
from django.urls import reverse
from django.utils import timezone
from pytest_django.asserts import assertContains, assertRedirects

from phases.models import Domain, Question
from progress.models import Attempt, AttemptQuestion, QuestionCard
from progress.practice import scoring as practice
from progress.practice import services
from tests.factories import (
    AttemptFactory,
    AttemptQuestionFactory,
    UserFactory,
    domain_names,
    items_of,
    make_plan,
    mock_for,
    practise,
    shown,
    tick,
    wrong_option,
)
from tests.html import (
    element_by_id,
    heading,
    links,
    page_text,
    table_rows,
    with_class,
    with_tag,
    without_csrf,
)

pytestmark = pytest.mark.django_db

DRILL_START = reverse("progress:drill-start")
MOCK_START = reverse("progress:mock-start")
PRACTICE = reverse("progress:practice")
HISTORY = reverse("progress:practice-history")
DASHBOARD = reverse("progress:dashboard")
REVIEW = reverse("progress:review")
# A 60-question mock by exam weight: 60 x 25% = 15, 60 x 20% = 12, and so on.
MOCK_60 = {
    "experimentation": 15,
    "core-ml": 12,
    "multimodal-data": 9,
    "software-development": 9,
    "data-analysis": 6,
    "performance-optimization": 6,
    "trustworthy-ai": 3,
}


def attempt_url(attempt: Attempt, q: int | str | None = None) -> str:
    url = reverse("progress:attempt", args=[attempt.pk])
    return url if q is None else f"{url}?q={q}"


def answer_url(attempt: Attempt, position: int) -> str:
    return reverse("progress:attempt-answer", args=[attempt.pk, position])


def flag(client, attempt: Attempt, position: int):
    """The question's flag button: it saves the (here empty) choice and turns the flag over."""
    return client.post(answer_url(attempt, position), {"then": "flag"})


def flagged_url(attempt: Attempt) -> str:
    return reverse("progress:attempt-flagged", args=[attempt.pk])


def submit_url(attempt: Attempt) -> str:
    return reverse("progress:attempt-submit", args=[attempt.pk])


def hand_in(client: Client, attempt: Attempt):
    """The hand-in button of the page before handing in, as it is when more than half the mock
    is unanswered: it says so first, and its button confirms."""
    return client.post(submit_url(attempt), {"confirmed": "1"})


def result_url(attempt: Attempt) -> str:
    return reverse("progress:attempt-result", args=[attempt.pk])


def item_at(attempt: Attempt, position: int) -> AttemptQuestion:
    return AttemptQuestion.objects.select_related("question__domain").get(
        attempt=attempt, position=position
    )


def right_options(item: AttemptQuestion) -> list[str]:
    return shown(item, item.question.correct_options)


def wrong_options(item: AttemptQuestion) -> list[str]:
    # As many boxes as the question asks for, one of them wrong.
    return shown(item, wrong_indices(item))


def right_indices(item: AttemptQuestion) -> list[int]:
    """The right options as stored (what services.answer and the row hold)."""
    return sorted(item.question.correct_options)


def wrong_indices(item: AttemptQuestion) -> list[int]:
    right = sorted(item.question.correct_options)
    return sorted([wrong_option(item.question), *right[1:]])


def stored(attempt: Attempt) -> tuple[list[dict], list[dict]]:
    """Every column of the attempt and its questions: to show a request changed nothing."""
    return (
        list(Attempt.objects.filter(pk=attempt.pk).values()),
        list(AttemptQuestion.objects.filter(attempt=attempt).order_by("position").values()),
    )


def eyebrow(response) -> str:
    (element,) = with_class(response.content, "eyebrow")
    return element.text


def result_rows(response) -> list[list[str]]:
    """The per-domain score table of a result page: name, right, answered, skipped, score, true
    accuracy."""
    return table_rows(response.content)


def practice_accuracy(response) -> dict[str, str]:
    """The practice page's accuracy cell per domain slug."""
    by_name = {name: slug for slug, name in domain_names().items()}
    return {by_name[cells[0]]: cells[2] for cells in table_rows(response.content)}


def dashboard_accuracy(response) -> dict[str, str]:
    """Each domain's "Accuracy (practice)" cell on the dashboard, found by its column's label."""
    by_name = {name: slug for slug, name in domain_names().items()}
    accuracy = {}
    for row in with_tag(response.content, "tr"):
        cells = [cell for cell in row.children if cell.tag in ("th", "td")]
        slugs = [slug for name, slug in by_name.items() if cells and cells[0].text.startswith(name)]
        for cell in cells[1:] if slugs else []:
            if cell.attrs.get("data-label") == "Accuracy (practice)":
                accuracy[slugs[0]] = cell.text
    return accuracy


def answer(client: Client, attempt: Attempt, item: AttemptQuestion, options: list[str]):
    return client.post(answer_url(attempt, item.position), {"option": options})


@pytest.fixture
def mock_settings(settings):
    settings.MOCK_QUESTIONS = 60
    settings.MOCK_MINUTES = 60
    return settings


def start_mock(client: Client) -> Attempt:
    response = client.post(MOCK_START)
    assert response.status_code == 302
    attempt = Attempt.objects.get(pk=int(response.url.rstrip("/").split("/")[-1]))
    assertRedirects(response, attempt_url(attempt), fetch_redirect_response=False)
    return attempt


def start_drill(client: Client, domain: str = "core-ml") -> Attempt:
    response = client.post(DRILL_START, {"domain": domain})
    assert response.status_code == 302, response.status_code
    attempt = Attempt.objects.get(pk=int(response.url.rstrip("/").split("/")[-1]))
    assertRedirects(response, attempt_url(attempt), fetch_redirect_response=False)
    return attempt


def run_out_of_time(attempt: Attempt) -> datetime.datetime:
    """Move a mock's deadline into the past, as the clock would. A cached dashboard is kept at
    most until the deadline it saw, so the learner's pages are retired as the clock would."""
    deadline = timezone.now() - datetime.timedelta(seconds=1)
    Attempt.objects.filter(pk=attempt.pk).update(deadline=deadline)
    return deadline


# Drills


@pytest.mark.parametrize("domain", list(MOCK_60))
def test_a_drill_is_ten_different_questions_from_the_chosen_domain(learner_client, learner, domain):
    attempt = start_drill(learner_client, domain)

    items = items_of(attempt)
    assert (attempt.user, attempt.kind, attempt.domain.slug) == (
        learner,
        Attempt.Kind.DRILL,
        domain,
    )
    assert [item.position for item in items] == list(range(1, practice.DRILL_LENGTH + 1))
    assert {item.question.domain.slug for item in items} == {domain}
    assert len({item.question_id for item in items}) == practice.DRILL_LENGTH


@pytest.mark.parametrize("domain", ["", "astrology", "core-ml' OR 1=1"])
def test_a_drill_of_an_unknown_domain_is_refused_and_starts_nothing(learner_client, domain):
    response = learner_client.post(DRILL_START, {"domain": domain})

    assert response.status_code == 400
    assert not Attempt.objects.exists()


def test_a_drill_draws_the_questions_the_learner_has_not_seen_first(learner_client, learner):
    pool = list(Question.objects.current().filter(domain__slug="core-ml").order_by("pk"))
    seen, unseen = pool[:-10], pool[-10:]
    earlier = AttemptFactory(user=learner, drill=True, submitted=True)
    for question in seen:
        AttemptQuestionFactory(attempt=earlier, question=question, right=True)

    attempt = start_drill(learner_client, "core-ml")

    assert {item.question_id for item in items_of(attempt)} == {q.pk for q in unseen}


def test_the_practice_page_suggests_drilling_the_lagging_domain(learner_client, learner):
    make_plan(learner)
    practise(learner, "data-analysis", right=2, wrong=8)  # practised, 20%: 10 x 0.5 behind

    response = learner_client.get(PRACTICE)

    (selected,) = [e for e in with_tag(response.content, "option") if "selected" in e.attrs]
    assert selected.attrs["value"] == "data-analysis"
    assert selected.text.endswith(": lagging")


def test_on_plan_the_practice_page_suggests_nothing(learner_client, learner):
    make_plan(learner)

    response = learner_client.get(PRACTICE)

    assert not [e for e in with_tag(response.content, "option") if "selected" in e.attrs]
    assert "lagging" not in page_text(response.content)


def test_a_drill_question_page_shows_the_prompt_and_every_option(learner_client):
    attempt = start_drill(learner_client)
    item = item_at(attempt, 1)

    response = learner_client.get(attempt_url(attempt))

    assert response.status_code == 200
    assert f"question 1 of {practice.DRILL_LENGTH}" in eyebrow(response)
    assert heading(response.content) == " ".join(item.question.prompt.split())
    inputs = [e for e in with_tag(response.content, "input") if e.attrs.get("name") == "option"]
    # Each value is the option's place on the page, which says nothing about the key.
    assert [int(e.attrs["value"]) for e in inputs] == list(range(1, len(item.question.options) + 1))
    kind = "checkbox" if len(item.question.correct_options) > 1 else "radio"
    assert {e.attrs["type"] for e in inputs} == {kind}
    labels = [e.text for e in with_class(response.content, "option")]
    assert sorted(labels) == sorted(" ".join(o["text"].split()) for o in item.question.options)
    assert "Why:" not in page_text(response.content)


def test_answering_a_drill_question_shows_feedback_with_the_explanation(learner_client):
    attempt = start_drill(learner_client)
    item = item_at(attempt, 1)

    response = answer(learner_client, attempt, item, right_options(item))

    assertRedirects(response, attempt_url(attempt, 1), fetch_redirect_response=False)
    page = learner_client.get(response.url)
    (feedback,) = with_class(page.content, "feedback")
    assert feedback.text == "Right."
    (explanation,) = with_class(page.content, "explanation")
    assert explanation.text == "Why: " + " ".join(item.question.explanation.split())
    assertContains(page, f'href="{attempt_url(attempt, 2)}"')
    item.refresh_from_db()
    assert item.is_correct is True
    assert item.chosen == right_indices(item)


def test_a_wrong_drill_answer_says_so_and_marks_the_right_one(learner_client):
    attempt = start_drill(learner_client)
    # One right answer, so the learner's single choice is the only wrong one marked.
    item = next(i for i in items_of(attempt) if len(i.question.correct_options) == 1)

    answer(learner_client, attempt, item, wrong_options(item))

    page = learner_client.get(attempt_url(attempt, item.position))
    (feedback,) = with_class(page.content, "feedback")
    assert feedback.text == "Not quite."
    correct_texts = sorted(e.text for e in with_class(page.content, "option-correct"))
    expected = sorted(
        " ".join(item.question.options[i]["text"].split()) + " Correct"
        for i in item.question.correct_options
    )
    assert correct_texts == expected
    (chosen,) = with_class(page.content, "option-wrong")
    assert chosen.text.endswith("Your answer")


def test_a_drill_answer_cannot_be_changed_after_its_feedback(learner_client):
    attempt = start_drill(learner_client)
    item = item_at(attempt, 1)
    answer(learner_client, attempt, item, wrong_options(item))
    before = stored(attempt)

    response = answer(learner_client, attempt, item, right_options(item))

    assert response.status_code == 302
    assert stored(attempt) == before


def test_a_drill_answer_must_choose_something(learner_client):
    attempt = start_drill(learner_client)
    before = stored(attempt)

    response = learner_client.post(answer_url(attempt, 1), {})

    assert response.status_code == 400
    assert stored(attempt) == before


def test_after_every_answer_the_drill_shows_its_result(learner_client):
    attempt = start_drill(learner_client, "experimentation")
    for item in items_of(attempt):
        options = right_options(item) if item.position <= 7 else wrong_options(item)
        answer(learner_client, attempt, item, options)

    response = learner_client.get(attempt_url(attempt))

    assertRedirects(response, result_url(attempt))
    result = learner_client.get(result_url(attempt))
    assert heading(result.content) == "7 of 10 right (70%)"
    assert result_rows(result) == [
        ["Experimentation", "7", "10", "0", "70% 70%", "80% range 49–83%"]
    ]


def test_a_drill_result_before_the_last_answer_sends_back_to_the_questions(learner_client):
    attempt = start_drill(learner_client)
    answer(learner_client, attempt, item_at(attempt, 1), right_options(item_at(attempt, 1)))

    response = learner_client.get(result_url(attempt))

    assertRedirects(response, attempt_url(attempt), fetch_redirect_response=False)


def test_a_drill_can_be_finished_early_from_its_feedback(learner_client):
    attempt = start_drill(learner_client)
    answer(learner_client, attempt, item_at(attempt, 1), wrong_options(item_at(attempt, 1)))

    page = learner_client.get(attempt_url(attempt, 1))

    (form,) = [
        e for e in with_tag(page.content, "form") if e.attrs.get("action") == submit_url(attempt)
    ]
    assert form.attrs["method"] == "post"
    assert "Finish the drill now (1 answered)" in form.text
    assertRedirects(
        learner_client.post(submit_url(attempt)), result_url(attempt), fetch_redirect_response=False
    )
    assert heading(learner_client.get(result_url(attempt)).content) == "0 of 1 right (0%)"


def test_a_drill_with_nothing_answered_cannot_be_handed_in(learner_client):
    attempt = start_drill(learner_client)
    before = stored(attempt)

    response = learner_client.post(submit_url(attempt))

    assert response.status_code == 400
    assert "Answer at least one question" in response.text
    assert stored(attempt) == before
    assertRedirects(
        learner_client.get(result_url(attempt)), attempt_url(attempt), fetch_redirect_response=False
    )


def test_a_handed_in_drill_shows_the_keys_of_the_answered_questions_only(learner_client):
    attempt = start_drill(learner_client)
    items = items_of(attempt)
    answered, skipped = items[:3], items[3:]
    for item in answered:
        answer(learner_client, attempt, item, right_options(item))

    assertRedirects(
        learner_client.post(submit_url(attempt)), result_url(attempt), fetch_redirect_response=False
    )
    result = learner_client.get(result_url(attempt))

    assert heading(result.content) == "3 of 3 right (100%)"
    assert len(with_class(result.content, "result-item")) == 3
    assert len(with_class(result.content, "explanation")) == 3
    html = result.content.decode()
    for item in skipped:
        assert item.question.explanation not in html
        for option in item.question.options:
            assert option["text"] not in html
    assert "7 questions you did not answer are left out" in page_text(result.content)


# The timed mock


def test_a_mock_draws_its_questions_by_exam_weight_with_a_deadline(
    learner_client, learner, mock_settings
):
    before = timezone.now()
    attempt = start_mock(learner_client)
    after = timezone.now()

    items = items_of(attempt)
    assert attempt.kind == Attempt.Kind.MOCK
    assert Counter(item.question.domain.slug for item in items) == MOCK_60
    assert len({item.question_id for item in items}) == 60
    minutes = datetime.timedelta(minutes=60)
    assert before + minutes <= attempt.deadline <= after + minutes
    assert attempt.submitted_at is None


def test_the_mock_length_and_time_come_from_settings(learner_client, settings):
    settings.MOCK_QUESTIONS = 10
    settings.MOCK_MINUTES = 15

    attempt = start_mock(learner_client)

    assert Counter(item.question.domain.slug for item in items_of(attempt)) == {
        "experimentation": 3,  # 2.5, and the largest remainders go first
        "core-ml": 2,
        "multimodal-data": 2,  # 1.5
        "software-development": 1,  # 1.5, but the remainder ties go in slug order
        "data-analysis": 1,
        "performance-optimization": 1,
    }
    assert attempt.deadline - attempt.started_at == datetime.timedelta(minutes=15)
    assertContains(learner_client.get(PRACTICE), "10 questions drawn by exam weight in 15 minutes")


def test_a_mock_draws_the_questions_the_learner_has_not_seen_first(
    learner_client, learner, settings
):
    settings.MOCK_QUESTIONS = 10
    weights = dict(Domain.objects.values_list("slug", "exam_weight"))
    pools = {
        slug: list(Question.objects.current().filter(domain__slug=slug).order_by("pk"))
        for slug in weights
    }
    counts = practice.mock_counts(weights, 10, {slug: len(pool) for slug, pool in pools.items()})
    # Everything seen but, in each domain, exactly as many questions as the mock takes there.
    unseen = {q.pk for slug, pool in pools.items() for q in pool[: counts[slug]]}
    earlier = AttemptFactory(user=learner, drill=True, submitted=True)
    for pool in pools.values():
        for question in pool:
            if question.pk not in unseen:
                AttemptQuestionFactory(attempt=earlier, question=question)

    attempt = start_mock(learner_client)

    assert {item.question_id for item in items_of(attempt)} == unseen


def test_starting_a_mock_while_one_is_open_resumes_it(learner_client, learner, mock_settings):
    first = start_mock(learner_client)

    second = start_mock(learner_client)

    assert second.pk == first.pk
    assert Attempt.objects.filter(user=learner).count() == 1
    page = learner_client.get(PRACTICE)
    assertContains(page, f'href="{attempt_url(first)}"')
    assertContains(page, "Resume your mock")


def test_the_start_mock_service_twice_in_a_row_returns_the_same_mock(learner, mock_settings):
    first = mock_for(learner, seed=1)
    second = mock_for(learner, seed=2)

    assert second.pk == first.pk
    assert Attempt.objects.for_user(learner).unsubmitted_mocks().count() == 1


def test_the_database_refuses_a_second_unsubmitted_mock(learner):
    AttemptFactory(user=learner, mock=True)

    with pytest.raises(IntegrityError), transaction.atomic():
        AttemptFactory(user=learner, mock=True)

    # Another learner's open mock and my handed-in ones are no obstacle.
    AttemptFactory(user=UserFactory(), mock=True)
    AttemptFactory(user=learner, mock=True, submitted=True)
    AttemptFactory(user=learner, drill=True)


def test_a_new_mock_starts_once_the_last_one_is_submitted(learner_client, mock_settings):
    first = start_mock(learner_client)
    hand_in(learner_client, first)

    second = start_mock(learner_client)

    assert second.pk != first.pk


def test_the_mock_question_page_shows_the_countdown_and_the_question(learner_client, mock_settings):
    attempt = start_mock(learner_client)
    item = item_at(attempt, 1)

    response = learner_client.get(attempt_url(attempt))

    assert response.status_code == 200
    assert heading(response.content) == " ".join(item.question.prompt.split())
    countdown = element_by_id(response.content, "countdown")
    assert 3590 <= int(countdown.attrs["data-seconds-left"]) <= 3600
    assert countdown.attrs["role"] == "timer"
    assert "hidden" in element_by_id(response.content, "nudge").attrs
    assertContains(response, "/static/js/mock.js")
    # The mock gives no feedback while it runs.
    assert not with_class(response.content, "explanation")
    assert not with_class(response.content, "option-correct")


def test_reloading_a_mock_resumes_at_the_first_unanswered_question(learner_client, mock_settings):
    attempt = start_mock(learner_client)
    for position in (1, 2, 3, 5):
        item = item_at(attempt, position)
        answer(learner_client, attempt, item, right_options(item))

    response = learner_client.get(attempt_url(attempt))

    assert "question 4 of 60 · 4 answered" in eyebrow(response)
    assert heading(response.content) == " ".join(item_at(attempt, 4).question.prompt.split())


def test_a_saved_mock_answer_is_shown_checked_when_the_question_is_reopened(
    learner_client, mock_settings
):
    attempt = start_mock(learner_client)
    item = item_at(attempt, 2)
    answer(learner_client, attempt, item, wrong_options(item))

    response = learner_client.get(attempt_url(attempt, 2))

    checked = [
        e.attrs["value"]
        for e in with_tag(response.content, "input")
        if e.attrs.get("name") == "option" and "checked" in e.attrs
    ]
    assert checked == wrong_options(item)


def test_a_mock_answer_can_be_changed_before_the_deadline(learner_client, mock_settings):
    attempt = start_mock(learner_client)
    item = item_at(attempt, 1)
    answer(learner_client, attempt, item, wrong_options(item))

    response = answer(learner_client, attempt, item, right_options(item))

    assertRedirects(response, attempt_url(attempt, 2), fetch_redirect_response=False)
    item.refresh_from_db()
    assert item.is_correct is True


def test_a_choose_two_mock_question_needs_two_boxes_and_scores_all_or_nothing(
    learner, learner_client, mock_settings
):
    attempt = mock_for(learner)
    two = next(item for item in items_of(attempt) if len(item.question.correct_options) == 2)

    # One box of two: kept as the choice so far, and the question still counts as unanswered.
    response = answer(learner_client, attempt, two, right_options(two)[:1])
    assert response.status_code == 302
    assertContains(
        learner_client.get(response.url),
        f"Question {two.position}: Kept as unanswered: this question asks for 2 answers and you "
        "have chosen 1. Choose 1 more.",
    )
    two.refresh_from_db()
    kept = [two.order[int(right_options(two)[0]) - 1]]  # the stored option behind that box
    assert (two.chosen, two.is_correct, two.answered_at) == (kept, None, None)
    # Three boxes of two: refused, nothing saved, and the three ticks are kept on the page.
    before = stored(attempt)
    three = [*right_options(two), *shown(two, [wrong_option(two.question)])]
    response = answer(learner_client, attempt, two, three)
    assert response.status_code == 400
    assertContains(
        response,
        "This question asks for 2 answers and you chose 3: choose exactly 2. Nothing was changed.",
        status_code=400,
    )
    assert stored(attempt) == before
    checked = [
        e.attrs["value"]
        for e in with_tag(response.content, "input")
        if e.attrs.get("name") == "option" and "checked" in e.attrs
    ]
    assert sorted(checked) == sorted(three)
    one_wrong = [right_options(two)[0], *shown(two, [wrong_option(two.question)])]
    answer(learner_client, attempt, two, one_wrong)
    two.refresh_from_db()
    assert two.is_correct is False
    answer(learner_client, attempt, two, right_options(two))
    two.refresh_from_db()
    assert two.is_correct is True


def test_answering_the_last_question_goes_to_the_flagged_list(learner_client, settings):
    settings.MOCK_QUESTIONS = 3
    attempt = start_mock(learner_client)
    item = item_at(attempt, 3)

    response = answer(learner_client, attempt, item, right_options(item))

    assertRedirects(response, flagged_url(attempt), fetch_redirect_response=False)


def test_answers_after_the_deadline_are_not_counted(learner_client, mock_settings):
    attempt = start_mock(learner_client)
    deadline = run_out_of_time(attempt)
    item = item_at(attempt, 1)

    response = answer(learner_client, attempt, item, right_options(item))

    assertRedirects(response, result_url(attempt), fetch_redirect_response=False)
    item.refresh_from_db()
    assert (item.chosen, item.is_correct, item.answered_at) == (None, None, None)
    attempt.refresh_from_db()
    assert attempt.submitted_at == deadline
    result = learner_client.get(response.url)
    assert heading(result.content) == "0 of 60 right (0%)"
    assertContains(result, "Time is up: answers after the deadline are not counted.")


def test_a_mock_past_its_deadline_opens_on_its_result(learner_client, mock_settings):
    attempt = start_mock(learner_client)
    item = item_at(attempt, 1)
    answer(learner_client, attempt, item, right_options(item))
    deadline = run_out_of_time(attempt)

    for url in (attempt_url(attempt), attempt_url(attempt, 2), flagged_url(attempt)):
        assertRedirects(learner_client.get(url), result_url(attempt))
    attempt.refresh_from_db()
    assert attempt.submitted_at == deadline
    assert heading(learner_client.get(result_url(attempt)).content) == "1 of 60 right (2%)"
    # Time is up: a new mock starts instead of resuming the old one.
    assert start_mock(learner_client).pk != attempt.pk


def test_flagging_after_the_deadline_changes_nothing(learner_client, mock_settings):
    attempt = start_mock(learner_client)
    run_out_of_time(attempt)

    response = flag(learner_client, attempt, 1)

    assertRedirects(response, result_url(attempt), fetch_redirect_response=False)
    assert not AttemptQuestion.objects.filter(attempt=attempt, flagged=True).exists()


def test_answers_after_submitting_are_not_counted(learner_client, mock_settings):
    attempt = start_mock(learner_client)
    hand_in(learner_client, attempt)
    before = stored(attempt)
    item = item_at(attempt, 1)

    response = answer(learner_client, attempt, item, right_options(item))

    assertRedirects(response, result_url(attempt), fetch_redirect_response=False)
    assert stored(attempt) == before


def test_submitting_twice_counts_once(learner_client, mock_settings):
    attempt = start_mock(learner_client)
    answer(learner_client, attempt, item_at(attempt, 1), right_options(item_at(attempt, 1)))

    first = hand_in(learner_client, attempt)
    attempt.refresh_from_db()
    submitted_at = attempt.submitted_at
    before = stored(attempt)
    second = hand_in(learner_client, attempt)

    assertRedirects(first, result_url(attempt), fetch_redirect_response=False)
    assertRedirects(second, result_url(attempt), fetch_redirect_response=False)
    assert submitted_at is not None
    assert stored(attempt) == before


def test_the_submit_service_twice_keeps_the_first_time(learner, mock_settings):
    attempt = mock_for(learner)
    first = timezone.now()
    services.submit(user=learner, attempt=attempt, now=first)
    stale = Attempt.objects.get(pk=attempt.pk)
    stale.submitted_at = None  # another tab that has not seen the first submit

    changed = services.submit(
        user=learner, attempt=stale, now=first + datetime.timedelta(seconds=30)
    )

    assert changed is False
    assert stale.submitted_at == first
    assert Attempt.objects.get(pk=attempt.pk).submitted_at == first


def test_a_mock_result_before_submitting_sends_back_to_the_questions(learner_client, mock_settings):
    attempt = start_mock(learner_client)

    assertRedirects(
        learner_client.get(result_url(attempt)), attempt_url(attempt), fetch_redirect_response=False
    )
    assert Attempt.objects.get(pk=attempt.pk).submitted_at is None


def test_flagging_a_question_puts_it_on_the_flagged_list(learner_client, mock_settings):
    attempt = start_mock(learner_client)

    response = flag(learner_client, attempt, 2)

    assertRedirects(response, attempt_url(attempt, 2), fetch_redirect_response=False)
    assert item_at(attempt, 2).flagged
    page = learner_client.get(response.url)
    assertContains(page, "Save and unflag")
    assertContains(page, "Review and hand in (1 flagged)")
    assertContains(page, 'aria-label="Question 2, unanswered, flagged"')

    flagged = learner_client.get(flagged_url(attempt))
    assert flagged.status_code == 200
    to_two = [
        e for e in with_tag(flagged.content, "a") if e.attrs.get("href") == attempt_url(attempt, 2)
    ]
    assert [link.text for link in to_two] == ["Question 2", "2"]  # flagged, and unanswered
    assertContains(flagged, "60 questions: 60 unanswered, 1 flagged.")


def test_unflagging_takes_it_off_the_flagged_list(learner_client, mock_settings):
    attempt = start_mock(learner_client)
    flag(learner_client, attempt, 2)

    flag(learner_client, attempt, 2)

    assert not item_at(attempt, 2).flagged
    assertContains(learner_client.get(flagged_url(attempt)), "Nothing flagged.")


def test_save_and_see_flagged_saves_the_answer_and_opens_the_list(learner_client, mock_settings):
    attempt = start_mock(learner_client)
    item = item_at(attempt, 1)

    response = learner_client.post(
        answer_url(attempt, 1), {"option": right_options(item), "then": "flagged"}
    )

    assertRedirects(response, flagged_url(attempt), fetch_redirect_response=False)
    assert item_at(attempt, 1).is_correct is True


def test_the_mock_result_counts_skipped_apart_and_names_the_weakest_counting_them_as_wrong(
    learner, learner_client, mock_settings
):
    attempt = mock_for(learner)
    by_domain: dict[str, list[AttemptQuestion]] = {}
    for item in items_of(attempt):
        by_domain.setdefault(item.question.domain.slug, []).append(item)
    # Core ML: 4 right, 8 wrong (33%, 20 x 0.24 = 4.7 marks behind). Experimentation: 5 right,
    # 10 skipped (100% of those answered, but 5 of 15 as on the exam: 25 x 0.25 = 6.3 marks
    # behind, the most). Everything else right, each with too few questions to be judged.
    skipped = {item.pk for item in by_domain["experimentation"][:10]}
    missed = {item.pk for item in by_domain["core-ml"][:8]}
    now = timezone.now()
    for item in items_of(attempt):
        if item.pk in skipped:
            continue
        chosen = wrong_indices(item) if item.pk in missed else right_indices(item)
        services.answer(user=learner, attempt=attempt, item=item, chosen=chosen, now=now)
    services.submit(user=learner, attempt=attempt, now=now)

    response = learner_client.get(result_url(attempt))

    names = domain_names()
    assert heading(response.content) == "42 of 60 right (70%)"
    (counts,) = with_class(response.content, "result-counts")
    assert counts.text == "42 right 8 wrong 10 skipped, counted as wrong"
    (lede,) = with_class(response.content, "lede")
    assert lede.text.startswith(
        "Weakest domain: Experimentation, 5 of its 15 questions right (10 skipped, counted as "
        "wrong): 80% range 21–50%, likely under the 70% bar."
    )
    unjudged = "too few questions here to judge"
    assert result_rows(response) == [
        ["Experimentation Weakest", "5", "5", "10", "33% 33%", "80% range 21–50%"],
        [names["core-ml"], "4", "12", "0", "33% 33%", "80% range 20–52%"],
        ["Multimodal Data", "9", "9", "0", "100% 100%", f"80% range 79–99% {unjudged}"],
        ["Software Development", "9", "9", "0", "100% 100%", f"80% range 79–99% {unjudged}"],
        ["Data Analysis", "6", "6", "0", "100% 100%", f"80% range 72–99% {unjudged}"],
        ["Performance Optimization", "6", "6", "0", "100% 100%", f"80% range 72–99% {unjudged}"],
        ["Trustworthy AI", "3", "3", "0", "100% 100%", f"80% range 56–97% {unjudged}"],
    ]
    # Each answer is shown with its explanation after the mock, skipped ones too.
    assert len(with_class(response.content, "explanation")) == 60
    assert len(with_class(response.content, "badge-unanswered")) == 1 + 10


def test_a_mock_handed_in_blank_scores_nothing_and_counts_every_question_as_wrong(
    learner_client, mock_settings
):
    attempt = start_mock(learner_client)
    hand_in(learner_client, attempt)

    response = learner_client.get(result_url(attempt))

    assert heading(response.content) == "0 of 60 right (0%)"
    assertContains(response, "60 skipped, counted as wrong")
    # Skipped counts as wrong, so the heaviest domain asked enough questions to be judged is
    # furthest behind: Experimentation, 0 of 15 (25 x 0.58 marks).
    (weakest,) = [row for row in result_rows(response) if "Weakest" in row[0]]
    assert weakest[:4] == ["Experimentation Weakest", "0", "0", "15"]
    (lede,) = with_class(response.content, "lede")
    assert lede.text.startswith(
        "Weakest domain: Experimentation, 0 of its 15 questions right (15 skipped, counted as "
        "wrong): 80% range "
    )


# A live mock counts nowhere; a closed one counts, unanswered as wrong


def pages_a_learner_reads(client: Client) -> dict[str, str]:
    # The Review page too: a live mock's miss in the review queue would give its key away.
    return {
        url: without_csrf(client.get(url).content) for url in (PRACTICE, DASHBOARD, HISTORY, REVIEW)
    }


def test_no_page_changes_with_the_option_chosen_in_a_live_mock(
    learner, learner_client, mock_settings
):
    make_plan(learner)
    tick(learner, "p1-backprop")
    practise(learner, "core-ml", right=6, wrong=4)
    attempt = start_mock(learner_client)
    item = next(item for item in items_of(attempt) if len(item.question.correct_options) == 1)
    before = pages_a_learner_reads(learner_client)

    for option in [[str(place)] for place in range(1, len(item.question.options) + 1)]:
        assert answer(learner_client, attempt, item, option).status_code == 302
        item.refresh_from_db()
        assert item.chosen == [item.order[int(option[0]) - 1]]  # the answer was saved
        assert pages_a_learner_reads(learner_client) == before, option


def test_a_submitted_mock_counts_its_unanswered_questions_as_wrong(
    learner, learner_client, mock_settings
):
    make_plan(learner)
    attempt = start_mock(learner_client)
    firsts = {}
    for item in items_of(attempt):
        firsts.setdefault(item.question.domain.slug, item)
    for item in firsts.values():  # one right answer per domain: 7 of 60 answered
        answer(learner_client, attempt, item, right_options(item))

    hand_in(learner_client, attempt)

    on_practice = practice_accuracy(learner_client.get(PRACTICE))
    on_dashboard = dashboard_accuracy(learner_client.get(DASHBOARD))
    for slug, asked in MOCK_60.items():
        share = f"1 of {asked} right: 80% range"
        assert on_practice[slug].startswith(share), (slug, on_practice[slug])
        assert on_dashboard[slug].startswith(share), (slug, on_dashboard[slug])
    # 15 answers: practised, and likely under the bar (settled: nothing more is said).
    assert on_dashboard["experimentation"] == "1 of 15 right: 80% range 3–22% likely under 70%"


def test_a_mock_past_its_deadline_counts_like_a_submitted_one(
    learner, learner_client, mock_settings
):
    make_plan(learner)
    attempt = start_mock(learner_client)
    item = item_at(attempt, 1)
    answer(learner_client, attempt, item, right_options(item))
    slug, asked = item.question.domain.slug, MOCK_60[item.question.domain.slug]
    assert "no practice answers yet" in practice_accuracy(learner_client.get(PRACTICE))[slug]

    run_out_of_time(attempt)

    accuracy = practice_accuracy(learner_client.get(PRACTICE))[slug]
    assert accuracy.startswith(f"1 of {asked} right: 80% range"), accuracy
    attempt.refresh_from_db()
    assert attempt.submitted_at is not None


# Missed questions come back for review: a drill's at once, a mock's once it is closed


def missed(learner) -> dict[str, tuple[list[int], datetime.datetime]]:
    """The learner's missed-question cards: (their answer, when missed) by question slug."""
    return {
        slug: (chosen, missed_at)
        for slug, chosen, missed_at in QuestionCard.objects.filter(user=learner).values_list(
            "question__slug", "chosen", "missed_at"
        )
    }


def test_a_drills_wrong_answer_becomes_a_review_card_at_once_and_a_right_one_does_not(
    learner, learner_client
):
    attempt = start_drill(learner_client)
    right, wrong = item_at(attempt, 1), item_at(attempt, 2)

    answer(learner_client, attempt, right, right_options(right))
    answer(learner_client, attempt, wrong, wrong_options(wrong))

    wrong.refresh_from_db()
    assert missed(learner) == {wrong.question.slug: (wrong.chosen, wrong.answered_at)}


def test_a_mocks_misses_become_review_cards_only_when_it_is_handed_in(
    learner, learner_client, mock_settings
):
    attempt = start_mock(learner_client)
    right, wrong = item_at(attempt, 1), item_at(attempt, 2)
    answer(learner_client, attempt, right, right_options(right))
    answer(learner_client, attempt, wrong, wrong_options(wrong))
    assert missed(learner) == {}  # while it is live its answers count nowhere

    hand_in(learner_client, attempt)

    attempt.refresh_from_db()
    # The wrong answer, not the 58 left unanswered: a card shows the answer the learner gave.
    assert missed(learner) == {wrong.question.slug: (wrong_indices(wrong), attempt.submitted_at)}


def test_a_mock_whose_time_ran_out_makes_its_misses_review_cards_when_it_is_closed(
    learner, learner_client, mock_settings
):
    attempt = start_mock(learner_client)
    wrong = item_at(attempt, 1)
    answer(learner_client, attempt, wrong, wrong_options(wrong))
    deadline = run_out_of_time(attempt)

    learner_client.get(PRACTICE)  # the next practice page closes it, as of its deadline

    chosen = wrong_indices(wrong)
    assert missed(learner) == {wrong.question.slug: (chosen, deadline)}


def test_the_review_page_closes_a_mock_whose_time_ran_out_and_shows_its_miss(
    learner, learner_client, mock_settings
):
    attempt = start_mock(learner_client)
    wrong = item_at(attempt, 1)
    answer(learner_client, attempt, wrong, wrong_options(wrong))
    deadline = run_out_of_time(attempt)

    response = learner_client.get(reverse("progress:review"))

    chosen = wrong_indices(wrong)
    assert missed(learner) == {wrong.question.slug: (chosen, deadline)}
    assert response.status_code == 200


# Accuracy: each domain's newest answers, judged by their posterior


def test_accuracy_reads_each_domains_own_newest_answers(learner_client, learner, settings):
    # Only first answers count, and a domain has 50 or more questions at the exam's depth (the
    # 27 of Trustworthy AI aside): a window of 20 leaves room for newer first answers to push
    # older ones out.
    settings.ACCURACY_WINDOW = 20
    an_hour_ago = timezone.now() - datetime.timedelta(hours=1)
    practise(learner, "trustworthy-ai", right=10, at=an_hour_ago - datetime.timedelta(hours=1))
    practise(learner, "core-ml", right=0, wrong=20, at=an_hour_ago)
    # Newer: its first twenty repeat the questions above and count nowhere; its next twenty
    # are first answers, and the older twenty fall out of the window.
    practise(learner, "core-ml", right=40)
    # Heavy practice elsewhere, all newer and more than the window, pushes no other domain out.
    practise(learner, "experimentation", right=0, wrong=50)

    accuracy = practice_accuracy(learner_client.get(PRACTICE))

    assert accuracy["core-ml"].startswith("20 of 20 right: 80% range ")
    assert accuracy["core-ml"].endswith(" likely at least 70%")
    assert accuracy["trustworthy-ai"] == "10 of 10 right: 80% range 81–99% likely at least 70%"
    assert accuracy["experimentation"].startswith("0 of 20 right: 80% range ")
    assert accuracy["experimentation"].endswith(" likely under 70%")


def test_a_domain_is_likely_accurate_once_its_answers_give_80_percent_odds(learner_client, learner):
    practise(learner, "core-ml", right=10, wrong=2)  # P(rate >= 70%) = 0.798
    practise(learner, "experimentation", right=16, wrong=4)  # 0.802
    practise(learner, "multimodal-data", right=7, wrong=3)  # 0.43
    # 4 of 4 gives 0.83, but under 10 answers there is no verdict either way.
    practise(learner, "software-development", right=4)

    accuracy = practice_accuracy(learner_client.get(PRACTICE))

    assert accuracy["core-ml"].startswith("10 of 12 right: 80% range ")
    assert accuracy["core-ml"].endswith(
        "not settled: about 1 more answer at your estimated rate, 79%, would settle it as likely "
        "at least 70%"
    )
    assert accuracy["experimentation"].startswith("16 of 20 right: 80% range ")
    assert accuracy["experimentation"].endswith("likely at least 70%")
    assert accuracy["multimodal-data"].startswith("7 of 10 right: 80% range 49–83% not settled")
    assert accuracy["software-development"].startswith("4 of 4 right: 80% range ")
    assert accuracy["software-development"].endswith(
        "too few answers to tell yet: 6 more first answers in this domain before any verdict"
    )
    assert accuracy["trustworthy-ai"] == "no practice answers yet"


def test_the_practice_page_shows_the_rules_numbers_from_settings(learner_client, settings):
    settings.ACCURACY_WINDOW = 15
    settings.ACCURACY_CONFIDENCE = 0.9
    settings.ACCURACY_MIN_ANSWERS = 6

    text = page_text(learner_client.get(PRACTICE).content)

    assert "Accuracy (last 15 answers)" in text
    assert "a domain's 15 most recent first answers" in text
    assert "with 90% odds" in text
    assert "before 6 answers in the domain" in text
    assert "40 most recent" not in text and "80% odds" not in text
    assert "10 answers" not in text


# While a mock is open, drills wait


def test_a_drill_while_a_mock_is_open_is_refused_with_a_link_back_to_the_mock(
    learner, learner_client, mock_settings
):
    mock = start_mock(learner_client)

    response = learner_client.post(DRILL_START, {"domain": "core-ml"})

    assert response.status_code == 409
    (alert,) = [e for e in with_class(response.content, "alert") if e.attrs.get("role") == "alert"]
    assert "Your mock exam is under way" in alert.text
    assert attempt_url(mock) in links(response.content)
    assert list(Attempt.objects.filter(user=learner)) == [mock]


def test_a_drill_starts_again_once_the_mock_is_over(learner, learner_client, mock_settings):
    mock = start_mock(learner_client)
    run_out_of_time(mock)

    drill = start_drill(learner_client)

    assert drill.kind == Attempt.Kind.DRILL
    mock.refresh_from_db()
    assert mock.submitted_at is not None


def test_another_learners_open_mock_does_not_stop_my_drill(learner_client, mock_settings):
    mock_for(UserFactory())

    assert start_drill(learner_client).kind == Attempt.Kind.DRILL


# History


def test_the_history_lists_finished_attempts_with_an_svg_chart(learner, learner_client, settings):
    settings.MOCK_QUESTIONS = 10
    settings.MOCK_MINUTES = 10
    start = timezone.now() - datetime.timedelta(hours=3)
    # The oldest ran out of time unanswered; the next was submitted all right; the last is open.
    expired = mock_for(learner, now=start)
    finished = mock_for(learner, now=start + datetime.timedelta(hours=1))
    for item in items_of(finished):
        services.answer(
            user=learner,
            attempt=finished,
            item=item,
            chosen=sorted(item.question.correct_options),
            now=start + datetime.timedelta(hours=1, minutes=2),
        )
    services.submit(
        user=learner, attempt=finished, now=start + datetime.timedelta(hours=1, minutes=5)
    )
    still_open = start_mock(learner_client)

    response = learner_client.get(HISTORY)

    assert response.status_code == 200
    hrefs = links(response.content)
    assert result_url(finished) in hrefs
    assert result_url(expired) in hrefs
    assert result_url(still_open) not in hrefs
    # Newest first: 100% overall then 0% (ten skipped); neither asks any domain the ten
    # questions it needs to be judged, so neither has a weakest domain.
    assert [row[1:4] for row in table_rows(response.content)] == [
        ["100%", "0", "—"],
        ["0%", "10", "—"],
    ]
    (svg,) = [e for e in with_class(response.content, "domain-chart") if e.tag == "svg"]
    assert svg.attrs["role"] == "img"
    lines = {
        e.attrs["class"]: e.attrs["points"].split() for e in with_tag(response.content, "polyline")
    }
    assert set(lines) == {"line-overall", "line-weakest"}
    # Oldest first along the x axis: 0% sits at the bottom (y=172), 100% at the top (y=28).
    assert [point.split(",")[1] for point in lines["line-overall"]] == ["172.0", "28.0"]
    # No weakest domain in either attempt: no point on its line, no dot.
    assert lines["line-weakest"] == []
    assert len(with_class(response.content, "dot-overall")) == 2
    assert not with_class(response.content, "dot-weakest")
    assert element_by_id(response.content, "history-title").text


def test_the_history_lists_drills_and_mocks_and_filters_by_kind(learner, learner_client):
    drill = practise(learner, "core-ml", right=3, wrong=1)
    mock = AttemptFactory(user=learner, mock=True, submitted=True)
    AttemptQuestionFactory(attempt=mock, right=True)

    every = links(learner_client.get(HISTORY).content)
    drills = links(learner_client.get(HISTORY, {"kind": "drill"}).content)
    mocks = links(learner_client.get(HISTORY, {"kind": "mock"}).content)

    assert {result_url(drill), result_url(mock)} <= set(every)
    assert result_url(drill) in drills and result_url(mock) not in drills
    assert result_url(mock) in mocks and result_url(drill) not in mocks


def test_the_history_without_finished_attempts_invites_one(learner_client):
    response = learner_client.get(HISTORY)

    assert response.status_code == 200
    assert not with_tag(response.content, "svg")
    assertContains(response, "No finished drill or mock yet.")


def test_a_result_page_gives_each_domain_the_range_its_true_accuracy_likely_lies_in(
    learner_client, learner
):
    attempt = practise(learner, "core-ml", right=7, wrong=3)
    from progress.practice.services import submit

    submit(user=learner, attempt=attempt, now=timezone.now())

    response = learner_client.get(reverse("progress:attempt-result", args=[attempt.pk]))

    rows = table_rows(response.content, "stack-table")
    (core_ml,) = [row for row in rows if row[0].startswith(domain_names()["core-ml"])]
    assert core_ml[-1] == "80% range 49–83%"
    assert "lies with 80% odds" in page_text(response.content)
