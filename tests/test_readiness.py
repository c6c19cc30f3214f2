import datetime

import pytest

from phases.schedule import lay_out
from progress.readiness import (
    DEFAULT_THRESHOLD,
    DomainCount,
    assess,
    lagging_domain,
    planned_share,
    readiness,
)

# The seven exam domains: (slug, weight, study order).
DOMAINS = (
    ("core-ml", 20, 1),
    ("experimentation", 25, 2),
    ("multimodal-data", 15, 3),
    ("software-development", 15, 4),
    ("data-analysis", 10, 5),
    ("performance-optimization", 10, 6),
    ("trustworthy-ai", 5, 7),
)


def counts(done_total: dict[str, tuple[int, int]], planned: dict[str, float] | None = None):
    """DomainCounts for every exam domain, from {slug: (done, total)}."""
    planned = planned or {}
    return [
        DomainCount(
            slug=slug,
            name=slug.replace("-", " ").title(),
            weight=weight,
            study_order=order,
            done=done_total[slug][0],
            total=done_total[slug][1],
            planned=planned.get(slug, 0.0),
        )
        for slug, weight, order in DOMAINS
    ]


def all_at(done: int, total: int, **overrides: tuple[int, int]):
    shares = {slug: (done, total) for slug, _, _ in DOMAINS}
    shares.update({slug.replace("_", "-"): value for slug, value in overrides.items()})
    return counts(shares)


def by_slug(report):
    return {domain.slug: domain for domain in report.domains}


# readiness()


def test_readiness_is_zero_when_the_domain_has_no_checks():
    assert readiness(0, 0) == 0.0
    assert readiness(3, 0) == 0.0


def test_readiness_is_the_share_of_checks_done():
    assert readiness(0, 5) == 0.0
    assert readiness(3, 4) == 0.75
    assert readiness(4, 4) == 1.0


def test_readiness_clamps_over_completion_to_one():
    assert readiness(5, 4) == 1.0


# assess(): weighted readiness, marks at risk, order


MIXED = {
    "core-ml": (10, 10),  # 1.0
    "experimentation": (4, 8),  # 0.5
    "multimodal-data": (3, 6),  # 0.5
    "software-development": (0, 5),  # 0.0
    "data-analysis": (1, 4),  # 0.25
    "performance-optimization": (4, 4),  # 1.0
    "trustworthy-ai": (2, 4),  # 0.5
}


def test_exam_weighted_readiness_over_the_seven_domains():
    report = assess(counts(MIXED))
    # (20*1 + 25*.5 + 15*.5 + 15*0 + 10*.25 + 10*1 + 5*.5) / 100 = 55 / 100
    assert report.weighted == pytest.approx(0.55)
    assert report.weighted_percent == 55
    assert report.done == 24
    assert report.total == 41


def test_marks_at_risk_are_weight_times_the_share_not_done():
    domains = by_slug(assess(counts(MIXED)))
    assert {slug: domain.marks_at_risk for slug, domain in domains.items()} == pytest.approx(
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


def test_marks_at_risk_and_weighted_readiness_account_for_every_mark():
    report = assess(counts(MIXED))
    at_risk = sum(domain.marks_at_risk for domain in report.domains)
    assert at_risk == pytest.approx(100 * (1 - report.weighted))


def test_per_domain_readiness_and_percent():
    domains = by_slug(assess(counts(MIXED)))
    assert domains["data-analysis"].readiness == 0.25
    assert domains["data-analysis"].percent == 25
    assert domains["experimentation"].done == 4
    assert domains["experimentation"].total == 8


def test_over_complete_domain_counts_as_one_in_the_weighted_readiness():
    shares = dict(MIXED, **{"core-ml": (12, 10)})
    report = assess(counts(shares))
    assert by_slug(report)["core-ml"].readiness == 1.0
    assert report.weighted == pytest.approx(0.55)


def test_report_orders_domains_heaviest_first_then_by_study_order():
    report = assess(reversed(counts(MIXED)))
    assert [domain.slug for domain in report.domains] == [
        "experimentation",
        "core-ml",
        "multimodal-data",
        "software-development",
        "data-analysis",
        "performance-optimization",
        "trustworthy-ai",
    ]


# Lagging domain


def test_lagging_domain_is_the_lowest_readiness_whatever_its_weight():
    report = assess(counts(MIXED))
    assert report.lagging.slug == "software-development"
    shares = dict(MIXED, **{"trustworthy-ai": (0, 4), "software-development": (1, 5)})
    assert assess(counts(shares)).lagging.slug == "trustworthy-ai"


def test_only_core_ml_done_leaves_experimentation_lagging():
    report = assess(all_at(0, 6, core_ml=(6, 6)))
    assert report.lagging.slug == "experimentation"


def test_tie_between_equal_weights_goes_to_the_earlier_study_order():
    report = assess(all_at(6, 6, multimodal_data=(1, 4), software_development=(1, 4)))
    assert report.lagging.slug == "multimodal-data"
    tied_at_zero = assess(all_at(6, 6, multimodal_data=(0, 4), software_development=(0, 5)))
    assert tied_at_zero.lagging.slug == "multimodal-data"


def test_nothing_done_is_not_started_and_the_heaviest_domain_lags():
    report = assess(all_at(0, 5))
    assert report.started is False
    assert report.lagging.slug == "experimentation"
    assert report.weighted == 0.0


def test_any_check_done_means_started():
    assert assess(all_at(0, 5, trustworthy_ai=(1, 5))).started is True


def test_lagging_domain_of_nothing_is_none():
    assert lagging_domain([]) is None


def test_empty_plan_has_no_lagging_domain_and_is_not_ready():
    report = assess([])
    assert report.domains == ()
    assert report.lagging is None
    assert report.weighted == 0.0
    assert report.ready is False
    assert report.started is False
    assert report.done == 0
    assert report.total == 0


# Ready


def test_ready_when_every_domain_reaches_the_threshold():
    report = assess(all_at(4, 5))  # 0.8 everywhere: at the threshold counts
    assert report.threshold == DEFAULT_THRESHOLD == 0.8
    assert report.ready is True


def test_high_average_with_one_domain_below_threshold_is_not_ready():
    report = assess(all_at(10, 10, trustworthy_ai=(3, 4)))
    # (95 * 1 + 5 * 0.75) / 100
    assert report.weighted == pytest.approx(0.9875)
    assert report.lagging.slug == "trustworthy-ai"
    assert report.ready is False


def test_threshold_can_be_set():
    shares = all_at(1, 2)
    assert assess(shares).ready is False
    report = assess(shares, threshold=0.5)
    assert report.threshold == 0.5
    assert report.ready is True


# Behind plan


def test_domain_is_behind_when_readiness_is_below_planned():
    report = assess(
        counts(
            MIXED,
            planned={
                "experimentation": 0.75,  # 0.5 done: behind
                "data-analysis": 0.25,  # 0.25 done: exactly on plan
                "core-ml": 0.9,  # 1.0 done: ahead
            },
        )
    )
    domains = by_slug(report)
    assert domains["experimentation"].behind is True
    assert domains["experimentation"].planned_percent == 75
    assert domains["data-analysis"].behind is False
    assert domains["core-ml"].behind is False
    assert [domain.slug for domain in report.behind] == ["experimentation"]


def test_nothing_is_behind_before_the_calendar_expects_anything():
    assert assess(counts(MIXED)).behind == ()


# planned_share()


def test_planned_share_counts_the_current_phase_pro_rata():
    assert planned_share({1: 4, 5: 4}, {1: 1.0, 5: 0.5}) == pytest.approx(0.75)


def test_planned_share_treats_a_phase_missing_from_the_calendar_as_not_due():
    assert planned_share({1: 2, 6: 2}, {1: 1.0}) == pytest.approx(0.5)


def test_planned_share_is_zero_when_the_domain_has_no_checks():
    assert planned_share({}, {1: 1.0}) == 0.0
    assert planned_share({1: 0, 2: 0}, {1: 1.0, 2: 1.0}) == 0.0


def test_planned_share_from_a_real_calendar():
    # Standard 8 h/week from 2 March 2026: phase 1 runs 2-8 March, phase 2 9-15 March.
    standard_hours = ((1, 7), (2, 9), (3, 6), (4, 5), (5, 7), (6, 2))
    schedule = lay_out(standard_hours, 8, datetime.date(2026, 3, 2))
    due = schedule.share_due(datetime.date(2026, 3, 12))
    # 3 checks fully due in phase 1, 7 checks 3/7 due in phase 2: (3 + 3) / 10
    assert planned_share({1: 3, 2: 7}, due) == pytest.approx(0.6)
