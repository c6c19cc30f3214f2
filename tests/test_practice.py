"""progress/practice.py, pure: scoring an answer, drawing an attempt, scoring an attempt."""

import random
from collections import Counter
from dataclasses import dataclass

import pytest

from progress.practice import scoring as practice
from progress.verdicts import beta

# Exam weights, heaviest first; study order follows the list.
WEIGHTS = {
    "experimentation": 25,
    "core-ml": 20,
    "multimodal-data": 15,
    "software-development": 15,
    "data-analysis": 10,
    "performance-optimization": 10,
    "trustworthy-ai": 5,
}
STUDY_ORDER = {
    "core-ml": 1,
    "experimentation": 2,
    "multimodal-data": 3,
    "software-development": 4,
    "data-analysis": 5,
    "performance-optimization": 6,
    "trustworthy-ai": 7,
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
BAR = 0.7
MIN_ANSWERS = 10  # a domain's questions in an attempt before it is judged (Rules.min_answers)


@dataclass(frozen=True)
class Domain:
    slug: str
    name: str
    weight: int
    study_order: int


DOMAINS = [
    Domain(slug, slug.replace("-", " ").title(), weight, STUDY_ORDER[slug])
    for slug, weight in WEIGHTS.items()
]


# Scoring one answer


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


# Drawing a mock by exam weight


def test_a_sixty_question_mock_follows_exam_weight():
    counts = practice.mock_counts(WEIGHTS, 60, dict.fromkeys(WEIGHTS, 100))

    assert counts == MOCK_60


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


def pools_by_weight(per_point: float) -> tuple[dict[str, list[int]], dict[int, str]]:
    pools, next_id = {}, 1
    for slug, weight in WEIGHTS.items():
        size = int(weight * per_point)
        pools[slug] = list(range(next_id, next_id + size))
        next_id += size
    return pools, {question: slug for slug, ids in pools.items() for question in ids}


def test_many_mock_draws_sample_by_exam_weight_without_repeats():
    pools, domain_of = pools_by_weight(1.8)  # the real bank's size: 180 questions
    counts = practice.mock_counts(WEIGHTS, 60, {slug: len(ids) for slug, ids in pools.items()})
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
    # Within a domain every question is equally likely: each is drawn about a third of the time.
    for question, slug in domain_of.items():
        expected = counts[slug] / len(pools[slug])
        assert abs(drawn_at_all[question] / draws - expected) < 0.15, (question, slug)


def test_the_same_seed_draws_the_same_mock():
    pools = {"a": list(range(10)), "b": list(range(10, 20))}
    counts = {"a": 3, "b": 2}

    assert practice.draw(pools, counts, random.Random(7)) == practice.draw(
        pools, counts, random.Random(7)
    )


@pytest.mark.parametrize("seed", range(20))
def test_a_draw_takes_every_unseen_question_before_any_seen_one(seed):
    pools = {"a": list(range(30)), "b": list(range(30, 40))}
    seen = set(range(0, 26)) | {30, 31}  # "a" has 4 unseen left, "b" has 8

    drawn = practice.draw(pools, {"a": 10, "b": 5}, random.Random(seed), seen=seen)

    assert len(drawn) == len(set(drawn)) == 15
    assert {q for q in drawn if q < 30} >= {26, 27, 28, 29}  # all of a's unseen, then 6 seen
    assert not {q for q in drawn if q >= 30} & seen  # b has enough unseen: none seen again


def test_a_draw_with_everything_seen_still_draws_a_full_attempt():
    pools = {"a": list(range(12))}

    drawn = practice.draw(pools, {"a": 10}, random.Random(3), seen=set(range(12)))

    assert len(set(drawn)) == 10


def test_a_draw_from_a_domain_with_fewer_questions_than_asked_takes_each_once():
    pools = {"a": list(range(4))}

    drawn = practice.draw(pools, {"a": 10}, random.Random(5), seen={1, 2})

    assert sorted(drawn) == [0, 1, 2, 3]


# Scoring an attempt


def test_an_attempt_counts_right_wrong_and_unanswered_apart_heaviest_domain_first():
    results = [
        ("core-ml", True),
        ("trustworthy-ai", None),
        ("experimentation", False),
        ("core-ml", None),
        ("experimentation", True),
        ("experimentation", True),
    ]

    score = practice.score(results, DOMAINS, BAR, 0.8, MIN_ANSWERS)

    assert [(d.slug, d.right, d.wrong, d.unanswered) for d in score.domains] == [
        ("experimentation", 2, 1, 0),
        ("core-ml", 1, 0, 1),
        ("trustworthy-ai", 0, 0, 1),
    ]
    assert (score.right, score.wrong, score.unanswered, score.total) == (3, 1, 2, 6)
    assert score.percent == 50  # 3 right of 6 asked: a skipped question scores as wrong


def test_a_domain_score_counts_unanswered_questions_as_wrong():
    score = practice.score(
        [("core-ml", True)] + [("core-ml", None)] * 3, DOMAINS, BAR, 0.8, MIN_ANSWERS
    )

    (core,) = score.domains
    assert core.percent == 25
    assert core.answered == 1 and core.asked == 4
    # The range too reads a skipped question as wrong: 1 of 4, not 1 of 1.
    low, high = beta.percent_interval(1, 3, 0.8)
    assert core.likely_text == f"80% range {low}–{high}%"
    assert core.likely_text != "80% range {}–{}%".format(*beta.percent_interval(1, 0, 0.8))


def test_the_weakest_domain_is_the_most_marks_behind_among_domains_judged():
    # The dashboard's posterior shortfall (progress.verdicts.beta): Experimentation 5 of 10 is
    # 25 x 0.078 = 1.95 marks behind; Data Analysis 2 of 10 is 10 x 0.350 = 3.50 marks. Core ML's
    # 0 of 9 is not judged: a domain needs MIN_ANSWERS of its questions in the attempt.
    results = [("experimentation", True)] * 5 + [("experimentation", False)] * 5
    results += [("data-analysis", True)] * 2 + [("data-analysis", False)] * 8
    results += [("core-ml", False)] * 9

    score = practice.score(results, DOMAINS, BAR, 0.8, MIN_ANSWERS)
    weakest = score.weakest

    assert weakest is not None and weakest.slug == "data-analysis"
    assert weakest.marks_behind == pytest.approx(10 * beta.shortfall(2, 8, 0.7, 0.8))
    assert weakest.marks_behind == pytest.approx(3.50, abs=0.01)
    rows = {row.slug: row for row in score.domains}
    assert rows["experimentation"].marks_behind == pytest.approx(1.95, abs=0.01)
    assert rows["core-ml"].marks_behind == 0.0
    assert [row.slug for row in score.unjudged] == ["core-ml"]


def test_a_tie_for_weakest_goes_to_the_heavier_domain_then_the_one_studied_first():
    # Core ML 7 of 20 right is 20 x 0.251 = 5.02 marks behind; Data Analysis's one miss is too
    # few to judge. Core ML is named whatever order the answers came in. (An exact tie across
    # weights is readiness.lagging's, tests/test_readiness.py.)
    tied = [("core-ml", True)] * 7 + [("core-ml", False)] * 13 + [("data-analysis", False)]
    assert practice.score(tied, DOMAINS, BAR, 0.8, MIN_ANSWERS).weakest.slug == "core-ml"
    assert practice.score(tied[::-1], DOMAINS, BAR, 0.8, MIN_ANSWERS).weakest.slug == "core-ml"
    # Same weight and marks behind (0 of 10 each): the one studied first is named.
    same = [("software-development", False)] * 10 + [("multimodal-data", False)] * 10
    assert practice.score(same, DOMAINS, BAR, 0.8, MIN_ANSWERS).weakest.slug == "multimodal-data"
    assert (
        practice.score(same[::-1], DOMAINS, BAR, 0.8, MIN_ANSWERS).weakest.slug == "multimodal-data"
    )


def test_a_skipped_question_counts_as_wrong_toward_the_weakest_domain():
    # Trustworthy AI was only skipped, ten times: 0 of 10, as on the exam, 5 x 0.564 = 2.82
    # marks behind. Core ML was answered, 7 of 10 right: not behind.
    results = [("trustworthy-ai", None)] * 10 + [("core-ml", True)] * 7 + [("core-ml", False)] * 3

    weakest = practice.score(results, DOMAINS, BAR, 0.8, MIN_ANSWERS).weakest

    assert weakest is not None and weakest.slug == "trustworthy-ai"
    assert weakest.marks_behind == pytest.approx(5 * beta.shortfall(0, 10, 0.7, 0.8))


def test_a_domain_with_fewer_questions_than_min_answers_is_not_judged():
    # 0 of 9 would be far under the bar, but nine questions are too few to say so.
    results = [("core-ml", False)] * 6 + [("core-ml", None)] * 3

    score = practice.score(results, DOMAINS, BAR, 0.8, MIN_ANSWERS)

    (core,) = score.domains
    assert not core.judged and core.marks_behind == 0.0
    assert score.weakest is None and score.unjudged == [core]
    assert practice.score(results, DOMAINS, BAR, 0.8, 9).weakest.slug == "core-ml"


def test_every_answered_domain_at_the_bar_has_no_weakest():
    results = [("core-ml", True)] * 7 + [("core-ml", False)] * 3 + [("data-analysis", True)]

    assert practice.score(results, DOMAINS, BAR, 0.8, MIN_ANSWERS).weakest is None


def test_nothing_asked_scores_nothing_and_has_no_weakest():
    score = practice.score([], DOMAINS, BAR, 0.8, MIN_ANSWERS)

    assert (score.total, score.percent, score.weakest) == (0, 0, None)
