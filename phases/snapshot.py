"""The syllabus as plain, immutable values: the same for every learner.

Learner pages read content from a snapshot and make their own queries only for the learner's rows.
A snapshot is built in eight queries and carries the content version it was built at; where it is
kept and when it is rebuilt is phases.content's business.
"""

from collections import Counter
from dataclasses import dataclass, field

from phases.models import Domain, ExercisePart, Phase, PhaseHours, SelfCheck, SubArea, Topic


@dataclass(frozen=True)
class DomainInfo:
    slug: str
    name: str
    short_name: str
    weight: int
    study_order: int


@dataclass(frozen=True)
class SourceInfo:
    title: str
    url: str
    kind: str  # "paper", "docs" or "spec"


@dataclass(frozen=True)
class TopicInfo:
    slug: str
    title: str
    summary: str
    trap: str
    is_published: bool
    sources: tuple[SourceInfo, ...] = ()
    subarea_titles: tuple[str, ...] = ()  # the exam's subjects asked inside it


@dataclass(frozen=True)
class PartInfo:
    """A part of a phase's written exercise, in the study guide's words."""

    slug: str
    text: str


@dataclass(frozen=True)
class PhaseInfo:
    number: int
    slug: str
    title: str
    goal: str
    how_examined: str
    practice_exercise: str
    domains: tuple[DomainInfo, ...]
    exercise_parts: tuple[PartInfo, ...] = ()  # the current ones, in order
    id: int = 0


@dataclass(frozen=True)
class CheckInfo:
    id: int
    slug: str
    prompt: str
    answer: str
    phase: PhaseInfo
    domain: DomainInfo
    topic: TopicInfo | None


@dataclass(frozen=True)
class Syllabus:
    domains: tuple[DomainInfo, ...]  # in study order
    phases: tuple[PhaseInfo, ...]  # by number
    checks: tuple[CheckInfo, ...]  # current ones, by phase then order
    topics: dict[str, tuple[TopicInfo, ...]]  # by domain slug, in order
    phase_hours: dict[str, tuple[tuple[int, int], ...]]  # by intensity slug
    version: int  # the ContentVersion number it was built at
    # Where each current check counts, and how many there are: a learner's figures are then a
    # pass over their own ticks.
    check_keys: dict[int, tuple[str, int]] = field(default_factory=dict, repr=False)
    totals: dict[str, dict[int, int]] = field(default_factory=dict, repr=False)
    phase_totals: dict[int, int] = field(default_factory=dict, repr=False)
    _checks_by_slug: dict[str, CheckInfo] = field(default_factory=dict, repr=False)
    _checks_by_id: dict[int, CheckInfo] = field(default_factory=dict, repr=False)

    def check(self, slug: str) -> CheckInfo | None:
        return self._checks_by_slug.get(slug)

    def check_by_id(self, check_id: int) -> CheckInfo | None:
        return self._checks_by_id.get(check_id)

    def phase(self, slug: str) -> PhaseInfo | None:
        return next((phase for phase in self.phases if phase.slug == slug), None)

    def phase_numbered(self, number: int) -> PhaseInfo | None:
        return next((phase for phase in self.phases if phase.number == number), None)

    def domain_total(self, slug: str) -> int:
        """How many current self-checks the domain has, over all phases."""
        return sum(self.totals.get(slug, {}).values())

    def checks_in_phase(self, number: int) -> list[CheckInfo]:
        return [check for check in self.checks if check.phase.number == number]


def build(version: int) -> Syllabus:
    """Eight queries, however large the syllabus."""
    domains = {domain.pk: _domain(domain) for domain in Domain.objects.all()}
    subareas: dict[int, list[str]] = {}
    for topic_id, title in SubArea.objects.order_by("slug").values_list("topic_id", "title"):
        subareas.setdefault(topic_id, []).append(title)
    topics = {
        topic.pk: (topic.domain_id, _topic(topic, subareas.get(topic.pk, [])))
        for topic in Topic.objects.order_by("order")
    }
    phase_domains: dict[int, list[DomainInfo]] = {}
    for phase_id, domain_id in Phase.domains.through.objects.values_list("phase_id", "domain_id"):
        phase_domains.setdefault(phase_id, []).append(domains[domain_id])
    parts: dict[int, list[PartInfo]] = {}
    for part in ExercisePart.objects.current().order_by("order"):
        parts.setdefault(part.phase_id, []).append(PartInfo(slug=part.slug, text=part.text))
    phases = {
        phase.pk: PhaseInfo(
            number=phase.number,
            slug=phase.slug,
            title=phase.title,
            goal=phase.goal,
            how_examined=phase.how_examined,
            practice_exercise=phase.practice_exercise,
            domains=tuple(
                sorted(phase_domains.get(phase.pk, []), key=lambda domain: domain.study_order)
            ),
            exercise_parts=tuple(parts.get(phase.pk, [])),
            id=phase.pk,
        )
        for phase in Phase.objects.all()
    }
    checks = tuple(
        CheckInfo(
            id=check.pk,
            slug=check.slug,
            prompt=check.prompt,
            answer=check.answer,
            phase=phases[check.phase_id],
            domain=domains[check.domain_id],
            topic=topics[check.topic_id][1] if check.topic_id else None,
        )
        for check in SelfCheck.objects.current().order_by("phase__number", "order")
    )
    hours: dict[str, list[tuple[int, int]]] = {}
    for intensity, number, phase_hours in PhaseHours.objects.values_list(
        "intensity__slug", "phase__number", "hours"
    ).order_by("phase__number"):
        hours.setdefault(intensity, []).append((number, phase_hours))
    totals: dict[str, dict[int, int]] = {domain.slug: {} for domain in domains.values()}
    for check in checks:
        by_phase = totals[check.domain.slug]
        by_phase[check.phase.number] = by_phase.get(check.phase.number, 0) + 1
    topics_by_domain: dict[str, list[TopicInfo]] = {domain.slug: [] for domain in domains.values()}
    for domain_id, topic in topics.values():
        topics_by_domain[domains[domain_id].slug].append(topic)
    return Syllabus(
        domains=tuple(sorted(domains.values(), key=lambda domain: domain.study_order)),
        phases=tuple(sorted(phases.values(), key=lambda phase: phase.number)),
        checks=checks,
        topics={slug: tuple(items) for slug, items in topics_by_domain.items()},
        phase_hours={slug: tuple(items) for slug, items in hours.items()},
        version=version,
        check_keys={check.id: (check.domain.slug, check.phase.number) for check in checks},
        totals=totals,
        phase_totals=dict(Counter(check.phase.number for check in checks)),
        _checks_by_slug={check.slug: check for check in checks},
        _checks_by_id={check.id: check for check in checks},
    )


def _domain(domain: Domain) -> DomainInfo:
    return DomainInfo(
        slug=domain.slug,
        name=domain.name,
        short_name=domain.short_name or domain.name,
        weight=domain.exam_weight,
        study_order=domain.study_order,
    )


def _topic(topic: Topic, subarea_titles: list[str]) -> TopicInfo:
    return TopicInfo(
        slug=topic.slug,
        subarea_titles=tuple(subarea_titles),
        title=topic.title,
        summary=topic.summary,
        trap=topic.trap,
        is_published=topic.is_published,
        sources=tuple(
            SourceInfo(
                title=str(source.get("title", "")),
                url=str(source.get("url", "")),
                kind=str(source.get("kind", "")),
            )
            for source in topic.sources or []
            if isinstance(source, dict)
        ),
    )
