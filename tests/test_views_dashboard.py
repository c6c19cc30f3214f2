"""The dashboard: readiness per domain weighted by exam share, the lagging domain, the plan."""

import datetime

import pytest
from django.urls import reverse
from django.utils.formats import date_format
from pytest_django.asserts import assertContains, assertNotContains

from phases.models import Intensity, PhaseHours, SelfCheck
from phases.schedule import lay_out
from progress.readiness import LAGGING_RULE
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

pytestmark = pytest.mark.django_db

DASHBOARD = reverse("progress:dashboard")
HTMX = {"HTTP_HX_REQUEST": "true"}
CORE_ML = ["p1-residual-gradient-flow", "p1-multimodal-loss", "p1-training-stability"]
PHASE_ONE = [
    *CORE_ML,
    "p1-backprop",
    "p1-validation-vs-test",
    "p1-why-core-ml-first",
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
# Worked out by hand for SPREAD: (done/total, readiness %, marks at risk).
SPREAD_FIGURES = {
    "experimentation": ("2/7", "29%", "17.9"),  # 25 x 5/7
    "core-ml": ("3/6", "50%", "10.0"),  # 20 x 1/2
    "multimodal-data": ("1/7", "14%", "12.9"),  # 15 x 6/7
    "software-development": ("0/7", "0%", "15.0"),
    "data-analysis": ("4/4", "100%", "0.0"),
    "performance-optimization": ("0/4", "0%", "10.0"),
    "trustworthy-ai": ("0/7", "0%", "5.0"),
}
# 20 x 3/6 + 25 x 2/7 + 15 x 1/7 + 10 x 4/4 = 10 + 7.14 + 2.14 + 10 = 29.29 of 100
SPREAD_WEIGHTED = "29%"


def figures(response) -> dict[str, tuple[str, str, str]]:
    """(done/total, readiness, marks at risk) per domain, read from the table."""
    return {
        slug: (cells[2], cells[3].split()[-1], cells[4])
        for slug, cells in domain_rows(response).items()
    }


def big_figure(response) -> str:
    (figure,) = with_class(response.content, "big-figure")
    return figure.text


def behind(response) -> set[str]:
    return {slug for slug, cells in domain_rows(response).items() if "Behind plan" in cells[-1]}


def phase_two_starts_after() -> int:
    """Days from a standard plan's start to its phase 2: phase 1 is all due, phase 2 not yet."""
    standard = Intensity.objects.get(slug="standard")
    hours = PhaseHours.objects.filter(intensity=standard).order_by("phase__number")
    schedule = lay_out(
        hours.values_list("phase__number", "hours"), standard.hours_per_week, datetime.date.today()
    )
    return (schedule.slots[1].start - schedule.slots[0].start).days


# Before any tick


@pytest.mark.parametrize("headers", [{}, HTMX], ids=["plain", "htmx"])
def test_before_any_tick_the_dashboard_says_to_start_with_phase_one(learner_client, headers):
    response = learner_client.get(DASHBOARD, **headers)

    assert response.status_code == 200
    card = focus(response)
    assert "Where to start" in card
    assert "Phase 1" in card
    assert "Lagging" not in card
    first = SelfCheck.objects.order_by("phase__number", "order").first()
    assertContains(response, f'href="{reverse("progress:phase", args=[first.phase.slug])}')
    assert big_figure(response) == "0%"


def test_before_any_tick_every_domain_is_at_zero(learner_client):
    response = learner_client.get(DASHBOARD)

    for slug, (done_total, percent, at_risk) in figures(response).items():
        assert done_total.startswith("0/")
        assert percent == "0%"
        assert at_risk == f"{dict(WEIGHTS)[slug]}.0"


# The lagging domain


def test_ticking_only_core_ml_names_experimentation_as_lagging_with_the_rule(
    learner_client, learner
):
    tick(learner, *CORE_ML)

    response = learner_client.get(DASHBOARD)

    card = focus(response)
    assert card.startswith("Lagging domain Experimentation")
    assert LAGGING_RULE.lower() in card.lower()
    lagging = [slug for slug, cells in domain_rows(response).items() if "Lagging" in cells[0]]
    assert lagging == ["experimentation"]


def test_study_next_links_to_the_lagging_domains_first_open_check(learner_client, learner):
    tick(learner, *CORE_ML, "p2-fid-direction")

    response = learner_client.get(DASHBOARD)

    # Experimentation 1/7 is ahead of the untouched domains; the heaviest of those lags.
    assert focus(response).startswith("Lagging domain Multimodal Data")
    first_open = (
        SelfCheck.objects.filter(domain__slug="multimodal-data")
        .order_by("phase__number", "order")
        .first()
    )
    href = f"{reverse('progress:phase', args=[first_open.phase.slug])}#check-{first_open.slug}"
    assertContains(response, f'href="{href}"')


def test_study_next_skips_checks_already_done(learner_client, learner):
    tick(learner, *CORE_ML, "p2-fid-direction", "p2-ddpm-forward-reverse", "p1-fusion-tradeoff")
    # Now Software Development (15, studied before the 10s) is the heaviest untouched domain.
    tick(learner, "p3-modality-encoding")

    response = learner_client.get(DASHBOARD)

    assert focus(response).startswith("Lagging domain Software Development")
    assertContains(response, 'href="/study/software-and-sdk-stack/#check-p4-')


# The figures


@pytest.mark.parametrize("headers", [{}, HTMX], ids=["plain", "htmx"])
def test_figures_per_domain_match_the_hand_worked_values(learner_client, learner, headers):
    tick(learner, *SPREAD)

    response = learner_client.get(DASHBOARD, **headers)

    assert figures(response) == SPREAD_FIGURES
    assert big_figure(response) == SPREAD_WEIGHTED
    assert SPREAD_WEIGHTED in element_by_id(response.content, "header-readiness").text
    assert "10 of 42 self-checks done" in page_text(response.content)


def test_domains_are_listed_heaviest_first(learner_client, learner):
    response = learner_client.get(DASHBOARD)

    assert list(domain_rows(response)) == [slug for slug, _ in WEIGHTS]
    assert [cells[1] for cells in domain_rows(response).values()] == [
        f"{weight}%" for _, weight in WEIGHTS
    ]


def test_the_chart_has_a_column_per_domain_sized_by_exam_share(learner_client, learner):
    tick(learner, *SPREAD)

    response = learner_client.get(DASHBOARD)

    html = response.content.decode()
    assert html.count('<g class="column') == 7
    (svg,) = [element for element in elements(html) if element.tag == "svg"]
    assert svg.attrs.get("role") == "img"
    assert any(child.tag == "title" and child.text for child in svg.children)
    columns = [child for child in svg.children if child.tag == "g"]
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
    headers = [e for e in elements(response.content) if e.tag == "th" and e.attrs.get("scope")]
    assert len([h for h in headers if h.attrs["scope"] == "row"]) == 7
    assert {"Domain", "Readiness", "Marks at risk"} <= {
        h.text for h in headers if h.attrs["scope"] == "col"
    }
    percents = [e.text for e in elements(response.content) if "column-percent" in e.classes]
    assert percents == [percent for _, percent, _ in SPREAD_FIGURES.values()]


def test_every_check_done_but_no_practice_is_not_yet_ready_to_book(learner_client, learner):
    tick(learner, *SelfCheck.objects.current().values_list("slug", flat=True))

    response = learner_client.get(DASHBOARD)

    assert big_figure(response) == "100%"
    assert verdict(response).startswith("Not ready")
    assert "now practise to show the accuracy" in verdict(response)


def test_every_check_done_and_every_domain_accurate_is_ready_to_book(learner_client, learner):
    tick(learner, *SelfCheck.objects.current().values_list("slug", flat=True))
    for slug in DOMAIN_NAMES:
        practise(learner, slug, right=4, wrong=1)  # 80% >= 70%

    response = learner_client.get(DASHBOARD)

    assert verdict(response).startswith("Ready to book")
    assert "Lagging" not in focus(response)
    assert big_figure(response) == "100%"
    assert all(f[2] == "0.0" for f in figures(response).values())


def test_a_high_average_with_one_weak_domain_is_not_ready(learner_client, learner):
    everything_but_trust = SelfCheck.objects.current().exclude(domain__slug="trustworthy-ai")
    tick(learner, *everything_but_trust.values_list("slug", flat=True))

    response = learner_client.get(DASHBOARD)

    assert big_figure(response) == "95%"
    assert verdict(response).startswith("Not ready")
    assert focus(response).startswith("Lagging domain Trustworthy AI")


# The plan


def test_a_domain_under_its_planned_share_is_behind_plan(learner_client, learner):
    make_plan(learner, days_ago=phase_two_starts_after())

    response = learner_client.get(DASHBOARD)

    # Phase 1 should be finished: all of Core ML and the one Multimodal check it carries.
    assert behind(response) == {"core-ml", "multimodal-data"}
    rows = domain_rows(response)
    assert rows["core-ml"][-1].startswith("100%")
    assert rows["multimodal-data"][-1].startswith("14%")
    assert rows["experimentation"][-1] == "0%"


def test_a_learner_on_plan_is_not_behind(learner_client, learner):
    make_plan(learner, days_ago=phase_two_starts_after())
    tick(learner, *PHASE_ONE)

    response = learner_client.get(DASHBOARD)

    assert behind(response) == set()
    assertNotContains(response, "Behind plan")


def test_a_plan_starting_today_expects_nothing_yet(learner_client, learner):
    make_plan(learner)

    response = learner_client.get(DASHBOARD)

    assert behind(response) == set()
    assert all(cells[-1] == "0%" for cells in domain_rows(response).values())


def test_the_dashboard_names_the_current_phase_and_exam(learner_client, learner):
    plan = make_plan(learner, days_ago=phase_two_starts_after(), exam_in=20)

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
    links = [e for e in elements(response.content) if e.tag == "a"]
    invites = [a for a in links if a.attrs.get("href") == reverse("progress:plan-choose")]
    assert invites and "schedule" in invites[0].text.lower()
    assert behind(response) == set()
    assert figures(response)["core-ml"] == ("3/6", "50%", "10.0")


# Several learners


def test_other_learners_ticks_never_change_my_figures(learner_client, learner):
    tick(learner, *SPREAD)
    make_plan(learner, days_ago=phase_two_starts_after())
    mine = learner_client.get(DASHBOARD)
    all_slugs = list(SelfCheck.objects.current().values_list("slug", flat=True))
    for n, other in enumerate(UserFactory.create_batch(5)):
        make_plan(other, intensity="fast-track", days_ago=30)
        tick(other, *all_slugs[n::2])  # every other check, overlapping mine and each other's
    everything = UserFactory()
    tick(everything, *all_slugs)

    again = learner_client.get(DASHBOARD)

    assert figures(again) == figures(mine) == SPREAD_FIGURES
    assert big_figure(again) == SPREAD_WEIGHTED
    assert behind(again) == behind(mine)
    assert "10 of 42 self-checks done" in page_text(again.content)
    assert verdict(again).startswith("Not ready")


def test_study_next_ignores_what_other_learners_have_done(learner_client, learner):
    tick(learner, *CORE_ML)
    first_open = (
        SelfCheck.objects.filter(domain__slug="experimentation")
        .order_by("phase__number", "order")
        .first()
    )
    tick(UserFactory(), first_open.slug)

    response = learner_client.get(DASHBOARD)

    href = f"{reverse('progress:phase', args=[first_open.phase.slug])}#check-{first_open.slug}"
    assertContains(response, f'href="{href}"')


def test_before_any_tick_start_links_to_the_first_check_even_if_others_did_it(learner_client):
    first = SelfCheck.objects.order_by("phase__number", "order").first()
    tick(UserFactory(), first.slug)

    response = learner_client.get(DASHBOARD)

    assertContains(response, f'href="{reverse("progress:phase", args=[first.phase.slug])}#check-')
    assertContains(response, f"#check-{first.slug}")


def test_another_learner_ticking_everything_leaves_a_new_learner_at_the_start(
    learner_client, learner
):
    other = UserFactory()
    tick(other, *SelfCheck.objects.current().values_list("slug", flat=True))

    response = learner_client.get(DASHBOARD)

    assert "Where to start" in focus(response)
    assert big_figure(response) == "0%"
    assert {f[0] for f in figures(response).values()} <= {"0/4", "0/6", "0/7"}
