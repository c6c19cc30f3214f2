"""The readiness rules of docs/verdicts.md, pure: hand-built counts in, a report out."""

import datetime
from dataclasses import dataclass, replace

import pytest
from hypothesis import given
from hypothesis import strategies as st

from phases.schedule import lay_out
from progress.verdicts import beta
from progress.verdicts.readiness import (
    Accuracy,
    DomainCount,
    accuracy_counts,
    assess,
    lagging,
    planned_share,
    readiness,
)
from progress.verdicts.rules import Rules

# The numbers the settings give today, spelled out: a test reads its own bars, not settings.
RULES = Rules(recall=0.8, accurate=0.7, window=40, confidence=0.8)

# The seven exam domains: (slug, name, weight, study order).
DOMAINS = (
    ("core-ml", "Core ML", 20, 1),
    ("experimentation", "Experimentation", 25, 2),
    ("multimodal-data", "Multimodal Data", 15, 3),
    ("software-development", "Software Development", 15, 4),
    ("data-analysis", "Data Analysis", 10, 5),
    ("performance-optimization", "Performance Optimization", 10, 6),
    ("trustworthy-ai", "Trustworthy AI", 5, 7),
)


def seven(default: dict | None = None, **per_slug: dict) -> list[DomainCount]:
    """A DomainCount per exam domain; ``default`` and ``per_slug`` (underscored) set its fields."""
    counts = []
    for slug, name, weight, order in DOMAINS:
        fields = {"done": 0, "total": 10, **(default or {})}
        fields.update(per_slug.get(slug.replace("-", "_"), {}))
        counts.append(
            DomainCount(
                slug=slug, name=name, short_name=name, weight=weight, study_order=order, **fields
            )
        )
    return counts


def one(**fields) -> DomainCount:
    values = {
        "slug": "experimentation",
        "name": "Experimentation",
        "short_name": "Experimentation",
        "weight": 25,
        "study_order": 2,
        "done": 0,
        "total": 10,
    }
    return DomainCount(**{**values, **fields})


def rated(count: DomainCount, rules: Rules = RULES):
    (domain,) = assess([count], rules).domains
    return domain


def by_slug(report):
    return {domain.slug: domain for domain in report.domains}


# readiness(d)


def test_readiness_is_zero_when_the_domain_has_no_checks():
    assert readiness(0, 0) == 0.0
    assert readiness(3, 0) == 0.0


def test_readiness_is_the_share_of_checks_done():
    assert readiness(0, 5) == 0.0
    assert readiness(3, 4) == 0.75
    assert readiness(4, 4) == 1.0


def test_readiness_clamps_over_completion_to_one():
    assert readiness(5, 4) == 1.0


# Exam-weighted readiness and marks at risk

MIXED = {
    "core_ml": {"done": 10, "total": 10},  # 1.0
    "experimentation": {"done": 4, "total": 8},  # 0.5
    "multimodal_data": {"done": 3, "total": 6},  # 0.5
    "software_development": {"done": 0, "total": 5},  # 0.0
    "data_analysis": {"done": 1, "total": 4},  # 0.25
    "performance_optimization": {"done": 4, "total": 4},  # 1.0
    "trustworthy_ai": {"done": 2, "total": 4},  # 0.5
}


def test_exam_weighted_readiness_weighs_each_domain_by_its_exam_share():
    report = assess(seven(**MIXED), RULES)
    # (20*1 + 25*.5 + 15*.5 + 15*0 + 10*.25 + 10*1 + 5*.5) / 100 = 55 / 100
    assert report.covered == pytest.approx(0.55)
    assert report.covered_percent == 55
    assert report.done == 24
    assert report.total == 41


def test_once_the_plan_has_ended_marks_behind_are_weight_times_the_share_not_covered():
    domains = by_slug(assess(seven({"planned": 1.0}, **MIXED), RULES))
    assert {slug: domain.marks_behind for slug, domain in domains.items()} == pytest.approx(
        {
            "core-ml": 0.0,
            "experimentation": 12.5,
            "multimodal-data": 7.5,
            "software-development": 15.0,
            "data-analysis": 7.5,
            "performance-optimization": 0.0,
            "trustworthy-ai": 2.5,
        }
    )


def test_an_over_complete_domain_counts_as_done_in_the_weighted_readiness():
    report = assess(seven(**{**MIXED, "core_ml": {"done": 12, "total": 10}}), RULES)
    assert by_slug(report)["core-ml"].readiness == 1.0
    assert report.covered == pytest.approx(0.55)


def test_the_report_lists_domains_heaviest_first_then_in_study_order():
    report = assess(reversed(seven()), RULES)
    assert [domain.slug for domain in report.domains] == [
        "experimentation",
        "core-ml",
        "multimodal-data",
        "software-development",
        "data-analysis",
        "performance-optimization",
        "trustworthy-ai",
    ]


def test_an_empty_report_is_neither_started_nor_ready_and_nothing_lags():
    report = assess([], RULES)
    assert report.domains == ()
    assert report.covered == 0.0
    assert report.lagging is None
    assert report.weighted_recall == 0.0
    assert report.ready_to_book is False
    assert report.remembered is False
    assert report.started is False


def test_any_check_done_means_started_and_due_reviews_add_up():
    report = assess(
        seven(trustworthy_ai={"done": 1, "due_reviews": 2}, core_ml={"due_reviews": 3}), RULES
    )
    assert report.started is True
    assert report.due_reviews == 5
    assert assess(seven(), RULES).started is False


# gap(d) = max(plan gap, accuracy shortfall with 80% odds, 0)


def test_the_plan_gap_is_what_the_plan_expected_minus_what_is_done():
    domain = rated(one(done=2, total=10, planned=0.5))
    assert domain.plan_gap == pytest.approx(0.3)
    assert domain.gap == pytest.approx(0.3)
    assert domain.marks_behind == pytest.approx(25 * 0.3)
    assert domain.behind_plan is True


def test_a_domain_ahead_of_plan_has_no_gap():
    domain = rated(one(done=8, total=10, planned=0.5))
    assert domain.plan_gap == 0.0
    assert domain.gap == 0.0
    assert domain.marks_behind == 0.0
    assert domain.behind_plan is False


def test_the_accuracy_gap_is_the_bar_minus_the_rate_the_learner_is_under_with_80_percent_odds():
    domain = rated(one(done=10, total=10, planned=1.0, right=6, answered=12))
    assert domain.likely_under is True
    # The posterior Beta(7, 7) puts 80% of its weight under 0.7 - gap, so P(rate >= it) = 0.2.
    assert beta.prob_at_least(6, 6, 0.7 - domain.accuracy_gap) == pytest.approx(0.2)
    assert domain.accuracy_gap == pytest.approx(0.087, abs=0.001)
    assert domain.gap == domain.accuracy_gap
    assert domain.marks_behind == pytest.approx(25 * domain.accuracy_gap)
    # Behind in accuracy, not behind the calendar.
    assert domain.behind_plan is False


def test_the_gap_is_the_larger_of_the_plan_gap_and_the_accuracy_gap():
    plan_larger = rated(one(done=1, total=10, planned=0.6, right=2, answered=10))
    assert plan_larger.plan_gap == pytest.approx(0.5)
    assert plan_larger.accuracy_gap == pytest.approx(0.35, abs=0.001)
    assert plan_larger.gap == pytest.approx(0.5)

    accuracy_larger = rated(one(done=5, total=10, planned=0.6, right=2, answered=10))
    assert accuracy_larger.gap == pytest.approx(0.35, abs=0.001)


def test_accuracy_above_the_bar_leaves_no_accuracy_gap():
    domain = rated(one(done=5, total=10, planned=0.5, right=9, answered=10))
    assert domain.accuracy_gap == 0.0
    assert domain.gap == 0.0


def test_seven_of_ten_is_neither_likely_accurate_nor_likely_under_and_leaves_no_gap():
    # P(rate >= 70%) = 0.43: not the 0.8 the rule asks either way.
    domain = rated(one(done=5, total=10, planned=0.5, right=7, answered=10))
    assert domain.chance_accurate == pytest.approx(0.430, abs=0.001)
    assert domain.likely_accurate is False
    assert domain.likely_under is False
    assert domain.accuracy_gap == 0.0
    assert domain.accuracy_text == "7 of 10 right: 80% range 49–83%"
    # At its estimated rate, 8 of 12 = 67%, more of the same would show it under the bar.
    assert domain.verdict_text.startswith("not settled: about ")
    assert domain.verdict_text.endswith(
        "at your estimated rate, 67%, would settle it as likely under 70%"
    )


def test_ten_of_twelve_would_settle_as_likely_accurate_with_one_more_at_that_rate():
    # 10 of 12 right: P(rate >= 70%) = 0.798, a hair short of 0.8; at its estimated rate
    # (11 of 14 = 79%) one more answer is right, and 11 of 13 gives the odds.
    domain = rated(one(done=5, total=10, planned=0.5, right=10, answered=12))
    assert domain.chance_accurate == pytest.approx(0.798, abs=0.001)
    assert domain.likely_accurate is False
    assert domain.likely_under is False
    assert domain.verdict_text == (
        "not settled: about 1 more answer at your estimated rate, 79%, would settle it as "
        "likely at least 70%"
    )


def test_three_of_three_gives_no_verdict_until_ten_answers():
    # Under 10 answers (rules.min_answers) accuracy says nothing either way, and says how many
    # more first answers it needs.
    domain = rated(one(done=5, total=10, planned=0.5, right=3, answered=3))
    assert domain.chance_accurate is None
    assert domain.likely_accurate is False
    assert domain.likely_under is False
    assert domain.accuracy_gap == 0.0
    assert domain.accuracy_text == "3 of 3 right: 80% range 56–97%"
    assert domain.verdict_text == (
        "too few answers to tell yet: 7 more first answers in this domain before any verdict"
    )


def test_the_tenth_answer_is_the_first_to_give_a_verdict():
    nine = rated(one(done=5, total=10, planned=0.5, right=9, answered=9))
    ten = rated(one(done=5, total=10, planned=0.5, right=10, answered=10))
    # 9 of 9 right: P(rate >= 70%) = 1 - 0.7^10 = 0.97, odds enough, yet one answer too few.
    assert beta.prob_at_least(9, 0, 0.7) == pytest.approx(1 - 0.7**10)
    assert nine.chance_accurate is None
    assert nine.likely_accurate is False
    assert nine.verdict_text == (
        "too few answers to tell yet: 1 more first answer in this domain before any verdict"
    )
    assert ten.chance_accurate == pytest.approx(1 - 0.7**11)
    assert ten.likely_accurate is True
    assert ten.verdict_text == "likely at least 70%"


def test_one_wrong_answer_gives_no_verdict_and_ten_wrong_cost_less_than_twenty():
    # One answer never decides (rules.min_answers): no verdict, no gap, no marks behind.
    once = rated(one(done=5, total=10, planned=0.5, right=0, answered=1))
    assert once.likely_under is False
    assert once.likely_accurate is False
    assert once.accuracy_gap == 0.0
    assert once.marks_behind == 0.0
    assert once.verdict_text == (
        "too few answers to tell yet: 9 more first answers in this domain before any verdict"
    )
    # With few answers the posterior is wide: the gap is what is likely, not the bare 0%.
    ten = rated(one(done=5, total=10, planned=0.5, right=0, answered=10))
    twenty = rated(one(done=5, total=10, planned=0.5, right=0, answered=20))
    assert ten.likely_under is True
    assert ten.accuracy_gap == pytest.approx(0.564, abs=0.001)
    assert twenty.accuracy_gap == pytest.approx(0.626, abs=0.001)
    assert once.marks_behind < ten.marks_behind < twenty.marks_behind < 25 * 0.7


def test_a_domain_never_answered_has_no_accuracy():
    domain = rated(one())
    assert domain.chance_accurate is None
    assert domain.accuracy_text == "—"
    assert domain.accuracy_gap == 0.0


# Lagging: the most marks behind


def test_lagging_is_the_most_marks_behind_not_the_lowest_share():
    # Trustworthy AI has nothing done of what was due (5 marks behind); Experimentation is
    # only 0.3 behind, but that is 7.5 marks.
    report = assess(
        seven(
            {"planned": 0.5, "done": 5},
            trustworthy_ai={"done": 0, "planned": 1.0},
            experimentation={"done": 2},
        ),
        RULES,
    )
    assert report.lagging.slug == "experimentation"
    assert report.lagging.marks_behind == pytest.approx(7.5)
    assert by_slug(report)["trustworthy-ai"].marks_behind == pytest.approx(5.0)
    assert report.on_plan is False


def test_a_tie_in_marks_behind_goes_to_the_heavier_domain():
    # Core ML: 20 x 0.25 = 5 marks; Data Analysis: 10 x 0.5 = 5 marks.
    report = assess(
        seven(
            {"planned": 0.0},
            core_ml={"done": 0, "total": 4, "planned": 0.25},
            data_analysis={"done": 0, "total": 4, "planned": 0.5},
        ),
        RULES,
    )
    assert report.lagging.slug == "core-ml"


def test_a_tie_between_equal_weights_goes_to_the_domain_studied_first():
    report = assess(
        seven(
            {"planned": 0.0},
            software_development={"done": 0, "planned": 0.4},
            multimodal_data={"done": 0, "planned": 0.4},
        ),
        RULES,
    )
    assert report.lagging.slug == "multimodal-data"


def test_a_tie_reached_through_rounding_noise_is_still_a_tie():
    # 0.7 - 0.4 and 0.3 differ in the last bit; the heavier domain must still win the tie.
    report = assess(
        seven(
            {"planned": 0.0},
            multimodal_data={"done": 4, "total": 10, "planned": 0.7},
            software_development={"done": 0, "total": 10, "planned": 0.3},
        ),
        RULES,
    )
    assert report.lagging.slug == "multimodal-data"


def test_accuracy_can_make_a_fully_covered_domain_the_lagging_one():
    report = assess(
        seven(
            {"planned": 0.5, "done": 5},
            experimentation={"done": 10, "right": 4, "answered": 20},
            core_ml={"done": 4},
        ),
        RULES,
    )
    # Experimentation: 25 x (0.7 - 0.2) = 12.5 marks; Core ML: 20 x 0.1 = 2 marks.
    assert report.lagging.slug == "experimentation"


# Where each domain's checks sit in the seed's calendar (Core ML in phase 1, and so on).
PHASE_OF = {
    "core-ml": 1,
    "experimentation": 2,
    "multimodal-data": 3,
    "software-development": 4,
    "data-analysis": 5,
    "performance-optimization": 5,
    "trustworthy-ai": 6,
}
STANDARD_HOURS = ((1, 7), (2, 9), (3, 6), (4, 5), (5, 7), (6, 2))
START = datetime.date(2026, 3, 2)


@pytest.mark.parametrize(("days_in", "core_ml_done"), [(0, 2), (3, 3)], ids=["day-one", "day-4"])
def test_a_learner_ahead_of_plan_in_phase_one_is_on_plan_though_other_domains_have_nothing_done(
    days_in, core_ml_done
):
    due = lay_out(STANDARD_HOURS, 8, START).share_due(START + datetime.timedelta(days=days_in))
    per_slug = {
        slug.replace("-", "_"): {"planned": planned_share({PHASE_OF[slug]: 5}, due)}
        for slug, _, _, _ in DOMAINS
    }
    per_slug["core_ml"]["done"] = core_ml_done
    report = assess(seven({"done": 0, "total": 5}, **per_slug), RULES)

    assert by_slug(report)["experimentation"].done == 0
    assert all(domain.gap == 0 for domain in report.domains)
    assert report.lagging is None
    assert report.on_plan is True


def test_a_learner_behind_in_phase_one_lags_in_core_ml():
    due = lay_out(STANDARD_HOURS, 8, START).share_due(START + datetime.timedelta(days=5))
    per_slug = {
        slug.replace("-", "_"): {"planned": planned_share({PHASE_OF[slug]: 7}, due)}
        for slug, _, _, _ in DOMAINS
    }
    per_slug["core_ml"]["done"] = 1
    report = assess(seven({"done": 0, "total": 7}, **per_slug), RULES)

    # Five of phase 1's seven days are gone: 5 of Core ML's 7 checks were due, 1 is done.
    assert report.lagging.slug == "core-ml"
    assert "1 of 7" in report.lagging.reason
    assert "expected 5 by today" in report.lagging.reason
    assert [domain.slug for domain in report.domains if domain.gap] == ["core-ml"]


def test_after_the_plan_ends_marks_behind_are_the_marks_not_covered():
    schedule = lay_out(STANDARD_HOURS, 8, START)
    due = schedule.share_due(schedule.finish + datetime.timedelta(days=1))
    planned = planned_share({1: 3, 4: 2}, due)
    report = assess(seven({"planned": planned}, **MIXED), RULES)

    assert planned == 1.0
    for domain in report.domains:
        assert domain.marks_behind == pytest.approx(domain.weight * (1 - domain.readiness))
    most_behind = max(report.domains, key=lambda domain: domain.marks_behind)
    assert report.lagging == most_behind
    assert report.lagging.slug == "software-development"


def test_lagging_of_nothing_is_none():
    assert lagging([]) is None


def test_lagging_reads_anything_with_weight_order_and_marks_behind():
    # Practice results ask the same function about their own per-domain scores.
    @dataclass(frozen=True)
    class Score:
        slug: str
        weight: int
        study_order: int
        marks_behind: float

    scores = [Score("a", 10, 1, 2.0), Score("b", 20, 2, 2.0), Score("c", 5, 3, 0.0)]
    assert lagging(scores).slug == "b"
    assert lagging([Score("c", 5, 3, 0.0)]) is None


# The reason, in the learner's own numbers


def test_the_reason_for_a_plan_gap_gives_done_expected_and_marks_behind():
    domain = rated(one(done=1, total=7, planned=4 / 7))
    assert domain.reason == (
        "Experimentation: 1 of 7 self-checks done, your plan expected 4 by today: 10.7 marks of "
        "the exam's 100 behind"
    )


def test_the_reason_gives_a_part_check_when_the_plan_expects_one():
    reason = rated(one(done=0, total=7, planned=0.5)).reason
    assert "0 of 7" in reason
    assert "expected 3.5 by today" in reason
    assert "12.5 marks of the exam's 100 behind" in reason


def test_the_reason_for_an_accuracy_gap_gives_accuracy_answers_and_the_bar():
    reason = rated(one(done=10, total=10, planned=1.0, right=6, answered=12)).reason
    assert reason == (
        "Experimentation: 6 of your last 12 practice answers right, 80% range 33–67%, so "
        "likely under the 70% bar: 2.2 marks of the exam's 100 behind"
    )


def test_the_reason_names_the_mocks_whose_skipped_questions_count_as_wrong():
    dec_7, dec_2 = datetime.date(2026, 12, 7), datetime.date(2026, 12, 2)
    domain = one(done=10, total=10, planned=1.0, right=6, answered=12, skipped=4)
    one_mock = rated(replace(domain, skipped_days=(dec_7,) * 4)).reason
    assert one_mock.startswith(
        "Experimentation: 6 of your last 12 practice answers right (4 of them skipped in your "
        "mock of 7 Dec, counted as wrong), 80% range 33–67%, so likely under the 70% bar"
    )
    two_mocks = rated(replace(domain, skipped_days=(dec_7, dec_7, dec_2, dec_2))).reason
    assert "(4 of them skipped in your mocks, the newest of 7 Dec, counted as wrong)" in two_mocks


# Recall on exam day: the mean predicted recall of a domain's self-checks


def test_a_domains_recall_is_its_recall_sum_over_all_its_checks():
    # Four ticked checks at 0.9 each, six never ticked (counting 0): 3.6 / 10.
    domain = rated(one(done=4, total=10, recall_sum=3.6))
    assert domain.recall == pytest.approx(0.36)
    assert domain.recall_percent == 36
    assert domain.remembered is False


def test_a_domain_with_no_checks_or_nothing_ticked_recalls_nothing():
    assert rated(one(done=0, total=0, recall_sum=0.0)).recall == 0.0
    assert rated(one(done=0, total=10)).recall == 0.0
    assert rated(one(done=0, total=10)).remembered is False


def test_a_domain_at_the_recall_bar_is_remembered_and_one_under_it_is_not():
    assert rated(one(done=10, total=10, recall_sum=8.0)).remembered is True
    assert rated(one(done=10, total=10, recall_sum=7.99)).remembered is False


def test_a_recall_at_the_bar_reached_through_rounding_noise_is_still_at_the_bar():
    # Ten checks at 0.8 added up in floating point fall a hair under 8.
    recall_sum = sum([0.8] * 10)
    assert recall_sum < 8.0
    assert rated(one(done=10, total=10, recall_sum=recall_sum)).remembered is True


def test_exam_weighted_recall_weighs_each_domains_recall_by_its_exam_share():
    report = assess(
        seven(
            {"done": 10, "total": 10, "recall_sum": 5.0},
            core_ml={"recall_sum": 9.0},
            experimentation={"recall_sum": 10.0},
            trustworthy_ai={"recall_sum": 0.0},
        ),
        RULES,
    )
    # (20*.9 + 25*1 + 15*.5 + 15*.5 + 10*.5 + 10*.5 + 5*0) / 100 = 68 / 100
    assert report.weighted_recall == pytest.approx(0.68)
    assert report.weighted_recall_percent == 68
    # Every check ticked: all covered, yet not remembered on exam day.
    assert report.covered == 1.0
    assert report.remembered is False


def test_every_domain_recalled_at_the_bar_is_remembered():
    report = assess(seven({"done": 10, "total": 10, "recall_sum": 8.5}), RULES)
    assert report.weighted_recall == pytest.approx(0.85)
    assert report.remembered is True


# Ready to book: every domain remembered on exam day and likely accurate


def ready_domain() -> dict:
    # 16 of 20 right: P(rate >= 70%) = 0.80, just at the rule.
    return {"done": 8, "total": 10, "recall_sum": 8.0, "right": 16, "answered": 20}


def test_every_domain_at_ten_of_ten_but_60_percent_recall_is_not_ready_to_book():
    report = assess(
        seven({"done": 10, "total": 10, "recall_sum": 6.0, "right": 10, "answered": 10}), RULES
    )
    assert all(domain.likely_accurate for domain in report.domains)
    assert report.remembered is False
    assert report.ready_to_book is False


def test_every_domain_at_forty_of_forty_and_85_percent_recall_is_ready_to_book():
    report = assess(
        seven({"done": 10, "total": 10, "recall_sum": 8.5, "right": 40, "answered": 40}), RULES
    )
    assert report.ready_to_book is True


def test_every_domain_remembered_and_likely_accurate_at_the_bars_is_ready_to_book():
    report = assess(seven(ready_domain()), RULES)
    assert report.remembered is True
    assert all(domain.ready for domain in report.domains)
    assert report.ready_to_book is True


def test_a_domain_with_every_check_done_but_recall_at_70_percent_is_not_ready():
    domain = rated(one(done=10, total=10, recall_sum=7.0, right=10, answered=10))
    assert domain.readiness == 1.0
    assert domain.likely_accurate is True
    assert domain.remembered is False
    assert domain.ready is False


def test_a_domain_at_80_percent_recall_and_likely_accurate_is_ready():
    domain = rated(one(done=10, total=10, recall_sum=8.0, right=16, answered=20))
    assert domain.remembered is True
    assert domain.chance_accurate == pytest.approx(0.8016, abs=0.0001)
    assert domain.ready is True


def test_seven_of_ten_right_is_not_enough_to_be_ready():
    # 70% observed is not "likely at least 70%": the rule asks 80% odds.
    domain = rated(one(done=10, total=10, recall_sum=9.0, right=7, answered=10))
    assert domain.remembered is True
    assert domain.ready is False


def test_ready_reads_recall_not_the_share_of_checks_done():
    # Eight of ten done, each well remembered, is ready; ten of ten half forgotten is not.
    assert rated(one(done=8, total=10, recall_sum=8.0, right=16, answered=20)).ready is True
    assert rated(one(done=10, total=10, recall_sum=6.0, right=16, answered=20)).ready is False


def test_one_domain_at_79_percent_recall_is_not_ready_to_book():
    report = assess(
        seven(
            {"done": 100, "total": 100, "recall_sum": 100.0, "right": 20, "answered": 20},
            trustworthy_ai={
                "done": 100,
                "total": 100,
                "recall_sum": 79.0,
                "right": 20,
                "answered": 20,
            },
        ),
        RULES,
    )
    assert report.weighted_recall > 0.98
    assert by_slug(report)["trustworthy-ai"].ready is False
    assert report.remembered is False
    assert report.ready_to_book is False


def test_one_domain_under_the_accuracy_bar_is_not_ready_to_book_whatever_the_average():
    report = assess(
        seven(
            {"done": 10, "total": 10, "recall_sum": 10.0, "right": 20, "answered": 20},
            data_analysis={
                "done": 10,
                "total": 10,
                "recall_sum": 10.0,
                "right": 13,
                "answered": 20,
            },
        ),
        RULES,
    )
    right = sum(domain.right for domain in report.domains)
    answered = sum(domain.answered for domain in report.domains)
    assert right / answered == pytest.approx(0.95)
    assert report.remembered is True
    assert report.ready_to_book is False


@pytest.mark.parametrize("answered", [3, 9])
def test_a_domain_answered_perfectly_but_too_few_times_is_not_ready_to_book(answered):
    # Under 10 answers there is no verdict, whatever the odds: 3 of 3 right gives
    # P(rate >= 70%) = 1 - 0.7^4 = 0.76, 9 of 9 right 1 - 0.7^10 = 0.97.
    report = assess(
        seven(
            ready_domain(),
            trustworthy_ai={
                "done": 10,
                "recall_sum": 10.0,
                "right": answered,
                "answered": answered,
            },
        ),
        RULES,
    )
    trust = by_slug(report)["trustworthy-ai"]
    assert trust.remembered is True
    assert trust.chance_accurate is None
    assert trust.likely_accurate is False
    assert trust.likely_under is False
    assert trust.ready is False
    assert all(domain.ready for domain in report.domains if domain.slug != "trustworthy-ai")
    assert report.ready_to_book is False


def test_remembered_without_any_practice_is_remembered_but_not_ready_to_book():
    report = assess(seven({"done": 10, "total": 10, "recall_sum": 9.0}), RULES)
    assert report.remembered is True
    assert report.practised is False
    assert report.ready_to_book is False


# accuracy_counts: each domain's newest answers, up to the window


def test_accuracy_counts_keep_each_domains_newest_answers_up_to_the_window():
    # Newest first: five right, then five wrong that fall outside a window of five.
    answers = [("core-ml", True, None)] * 5 + [("core-ml", False, None)] * 5
    assert accuracy_counts(answers, 5) == {"core-ml": Accuracy(5, 5)}
    assert accuracy_counts(answers, 20) == {"core-ml": Accuracy(5, 10)}


def test_heavy_practice_in_one_domain_does_not_crowd_out_another():
    answers = [("experimentation", True, None)] * 200 + [("trustworthy-ai", False, None)] * 3
    assert accuracy_counts(answers, 20) == {
        "experimentation": Accuracy(20, 20),
        "trustworthy-ai": Accuracy(0, 3),
    }


def test_an_unanswered_question_counts_as_answered_wrong():
    answers = [("core-ml", None, None), ("core-ml", True, None), ("core-ml", None, None)]
    assert accuracy_counts(answers, 20) == {"core-ml": Accuracy(1, 3)}


def test_only_skipped_questions_inside_the_window_count_as_skipped_on_their_mocks_day():
    dec_7, dec_2, nov_1 = (datetime.date(2026, m, d) for m, d in ((12, 7), (12, 2), (11, 1)))
    answers = [("core-ml", None, dec_7), ("core-ml", False, None), ("core-ml", None, dec_2)]
    answers += [("core-ml", None, nov_1)]
    assert accuracy_counts(answers, 3) == {
        "core-ml": Accuracy(right=0, answered=3, skipped=2, skipped_days=(dec_7, dec_2))
    }


def test_accuracy_counts_of_no_answers_are_empty():
    assert accuracy_counts([], 20) == {}


# Rules: every text made from the numbers given


def test_rules_texts_are_made_from_the_numbers_given():
    rules = Rules(recall=0.65, accurate=0.55, window=13, confidence=0.9, min_answers=6)
    assert rules.recall_percent == 65
    assert rules.accurate_percent == 55
    assert rules.confidence_percent == 90
    assert "65% recall on exam day" in rules.ready_text
    assert "likely at least 55% accurate" in rules.ready_text
    assert "likely under 55% accurate" in rules.lagging_text
    assert "90% odds" in rules.lagging_text
    assert "13 most recent first answers" in rules.accuracy_text
    assert "90% odds" in rules.accuracy_text
    assert "before 6 answers in the domain" in rules.accuracy_text
    for text in (rules.ready_text, rules.lagging_text, rules.accuracy_text):
        assert "80%" not in text and "70%" not in text and "40 most" not in text
        assert "10 answers" not in text


def test_rules_given_decide_the_verdicts_and_the_reason():
    rules = Rules(recall=0.65, accurate=0.5, window=13, confidence=0.6, min_answers=7)
    domain = one(done=7, total=10, planned=0.5, recall_sum=6.5, right=3, answered=7)
    # 3 of 7 right: P(rate < 50%) = 0.64, "likely under" at 60% odds, not at 80%.
    assert rated(domain, rules).likely_under is True
    assert rated(domain, rules).reason.startswith(
        "Experimentation: 3 of your last 7 practice answers right, 60% range 30–58%, so likely "
        "under the 50% bar"
    )
    assert rated(domain, replace(RULES, accurate=0.5, min_answers=7)).likely_under is False
    # The fewest answers for a verdict is the rules' too: at 8, seven answers say nothing.
    assert rated(domain, replace(rules, min_answers=8)).likely_under is False
    assert rated(domain, replace(rules, min_answers=8)).accuracy_gap == 0.0
    assert rated(domain, replace(rules, min_answers=8)).verdict_text == (
        "too few answers to tell yet: 1 more first answer in this domain before any verdict"
    )
    # 5 of 7: P(rate >= 50%) = 0.86, likely at the bar at 60% odds; at 70% and 80% odds not.
    assert rated(replace(domain, right=5), rules).ready is True
    assert rated(replace(domain, right=5), RULES).ready is False
    assert rated(replace(domain, right=5), replace(rules, min_answers=8)).ready is False
    # 64% recall misses the 65% bar.
    assert rated(replace(domain, right=5, recall_sum=6.4), rules).ready is False


# planned_share: the share of a domain's checks the calendar expects done


def test_planned_share_counts_the_current_phase_pro_rata():
    assert planned_share({1: 4, 5: 4}, {1: 1.0, 5: 0.5}) == pytest.approx(0.75)


def test_planned_share_treats_a_phase_missing_from_the_calendar_as_not_due():
    assert planned_share({1: 2, 6: 2}, {1: 1.0}) == pytest.approx(0.5)


def test_planned_share_is_zero_when_the_domain_has_no_checks():
    assert planned_share({}, {1: 1.0}) == 0.0
    assert planned_share({1: 0, 2: 0}, {1: 1.0, 2: 1.0}) == 0.0


def test_planned_share_from_a_real_calendar():
    # Standard 8 h/week from 2 March 2026: phase 1 runs 2-8 March, phase 2 9-15 March.
    due = lay_out(STANDARD_HOURS, 8, START).share_due(datetime.date(2026, 3, 12))
    # 3 checks fully due in phase 1, 7 checks 3/7 due in phase 2: (3 + 3) / 10
    assert planned_share({1: 3, 2: 7}, due) == pytest.approx(0.6)


# Properties, over any counts


def beta_tail(right: int, wrong: int, x: float, steps: int = 4000) -> float:
    """P(Beta(right + 1, wrong + 1) >= x) by Simpson's rule: the posterior the long way round,
    not through the binomial identity progress.verdicts.beta uses."""

    def density(t: float) -> float:
        return t**right * (1 - t) ** wrong

    def integral(low: float, high: float) -> float:
        h = (high - low) / steps
        total = density(low) + density(high)
        total += sum((4 if k % 2 else 2) * density(low + k * h) for k in range(1, steps))
        return total * h / 3

    return integral(x, 1.0) / integral(0.0, 1.0)


@st.composite
def domain_counts(draw) -> list[DomainCount]:
    size = draw(st.integers(min_value=0, max_value=7))
    counts = []
    for order in range(1, size + 1):
        total = draw(st.integers(min_value=0, max_value=20))
        answered = draw(st.integers(min_value=0, max_value=25))
        counts.append(
            DomainCount(
                slug=f"d{order}",
                name=f"Domain {order}",
                short_name=f"D{order}",
                weight=draw(st.integers(min_value=1, max_value=30)),
                study_order=order,
                done=draw(st.integers(min_value=0, max_value=total + 2)),
                total=total,
                # Whole percents: a gap is then exactly 0 or clearly above it.
                planned=draw(st.integers(min_value=0, max_value=100)) / 100,
                right=draw(st.integers(min_value=0, max_value=answered)),
                answered=answered,
                # In tenths, up to a hair over every check fully recalled.
                recall_sum=draw(st.integers(min_value=0, max_value=10 * total + 5)) / 10,
            )
        )
    return counts


@given(domain_counts())
def test_nothing_lags_exactly_when_no_domain_has_a_gap(counts):
    report = assess(counts, RULES)
    assert (report.lagging is None) == all(domain.gap == 0 for domain in report.domains)
    assert report.on_plan == (report.lagging is None)


@given(domain_counts())
def test_the_lagging_domain_has_the_most_marks_behind(counts):
    report = assess(counts, RULES)
    if report.lagging is not None:
        most = max(domain.marks_behind for domain in report.domains)
        assert report.lagging.marks_behind == pytest.approx(most)


@given(domain_counts())
def test_gaps_stay_between_zero_and_one_and_marks_behind_within_the_weight(counts):
    for domain in assess(counts, RULES).domains:
        assert 0 <= domain.gap <= 1
        assert 0 <= domain.marks_behind <= domain.weight


@given(domain_counts())
def test_an_accuracy_gap_exactly_when_likely_under_the_bar(counts):
    for domain in assess(counts, RULES).domains:
        assert (domain.accuracy_gap > 1e-6) == domain.likely_under or (
            abs(1 - domain.chance_accurate - RULES.confidence) < 1e-6
        )
        assert not (domain.likely_under and domain.likely_accurate)


@given(domain_counts())
def test_recall_stays_between_zero_and_one_and_weighted_recall_within_the_domains(counts):
    report = assess(counts, RULES)
    for domain in report.domains:
        assert 0 <= domain.recall <= 1
    assert 0 <= report.weighted_recall <= 1
    if report.domains:
        recalls = [domain.recall for domain in report.domains]
        assert min(recalls) - 1e-9 <= report.weighted_recall <= max(recalls) + 1e-9


@given(domain_counts())
def test_ready_to_book_exactly_when_no_domain_misses_a_bar(counts):
    # RULES' bars: 80% recall (the sum drawn in tenths, so in whole numbers), at least 10
    # answers, and the Beta posterior's weight at or above 70% at least 0.8, here integrated
    # numerically.
    misses = [
        count
        for count in counts
        if count.total == 0
        or round(10 * count.recall_sum) < 8 * count.total
        or count.answered < 10
        or beta_tail(count.right, count.answered - count.right, 0.7) < 0.8
    ]
    assert assess(counts, RULES).ready_to_book == (bool(counts) and not misses)


@given(
    st.lists(
        st.tuples(
            st.sampled_from(["a", "b", "c"]),
            st.one_of(st.none(), st.booleans()),
            st.one_of(st.none(), st.dates(datetime.date(2026, 1, 1), datetime.date(2026, 12, 31))),
        ),
        max_size=60,
    ),
    st.integers(min_value=1, max_value=25),
)
def test_accuracy_counts_never_exceed_the_window_or_the_answers_given(answers, window):
    for domain, counts in accuracy_counts(answers, window).items():
        given_here = [(correct, day) for slug, correct, day in answers if slug == domain]
        assert counts.answered == min(window, len(given_here))
        assert counts.right == sum(1 for correct, _ in given_here[:window] if correct)
        skipped_days = tuple(day for correct, day in given_here[:window] if correct is None and day)
        assert counts.skipped == len(counts.skipped_days)
        assert counts.skipped_days == skipped_days
