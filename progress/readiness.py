"""Readiness formulas, pure: plain numbers in, plain numbers out.

- readiness(d) = self-checks done in d / self-checks in d (0 when there are none)
- exam-weighted readiness = sum of weight(d) x readiness(d) / sum of weight(d)
- marks at risk(d) = weight(d) x (1 - readiness(d))
- lagging domain = lowest readiness; ties go to the heavier domain, then the earlier in study order
- behind plan: readiness(d) < the share of d the calendar expects done by today
- ready: every domain at or above the threshold, never the average alone
"""

from collections.abc import Iterable, Mapping
from dataclasses import dataclass

DEFAULT_THRESHOLD = 0.8

LAGGING_RULE = (
    "The lagging domain is the one with the lowest share of self-checks done; "
    "a tie goes to the domain with the larger exam weight, then to the one studied first."
)


@dataclass(frozen=True)
class DomainCount:
    slug: str
    name: str
    weight: int
    study_order: int
    done: int
    total: int
    planned: float = 0.0  # share of the domain's self-checks the calendar expects done by today
    short_name: str = ""


@dataclass(frozen=True)
class DomainReadiness:
    slug: str
    name: str
    weight: int
    study_order: int
    done: int
    total: int
    readiness: float
    marks_at_risk: float
    planned: float
    short_name: str = ""

    @property
    def behind(self) -> bool:
        return self.readiness < self.planned

    @property
    def percent(self) -> int:
        return round(self.readiness * 100)

    @property
    def planned_percent(self) -> int:
        return round(self.planned * 100)


@dataclass(frozen=True)
class Report:
    domains: tuple[DomainReadiness, ...]  # heaviest first
    weighted: float
    lagging: DomainReadiness | None
    ready: bool
    threshold: float

    @property
    def started(self) -> bool:
        return any(domain.done for domain in self.domains)

    @property
    def weighted_percent(self) -> int:
        return round(self.weighted * 100)

    @property
    def done(self) -> int:
        return sum(domain.done for domain in self.domains)

    @property
    def total(self) -> int:
        return sum(domain.total for domain in self.domains)

    @property
    def behind(self) -> tuple[DomainReadiness, ...]:
        return tuple(domain for domain in self.domains if domain.behind)


def readiness(done: int, total: int) -> float:
    if total <= 0:
        return 0.0
    return min(done, total) / total


def planned_share(checks_by_phase: Mapping[int, int], due_by_phase: Mapping[int, float]) -> float:
    """Share of a domain's self-checks whose phase the calendar expects done, pro rata."""
    total = sum(checks_by_phase.values())
    if total == 0:
        return 0.0
    due = sum(count * due_by_phase.get(phase, 0.0) for phase, count in checks_by_phase.items())
    return due / total


def lagging_domain(domains: Iterable[DomainReadiness]) -> DomainReadiness | None:
    return min(
        domains,
        key=lambda domain: (domain.readiness, -domain.weight, domain.study_order),
        default=None,
    )


def assess(domains: Iterable[DomainCount], threshold: float = DEFAULT_THRESHOLD) -> Report:
    rated = tuple(
        sorted(
            (
                DomainReadiness(
                    slug=domain.slug,
                    name=domain.name,
                    weight=domain.weight,
                    study_order=domain.study_order,
                    done=domain.done,
                    total=domain.total,
                    readiness=(share := readiness(domain.done, domain.total)),
                    marks_at_risk=domain.weight * (1 - share),
                    planned=domain.planned,
                    short_name=domain.short_name or domain.name,
                )
                for domain in domains
            ),
            key=lambda domain: (-domain.weight, domain.study_order),
        )
    )
    total_weight = sum(domain.weight for domain in rated)
    weighted = (
        sum(domain.weight * domain.readiness for domain in rated) / total_weight
        if total_weight
        else 0.0
    )
    return Report(
        domains=rated,
        weighted=weighted,
        lagging=lagging_domain(rated),
        ready=bool(rated) and all(domain.readiness >= threshold for domain in rated),
        threshold=threshold,
    )
