"""phases.snapshot.build: the syllabus as plain values, read from the real loaded content."""

from collections import Counter

import pytest

from phases import snapshot
from phases.models import Domain, ExercisePart, Intensity, Phase, PhaseHours, SelfCheck, Topic

pytestmark = pytest.mark.django_db


def test_a_snapshot_carries_the_version_it_was_built_at(syllabus):
    assert snapshot.build(41).version == 41


def test_a_snapshot_costs_eight_queries_however_large_the_syllabus(
    syllabus, django_assert_num_queries
):
    with django_assert_num_queries(8):
        snapshot.build(1)


def test_it_holds_every_current_check_in_phase_then_syllabus_order(syllabus):
    content = snapshot.build(1)

    assert [check.slug for check in content.checks] == list(
        SelfCheck.objects.current()
        .order_by("phase__number", "order")
        .values_list("slug", flat=True)
    )
    fid = content.check("p2-fid-direction")
    row = SelfCheck.objects.get(slug="p2-fid-direction")
    assert (fid.id, fid.prompt, fid.answer) == (row.pk, row.prompt, row.answer)
    assert (fid.phase.number, fid.domain.slug) == (2, "experimentation")
    assert fid.topic.slug == row.topic.slug


def test_each_phase_carries_its_current_exercise_parts_in_order(syllabus):
    ExercisePart.objects.filter(slug="p1-ex-multimodal-loss").update(retired=True)

    phases = {phase.slug: phase for phase in snapshot.build(1).phases}

    assert [part.slug for part in phases["core-ml-foundations"].exercise_parts] == [
        "p1-ex-residual-connections",
        "p1-ex-fusion-table",
    ]
    assert phases["core-ml-foundations"].id == Phase.objects.get(slug="core-ml-foundations").pk
    assert all(phase.exercise_parts for phase in phases.values())


def test_a_retired_check_is_left_out_everywhere(syllabus):
    before = snapshot.build(1)
    retired = SelfCheck.objects.get(slug="p2-fid-direction")
    SelfCheck.objects.filter(pk=retired.pk).update(retired=True)

    after = snapshot.build(2)

    assert after.check("p2-fid-direction") is None
    assert retired.pk not in after.check_keys
    assert len(after.checks) == len(before.checks) - 1
    assert after.totals["experimentation"][2] == before.totals["experimentation"][2] - 1
    assert after.phase_totals[2] == before.phase_totals[2] - 1
    assert "p2-fid-direction" not in {check.slug for check in after.checks_in_phase(2)}


def test_totals_count_current_checks_per_domain_and_phase(syllabus):
    content = snapshot.build(1)
    current = SelfCheck.objects.current()

    expected = Counter(current.values_list("domain__slug", "phase__number"))
    assert {
        (slug, number): count
        for slug, by_phase in content.totals.items()
        for number, count in by_phase.items()
    } == dict(expected)
    assert content.phase_totals == dict(Counter(current.values_list("phase__number", flat=True)))
    assert content.check_keys == {
        pk: (slug, number)
        for pk, slug, number in current.values_list("pk", "domain__slug", "phase__number")
    }
    # A check may count for a domain outside its phase: Core ML's phase holds a fusion check.
    assert content.check("p1-fusion-tradeoff").domain.slug == "multimodal-data"
    assert content.totals["multimodal-data"].get(1, 0) >= 1


def test_domains_and_phases_come_in_study_order_with_their_domains(syllabus):
    content = snapshot.build(1)

    assert [domain.slug for domain in content.domains] == list(
        Domain.objects.order_by("study_order").values_list("slug", flat=True)
    )
    assert [phase.number for phase in content.phases] == list(
        Phase.objects.order_by("number").values_list("number", flat=True)
    )
    analysis = content.phase("analysis-and-optimization")
    assert [domain.slug for domain in analysis.domains] == [
        "data-analysis",
        "performance-optimization",
    ]
    assert content.phase_numbered(analysis.number) == analysis
    assert content.phase("no-such-phase") is None
    assert content.phase_numbered(99) is None


def test_topics_are_grouped_by_domain_in_their_order(syllabus):
    content = snapshot.build(1)

    for domain in Domain.objects.all():
        assert [topic.slug for topic in content.topics[domain.slug]] == list(
            Topic.objects.filter(domain=domain).order_by("order").values_list("slug", flat=True)
        )


def test_phase_hours_are_listed_per_intensity_in_phase_order(syllabus):
    content = snapshot.build(1)

    assert set(content.phase_hours) == set(Intensity.objects.values_list("slug", flat=True))
    for slug, hours in content.phase_hours.items():
        assert list(hours) == list(
            PhaseHours.objects.filter(intensity__slug=slug)
            .order_by("phase__number")
            .values_list("phase__number", "hours")
        )


def test_each_topic_carries_its_sources_as_plain_values(syllabus):
    content = snapshot.build(1)

    for topics in content.topics.values():
        for topic in topics:
            row = Topic.objects.get(slug=topic.slug)
            assert [(s.title, s.url, s.kind) for s in topic.sources] == [
                (s["title"], s["url"], s["kind"]) for s in row.sources
            ]
            assert 1 <= len(topic.sources) <= 3
    (fid,) = [topic for topic in content.topics["experimentation"] if topic.slug == "fid"]
    assert fid.sources == (
        snapshot.SourceInfo(
            title="GANs Trained by a Two Time-Scale Update Rule Converge to a Local Nash "
            "Equilibrium (arXiv:1706.08500)",
            url="https://arxiv.org/abs/1706.08500",
            kind="paper",
        ),
    )
