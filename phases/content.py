"""The syllabus as plain, immutable values, cached: it is the same for every learner.

Learner pages read content from here and make their own queries only for the learner's rows.
The snapshot lives in this process's memory (it is read on every learner request, and a
shared cache would cost a round trip and unpickling each time). It is dropped whenever content is
saved in this process (loader, admin) and expires after CONTENT_TTL seconds, so other server
processes see a reload within that time.
"""

import time
import uuid
from collections import Counter
from dataclasses import dataclass, field

from django.db.models.signals import m2m_changed, post_delete, post_save
from django.urls import reverse

from .models import Domain, Intensity, Phase, PhaseHours, SelfCheck, Topic

CONTENT_TTL = 300


@dataclass(frozen=True)
class DomainInfo:
    slug: str
    name: str
    short_name: str
    weight: int
    study_order: int


@dataclass(frozen=True)
class TopicInfo:
    slug: str
    title: str
    summary: str
    trap: str
    is_published: bool


@dataclass(frozen=True)
class PhaseInfo:
    number: int
    slug: str
    title: str
    goal: str
    how_examined: str
    practice_exercise: str
    domains: tuple[DomainInfo, ...]


@dataclass(frozen=True)
class CheckInfo:
    id: int
    slug: str
    prompt: str
    answer: str
    phase: PhaseInfo
    domain: DomainInfo
    topic: TopicInfo | None
    toggle_url: str  # reversed once here: a phase page shows forms per check
    confidence_url: str
    done: bool = False  # set per learner with dataclasses.replace
    confidence: str = ""  # likewise: "", "shaky" or "solid"


@dataclass(frozen=True)
class Syllabus:
    domains: tuple[DomainInfo, ...]  # in study order
    phases: tuple[PhaseInfo, ...]  # by number
    checks: tuple[CheckInfo, ...]  # current ones, by phase then order
    topics: dict[str, tuple[TopicInfo, ...]]  # by domain slug, in order
    phase_hours: dict[str, tuple[tuple[int, int], ...]]  # by intensity slug
    version: str = field(default_factory=lambda: uuid.uuid4().hex)  # new with every snapshot
    # Where each current check counts, and how many there are: a learner's figures are then a
    # pass over their own ticks.
    check_keys: dict[int, tuple[str, int]] = field(default_factory=dict, repr=False)
    totals: dict[str, dict[int, int]] = field(default_factory=dict, repr=False)
    phase_totals: dict[int, int] = field(default_factory=dict, repr=False)
    _checks_by_slug: dict[str, CheckInfo] = field(default_factory=dict, repr=False)

    def check(self, slug: str) -> CheckInfo | None:
        return self._checks_by_slug.get(slug)

    def phase(self, slug: str) -> PhaseInfo | None:
        return next((phase for phase in self.phases if phase.slug == slug), None)

    def phase_numbered(self, number: int) -> PhaseInfo | None:
        return next((phase for phase in self.phases if phase.number == number), None)

    def checks_in_phase(self, number: int) -> list[CheckInfo]:
        return [check for check in self.checks if check.phase.number == number]


def build() -> Syllabus:
    """Six queries, however large the syllabus."""
    domains = {domain.pk: _domain(domain) for domain in Domain.objects.all()}
    topics = {
        topic.pk: (topic.domain_id, _topic(topic)) for topic in Topic.objects.order_by("order")
    }
    phase_domains: dict[int, list[DomainInfo]] = {}
    for phase_id, domain_id in Phase.domains.through.objects.values_list("phase_id", "domain_id"):
        phase_domains.setdefault(phase_id, []).append(domains[domain_id])
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
            toggle_url=reverse("progress:selfcheck-toggle", args=[check.slug]),
            confidence_url=reverse("progress:selfcheck-confidence", args=[check.slug]),
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
        check_keys={check.id: (check.domain.slug, check.phase.number) for check in checks},
        totals=totals,
        phase_totals=dict(Counter(check.phase.number for check in checks)),
        _checks_by_slug={check.slug: check for check in checks},
    )


def _domain(domain: Domain) -> DomainInfo:
    return DomainInfo(
        slug=domain.slug,
        name=domain.name,
        short_name=domain.short_name or domain.name,
        weight=domain.exam_weight,
        study_order=domain.study_order,
    )


def _topic(topic: Topic) -> TopicInfo:
    return TopicInfo(
        slug=topic.slug,
        title=topic.title,
        summary=topic.summary,
        trap=topic.trap,
        is_published=topic.is_published,
    )


_snapshot: Syllabus | None = None
_expires_at = 0.0


def syllabus() -> Syllabus:
    global _snapshot, _expires_at
    if _snapshot is None or time.monotonic() > _expires_at:
        _snapshot = build()
        _expires_at = time.monotonic() + CONTENT_TTL
    return _snapshot


def forget(**kwargs) -> None:
    global _snapshot
    _snapshot = None


for _model in (Domain, Phase, Topic, SelfCheck, Intensity, PhaseHours):
    post_save.connect(forget, sender=_model, dispatch_uid=f"content-saved-{_model.__name__}")
    post_delete.connect(forget, sender=_model, dispatch_uid=f"content-deleted-{_model.__name__}")
m2m_changed.connect(forget, sender=Phase.domains.through, dispatch_uid="content-phase-domains")
