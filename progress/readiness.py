"""Readiness formulas, pure: plain numbers in, plain numbers out.

- readiness(d) = self-checks done in d / self-checks in d (0 when there are none)
- exam-weighted readiness = sum of weight(d) x readiness(d) / sum of weight(d)
- marks at risk(d) = weight(d) x (1 - readiness(d))
- lagging domain = lowest readiness; ties go to the heavier domain, then the earlier in study order
- behind plan: readiness(d) < the share of d the calendar expects done by today
- ready: every domain at or above the threshold, never the average alone
- accuracy(d) = right answers among d's recent practice answers (none until d is practised)
- ready to book: every domain at least 80% covered AND at least 70% accurate
- once a domain has practice results, its lagging figure is the lower of covered and accurate
"""

from collections.abc import Iterable, Mapping
from dataclasses import dataclass

DEFAULT_THRESHOLD = 0.8
DEFAULT_ACCURACY_THRESHOLD = 0.7

LAGGING_RULE = (
    "The lagging domain is the one with the lowest share of self-checks done; "
    "a tie goes to the domain with the larger exam weight, then to the one studied first."
)
LAGGING_RULE_WITH_PRACTICE = (
    "The lagging domain is the one with the lowest figure, taking for each domain the lower of "
    "its share of self-checks done and, once practised, its accuracy in recent practice answers; "
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
    right: int = 0  # recent practice answers that were right
    answered: int = 0  # recent practice answers
    backlog: int = 0  # self-checks due for review


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
    right: int = 0
    answered: int = 0
    backlog: int = 0

    @property
    def accuracy(self) -> float | None:
        return self.right / self.answered if self.answered else None

    @property
    def accuracy_percent(self) -> int | None:
        return None if self.accuracy is None else round(self.accuracy * 100)

    @property
    def score(self) -> float:
        """The figure the lagging rule compares: covered, or accurate if that is lower."""
        accuracy = self.accuracy
        return self.readiness if accuracy is None else min(self.readiness, accuracy)

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
    accuracy_threshold: float = DEFAULT_ACCURACY_THRESHOLD

    @property
    def practised(self) -> bool:
        return any(domain.answered for domain in self.domains)

    @property
    def ready_to_book(self) -> bool:
        """Every domain covered AND accurate enough: the study guide's own test."""
        return self.ready and all(
            domain.accuracy is not None and domain.accuracy >= self.accuracy_threshold
            for domain in self.domains
        )

    @property
    def lagging_rule(self) -> str:
        """The rule that chose the lagging domain, in words, as the dashboard shows it."""
        return LAGGING_RULE_WITH_PRACTICE if self.practised else LAGGING_RULE

    @property
    def backlog(self) -> int:
        return sum(domain.backlog for domain in self.domains)

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
        key=lambda domain: (domain.score, -domain.weight, domain.study_order),
        default=None,
    )


def assess(
    domains: Iterable[DomainCount],
    threshold: float = DEFAULT_THRESHOLD,
    accuracy_threshold: float = DEFAULT_ACCURACY_THRESHOLD,
) -> Report:
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
                    right=domain.right,
                    answered=domain.answered,
                    backlog=domain.backlog,
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
        accuracy_threshold=accuracy_threshold,
    )
