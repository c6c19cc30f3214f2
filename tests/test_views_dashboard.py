"""The dashboard: readiness and predicted recall on exam day per domain weighted by exam share,
the plan, the lagging domain and the verdict, read from the page as the learner reads it."""

import datetime
import re

import pytest
from django.urls import reverse
from django.utils import timezone
from django.utils.formats import date_format
from fsrs import Rating
from pytest_django.asserts import assertContains, assertNotContains

from phases.models import Domain, Intensity, PhaseHours, SelfCheck
from phases.schedule import Schedule, lay_out
from progress.memory.ticks import set_done
from tests.conftest import HTMX
from tests.factories import (
    UserFactory,
    domain_names,
    make_due,
    make_plan,
    practise,
    review_revealed,
    tick,
)
from tests.html import (
    descendants,
    domain_rows,
    element_by_id,
    focus,
    focus_card,
    main_action,
    page_text,
    verdict,
    with_class,
    with_tag,
)

pytestmark = pytest.mark.django_db

DASHBOARD = reverse("progress:dashboard")
CORE_ML = ["p1-residual-gradient-flow", "p1-multimodal-loss", "p1-training-stability"]
PHASE_ONE = [
    *CORE_ML,
    "p1-backprop",
    "p1-validation-vs-test",
    "p1-self-attention",
    "p1-fusion-tradeoff",
]
# A spread of ticks over four domains: Core ML 3/6, Experimentation 2/7, Multimodal 1/7
# (the phase 1 fusion check) and Data Analysis 4/4.
SPREAD = [
    *CORE_ML,
    "p2-fid-direction",
    "p2-ddpm-forward-reverse",
    "p1-fusion-tradeoff",
    "p5-attention-maps",
    "p5-chart-choice",
    "p5-inspect-multimodal-data",
    "p5-scaling-leakage",
]
# Exam weights, heaviest first: the order of the table and the chart.
WEIGHTS = [
    ("experimentation", 25),
    ("core-ml", 20),
    ("multimodal-data", 15),
    ("software-development", 15),
    ("data-analysis", 10),
    ("performance-optimization", 10),
    ("trustworthy-ai", 5),
]
# Worked out by hand for SPREAD: (done/total, covered %, marks behind). Without a plan nothing
# is expected by today and no practice answer counts, so no domain is any mark behind.
SPREAD_FIGURES = {
    "experimentation": ("2/7", "29%", "0.0"),
    "core-ml": ("3/6", "50%", "0.0"),
    "multimodal-data": ("1/7", "14%", "0.0"),
    "software-development": ("0/7", "0%", "0.0"),
    "data-analysis": ("4/4", "100%", "0.0"),
    "performance-optimization": ("0/4", "0%", "0.0"),
    "trustworthy-ai": ("0/7", "0%", "0.0"),
}
# 20 x 3/6 + 25 x 2/7 + 15 x 1/7 + 10 x 4/4 = 10 + 7.14 + 2.14 + 10 = 29.29 of 100
SPREAD_WEIGHTED = "29%"
# Without a plan recall is read today: a check ticked today is recalled in full, one never
# ticked counts 0, so each domain's recall is its share done.
SPREAD_RECALL = {
    "experimentation": "29% (under 80%)",
    "core-ml": "50% (under 80%)",
    "multimodal-data": "14% (under 80%)",
    "software-development": "0%",
    "data-analysis": "100%",
    "performance-optimization": "0%",
    "trustworthy-ai": "0%",
}
# An exam this close: a check ticked today (FSRS's Good, stable for about two days) is still
# recalled well over the bar on the day, so recall is not what these tests are about.
EXAM_SOON = 2


def rows(response) -> dict[str, list[str]]:
    return domain_rows(response, domain_names())


def covered_count(cell: str) -> str:
    """ "29% 29% (2 of 7)" -> "2/7"."""
    done, total = cell.split("(")[1].rstrip(")").split(" of ")
    return f"{done}/{total}"


def figures(response) -> dict[str, tuple[str, str, str]]:
    """(done/total, covered, marks behind) per domain, read from the table."""
    return {
        slug: (covered_count(cells[2]), cells[2].split()[0], cells[5])
        for slug, cells in rows(response).items()
    }


def recall(response) -> dict[str, str]:
    """Each domain's predicted recall on exam day, as the table gives it."""
    return {slug: cells[3].split(maxsplit=1)[1] for slug, cells in rows(response).items()}


def accuracy(response) -> dict[str, str]:
    return {slug: cells[4] for slug, cells in rows(response).items()}


def big_figures(response) -> tuple[str, str]:
    """The summary's two figures: exam-weighted covered and predicted recall on exam day."""
    (covered,) = with_class(response.content, "big-figure")
    (recalled,) = with_class(response.content, "big-figure-recall")
    return covered.text, recalled.text


def big_figure(response) -> str:
    return big_figures(response)[0]


def recall_figure(response) -> str:
    return big_figures(response)[1]


def recall_label(response) -> str:
    """What the recall figure says it is: the day it is read for."""
    label, _ = with_class(response.content, "figure-label")
    return label.text


def behind(response) -> set[str]:
    return {slug for slug, cells in rows(response).items() if "Behind plan" in cells[-1]}


def lagging_badges(response) -> list[str]:
    """The domains whose table row carries the Lagging badge."""
    return [slug for slug, cells in rows(response).items() if "Lagging" in cells[0]]


def focus_heading(response) -> str:
    return element_by_id(response.content, "focus-heading").text


def focus_reason(response) -> str:
    (reason,) = with_class(response.content, "focus-reason")
    return reason.text


def check_url(slug: str) -> str:
    check = SelfCheck.objects.select_related("phase").get(slug=slug)
    return f"{reverse('progress:phase', args=[check.phase.slug])}#check-{slug}"


def checks(domain: str) -> list[str]:
    """A domain's current self-checks, in study order."""
    return list(
        SelfCheck.objects.current()
        .filter(domain__slug=domain)
        .order_by("phase__number", "order")
        .values_list("slug", flat=True)
    )


def everything() -> list[str]:
    return list(SelfCheck.objects.current().values_list("slug", flat=True))


def schedule(intensity: str = "standard") -> Schedule:
    """A plan's calendar from today, from the pure function and the loaded hours."""
    chosen = Intensity.objects.get(slug=intensity)
    hours = PhaseHours.objects.filter(intensity=chosen).order_by("phase__number")
    return lay_out(
        hours.values_list("phase__number", "hours"),
        chosen.hours_per_week,
        timezone.localdate(),
        revision_hours=chosen.revision_hours,
    )


def days_until_phase(number: int) -> int:
    """Days from a standard plan's start to the start of phase ``number``: every phase before
    it is due in full, it and the later ones not at all."""
    plan = schedule()
    return (plan.slots[number - 1].start - plan.start).days


# Before any tick


@pytest.mark.parametrize("headers", [{}, HTMX], ids=["plain", "htmx"])
def test_before_any_tick_the_dashboard_says_to_start_with_phase_one(learner_client, headers):
    response = learner_client.get(DASHBOARD, **headers)

    assert response.status_code == 200
    assert focus_heading(response) == "Where to start"
    assert "Phase 1" in focus(response)
    # No plan yet: the one action is to choose one, so progress can be measured against it.
    assert main_action(response) == reverse("progress:plan-choose")
    assert lagging_badges(response) == []
    assert big_figure(response) == "0%"


def test_before_any_tick_every_domain_is_at_zero(learner_client):
    response = learner_client.get(DASHBOARD)

    for done_total, percent, behind_by in figures(response).values():
        assert done_total.startswith("0/")
        assert percent == "0%"
        assert behind_by == "0.0"
    assert set(recall(response).values()) == {"0%"}
    assert recall_figure(response) == "0%"


# Day one: ahead of plan is on plan


@pytest.mark.parametrize("headers", [{}, HTMX], ids=["plain", "htmx"])
def test_day_one_ticks_ahead_of_plan_flag_nothing_and_lead_on_through_phase_one(
    learner_client, learner, headers
):
    make_plan(learner)  # Standard, starting today
    first_two, first_open = PHASE_ONE[:2], PHASE_ONE[2]
    tick(learner, *first_two)

    response = learner_client.get(DASHBOARD, **headers)

    assert lagging_badges(response) == []
    assert with_class(response.content, "badge-lagging") == []
    assert with_class(response.content, "summary-card-lagging") == []
    assert focus_heading(response) == "On plan"
    assert "No domain is behind your plan" in focus(response)
    assert main_action(response) == check_url(first_open)
    assert (
        "Today in your plan About 2 hours: phase 1, Core ML foundations: 5 self-checks left"
        in page_text(response.content)
    )
    assert behind(response) == set()
    assert {cells[-1] for cells in rows(response).values()} == {"0%"}


def test_day_one_with_nothing_ticked_starts_phase_one(learner_client, learner):
    make_plan(learner)

    response = learner_client.get(DASHBOARD)

    assert focus_heading(response) == "Where to start"
    assert main_action(response) == check_url(PHASE_ONE[0])


def test_on_plan_the_main_action_moves_on_to_the_next_phase_once_todays_is_done(
    learner_client, learner
):
    make_plan(learner)
    tick(learner, *PHASE_ONE)

    response = learner_client.get(DASHBOARD)

    assert focus_heading(response) == "On plan"
    assert main_action(response) == check_url(checks("experimentation")[0])


# Behind plan: the lagging domain is the one with the most marks behind


def test_behind_plan_the_most_marks_behind_lags_with_the_learners_own_numbers(
    learner_client, learner
):
    # Phases 1 to 3 are due in full. Experimentation, the heaviest, has 6 of its 7 done
    # (25 x 1/7 = 3.6 marks behind); Core ML has none of its 6 (20 x 1 = 20.0 behind) and
    # Multimodal none of its 7 (15.0 behind).
    make_plan(learner, days_ago=days_until_phase(4))
    tick(learner, *checks("experimentation")[:6])

    response = learner_client.get(DASHBOARD)

    core_ml = Domain.objects.get(slug="core-ml")
    assert focus_heading(response) == "Lagging domain"
    assert "summary-card-lagging" in focus_card(response).classes
    assert lagging_badges(response) == ["core-ml"]
    assert focus_reason(response) == (
        f"{core_ml.name}: 0 of 6 self-checks done, your plan expected 6 by today: "
        "20.0 marks of the exam's 100 behind."
    )
    assert behind(response) == {"experimentation", "core-ml", "multimodal-data"}
    # Behind on self-checks: the one action opens the lagging domain's first open one.
    assert main_action(response) == check_url(checks("core-ml")[0])


def test_in_the_middle_of_a_phase_the_plan_expects_its_share_of_the_days_gone(
    learner_client, learner
):
    # Four days into Standard's eight-day phase 2 the plan expects 3.5 of Experimentation's 7
    # checks; with 1 done, 25 x 2.5/7 = 8.9 marks behind.
    phase_two = schedule().slots[1]
    assert phase_two.days == 8, "the example needs Standard's phase 2 to last eight days"
    make_plan(learner, days_ago=days_until_phase(2) + 4)
    tick(learner, *PHASE_ONE, checks("experimentation")[0])

    response = learner_client.get(DASHBOARD)

    assert focus_reason(response) == (
        "Experimentation: 1 of 7 self-checks done, your plan expected 3.5 by today: "
        "8.9 marks of the exam's 100 behind."
    )
    assert rows(response)["experimentation"][-1].startswith("50%")  # 3.5 of 7 planned
    assert behind(response) == {"experimentation"}


def test_after_the_plan_ends_the_lagging_domain_is_the_most_marks_at_risk(learner_client, learner):
    # Everything is due. Left open: Data Analysis 2 of 4 (10 x 1/2 = 5.0 at risk), all of
    # Trustworthy AI (5 x 1 = 5.0) and one Experimentation check (25 x 1/7 = 3.6). The tie at
    # 5.0 goes to the heavier domain, though Trustworthy AI has the lowest readiness.
    make_plan(learner, days_ago=(schedule().finish - schedule().start).days + 10)
    left_open = {
        *checks("data-analysis")[2:],
        *checks("trustworthy-ai"),
        checks("experimentation")[-1],
    }
    tick(learner, *[slug for slug in everything() if slug not in left_open])

    response = learner_client.get(DASHBOARD)

    assert lagging_badges(response) == ["data-analysis"]
    assert focus_reason(response) == (
        "Data Analysis: 2 of 4 self-checks done, your plan expected 4 by today: 5.0 marks of "
        "the exam's 100 behind."
    )
    at_risk = {slug: cells[2] for slug, cells in figures(response).items()}
    assert at_risk["data-analysis"] == at_risk["trustworthy-ai"] == "5.0"
    assert at_risk["experimentation"] == "3.6"
    assert "Today in your plan" not in page_text(response.content)


def test_a_practised_domain_under_the_accuracy_bar_lags_with_its_accuracy(learner_client, learner):
    make_plan(learner)
    # 4 of 10: 80% odds the true rate is under 53.6%, so 25 x (0.7 - 0.536) = 4.1 behind.
    practise(learner, "experimentation", right=4, wrong=6)

    response = learner_client.get(DASHBOARD)

    assert lagging_badges(response) == ["experimentation"]
    assert focus_reason(response) == (
        "Experimentation: 4 of your last 10 practice answers right, 80% range 24–60%, so likely "
        "under the 70% bar: 4.1 marks of the exam's 100 behind."
    )
    assert verdict(response) == (
        "Not ready yet: Experimentation is likely under 70% accurate, 4.1 marks of the exam's "
        "100 behind: the most of any domain."
    )


def test_an_unsettled_accuracy_neither_lags_nor_counts_as_accurate(learner_client, learner):
    make_plan(learner)
    practise(learner, "experimentation", right=7, wrong=3)  # P(rate < 70%) = 0.57: not settled
    # Under 10 answers no verdict at all: 0 of 3, once likely under 70% (0.99), lags nowhere.
    practise(learner, "core-ml", right=0, wrong=3)

    response = learner_client.get(DASHBOARD)

    assert lagging_badges(response) == []
    assert accuracy(response)["experimentation"].startswith(
        "7 of 10 right: 80% range 49–83% not settled: about "
    )
    assert accuracy(response)["core-ml"] == (
        "0 of 3 right: 80% range 3–44% too few answers to tell yet: 7 more first answers in this "
        "domain before any verdict"
    )
    assert {slug: cells[5] for slug, cells in rows(response).items()} == dict.fromkeys(
        domain_names(), "0.0"
    )


def test_the_rule_is_in_how_these_figures_are_worked_out_not_beside_the_verdict(
    learner_client, learner
):
    make_plan(learner, days_ago=days_until_phase(2))

    response = learner_client.get(DASHBOARD)

    (formulas,) = [e for e in with_class(response.content, "formulas") if "Marks behind" in e.text]
    assert "the lagging domain is the domain furthest behind in marks of the exam's 100" in (
        formulas.text
    )
    assert "exam weight times its gap" in formulas.text
    assert with_class(response.content, "rule") == []


# The rules' numbers come from settings, never from a template


def test_the_rules_numbers_on_the_page_follow_the_settings(learner_client, learner, settings):
    settings.RECALL_THRESHOLD = 0.65
    settings.ACCURACY_THRESHOLD = 0.55
    settings.ACCURACY_WINDOW = 15
    settings.ACCURACY_CONFIDENCE = 0.9
    settings.ACCURACY_MIN_ANSWERS = 6
    make_plan(learner)

    response = learner_client.get(DASHBOARD)

    text = page_text(response.content)

    assert "at least 65% recall on exam day and likely at least 55% accurate" in text
    assert "a domain's 15 most recent first answers" in text
    assert "with 90% odds" in text
    assert "before 6 answers in the domain" in text
    for default in (
        "80% recall",
        "70% accurate",
        "under 70%",
        "40 most recent",
        "80% odds",
        "10 answers",
    ):
        assert default not in text, default
    # Every meter with a bar to reach (the study-time shares have none).
    meters = [e.attrs["high"] for e in with_tag(response.content, "meter") if "high" in e.attrs]
    assert set(meters) == {"65"}


def test_the_rules_thresholds_from_settings_decide_the_lagging_domain(
    learner_client, learner, settings
):
    settings.ACCURACY_THRESHOLD = 0.55
    settings.ACCURACY_CONFIDENCE = 0.6
    make_plan(learner)
    # 5 of 10: P(rate < 55%) = 0.63, likely under at 60% odds (not at 80%).
    practise(learner, "core-ml", right=5, wrong=5)
    practise(learner, "experimentation", right=6, wrong=4)  # 60%: over 55%

    response = learner_client.get(DASHBOARD)

    assert lagging_badges(response) == ["core-ml"]
    assert "under the 55% bar" in focus_reason(response)


# The figures


@pytest.mark.parametrize("headers", [{}, HTMX], ids=["plain", "htmx"])
def test_figures_per_domain_match_the_hand_worked_values(learner_client, learner, headers):
    tick(learner, *SPREAD)

    response = learner_client.get(DASHBOARD, **headers)

    assert figures(response) == SPREAD_FIGURES
    assert big_figure(response) == SPREAD_WEIGHTED
    assert "10 of 42 self-checks done" in page_text(response.content)
    assert recall(response) == SPREAD_RECALL
    assert recall_figure(response) == SPREAD_WEIGHTED


def test_domains_are_listed_heaviest_first(learner_client, learner):
    response = learner_client.get(DASHBOARD)

    assert list(rows(response)) == [slug for slug, _ in WEIGHTS]
    assert [cells[1] for cells in rows(response).values()] == [f"{w}%" for _, w in WEIGHTS]


def test_the_chart_has_a_column_per_domain_sized_by_exam_share(learner_client, learner):
    tick(learner, *SPREAD)

    response = learner_client.get(DASHBOARD)

    (svg,) = [e for e in with_class(response.content, "domain-chart") if e.tag == "svg"]
    assert svg.attrs.get("role") == "img"
    assert any(child.tag == "title" and child.text for child in svg.children)
    columns = [child for child in svg.children if child.tag == "g"]
    assert len(columns) == 7
    tracks = [
        next(rect for rect in column.children if "column-track" in rect.classes)
        for column in columns
    ]
    widths = [float(track.attrs["width"]) for track in tracks]
    per_point = widths[0] / WEIGHTS[0][1]
    for width, (_, weight) in zip(widths, WEIGHTS, strict=True):
        assert width == pytest.approx(weight * per_point, rel=0.01)
    # Fill follows readiness: Data Analysis (fifth column) is full, Software (fourth) is empty.
    fills = [
        [rect for rect in column.children if "column-fill" in rect.classes] for column in columns
    ]
    assert fills[3] == []
    assert float(fills[4][0].attrs["height"]) == float(tracks[4].attrs["height"])
    assert float(fills[1][0].attrs["height"]) == pytest.approx(float(tracks[1].attrs["height"]) / 2)


def test_the_chart_has_a_table_with_the_same_figures_for_screen_readers(learner_client, learner):
    tick(learner, *SPREAD)

    response = learner_client.get(DASHBOARD)

    (table,) = [e for e in with_class(response.content, "domain-table") if e.tag == "table"]
    assert any(child.tag == "caption" for child in table.children)
    headers = [e for e in descendants(table) if e.tag == "th" and e.attrs.get("scope")]
    assert len([h for h in headers if h.attrs["scope"] == "row"]) == 7
    assert {"Domain", "Covered", "Recall on exam day", "Accuracy (practice)", "Marks behind"} <= {
        h.text for h in headers if h.attrs["scope"] == "col"
    }
    percents = [e.text for e in with_class(response.content, "column-percent")]
    assert percents == [percent for _, percent, _ in SPREAD_FIGURES.values()]


def test_the_dashboard_shows_accuracy_and_review_backlog_per_domain(learner_client, learner):
    make_plan(learner)
    practise(learner, "core-ml", right=7, wrong=3)
    practise(learner, "experimentation", right=3, wrong=7)
    practise(learner, "multimodal-data", right=1, wrong=2)
    tick(learner, "p1-backprop", "p1-validation-vs-test", "p1-residual-gradient-flow")
    make_due(learner, "p1-backprop", "p1-validation-vs-test")
    # Another learner's practice and reviews change none of my figures.
    other = UserFactory()
    practise(other, "core-ml", right=0, wrong=5)
    tick(other, "p2-fid-direction")
    make_due(other, "p2-fid-direction")

    response = learner_client.get(DASHBOARD)

    assert accuracy(response) == {
        "experimentation": "3 of 10 right: 80% range 17–51% likely under 70%",
        "core-ml": accuracy(response)["core-ml"],
        "multimodal-data": (
            "1 of 3 right: 80% range 14–68% too few answers to tell yet: 7 more first answers in "
            "this domain before any verdict"
        ),
        **{
            slug: "no practice answers yet"
            for slug in domain_names()
            if slug not in ("core-ml", "experimentation", "multimodal-data")
        },
    }
    assert accuracy(response)["core-ml"].startswith("7 of 10 right: 80% range 49–83% not settled")
    backlog = {slug: cells[6] for slug, cells in rows(response).items()}
    assert backlog == {**dict.fromkeys(domain_names(), "0"), "core-ml": "2"}


# Ready to book: every domain remembered on exam day and accurate, never the average


def test_every_check_done_but_no_practice_is_not_yet_ready_to_book(learner_client, learner):
    make_plan(learner, exam_in=EXAM_SOON)
    tick(learner, *everything())

    response = learner_client.get(DASHBOARD)

    assert big_figure(response) == "100%"
    assert verdict(response) == (
        "Not ready yet: recall is at the bar; practice has yet to show 7 domains likely at "
        "least 70% accurate."
    )
    (action,) = with_class(response.content, "next-action")
    assert action.text == "Drill Experimentation"


def test_every_check_done_and_every_domain_practised_and_accurate_is_ready_to_book(
    learner_client, learner
):
    make_plan(learner, exam_in=EXAM_SOON)
    tick(learner, *everything())
    for slug in domain_names():
        practise(learner, slug, right=16, wrong=4)  # P(rate >= 70%) = 0.80: likely accurate

    response = learner_client.get(DASHBOARD)

    assert verdict(response).startswith("Ready to book")
    assert lagging_badges(response) == []
    assert all(f[2] == "0.0" for f in figures(response).values())
    assert all("under" not in figure for figure in recall(response).values())


def test_one_domain_under_the_accuracy_bar_is_not_ready_and_lags(learner_client, learner):
    make_plan(learner, exam_in=EXAM_SOON)
    tick(learner, *everything())
    for slug in domain_names():
        # Software Development at 60%: the others at 100% would hide it in any average.
        if slug == "software-development":
            practise(learner, slug, right=4, wrong=6)
        else:
            practise(learner, slug, right=10)

    response = learner_client.get(DASHBOARD)

    assert verdict(response).startswith("Not ready")
    assert lagging_badges(response) == ["software-development"]


@pytest.mark.parametrize(
    ("right", "figure", "more"),
    [
        (3, "80% range 56–97%", "7 more first answers"),
        (9, "80% range 79–99%", "1 more first answer"),
    ],
    ids=["3-of-3", "9-of-9"],
)
def test_one_domain_short_of_practised_is_not_ready_to_book(
    learner_client, learner, right, figure, more
):
    make_plan(learner, exam_in=EXAM_SOON)
    tick(learner, *everything())
    for slug in domain_names():
        # All right but under 10 answers: no verdict, however good the odds (3 of 3 gives
        # P(rate >= 70%) = 0.76, 9 of 9 0.97).
        practise(learner, slug, right=right if slug == "trustworthy-ai" else 10)

    response = learner_client.get(DASHBOARD)

    assert verdict(response) == (
        "Not ready yet: recall is at the bar; practice has yet to show 1 domain likely at "
        "least 70% accurate."
    )
    assert lagging_badges(response) == []
    assert accuracy(response)["trustworthy-ai"] == (
        f"{right} of {right} right: {figure} too few answers to tell yet: {more} in this "
        "domain before any verdict"
    )


def test_accurate_everywhere_but_one_domain_under_the_recall_bar_is_not_ready(
    learner_client, learner
):
    make_plan(learner, exam_in=EXAM_SOON)
    # Data Analysis has four checks: three done, the fourth never ticked and counting 0, can
    # recall 75% at most, under the 80% bar.
    tick(learner, *[slug for slug in everything() if slug != checks("data-analysis")[-1]])
    for slug in domain_names():
        practise(learner, slug, right=10)

    response = learner_client.get(DASHBOARD)

    assert verdict(response).startswith("Not ready")
    assert big_figure(response) == "98%"
    under = {slug for slug, figure in recall(response).items() if "(under 80%)" in figure}
    assert under == {"data-analysis"}


# Predicted recall on exam day: ticks fade unless reviewed

# A plan started 25 days ago with its exam 5 days from today: a month from week one to the exam.
PLAN_STARTED = 25
EXAM_IN = 5


def tick_at(user, when: datetime.datetime, *slugs: str) -> None:
    """Ticks made at ``when``, through the tick service (each one the card's first review)."""
    ids = dict(SelfCheck.objects.filter(slug__in=slugs).values_list("slug", "pk"))
    for slug in slugs:
        set_done(user=user, self_check_id=ids[slug], done=True, now=when)


def review_all(user, slugs: list[str], rating: Rating = Rating.Good) -> None:
    ids = dict(SelfCheck.objects.filter(slug__in=slugs).values_list("slug", "pk"))
    for slug in slugs:
        assert review_revealed(user, self_check_id=ids[slug], rating=rating, now=timezone.now())


def percent(figure: str) -> int:
    return int(figure.split("%")[0].split()[-1])


@pytest.fixture
def ticked_in_week_one(learner):
    """Every check ticked in the plan's first week and never reviewed since; every domain
    practised and accurate, so recall is the one bar left."""
    plan = make_plan(learner, days_ago=PLAN_STARTED, exam_in=EXAM_IN)
    tick_at(learner, timezone.now() - datetime.timedelta(days=PLAN_STARTED), *everything())
    for slug in domain_names():
        practise(learner, slug, right=10)
    return plan


def test_ticking_everything_in_week_one_and_never_reviewing_falls_under_the_bar_by_the_exam(
    learner_client, ticked_in_week_one
):
    response = learner_client.get(DASHBOARD)

    assert big_figure(response) == "100%"
    assert percent(recall_figure(response)) < 80
    assert all(figure.endswith("(under 80%)") for figure in recall(response).values())
    assert verdict(response).startswith(
        "Not ready yet: recall on exam day is under 80% in 7 domains"
    )
    exam_day = date_format(ticked_in_week_one.exam_date, "j M")
    assert recall_label(response) == f"recall on exam day, {exam_day}"
    # Nothing lags: the plan and the accuracy are met; only memory falls short.
    assert lagging_badges(response) == []


def test_with_nothing_to_review_today_the_verdict_does_not_send_the_learner_to_review(
    learner_client, learner
):
    make_plan(learner, exam_in=EXAM_IN)
    tick(learner, *CORE_ML)  # just ticked: no card is due, nor worth reviewing again today

    response = learner_client.get(DASHBOARD)

    assert "Review today (0)" in element_by_id(response.content, "header-review").text
    assert verdict(response) == (
        "Not ready yet: recall on exam day is under 80% in 7 domains; you are on plan, so keep "
        "going with phase 1."
    )
    (action,) = with_class(response.content, "next-action")
    assert action.text == "Study next: phase 1 →"
    assert reverse("progress:review") not in str(action)


def test_with_cards_due_the_verdict_links_to_todays_reviews(learner_client, learner):
    make_plan(learner, exam_in=EXAM_IN)
    tick(learner, *CORE_ML)
    make_due(learner, *CORE_ML[:2])

    response = learner_client.get(DASHBOARD)

    assert "Review today (2)" in element_by_id(response.content, "header-review").text
    assert verdict(response).endswith("today's reviews raise it.")
    (action,) = with_class(response.content, "next-action")
    links = [link for link in descendants(action) if link.tag == "a"]
    assert [link.attrs["href"] for link in links] == [reverse("progress:review")]
    assert action.text == "Review 2 cards"


def test_reviewing_raises_predicted_recall_on_the_next_dashboard(
    learner_client, learner, ticked_in_week_one
):
    before = learner_client.get(DASHBOARD)  # cached now: the reviews below must move it on

    review_all(learner, checks("core-ml"))
    after_core_ml = learner_client.get(DASHBOARD)

    # Core ML's reviews raise its own recall over the bar and the weighted figure with it;
    # the other domains are untouched.
    assert percent(recall(after_core_ml)["core-ml"]) > percent(recall(before)["core-ml"])
    assert "under" not in recall(after_core_ml)["core-ml"]
    assert percent(recall_figure(after_core_ml)) > percent(recall_figure(before))
    unreviewed = {slug: figure for slug, figure in recall(before).items() if slug != "core-ml"}
    assert {slug: recall(after_core_ml)[slug] for slug in unreviewed} == unreviewed
    assert verdict(after_core_ml).startswith("Not ready")

    review_all(learner, [slug for slug in everything() if slug not in checks("core-ml")])
    after_all = learner_client.get(DASHBOARD)

    assert percent(recall_figure(after_all)) >= 80
    assert verdict(after_all).startswith("Ready to book")


def test_a_review_posted_on_the_review_page_raises_its_domains_recall(
    learner_client, ticked_in_week_one
):
    before = recall(learner_client.get(DASHBOARD))
    # Today's first card, turned over, then rated.
    revealed = learner_client.post(reverse("progress:review-reveal"), {"answer": ""})
    slug = re.search(r'action="/review/([\w-]+)/"', revealed.text).group(1)
    domain = SelfCheck.objects.get(slug=slug).domain.slug

    posted = learner_client.post(
        reverse("progress:review-answer", args=[slug]), {"rating": int(Rating.Good)}
    )

    assert posted.status_code == 302
    after = recall(learner_client.get(DASHBOARD))
    assert percent(after[domain]) > percent(before[domain])
    assert {k: v for k, v in after.items() if k != domain} == {
        k: v for k, v in before.items() if k != domain
    }


def test_forgetting_on_review_lowers_predicted_recall_against_knowing_it(
    learner_client, learner, ticked_in_week_one
):
    # Two learners alike but for their Core ML reviews: "forgot" leaves its exam-day figure lower.
    knew = UserFactory()
    make_plan(knew, days_ago=PLAN_STARTED, exam_in=EXAM_IN)
    tick_at(knew, timezone.now() - datetime.timedelta(days=PLAN_STARTED), *everything())
    review_all(learner, checks("core-ml"), Rating.Again)
    review_all(knew, checks("core-ml"), Rating.Good)

    forgot_figure = recall(learner_client.get(DASHBOARD))["core-ml"]
    learner_client.force_login(knew)
    knew_figure = recall(learner_client.get(DASHBOARD))["core-ml"]

    assert percent(forgot_figure) < percent(knew_figure)
    assert "(under 80%)" in forgot_figure


def test_without_an_exam_date_recall_is_read_at_the_plans_end(learner_client, learner):
    make_plan(learner)
    tick(learner, *everything())

    response = learner_client.get(DASHBOARD)

    # Ticked today and never reviewed, everything fades by the day after the plan's mock.
    plan_end = schedule().finish + datetime.timedelta(days=1)
    read_on = date_format(plan_end, "j M")
    assert recall_label(response) == (
        f"recall on exam day (read on {read_on}, the day after your plan ends)"
    )
    assert percent(recall_figure(response)) < 80
    assert big_figure(response) == "100%"


def test_without_a_plan_recall_is_read_today(learner_client, learner):
    tick(learner, *CORE_ML)

    response = learner_client.get(DASHBOARD)

    assert recall_label(response) == "recall on exam day (read today: no exam date)"
    assert recall(response)["core-ml"] == "50% (under 80%)"


# The plan


def test_a_domain_under_its_planned_share_is_behind_plan(learner_client, learner):
    make_plan(learner, days_ago=days_until_phase(2))

    response = learner_client.get(DASHBOARD)

    # Phase 1 should be finished: all of Core ML and the one Multimodal check it carries.
    assert behind(response) == {"core-ml", "multimodal-data"}
    plan_by_today = {slug: cells[-1] for slug, cells in rows(response).items()}
    assert plan_by_today["core-ml"].startswith("100%")
    assert plan_by_today["multimodal-data"].startswith("14%")
    assert plan_by_today["experimentation"] == "0%"


def test_a_learner_on_plan_is_not_behind(learner_client, learner):
    make_plan(learner, days_ago=days_until_phase(2))
    tick(learner, *PHASE_ONE)

    response = learner_client.get(DASHBOARD)

    assert behind(response) == set()
    assertNotContains(response, "Behind plan")
    assert focus_heading(response) == "On plan"


def test_the_dashboard_names_the_current_phase_and_exam(learner_client, learner):
    plan = make_plan(learner, days_ago=days_until_phase(2), exam_in=20)

    response = learner_client.get(DASHBOARD)

    text = page_text(response.content)
    assert "phase 2 today" in text
    assert date_format(plan.exam_date, "j M Y") in text
    assertContains(response, f'href="{reverse("progress:plan")}"')


def test_without_a_plan_the_dashboard_still_renders_and_invites_choosing_one(
    learner_client, learner
):
    tick(learner, *CORE_ML)

    response = learner_client.get(DASHBOARD)

    assert response.status_code == 200
    invites = [
        a
        for a in with_tag(response.content, "a")
        if a.attrs.get("href") == reverse("progress:plan-choose")
    ]
    assert invites and "schedule" in invites[0].text.lower()
    assert behind(response) == set()
    assert {cells[-1] for cells in rows(response).values()} == {"—"}
    assert figures(response)["core-ml"] == ("3/6", "50%", "0.0")


# Several learners


def test_other_learners_ticks_never_change_my_figures(learner_client, learner):
    tick(learner, *SPREAD)
    make_plan(learner, days_ago=days_until_phase(2))
    mine = learner_client.get(DASHBOARD)
    all_slugs = everything()
    for n, other in enumerate(UserFactory.create_batch(5)):
        make_plan(other, intensity="fast-track", days_ago=30)
        tick(other, *all_slugs[n::2])  # every other check, overlapping mine and each other's
    tick(UserFactory(), *all_slugs)

    again = learner_client.get(DASHBOARD)

    # In phase 2, only Core ML (phase 1) is behind: 20 x (1 - 3/6) = 10 marks.
    assert figures(again) == figures(mine) == {**SPREAD_FIGURES, "core-ml": ("3/6", "50%", "10.0")}
    assert big_figure(again) == SPREAD_WEIGHTED
    assert behind(again) == behind(mine)
    assert focus_reason(again) == focus_reason(mine)
    assert verdict(again).startswith("Not ready")


def test_study_next_ignores_what_other_learners_have_done(learner_client, learner):
    make_plan(learner, days_ago=days_until_phase(3))
    tick(learner, *PHASE_ONE)
    first_open = checks("experimentation")[0]
    tick(UserFactory(), first_open)

    response = learner_client.get(DASHBOARD)

    assert lagging_badges(response) == ["experimentation"]
    assert main_action(response) == check_url(first_open)


def test_another_learner_ticking_everything_leaves_a_new_learner_at_the_start(
    learner_client, learner
):
    other = UserFactory()
    make_plan(other, days_ago=400)
    tick(other, *everything())

    response = learner_client.get(DASHBOARD)

    assert focus_heading(response) == "Where to start"
    assert main_action(response) == reverse("progress:plan-choose")
    assert big_figure(response) == "0%"
    assert {f[0] for f in figures(response).values()} <= {"0/4", "0/6", "0/7"}


def test_a_plan_starting_tomorrow_expects_nothing_and_names_no_phase_today(learner_client, learner):
    make_plan(learner, days_ago=-1)
    tick(learner, PHASE_ONE[0])

    response = learner_client.get(DASHBOARD)

    assert behind(response) == set()
    assert "Today in your plan" not in page_text(response.content)


# Recall on exam day, week by week, from the review log


def test_the_weekly_line_starts_at_the_first_review_and_ends_at_the_headline(
    learner_client, learner
):
    make_plan(learner, days_ago=PLAN_STARTED, exam_in=EXAM_IN)
    tick_at(learner, timezone.now() - datetime.timedelta(days=15), *CORE_ML)
    tick_at(learner, timezone.now() - datetime.timedelta(days=1), *checks("experimentation"))

    response = learner_client.get(DASHBOARD)

    (title,) = [
        e for e in with_tag(response.content, "title") if e.attrs.get("id") == "trend-title"
    ]
    points = [int(p) for p in re.findall(r"(\d+)%", title.text)]
    assert len(points) >= 3  # the weeks since the first tick, today's last
    assert points[-1] == percent(recall_figure(response))
    assert points[0] < points[-1]  # the later ticks raised it


def test_before_a_sunday_of_reviews_the_line_says_when_it_starts(learner_client, learner):
    make_plan(learner)
    tick(learner, *CORE_ML)

    response = learner_client.get(DASHBOARD)

    text = page_text(response.content)
    assert "The line starts once your reviews reach past a week's end (a Sunday)" in text


def test_with_no_syllabus_loaded_the_dashboard_still_answers(learner_client, learner):
    Domain.objects.all().delete()

    response = learner_client.get(DASHBOARD)

    assert response.status_code == 200
    assert verdict(response).startswith("Not ready yet:")
