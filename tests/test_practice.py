"""Practice: the question bank, drills, the timed mock, confidence and review, and what the
dashboard makes of them. Real database, real requests through the test client."""

import copy
import datetime
import random
import re
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
import yaml
from django.conf import settings as django_settings
from django.core.management import call_command
from django.core.management.base import CommandError
from django.test import Client
from django.urls import reverse
from django.utils import timezone
from pytest_django.asserts import assertContains, assertRedirects

from phases import content
from phases.models import Domain, Question, SelfCheck
from phases.syllabus import find_question_problems
from progress import practice, services
from progress.models import Attempt, AttemptQuestion, CheckOff
from tests.factories import (
    DOMAIN_NAMES,
    UserFactory,
    domain_rows,
    element_by_id,
    elements,
    focus,
    make_plan,
    page_text,
    practise,
    tick,
    verdict,
    with_class,
)

HTMX = {"HTTP_HX_REQUEST": "true"}
QUESTIONS = django_settings.BASE_DIR / "fixtures" / "questions.yaml"
# Exam weights, heaviest first (the order of every per-domain table).
WEIGHTS = {
    "experimentation": 25,
    "core-ml": 20,
    "multimodal-data": 15,
    "software-development": 15,
    "data-analysis": 10,
    "performance-optimization": 10,
    "trustworthy-ai": 5,
}
# A 60-question mock by weight: 60 x 25% = 15, 60 x 20% = 12, and so on.
MOCK_60 = {
    "experimentation": 15,
    "core-ml": 12,
    "multimodal-data": 9,
    "software-development": 9,
    "data-analysis": 6,
    "performance-optimization": 6,
    "trustworthy-ai": 3,
}


# Pure: scoring


def test_one_right_answer_chosen_is_correct():
    assert practice.is_correct([2], {2})


def test_a_wrong_answer_is_not_correct():
    assert not practice.is_correct([1], {2})


def test_choose_two_with_both_right_is_correct_in_any_order():
    assert practice.is_correct([3, 0], frozenset({0, 3}))
    assert practice.is_correct([0, 3], frozenset({3, 0}))


def test_choose_two_with_only_one_right_scores_nothing():
    assert not practice.is_correct([0], {0, 3})


def test_an_extra_option_on_top_of_the_right_ones_scores_nothing():
    assert not practice.is_correct([0, 3, 1], {0, 3})
    assert not practice.is_correct([2, 1], {2})


def test_no_answer_is_not_correct():
    assert not practice.is_correct([], {0})


def test_the_same_option_sent_twice_counts_once():
    assert practice.is_correct([2, 2], {2})


# Pure: drawing a mock by exam weight


def test_a_sixty_question_mock_follows_exam_weight():
    counts = practice.mock_counts(WEIGHTS, 60, dict.fromkeys(WEIGHTS, 100))

    assert counts == MOCK_60
    assert sum(counts.values()) == 60


@pytest.mark.parametrize("total", [1, 5, 7, 13, 60, 99])
def test_mock_counts_add_up_to_the_total(total):
    counts = practice.mock_counts(WEIGHTS, total, dict.fromkeys(WEIGHTS, 100))

    assert sum(counts.values()) == total
    for slug, count in counts.items():
        # Largest remainder: never more than one off the exact share.
        assert abs(count - total * WEIGHTS[slug] / 100) < 1


def test_mock_counts_never_ask_a_domain_for_more_questions_than_it_has():
    available = {**dict.fromkeys(WEIGHTS, 100), "trustworthy-ai": 1, "data-analysis": 4}

    counts = practice.mock_counts(WEIGHTS, 60, available)

    assert counts["trustworthy-ai"] == 1
    assert counts["data-analysis"] == 4
    assert sum(counts.values()) == 60  # the shortfall is made up by the other domains
    assert all(counts[slug] <= available[slug] for slug in WEIGHTS)


def test_a_mock_longer_than_the_bank_takes_every_question_once():
    available = dict.fromkeys(WEIGHTS, 3)

    counts = practice.mock_counts(WEIGHTS, 60, available)

    assert counts == available


def test_mock_counts_of_nothing_are_zero():
    assert practice.mock_counts(WEIGHTS, 0, dict.fromkeys(WEIGHTS, 10)) == dict.fromkeys(WEIGHTS, 0)


def test_many_mock_draws_sample_by_exam_weight_without_repeats():
    pool_sizes = {slug: weight * 6 // 5 for slug, weight in WEIGHTS.items()}  # the real bank: 120
    pools, next_id = {}, 1
    for slug, size in pool_sizes.items():
        pools[slug] = list(range(next_id, next_id + size))
        next_id += size
    domain_of = {question: slug for slug, ids in pools.items() for question in ids}
    counts = practice.mock_counts(WEIGHTS, 60, pool_sizes)
    rng = random.Random(20250310)
    draws = 300

    first_domain: Counter[str] = Counter()
    drawn_at_all: Counter[int] = Counter()
    for _ in range(draws):
        drawn = practice.draw(pools, counts, rng)
        assert len(drawn) == 60
        assert len(set(drawn)) == len(drawn), "a question drawn twice in one mock"
        assert Counter(domain_of[q] for q in drawn) == counts
        first_domain[domain_of[drawn[0]]] += 1
        drawn_at_all.update(drawn)

    # The order is shuffled across domains: the first question's domain follows exam weight.
    for slug, weight in WEIGHTS.items():
        assert abs(first_domain[slug] / draws - weight / 100) < 0.07, (slug, first_domain)
    # Within a domain every question is equally likely: each is drawn about half the time.
    for question, slug in domain_of.items():
        expected = counts[slug] / pool_sizes[slug]
        assert abs(drawn_at_all[question] / draws - expected) < 0.15, (question, slug)


def test_the_same_seed_draws_the_same_mock():
    pools = {"a": list(range(10)), "b": list(range(10, 20))}
    counts = {"a": 3, "b": 2}

    assert practice.draw(pools, counts, random.Random(7)) == practice.draw(
        pools, counts, random.Random(7)
    )


# Pure: accuracy and per-domain scores


def test_recent_accuracy_keeps_only_the_newest_answers_per_domain():
    # Newest first: core-ml's five newest are right, its older ones wrong.
    answers = [("core-ml", True)] * 5 + [("experimentation", False)] * 2 + [("core-ml", False)] * 7

    assert practice.recent_accuracy(answers, limit=5) == {
        "core-ml": (5, 5),
        "experimentation": (0, 2),
    }


def test_recent_accuracy_counts_every_answer_under_the_limit():
    answers = [("core-ml", True), ("core-ml", False), ("core-ml", True)]

    assert practice.recent_accuracy(answers, limit=20) == {"core-ml": (2, 3)}


def test_recent_accuracy_window_is_twenty_answers_by_default():
    answers = [("core-ml", False)] * 20 + [("core-ml", True)] * 30

    assert practice.recent_accuracy(answers) == {"core-ml": (0, 20)}


def test_domain_scores_count_right_and_asked_heaviest_first_unanswered_as_wrong():
    results = [
        ("core-ml", True),
        ("trustworthy-ai", None),
        ("experimentation", False),
        ("core-ml", None),
        ("experimentation", True),
        ("experimentation", True),
    ]

    assert practice.domain_scores(results, WEIGHTS) == [
        ("experimentation", 2, 3),
        ("core-ml", 1, 2),
        ("trustworthy-ai", 0, 1),
    ]


def test_the_weakest_domain_is_the_lowest_share_right():
    scores = [("experimentation", 3, 4), ("core-ml", 1, 4), ("trustworthy-ai", 1, 1)]

    assert practice.weakest(scores, WEIGHTS) == "core-ml"


def test_a_tie_for_weakest_goes_to_the_heavier_domain():
    scores = [("data-analysis", 1, 2), ("experimentation", 2, 4), ("trustworthy-ai", 1, 2)]

    assert practice.weakest(scores, WEIGHTS) == "experimentation"
    assert practice.weakest(list(reversed(scores)), WEIGHTS) == "experimentation"


def test_nothing_asked_has_no_weakest_domain():
    assert practice.weakest([], WEIGHTS) is None


# The question bank


def real_bank() -> list[dict[str, Any]]:
    return yaml.safe_load(QUESTIONS.read_text(encoding="utf-8"))


def fields(bank: list[dict[str, Any]], slug: str) -> dict[str, Any]:
    (obj,) = [obj for obj in bank if obj["fields"]["slug"] == slug]
    return obj["fields"]


def slugs_in(bank, domain: str) -> list[str]:
    return [obj["fields"]["slug"] for obj in bank if obj["fields"]["domain"] == [domain]]


def problems_naming(problems: list[str], slug: str) -> list[str]:
    return [problem for problem in problems if f"'{slug}'" in problem]


SLUG = "q-core-residual-purpose"


def test_the_real_question_bank_has_no_problems():
    assert find_question_problems(real_bank(), WEIGHTS) == []


def test_the_real_question_bank_has_at_least_120_questions_with_four_or_five_options():
    bank = real_bank()

    assert len(bank) >= 120
    for obj in bank:
        row = obj["fields"]
        assert 4 <= len(row["options"]) <= 5, row["slug"]
        assert any(option["correct"] for option in row["options"]), row["slug"]
        assert row["explanation"].strip(), row["slug"]
        assert row["topic"], row["slug"]
        assert "pk" not in obj


def test_the_real_question_bank_follows_exam_weight_within_two_questions():
    bank = real_bank()
    per_domain = Counter(obj["fields"]["domain"][0] for obj in bank)

    assert set(per_domain) == set(WEIGHTS)
    for slug, weight in WEIGHTS.items():
        assert abs(per_domain[slug] - len(bank) * weight / 100) <= 2, (slug, per_domain[slug])


def test_choose_two_questions_have_two_right_answers_and_the_rest_one():
    for obj in real_bank():
        row = obj["fields"]
        right = sum(1 for option in row["options"] if option["correct"])
        assert right == (2 if "choose two" in row["prompt"].lower() else 1), row["slug"]


# Each trap as the learner would meet it, within one clause of an option.
TRAPS = {
    "fid": r"higher FID\b[^;.,]*?\bbetter",
    "residual": r"\bresidual\b[^;.,]*?\b(reduce|fewer)\b[^;.,]*?parameters",
    "late-fusion": r"\blate fusion\b[^;.,]*?\blowest latency",
    "riva": r"\bRiva\b[^;.,]*?\bserv(e|es|ing)\b",
}


@pytest.mark.parametrize("trap", TRAPS.values(), ids=TRAPS.keys())
def test_the_known_traps_are_offered_as_wrong_answers_and_never_marked_right(trap):
    pattern = re.compile(trap, re.IGNORECASE)
    options = [option for obj in real_bank() for option in obj["fields"]["options"]]

    assert [o["text"] for o in options if not o["correct"] and pattern.search(o["text"])]
    assert not [o["text"] for o in options if o["correct"] and pattern.search(o["text"])]


def test_a_question_with_no_correct_option_is_named():
    bank = real_bank()
    for option in fields(bank, SLUG)["options"]:
        option["correct"] = False

    problems = find_question_problems(bank, WEIGHTS)

    assert problems_naming(problems, SLUG) == [f"question '{SLUG}' has no correct option"]
    assert len(problems) == 1


@pytest.mark.parametrize(
    "variant", [str.upper, lambda t: f"  {t}  ", lambda t: t.replace(" ", "   ")]
)
def test_a_repeated_option_is_named_whatever_its_case_and_spacing(variant):
    bank = real_bank()
    options = fields(bank, SLUG)["options"]
    options[3]["text"] = variant(options[0]["text"])

    problems = find_question_problems(bank, WEIGHTS)

    (problem,) = problems
    assert problem.startswith(f"question '{SLUG}' repeats the option")


@pytest.mark.parametrize("count", [3, 6])
def test_a_question_with_too_few_or_too_many_options_is_named(count):
    bank = real_bank()
    row = fields(bank, SLUG)
    row["options"] = [{"text": f"option {n}", "correct": n == 0} for n in range(count)]

    problems = find_question_problems(bank, WEIGHTS)

    assert problems == [f"question '{SLUG}' has {count} options; it needs 4 to 5"]


@pytest.mark.parametrize("explanation", [None, "", "   "])
def test_a_question_without_an_explanation_is_named(explanation):
    bank = real_bank()
    row = fields(bank, SLUG)
    if explanation is None:
        del row["explanation"]
    else:
        row["explanation"] = explanation

    assert find_question_problems(bank, WEIGHTS) == [f"question '{SLUG}' has no explanation"]


def test_a_domain_three_questions_off_its_share_is_named():
    bank = real_bank()
    for slug in slugs_in(bank, "experimentation")[:3]:
        fields(bank, slug)["domain"] = ["core-ml"]

    problems = find_question_problems(bank, WEIGHTS)

    # 27 instead of 30 and 27 instead of 24: both domains are named, no question is.
    assert len(problems) == 2
    assert problems[0].startswith("domain 'experimentation' has 27 questions")
    assert problems[1].startswith("domain 'core-ml' has 27 questions")


def test_a_domain_two_questions_off_its_share_is_accepted():
    bank = real_bank()
    for slug in slugs_in(bank, "experimentation")[:2]:
        fields(bank, slug)["domain"] = ["core-ml"]

    assert find_question_problems(bank, WEIGHTS) == []


def test_a_retired_question_does_not_count_towards_a_share():
    bank = real_bank()
    for slug in slugs_in(bank, "trustworthy-ai")[:5]:
        fields(bank, slug)["retired"] = True

    problems = find_question_problems(bank, WEIGHTS)

    # 1 live question for a 5% share of 115 (5.75): too few.
    assert [p for p in problems if p.startswith("domain 'trustworthy-ai' has 1 questions")]


def test_a_question_naming_an_unknown_domain_is_named():
    bank = real_bank()
    fields(bank, SLUG)["domain"] = ["astrology"]

    assert problems_naming(find_question_problems(bank, WEIGHTS), SLUG) == [
        f"question '{SLUG}' names unknown domain ['astrology']"
    ]


# The loader


def question_rows() -> list[dict[str, Any]]:
    return list(Question.objects.order_by("pk").values())


def write_bank(tmp_path: Path, bank: Any) -> Path:
    path = tmp_path / "questions.yaml"
    path.write_text(yaml.safe_dump(bank, allow_unicode=True, sort_keys=False), encoding="utf-8")
    return path


@pytest.mark.django_db
def test_the_loader_loads_every_question_of_the_real_bank_with_its_domain_and_topic(syllabus):
    bank = real_bank()

    assert Question.objects.current().count() == len(bank)
    assert not Question.objects.filter(topic__isnull=True).exists()
    per_domain = Counter(Question.objects.values_list("domain__slug", flat=True))
    assert per_domain == Counter(obj["fields"]["domain"][0] for obj in bank)


@pytest.mark.django_db
def test_the_loader_refuses_a_bad_question_bank_naming_the_question_and_writes_nothing(
    syllabus, tmp_path
):
    before = question_rows()
    bank = real_bank()
    # Alongside the bad question, a good change and a new question that must not be loaded.
    fields(bank, "q-core-contrastive-loss")["prompt"] = "Changed by a bad file."
    new = copy.deepcopy(next(obj for obj in bank if obj["fields"]["slug"] == SLUG))
    new["fields"]["slug"] = "q-core-brand-new"
    bank.append(new)
    for option in fields(bank, SLUG)["options"]:
        option["correct"] = False

    with pytest.raises(CommandError) as excinfo:
        call_command("load_syllabus", "--questions", str(write_bank(tmp_path, bank)), verbosity=0)

    assert f"question '{SLUG}' has no correct option" in str(excinfo.value)
    assert question_rows() == before
    assert not Question.objects.filter(slug="q-core-brand-new").exists()


@pytest.mark.django_db
def test_the_loader_refuses_a_lopsided_question_bank_naming_the_domain(syllabus, tmp_path):
    before = question_rows()
    bank = [obj for obj in real_bank() if obj["fields"]["domain"] != ["trustworthy-ai"]]

    with pytest.raises(CommandError) as excinfo:
        call_command("load_syllabus", "--questions", str(write_bank(tmp_path, bank)), verbosity=0)

    assert "domain 'trustworthy-ai' has 0 questions" in str(excinfo.value)
    assert question_rows() == before


# Drills and mocks through the views

DRILL_START = reverse("progress:drill-start")
MOCK_START = reverse("progress:mock-start")
PRACTICE = reverse("progress:practice")
HISTORY = reverse("progress:practice-history")
REVIEW = reverse("progress:review")
DASHBOARD = reverse("progress:dashboard")


def attempt_url(attempt: Attempt, q: int | str | None = None) -> str:
    url = reverse("progress:attempt", args=[attempt.pk])
    return url if q is None else f"{url}?q={q}"


def answer_url(attempt: Attempt, position: int) -> str:
    return reverse("progress:attempt-answer", args=[attempt.pk, position])


def flag_url(attempt: Attempt, position: int) -> str:
    return reverse("progress:attempt-flag", args=[attempt.pk, position])


def flagged_url(attempt: Attempt) -> str:
    return reverse("progress:attempt-flagged", args=[attempt.pk])


def submit_url(attempt: Attempt) -> str:
    return reverse("progress:attempt-submit", args=[attempt.pk])


def result_url(attempt: Attempt) -> str:
    return reverse("progress:attempt-result", args=[attempt.pk])


def items_of(attempt: Attempt) -> list[AttemptQuestion]:
    return list(attempt.questions.select_related("question__domain").order_by("position"))


def item_at(attempt: Attempt, position: int) -> AttemptQuestion:
    return AttemptQuestion.objects.select_related("question__domain").get(
        attempt=attempt, position=position
    )


def right_options(item: AttemptQuestion) -> list[str]:
    return [str(index) for index in sorted(item.question.correct_options)]


def wrong_options(item: AttemptQuestion) -> list[str]:
    wrong = next(
        i for i in range(len(item.question.options)) if i not in item.question.correct_options
    )
    return [str(wrong)]


def stored(attempt: Attempt) -> tuple[list[dict], list[dict]]:
    """Every column of the attempt and its questions: to show a request changed nothing."""
    return (
        list(Attempt.objects.filter(pk=attempt.pk).values()),
        list(AttemptQuestion.objects.filter(attempt=attempt).order_by("position").values()),
    )


def heading(response) -> str:
    (h1,) = [element for element in elements(response.content) if element.tag == "h1"]
    return h1.text


def eyebrow(response) -> str:
    (element,) = with_class(response.content, "eyebrow")
    return element.text


def result_rows(response) -> list[list[str]]:
    """The per-domain score table of a result page: one list of cell texts per domain."""
    (table,) = [element for element in elements(response.content) if element.tag == "table"]
    (body,) = [child for child in table.children if child.tag == "tbody"]
    return [[cell.text for cell in row.children] for row in body.children if row.tag == "tr"]


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
    assert response.status_code == 302
    attempt = Attempt.objects.get(pk=int(response.url.rstrip("/").split("/")[-1]))
    assertRedirects(response, attempt_url(attempt), fetch_redirect_response=False)
    return attempt


def mock_for(user, *, now=None) -> Attempt:
    return services.start_mock(user=user, now=now or timezone.now(), rng=random.Random(1))


# Drills


@pytest.mark.django_db
@pytest.mark.parametrize("domain", list(WEIGHTS))
def test_a_drill_is_ten_different_questions_from_the_chosen_domain(learner_client, learner, domain):
    attempt = start_drill(learner_client, domain)

    items = items_of(attempt)
    assert attempt.user == learner
    assert attempt.kind == Attempt.Kind.DRILL
    assert attempt.domain.slug == domain
    # Ten, or the whole pool where the bank has fewer (Trustworthy AI's 5% share is 6).
    length = min(10, Question.objects.current().filter(domain__slug=domain).count())
    assert [item.position for item in items] == list(range(1, length + 1))
    assert {item.question.domain.slug for item in items} == {domain}
    assert len({item.question_id for item in items}) == length


@pytest.mark.django_db
@pytest.mark.parametrize("domain", ["", "astrology", "core-ml' OR 1=1"])
def test_a_drill_of_an_unknown_domain_is_refused_and_starts_nothing(learner_client, domain):
    response = learner_client.post(DRILL_START, {"domain": domain})

    assert response.status_code == 400
    assert not Attempt.objects.exists()


@pytest.mark.django_db
def test_the_practice_page_suggests_drilling_the_lagging_domain(learner_client, learner):
    tick(
        learner,
        *SelfCheck.objects.current()
        .exclude(domain__slug="data-analysis")
        .values_list("slug", flat=True),
    )

    response = learner_client.get(PRACTICE)

    (selected,) = [
        e for e in elements(response.content) if e.tag == "option" and "selected" in e.attrs
    ]
    assert selected.attrs["value"] == "data-analysis"
    assert selected.text.endswith(": lagging")


@pytest.mark.django_db
def test_a_drill_question_page_shows_the_prompt_and_every_option(learner_client):
    attempt = start_drill(learner_client)
    item = item_at(attempt, 1)

    response = learner_client.get(attempt_url(attempt))

    assert response.status_code == 200
    assert "question 1 of 10" in eyebrow(response)
    assert heading(response) == " ".join(item.question.prompt.split())
    inputs = [
        e
        for e in elements(response.content)
        if e.tag == "input" and e.attrs.get("name") == "option"
    ]
    assert sorted(int(e.attrs["value"]) for e in inputs) == list(range(len(item.question.options)))
    kind = "checkbox" if len(item.question.correct_options) > 1 else "radio"
    assert {e.attrs["type"] for e in inputs} == {kind}
    labels = [e.text for e in with_class(response.content, "option")]
    assert sorted(labels) == sorted(" ".join(o["text"].split()) for o in item.question.options)
    assert "Why:" not in page_text(response.content)


@pytest.mark.django_db
def test_answering_a_drill_question_shows_feedback_with_the_explanation(learner_client):
    attempt = start_drill(learner_client)
    item = item_at(attempt, 1)

    response = learner_client.post(answer_url(attempt, 1), {"option": right_options(item)})

    assertRedirects(response, attempt_url(attempt, 1), fetch_redirect_response=False)
    page = learner_client.get(response.url)
    (feedback,) = with_class(page.content, "feedback")
    assert feedback.text == "Right."
    (explanation,) = with_class(page.content, "explanation")
    assert explanation.text == "Why: " + " ".join(item.question.explanation.split())
    assertContains(page, f'href="{attempt_url(attempt, 2)}"')
    item.refresh_from_db()
    assert item.is_correct is True
    assert item.chosen == sorted(int(i) for i in right_options(item))


@pytest.mark.django_db
def test_a_wrong_drill_answer_says_so_and_marks_the_right_one(learner_client):
    attempt = start_drill(learner_client)
    item = item_at(attempt, 1)

    learner_client.post(answer_url(attempt, 1), {"option": wrong_options(item)})

    page = learner_client.get(attempt_url(attempt, 1))
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


@pytest.mark.django_db
def test_a_drill_answer_cannot_be_changed_after_its_feedback(learner_client):
    attempt = start_drill(learner_client)
    item = item_at(attempt, 1)
    learner_client.post(answer_url(attempt, 1), {"option": wrong_options(item)})
    before = stored(attempt)

    response = learner_client.post(answer_url(attempt, 1), {"option": right_options(item)})

    assert response.status_code == 302
    assert stored(attempt) == before
    item.refresh_from_db()
    assert item.is_correct is False


@pytest.mark.django_db
def test_a_drill_answer_must_choose_something(learner_client):
    attempt = start_drill(learner_client)
    before = stored(attempt)

    response = learner_client.post(answer_url(attempt, 1), {})

    assert response.status_code == 400
    assert stored(attempt) == before


@pytest.mark.django_db
def test_after_all_ten_answers_the_drill_shows_its_result(learner_client):
    attempt = start_drill(learner_client, "experimentation")
    for item in items_of(attempt):
        options = right_options(item) if item.position <= 7 else wrong_options(item)
        learner_client.post(answer_url(attempt, item.position), {"option": options})

    response = learner_client.get(attempt_url(attempt))

    assertRedirects(response, result_url(attempt))
    result = learner_client.get(result_url(attempt))
    assert heading(result) == "7 of 10 right (70%)"
    assert result_rows(result) == [["Experimentation Weakest", "7/10", "70% 70%"]]


@pytest.mark.django_db
def test_a_drill_result_before_the_last_answer_sends_back_to_the_questions(learner_client):
    attempt = start_drill(learner_client)
    item = item_at(attempt, 1)
    learner_client.post(answer_url(attempt, 1), {"option": right_options(item)})

    response = learner_client.get(result_url(attempt))

    assertRedirects(response, attempt_url(attempt), fetch_redirect_response=False)


# The timed mock


@pytest.mark.django_db
def test_a_mock_draws_its_questions_by_exam_weight_with_a_deadline(
    learner_client, learner, mock_settings
):
    before = timezone.now()
    attempt = start_mock(learner_client)
    after = timezone.now()

    items = items_of(attempt)
    assert attempt.kind == Attempt.Kind.MOCK
    assert len(items) == 60
    assert Counter(item.question.domain.slug for item in items) == MOCK_60
    assert len({item.question_id for item in items}) == 60
    minutes = datetime.timedelta(minutes=60)
    assert before + minutes <= attempt.deadline <= after + minutes
    assert attempt.submitted_at is None


@pytest.mark.django_db
def test_the_mock_length_and_time_come_from_settings(learner_client, settings):
    settings.MOCK_QUESTIONS = 10
    settings.MOCK_MINUTES = 15

    attempt = start_mock(learner_client)

    assert attempt.questions.count() == 10
    assert Counter(item.question.domain.slug for item in items_of(attempt)) == {
        "experimentation": 3,  # 2.5, and the largest remainders go first
        "core-ml": 2,
        "multimodal-data": 2,  # 1.5
        "software-development": 1,  # 1.5, but the remainder ties go in slug order
        "data-analysis": 1,
        "performance-optimization": 1,
    }
    remaining = attempt.deadline - attempt.started_at
    assert remaining == datetime.timedelta(minutes=15)
    page = learner_client.get(PRACTICE)
    assertContains(page, "10 questions drawn by exam weight in 15 minutes")


@pytest.mark.django_db
def test_starting_a_mock_while_one_is_open_resumes_it(learner_client, learner, mock_settings):
    first = start_mock(learner_client)

    second = start_mock(learner_client)

    assert second.pk == first.pk
    assert Attempt.objects.filter(user=learner).count() == 1
    page = learner_client.get(PRACTICE)
    assertContains(page, f'href="{attempt_url(first)}"')
    assertContains(page, "Resume your mock")


@pytest.mark.django_db
def test_a_new_mock_starts_once_the_last_one_is_submitted(learner_client, mock_settings):
    first = start_mock(learner_client)
    learner_client.post(submit_url(first))

    second = start_mock(learner_client)

    assert second.pk != first.pk


@pytest.mark.django_db
def test_the_mock_question_page_shows_the_countdown_and_the_question(learner_client, mock_settings):
    attempt = start_mock(learner_client)
    item = item_at(attempt, 1)

    response = learner_client.get(attempt_url(attempt))

    assert response.status_code == 200
    assert heading(response) == " ".join(item.question.prompt.split())
    countdown = element_by_id(response.content, "countdown")
    assert 3590 <= int(countdown.attrs["data-seconds-left"]) <= 3600
    assert countdown.attrs["role"] == "timer"
    assert "hidden" in element_by_id(response.content, "nudge").attrs
    assertContains(response, "/static/js/mock.js")
    # The mock gives no feedback while it runs.
    assert not with_class(response.content, "explanation")


@pytest.mark.django_db
def test_reloading_a_mock_resumes_at_the_first_unanswered_question(learner_client, mock_settings):
    attempt = start_mock(learner_client)
    for position in (1, 2, 3, 5):
        item = item_at(attempt, position)
        learner_client.post(answer_url(attempt, position), {"option": right_options(item)})

    response = learner_client.get(attempt_url(attempt))

    assert "question 4 of 60 · 4 answered" in eyebrow(response)
    assert heading(response) == " ".join(item_at(attempt, 4).question.prompt.split())


@pytest.mark.django_db
def test_a_saved_mock_answer_is_shown_checked_when_the_question_is_reopened(
    learner_client, mock_settings
):
    attempt = start_mock(learner_client)
    item = item_at(attempt, 2)
    learner_client.post(answer_url(attempt, 2), {"option": wrong_options(item)})

    response = learner_client.get(attempt_url(attempt, 2))

    checked = [
        e.attrs["value"]
        for e in elements(response.content)
        if e.tag == "input" and e.attrs.get("name") == "option" and "checked" in e.attrs
    ]
    assert checked == wrong_options(item)


@pytest.mark.django_db
def test_a_mock_answer_can_be_changed_before_the_deadline(learner_client, mock_settings):
    attempt = start_mock(learner_client)
    item = item_at(attempt, 1)
    learner_client.post(answer_url(attempt, 1), {"option": wrong_options(item)})

    response = learner_client.post(answer_url(attempt, 1), {"option": right_options(item)})

    assertRedirects(response, attempt_url(attempt, 2), fetch_redirect_response=False)
    item.refresh_from_db()
    assert item.is_correct is True


@pytest.mark.django_db
def test_a_choose_two_mock_question_with_one_right_box_scores_nothing(learner, mock_settings):
    attempt = mock_for(learner)
    two = next(item for item in items_of(attempt) if len(item.question.correct_options) == 2)
    client = Client()
    client.force_login(learner)

    client.post(answer_url(attempt, two.position), {"option": right_options(two)[:1]})
    two.refresh_from_db()
    assert two.is_correct is False
    client.post(answer_url(attempt, two.position), {"option": right_options(two)})
    two.refresh_from_db()
    assert two.is_correct is True


@pytest.mark.django_db
def test_answering_the_last_question_goes_to_the_flagged_list(learner_client, settings):
    settings.MOCK_QUESTIONS = 3
    attempt = start_mock(learner_client)
    item = item_at(attempt, 3)

    response = learner_client.post(answer_url(attempt, 3), {"option": right_options(item)})

    assertRedirects(response, flagged_url(attempt), fetch_redirect_response=False)


@pytest.mark.django_db
def test_answers_after_the_deadline_are_not_counted(learner_client, mock_settings):
    attempt = start_mock(learner_client)
    deadline = timezone.now() - datetime.timedelta(seconds=1)
    Attempt.objects.filter(pk=attempt.pk).update(deadline=deadline)
    item = item_at(attempt, 1)

    response = learner_client.post(answer_url(attempt, 1), {"option": right_options(item)})

    assertRedirects(response, result_url(attempt), fetch_redirect_response=False)
    item.refresh_from_db()
    assert (item.chosen, item.is_correct, item.answered_at) == (None, None, None)
    attempt.refresh_from_db()
    assert attempt.submitted_at == deadline
    result = learner_client.get(response.url)
    assert heading(result) == "0 of 60 right (0%)"
    assertContains(result, "Time is up: answers after the deadline are not counted.")


@pytest.mark.django_db
def test_a_mock_past_its_deadline_opens_on_its_result(learner_client, mock_settings):
    attempt = start_mock(learner_client)
    item = item_at(attempt, 1)
    learner_client.post(answer_url(attempt, 1), {"option": right_options(item)})
    deadline = timezone.now() - datetime.timedelta(minutes=1)
    Attempt.objects.filter(pk=attempt.pk).update(deadline=deadline)

    for url in (attempt_url(attempt), attempt_url(attempt, 2), flagged_url(attempt)):
        assertRedirects(learner_client.get(url), result_url(attempt))
    attempt.refresh_from_db()
    assert attempt.submitted_at == deadline
    assert heading(learner_client.get(result_url(attempt))) == "1 of 60 right (2%)"
    # Time is up: a new mock starts instead of resuming the old one.
    assert start_mock(learner_client).pk != attempt.pk


@pytest.mark.django_db
def test_flagging_after_the_deadline_changes_nothing(learner_client, mock_settings):
    attempt = start_mock(learner_client)
    Attempt.objects.filter(pk=attempt.pk).update(
        deadline=timezone.now() - datetime.timedelta(seconds=5)
    )

    response = learner_client.post(flag_url(attempt, 1), {"flagged": "1"})

    assertRedirects(response, result_url(attempt), fetch_redirect_response=False)
    assert not AttemptQuestion.objects.filter(attempt=attempt, flagged=True).exists()


@pytest.mark.django_db
def test_answers_after_submitting_are_not_counted(learner_client, mock_settings):
    attempt = start_mock(learner_client)
    learner_client.post(submit_url(attempt))
    before = stored(attempt)
    item = item_at(attempt, 1)

    response = learner_client.post(answer_url(attempt, 1), {"option": right_options(item)})

    assertRedirects(response, result_url(attempt), fetch_redirect_response=False)
    assert stored(attempt) == before


@pytest.mark.django_db
def test_submitting_twice_counts_once(learner_client, mock_settings):
    attempt = start_mock(learner_client)
    item = item_at(attempt, 1)
    learner_client.post(answer_url(attempt, 1), {"option": right_options(item)})

    first = learner_client.post(submit_url(attempt))
    attempt.refresh_from_db()
    submitted_at = attempt.submitted_at
    before = stored(attempt)
    second = learner_client.post(submit_url(attempt))

    assertRedirects(first, result_url(attempt), fetch_redirect_response=False)
    assertRedirects(second, result_url(attempt), fetch_redirect_response=False)
    assert submitted_at is not None
    attempt.refresh_from_db()
    assert attempt.submitted_at == submitted_at
    assert stored(attempt) == before
    assert Attempt.objects.filter(submitted_at__isnull=False).count() == 1


@pytest.mark.django_db
def test_submit_service_twice_keeps_the_first_time(learner, mock_settings):
    attempt = mock_for(learner)
    first = timezone.now()
    services.submit(attempt=attempt, now=first)
    stale = Attempt.objects.get(pk=attempt.pk)
    stale.submitted_at = None  # another tab that has not seen the first submit

    services.submit(attempt=stale, now=first + datetime.timedelta(seconds=30))

    assert stale.submitted_at == first
    assert Attempt.objects.get(pk=attempt.pk).submitted_at == first


@pytest.mark.django_db
def test_a_mock_result_before_submitting_sends_back_to_the_questions(learner_client, mock_settings):
    attempt = start_mock(learner_client)

    assertRedirects(
        learner_client.get(result_url(attempt)), attempt_url(attempt), fetch_redirect_response=False
    )
    assert Attempt.objects.get(pk=attempt.pk).submitted_at is None


@pytest.mark.django_db
def test_flagging_a_question_puts_it_on_the_flagged_list(learner_client, mock_settings):
    attempt = start_mock(learner_client)

    response = learner_client.post(flag_url(attempt, 2), {"flagged": "1"})

    assertRedirects(response, attempt_url(attempt, 2), fetch_redirect_response=False)
    assert item_at(attempt, 2).flagged
    page = learner_client.get(response.url)
    assertContains(page, "Unflag this question")
    assertContains(page, "Flagged (1) and submit")
    assertContains(page, 'aria-label="Question 2, flagged"')

    flagged = learner_client.get(flagged_url(attempt))
    assert flagged.status_code == 200
    links = [
        e
        for e in elements(flagged.content)
        if e.tag == "a" and e.attrs.get("href") == attempt_url(attempt, 2)
    ]
    assert [link.text for link in links] == ["Question 2", "2"]  # flagged, and unanswered
    assertContains(flagged, "60 questions: 60 unanswered, 1 flagged.")


@pytest.mark.django_db
def test_unflagging_takes_it_off_the_flagged_list(learner_client, mock_settings):
    attempt = start_mock(learner_client)
    learner_client.post(flag_url(attempt, 2), {"flagged": "1"})

    learner_client.post(flag_url(attempt, 2), {"flagged": "0"})

    assert not item_at(attempt, 2).flagged
    assertContains(learner_client.get(flagged_url(attempt)), "Nothing flagged.")


@pytest.mark.django_db
def test_save_and_see_flagged_saves_the_answer_and_opens_the_list(learner_client, mock_settings):
    attempt = start_mock(learner_client)
    item = item_at(attempt, 1)

    response = learner_client.post(
        answer_url(attempt, 1), {"option": right_options(item), "then": "flagged"}
    )

    assertRedirects(response, flagged_url(attempt), fetch_redirect_response=False)
    assert item_at(attempt, 1).is_correct is True


@pytest.mark.django_db
def test_the_mock_result_gives_the_score_per_domain_and_names_the_weakest(learner, mock_settings):
    attempt = mock_for(learner)
    now = timezone.now()
    items = items_of(attempt)
    # Every question right except three of Core ML's twelve.
    missed = [item.position for item in items if item.question.domain.slug == "core-ml"][:3]
    for item in items:
        chosen = wrong_options(item) if item.position in missed else right_options(item)
        services.answer(attempt=attempt, item=item, chosen=[int(c) for c in chosen], now=now)
    services.submit(attempt=attempt, now=now)
    client = Client()
    client.force_login(learner)

    response = client.get(result_url(attempt))

    assert heading(response) == "57 of 60 right (95%)"
    (lede,) = with_class(response.content, "lede")
    assert lede.text.startswith("Weakest domain in this attempt: Core Machine Learning")
    assert result_rows(response) == [
        ["Experimentation", "15/15", "100% 100%"],
        [f"{DOMAIN_NAMES['core-ml']} Weakest", "9/12", "75% 75%"],
        ["Multimodal Data", "9/9", "100% 100%"],
        ["Software Development", "9/9", "100% 100%"],
        ["Data Analysis", "6/6", "100% 100%"],
        ["Performance Optimization", "6/6", "100% 100%"],
        ["Trustworthy AI", "3/3", "100% 100%"],
    ]
    # Each answer is shown with its explanation after the mock.
    assert len(with_class(response.content, "explanation")) == 60


@pytest.mark.django_db
def test_a_mock_with_every_domain_at_zero_names_the_heaviest_weakest(learner_client, mock_settings):
    attempt = start_mock(learner_client)
    learner_client.post(submit_url(attempt))

    response = learner_client.get(result_url(attempt))

    assert heading(response) == "0 of 60 right (0%)"
    weakest = [row[0] for row in result_rows(response) if row[0].endswith("Weakest")]
    assert weakest == ["Experimentation Weakest"]
    assertContains(response, "Unanswered", count=60)


@pytest.mark.django_db
def test_the_history_lists_finished_mocks_with_an_svg_chart(learner, learner_client, settings):
    settings.MOCK_QUESTIONS = 10
    settings.MOCK_MINUTES = 10
    start = timezone.now() - datetime.timedelta(hours=3)
    # The oldest ran out of time unanswered; the next was submitted all right; the last is open.
    expired = mock_for(learner, now=start)
    finished = mock_for(learner, now=start + datetime.timedelta(hours=1))
    for item in items_of(finished):
        services.answer(
            attempt=finished,
            item=item,
            chosen=sorted(item.question.correct_options),
            now=start + datetime.timedelta(hours=1, minutes=2),
        )
    services.submit(attempt=finished, now=start + datetime.timedelta(hours=1, minutes=5))
    still_open = start_mock(learner_client)

    response = learner_client.get(HISTORY)

    assert response.status_code == 200
    links = [e.attrs["href"] for e in elements(response.content) if e.tag == "a"]
    assert result_url(finished) in links
    assert result_url(expired) in links
    assert result_url(still_open) not in links
    (table,) = [e for e in elements(response.content) if e.tag == "table"]
    (body,) = [c for c in table.children if c.tag == "tbody"]
    rows = [[cell.text for cell in row.children] for row in body.children if row.tag == "tr"]
    # Newest first: 100% overall then 0%, with the weakest (heaviest on a tie) named.
    assert [row[1:3] for row in rows] == [
        ["100%", "Experimentation (100%)"],
        ["0%", "Experimentation (0%)"],
    ]
    svg = [e for e in elements(response.content) if e.tag == "svg"]
    assert len(svg) == 1 and svg[0].attrs["role"] == "img"
    lines = {
        e.attrs["class"]: e.attrs["points"].split()
        for e in elements(response.content)
        if e.tag == "polyline"
    }
    assert set(lines) == {"line-overall", "line-weakest"}
    # Oldest first along the x axis: 0% sits at the bottom (y=172), 100% at the top (y=28).
    assert [point.split(",")[1] for point in lines["line-overall"]] == ["172.0", "28.0"]
    assert [point.split(",")[1] for point in lines["line-weakest"]] == ["172.0", "28.0"]
    assert element_by_id(response.content, "history-title").text


@pytest.mark.django_db
def test_the_history_without_finished_mocks_invites_one(learner_client):
    response = learner_client.get(HISTORY)

    assert response.status_code == 200
    assert not [e for e in elements(response.content) if e.tag == "svg"]
    assertContains(response, "No finished mock yet.")


# Another learner's attempt


def every_attempt_request(attempt: Attempt) -> list[tuple[str, str, dict]]:
    item = item_at(attempt, 1)
    return [
        ("get", attempt_url(attempt), {}),
        ("get", attempt_url(attempt, 1), {}),
        ("get", flagged_url(attempt), {}),
        ("get", result_url(attempt), {}),
        ("post", answer_url(attempt, 1), {"option": right_options(item)}),
        ("post", flag_url(attempt, 1), {"flagged": "1"}),
        ("post", submit_url(attempt), {}),
    ]


@pytest.mark.django_db
@pytest.mark.parametrize("kind", ["mock", "drill"])
def test_another_learners_attempt_is_unreachable_by_every_url(
    learner, learner_client, mock_settings, kind
):
    owner = UserFactory()
    if kind == "mock":
        attempt = mock_for(owner)
    else:
        attempt = services.start_drill(
            user=owner,
            domain=Domain.objects.get(slug="core-ml"),
            now=timezone.now(),
            rng=random.Random(3),
        )
    before = stored(attempt)

    for method, url, data in every_attempt_request(attempt):
        for headers in ({}, HTMX):
            response = getattr(learner_client, method)(url, data, **headers)
            assert response.status_code == 404, (method, url, response.status_code)

    assert stored(attempt) == before
    assert not Attempt.objects.filter(user=learner).exists()


@pytest.mark.django_db
def test_an_attempt_that_does_not_exist_is_a_404(learner_client):
    assert learner_client.get(reverse("progress:attempt", args=[999999])).status_code == 404


@pytest.mark.django_db
def test_attempt_pages_need_a_login(learner, mock_settings):
    attempt = mock_for(learner)
    anonymous = Client()
    before = stored(attempt)

    for method, url, data in every_attempt_request(attempt):
        response = getattr(anonymous, method)(url, data)
        assert response.status_code == 302
        assert response.url.startswith(reverse("login"))
    assert stored(attempt) == before


# Malformed input


@pytest.mark.django_db
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
    learner, learner_client, mock_settings, options, kind
):
    attempt = mock_for(learner) if kind == "mock" else start_drill(learner_client)
    # The five-option questions make "5" valid; pick a four-option one.
    item = next(i for i in items_of(attempt) if len(i.question.options) == 4)
    before = stored(attempt)

    response = learner_client.post(answer_url(attempt, item.position), {"option": options})

    assert response.status_code == 400
    assert stored(attempt) == before


@pytest.mark.django_db
@pytest.mark.parametrize("value", ["maybe", "", "2", "true", "²"])
def test_a_flag_that_is_not_zero_or_one_is_refused(learner, learner_client, mock_settings, value):
    attempt = mock_for(learner)
    before = stored(attempt)

    response = learner_client.post(flag_url(attempt, 1), {"flagged": value})

    assert response.status_code == 400
    assert stored(attempt) == before


@pytest.mark.django_db
def test_a_flag_post_without_a_value_is_refused(learner, learner_client, mock_settings):
    attempt = mock_for(learner)
    before = stored(attempt)

    assert learner_client.post(flag_url(attempt, 1), {}).status_code == 400
    assert stored(attempt) == before


@pytest.mark.django_db
@pytest.mark.parametrize("q", ["999", "0", "61", "-1", "abc", "", "1.5", "²", "١"])
def test_a_question_number_outside_the_attempt_is_a_404(learner, learner_client, mock_settings, q):
    attempt = mock_for(learner)
    before = stored(attempt)

    response = learner_client.get(attempt_url(attempt, q))

    assert response.status_code == 404
    assert stored(attempt) == before


@pytest.mark.django_db
@pytest.mark.parametrize("position", [0, 61, 999])
def test_posting_to_a_position_outside_the_attempt_is_a_404(
    learner, learner_client, mock_settings, position
):
    attempt = mock_for(learner)
    before = stored(attempt)

    for url, data in [
        (answer_url(attempt, position), {"option": "0"}),
        (flag_url(attempt, position), {"flagged": "1"}),
    ]:
        assert learner_client.post(url, data).status_code == 404
    assert stored(attempt) == before


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("method", "url"),
    [
        ("get", DRILL_START),
        ("get", MOCK_START),
        ("post", PRACTICE),
        ("post", HISTORY),
        ("post", REVIEW),
    ],
)
def test_practice_urls_refuse_the_wrong_method(learner_client, method, url):
    assert getattr(learner_client, method)(url).status_code == 405
    assert not Attempt.objects.exists()


@pytest.mark.django_db
def test_attempt_actions_refuse_get(learner, learner_client, mock_settings):
    attempt = mock_for(learner)
    before = stored(attempt)

    for url in (answer_url(attempt, 1), flag_url(attempt, 1), submit_url(attempt)):
        assert learner_client.get(url).status_code == 405
    assert stored(attempt) == before


# Confidence and review

CHECK = "p1-backprop"


def confidence_url(slug: str = CHECK) -> str:
    return reverse("progress:selfcheck-confidence", args=[slug])


def review_answer_url(slug: str = CHECK) -> str:
    return reverse("progress:review-answer", args=[slug])


def check_off(user, slug: str = CHECK) -> CheckOff:
    return CheckOff.objects.get(user=user, self_check__slug=slug)


def schedule_of(user, slug: str = CHECK) -> tuple[str, int, datetime.date]:
    row = check_off(user, slug)
    return row.confidence, row.box, row.due_on


def days_from_today(n: int) -> datetime.date:
    return timezone.localdate() + datetime.timedelta(days=n)


def make_due(user, *slugs: str, days_ago: int = 1) -> None:
    CheckOff.objects.filter(user=user, self_check__slug__in=slugs).update(
        due_on=days_from_today(-days_ago)
    )


@pytest.mark.django_db
def test_a_plain_tick_is_scheduled_for_review_in_three_days(learner_client, learner):
    learner_client.post(reverse("progress:selfcheck-toggle", args=[CHECK]), {"done": "1"})

    assert schedule_of(learner) == ("", 1, days_from_today(3))


@pytest.mark.django_db
def test_saying_shaky_brings_a_ticked_check_back_tomorrow(learner_client, learner):
    tick(learner, CHECK)
    phase_slug = SelfCheck.objects.get(slug=CHECK).phase.slug

    response = learner_client.post(confidence_url(), {"confidence": "shaky"})

    assertRedirects(
        response,
        f"{reverse('progress:phase', args=[phase_slug])}#check-{CHECK}",
        fetch_redirect_response=False,
    )
    assert schedule_of(learner) == ("shaky", 0, days_from_today(1))


@pytest.mark.django_db
def test_saying_solid_brings_a_ticked_check_back_in_a_week(learner_client, learner):
    tick(learner, CHECK)

    learner_client.post(confidence_url(), {"confidence": "solid"})

    assert schedule_of(learner) == ("solid", 2, days_from_today(7))


@pytest.mark.django_db
def test_saying_shaky_with_htmx_answers_the_row_with_shaky_pressed(learner_client, learner):
    tick(learner, CHECK)

    response = learner_client.post(confidence_url(), {"confidence": "shaky"}, **HTMX)

    assert response.status_code == 200
    row = element_by_id(response.content, f"check-{CHECK}")
    assert row.depth == 0 and row.tag == "li"
    chips = {e.text: e for e in elements(response.content) if "chip" in e.classes}
    assert chips["Shaky"].attrs["aria-pressed"] == "true"
    assert "chip-on" in chips["Shaky"].classes
    assert chips["Solid"].attrs["aria-pressed"] == "false"
    # The row still says done, and its tick button still unticks.
    assertContains(response, 'aria-pressed="true" aria-label="Done:')
    assert schedule_of(learner) == ("shaky", 0, days_from_today(1))


@pytest.mark.django_db
def test_the_phase_page_shows_the_confidence_chips_only_on_ticked_checks(learner_client, learner):
    tick(learner, CHECK)
    learner_client.post(confidence_url(), {"confidence": "solid"})

    response = learner_client.get(reverse("progress:phase", args=["core-ml-foundations"]))

    row = element_by_id(response.content, f"check-{CHECK}")
    pressed = [
        e.text
        for e in elements(response.content)
        if "chip" in e.classes and e.attrs.get("aria-pressed") == "true"
    ]
    assert pressed == ["Solid"]
    assert "How well do you know it?" in row.text
    other = element_by_id(response.content, "check-p1-residual-gradient-flow")
    assert "How well do you know it?" not in other.text


@pytest.mark.django_db
@pytest.mark.parametrize("headers", [{}, HTMX], ids=["plain", "htmx"])
def test_confidence_on_an_unticked_check_is_refused_and_ticks_nothing(learner_client, headers):
    response = learner_client.post(confidence_url(), {"confidence": "shaky"}, **headers)

    assert response.status_code == 400
    assert not CheckOff.objects.exists()


@pytest.mark.django_db
@pytest.mark.parametrize("value", ["", "SHAKY", "unsure", "solid "])
def test_a_confidence_that_is_not_shaky_or_solid_is_refused(learner_client, learner, value):
    tick(learner, CHECK)
    before = schedule_of(learner)

    response = learner_client.post(confidence_url(), {"confidence": value})

    assert response.status_code == 400
    assert schedule_of(learner) == before


@pytest.mark.django_db
def test_confidence_on_an_unknown_check_is_a_404(learner_client):
    assert (
        learner_client.post(confidence_url("no-such-check"), {"confidence": "shaky"}).status_code
        == 404
    )


@pytest.mark.django_db
def test_confidence_only_changes_my_own_tick(learner_client, learner):
    other = UserFactory()
    tick(other, CHECK)
    tick(learner, CHECK)

    learner_client.post(confidence_url(), {"confidence": "shaky"})

    assert schedule_of(other) == ("", 1, days_from_today(3))


def review_card(response) -> str:
    return element_by_id(response.content, "review-card").text


@pytest.mark.django_db
def test_the_review_page_lists_only_the_checks_due(learner_client, learner):
    tick(learner, "p1-backprop", "p1-validation-vs-test", "p2-fid-direction")
    make_due(learner, "p1-backprop", days_ago=1)
    make_due(learner, "p2-fid-direction", days_ago=0)  # due today counts too
    UserFactory()  # another learner's due checks are not mine
    other = UserFactory()
    tick(other, "p5-chart-choice")
    make_due(other, "p5-chart-choice", days_ago=3)

    response = learner_client.get(REVIEW)

    assert response.status_code == 200
    card = review_card(response)
    assert card.startswith("Review today: 2 left")
    # The one due longest ago comes first.
    assert SelfCheck.objects.get(slug="p1-backprop").prompt in card
    html = response.content.decode()
    assert SelfCheck.objects.get(slug="p1-validation-vs-test").prompt not in html
    assert SelfCheck.objects.get(slug="p5-chart-choice").prompt not in html


@pytest.mark.django_db
def test_the_review_card_hides_the_answer_until_revealed(learner_client, learner):
    tick(learner, CHECK)
    make_due(learner, CHECK)
    check = SelfCheck.objects.get(slug=CHECK)

    response = learner_client.get(REVIEW)

    (details,) = [e for e in elements(response.content) if e.tag == "details"]
    assert "open" not in details.attrs
    assert details.text == f"Reveal the reference answer {' '.join(check.answer.split())}"
    forms = [
        e
        for e in elements(response.content)
        if e.tag == "form" and e.attrs.get("action") == review_answer_url()
    ]
    assert len(forms) == 2  # knew it, didn't; both work without JavaScript


@pytest.mark.django_db
def test_knew_it_moves_the_check_up_a_box_and_off_todays_queue(learner_client, learner):
    tick(learner, CHECK)
    make_due(learner, CHECK)

    response = learner_client.post(review_answer_url(), {"knew": "1"})

    assertRedirects(response, REVIEW, fetch_redirect_response=False)
    row = check_off(learner)
    assert (row.box, row.due_on, row.reviewed_on) == (2, days_from_today(7), timezone.localdate())
    assert review_card(learner_client.get(REVIEW)).startswith("Nothing to review today")


@pytest.mark.django_db
def test_didnt_know_it_sends_the_check_back_to_box_zero_due_tomorrow(learner_client, learner):
    tick(learner, CHECK)
    learner_client.post(confidence_url(), {"confidence": "solid"})
    make_due(learner, CHECK)

    learner_client.post(review_answer_url(), {"knew": "0"})

    assert schedule_of(learner) == ("shaky", 0, days_from_today(1))
    assert review_card(learner_client.get(REVIEW)).startswith("Nothing to review today")


@pytest.mark.django_db
def test_reviewing_with_htmx_answers_the_next_card(learner_client, learner):
    tick(learner, "p1-backprop", "p2-fid-direction")
    make_due(learner, "p1-backprop", days_ago=2)
    make_due(learner, "p2-fid-direction", days_ago=1)

    response = learner_client.post(review_answer_url("p1-backprop"), {"knew": "1"}, **HTMX)

    assert response.status_code == 200
    card = element_by_id(response.content, "review-card")
    assert card.depth == 0
    assert card.text.startswith("Review today: 1 left")
    assert SelfCheck.objects.get(slug="p2-fid-direction").prompt in card.text
    assert "<html" not in response.content.decode()

    last = learner_client.post(review_answer_url("p2-fid-direction"), {"knew": "0"}, **HTMX)
    assert element_by_id(last.content, "review-card").text.startswith("Nothing to review today")


@pytest.mark.django_db
@pytest.mark.parametrize("value", ["", "yes", "2", "true"])
def test_a_review_answer_that_is_not_zero_or_one_is_refused(learner_client, learner, value):
    tick(learner, CHECK)
    make_due(learner, CHECK)
    before = schedule_of(learner)

    assert learner_client.post(review_answer_url(), {"knew": value}).status_code == 400
    assert schedule_of(learner) == before


@pytest.mark.django_db
def test_reviewing_a_check_never_ticked_is_a_404_and_ticks_nothing(learner_client):
    assert learner_client.post(review_answer_url(), {"knew": "1"}).status_code == 404
    assert not CheckOff.objects.exists()


@pytest.mark.django_db
def test_the_header_says_how_many_reviews_are_due_today(learner_client, learner):
    make_plan(learner)
    tick(learner, "p1-backprop", "p1-validation-vs-test", "p2-fid-direction")
    make_due(learner, "p1-backprop", "p2-fid-direction")

    response = learner_client.get(DASHBOARD)

    nav = [
        e
        for e in elements(response.content)
        if e.tag == "nav" and e.attrs.get("aria-label") == "Main"
    ]
    links = [
        e for e in elements(response.content) if e.tag == "a" and e.attrs.get("href") == REVIEW
    ]
    assert "Review today (2)" in nav[0].text
    assert any(link.text == "Review today (2)" for link in links)


# The dashboard: covered and accurate side by side


def tick_everything(user) -> None:
    tick(user, *SelfCheck.objects.current().values_list("slug", flat=True))


@pytest.mark.django_db
def test_the_dashboard_shows_accuracy_and_review_backlog_per_domain(learner_client, learner):
    make_plan(learner)
    practise(learner, "core-ml", right=3, wrong=1)
    practise(learner, "experimentation", right=1, wrong=2)
    tick(learner, "p1-backprop", "p1-validation-vs-test", "p1-residual-gradient-flow")
    make_due(learner, "p1-backprop", "p1-validation-vs-test")
    # Another learner's practice and reviews change none of my figures.
    other = UserFactory()
    practise(other, "core-ml", right=0, wrong=5)
    tick(other, "p2-fid-direction")
    make_due(other, "p2-fid-direction")

    response = learner_client.get(DASHBOARD)

    rows = domain_rows(response)
    accuracy = {slug: cells[5] for slug, cells in rows.items()}
    backlog = {slug: cells[6] for slug, cells in rows.items()}
    assert accuracy == {
        "experimentation": "33% (1/3)",
        "core-ml": "75% (3/4)",
        **{slug: "—" for slug in DOMAIN_NAMES if slug not in ("core-ml", "experimentation")},
    }
    assert backlog == {**dict.fromkeys(DOMAIN_NAMES, "0"), "core-ml": "2"}


@pytest.mark.django_db
def test_the_dashboard_accuracy_counts_the_twenty_newest_answers(learner_client, learner):
    make_plan(learner)
    practise(learner, "experimentation", right=0, wrong=20)
    practise(learner, "experimentation", right=20, wrong=0)

    response = learner_client.get(DASHBOARD)

    assert domain_rows(response)["experimentation"][5] == "100% (20/20)"


@pytest.mark.django_db
def test_practice_answers_move_the_dashboard_at_once(learner_client, learner):
    make_plan(learner)
    learner_client.get(DASHBOARD)  # cached
    attempt = start_drill(learner_client, "trustworthy-ai")
    item = item_at(attempt, 1)
    learner_client.post(answer_url(attempt, 1), {"option": right_options(item)})

    response = learner_client.get(DASHBOARD)

    assert domain_rows(response)["trustworthy-ai"][5] == "100% (1/1)"


@pytest.mark.django_db
def test_every_check_done_but_weak_experimentation_practice_makes_it_lagging(
    learner_client, learner
):
    make_plan(learner)
    tick_everything(learner)
    for slug in DOMAIN_NAMES:
        if slug == "experimentation":
            practise(learner, slug, right=2, wrong=3)  # 40%
        else:
            practise(learner, slug, right=5)

    response = learner_client.get(DASHBOARD)

    card = focus(response)
    assert card.startswith("Lagging domain Experimentation")
    assert "40% accurate in recent practice" in card
    (rule,) = with_class(response.content, "rule")
    assert "accuracy" in rule.text
    assert "lower of" in rule.text
    lagging = [slug for slug, cells in domain_rows(response).items() if "Lagging" in cells[0]]
    assert lagging == ["experimentation"]
    assert verdict(response).startswith("Not ready")


@pytest.mark.django_db
def test_weak_practice_in_a_covered_domain_overtakes_a_less_covered_one(learner_client, learner):
    make_plan(learner)
    # Everything done except two Experimentation checks (5/7 = 71% covered)...
    undone = ["p2-fid-direction", "p2-gan-comparison"]
    tick(
        learner,
        *SelfCheck.objects.current().exclude(slug__in=undone).values_list("slug", flat=True),
    )
    before = learner_client.get(DASHBOARD)
    assert focus(before).startswith("Lagging domain Experimentation")
    (rule,) = with_class(before.content, "rule")
    assert "accuracy" not in rule.text
    # ...until Data Analysis, fully covered, answers at 50%: the lower of the two is 50%.
    practise(learner, "data-analysis", right=1, wrong=1)

    after = learner_client.get(DASHBOARD)

    assert focus(after).startswith("Lagging domain Data Analysis")
    assert "50% accurate in recent practice" in focus(after)


@pytest.mark.django_db
def test_ready_to_book_needs_every_domain_covered_and_accurate(learner_client, learner):
    make_plan(learner)
    tick_everything(learner)
    for slug in DOMAIN_NAMES:
        practise(learner, slug, right=7, wrong=3)  # exactly 70%

    response = learner_client.get(DASHBOARD)

    assert verdict(response).startswith("Ready to book")
    assert "Lagging" not in focus(response)


@pytest.mark.django_db
def test_one_domain_at_sixty_percent_accuracy_is_not_ready_to_book(learner_client, learner):
    make_plan(learner)
    tick_everything(learner)
    for slug in DOMAIN_NAMES:
        if slug == "software-development":
            practise(learner, slug, right=3, wrong=2)  # 60%
        else:
            practise(learner, slug, right=5)  # 100%: a high average hides the weak one

    response = learner_client.get(DASHBOARD)

    assert verdict(response).startswith("Not ready")
    assert focus(response).startswith("Lagging domain Software Development")


@pytest.mark.django_db
def test_one_domain_never_practised_is_not_ready_to_book(learner_client, learner):
    make_plan(learner)
    tick_everything(learner)
    for slug in DOMAIN_NAMES:
        if slug != "trustworthy-ai":
            practise(learner, slug, right=5)

    response = learner_client.get(DASHBOARD)

    assert verdict(response).startswith("Not ready")


@pytest.mark.django_db
def test_accurate_everywhere_but_one_domain_under_eighty_percent_covered_is_not_ready(
    learner_client, learner
):
    make_plan(learner)
    # Data Analysis has four checks: three done is 75%.
    tick(
        learner,
        *SelfCheck.objects.current().exclude(slug="p5-chart-choice").values_list("slug", flat=True),
    )
    for slug in DOMAIN_NAMES:
        practise(learner, slug, right=5)

    response = learner_client.get(DASHBOARD)

    assert verdict(response).startswith("Not ready")
    assert focus(response).startswith("Lagging domain Data Analysis")


# Query bounds


@pytest.fixture
def warm(syllabus):
    # Steady state, as in test_query_counts: the syllabus snapshot is built once per process.
    content.syllabus()


def busy_learner(settings) -> tuple[Any, Attempt]:
    """A learner mid-mock, with history: a finished mock, a drill and a few reviews due."""
    settings.MOCK_QUESTIONS = 60
    settings.MOCK_MINUTES = 60
    user = UserFactory()
    make_plan(user)
    tick(user, "p1-backprop", "p1-validation-vs-test", "p2-fid-direction")
    make_due(user, "p1-backprop", "p2-fid-direction")
    practise(user, "core-ml", right=3, wrong=2)
    old = mock_for(user, now=timezone.now() - datetime.timedelta(hours=3))
    for item in items_of(old)[:20]:
        services.answer(attempt=old, item=item, chosen=[0], now=old.started_at)
    attempt = mock_for(user)
    for item in items_of(attempt)[:5]:
        services.answer(attempt=attempt, item=item, chosen=[0], now=timezone.now())
    AttemptQuestion.objects.filter(attempt=attempt, position=3).update(flagged=True)
    return user, attempt


def others_practise(count: int) -> None:
    for _ in range(count):
        other = UserFactory()
        attempt = mock_for(other)
        for item in items_of(attempt)[:30]:
            services.answer(attempt=attempt, item=item, chosen=[1], now=timezone.now())
        services.submit(attempt=attempt, now=timezone.now())
        mock_for(other)
        practise(other, "experimentation", right=4, wrong=4)


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("method", "make_url", "data"),
    [
        pytest.param("get", lambda a: attempt_url(a), None, id="mock-question"),
        pytest.param("get", lambda a: attempt_url(a, 7), None, id="mock-question-by-number"),
        pytest.param("post", lambda a: answer_url(a, 6), {"option": ["1"]}, id="answer"),
        pytest.param(
            "post",
            lambda a: answer_url(a, 6),
            {"option": ["1"], "then": "flagged"},
            id="answer-then-flagged",
        ),
        pytest.param("post", lambda a: flag_url(a, 8), {"flagged": "1"}, id="flag"),
        pytest.param("get", lambda a: flagged_url(a), None, id="flagged"),
        pytest.param("post", lambda a: submit_url(a), None, id="submit"),
        pytest.param("get", lambda a: PRACTICE, None, id="practice-home"),
        pytest.param("get", lambda a: REVIEW, None, id="review"),
        pytest.param("get", lambda a: HISTORY, None, id="history"),
    ],
)
def test_practice_pages_stay_within_eight_queries(
    client, settings, warm, django_assert_max_num_queries, method, make_url, data
):
    user, attempt = busy_learner(settings)
    client.force_login(user)
    url = make_url(attempt)

    with django_assert_max_num_queries(8):
        response = getattr(client, method)(url, data or {})

    assert response.status_code in (200, 302), response.status_code


@pytest.mark.django_db
def test_the_result_page_stays_within_eight_queries(
    client, settings, warm, django_assert_max_num_queries
):
    user, attempt = busy_learner(settings)
    services.submit(attempt=attempt, now=timezone.now())
    client.force_login(user)

    with django_assert_max_num_queries(8):
        response = client.get(result_url(attempt))

    assert response.status_code == 200


@pytest.mark.django_db
def test_a_drill_question_with_feedback_stays_within_eight_queries(
    learner, learner_client, warm, django_assert_max_num_queries
):
    attempt = start_drill(learner_client)
    learner_client.post(answer_url(attempt, 1), {"option": right_options(item_at(attempt, 1))})

    with django_assert_max_num_queries(8):
        response = learner_client.get(attempt_url(attempt, 1))

    assert response.status_code == 200


@pytest.mark.django_db
def test_the_review_answer_stays_within_eight_queries(
    learner, learner_client, warm, django_assert_max_num_queries
):
    tick(learner, "p1-backprop", "p2-fid-direction")
    make_due(learner, "p1-backprop", "p2-fid-direction")

    for headers in ({}, HTMX):
        with django_assert_max_num_queries(8):
            response = learner_client.post(
                review_answer_url("p1-backprop"), {"knew": "1"}, **headers
            )
        assert response.status_code in (200, 302)


@pytest.mark.django_db
def test_the_mock_question_page_costs_the_same_however_much_others_practise(client, settings, warm):
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    user, attempt = busy_learner(settings)
    client.force_login(user)

    def cost() -> int:
        with CaptureQueriesContext(connection) as queries:
            assert client.get(attempt_url(attempt)).status_code == 200
        return len(queries)

    alone = cost()
    others_practise(3)
    # More of my own history, too: finished mocks and drills.
    for _ in range(2):
        practise(user, "trustworthy-ai", right=2, wrong=1)

    assert cost() == alone
    assert alone <= 8
