"""The public figures, "How well our verdict predicts", from opted-in outcomes (pure: plain
values in and out). No figure from fewer than MIN_LEARNERS learners and no cell under MIN_CELL:
"not enough results yet" instead, so nothing on the page can be traced to one learner."""

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from statistics import mean
from typing import Any

from progress.verdicts import beta

MIN_LEARNERS = 10
MIN_CELL = 5


@dataclass(frozen=True)
class Rate:
    passed: int
    total: int

    @property
    def shown(self) -> bool:
        return self.total >= MIN_LEARNERS and min(self.passed, self.total - self.passed) >= MIN_CELL

    @property
    def percent(self) -> int:
        return round(100 * self.passed / self.total) if self.total else 0

    @property
    def range(self) -> tuple[int, int]:
        """The 80% range of the pass rate (Beta posterior, as accuracy's)."""
        return beta.percent_interval(self.passed, self.total - self.passed, 0.8)


@dataclass(frozen=True)
class DomainComparison:
    slug: str
    name: str
    reports: int  # outcomes giving this domain's score and the app's accuracy range
    mean_reported: float
    mean_estimated: float
    within: int  # reported scores inside the app's 80% range

    @property
    def shown(self) -> bool:
        return (
            self.reports >= MIN_LEARNERS
            and min(self.within, self.reports - self.within) >= MIN_CELL
        )


@dataclass(frozen=True)
class PublicFigures:
    learners: int
    cells: dict[tuple[bool, bool], int]  # (said ready, passed): learners
    ready: Rate
    not_ready: Rate
    recall_passed: list[float]
    recall_not_passed: list[float]
    domains: list[DomainComparison]

    @property
    def enough(self) -> bool:
        return self.learners >= MIN_LEARNERS

    def cell(self, ready: bool, passed: bool) -> int | None:
        """A cell's count, or None under MIN_CELL."""
        count = self.cells.get((ready, passed), 0)
        return count if count >= MIN_CELL else None

    @staticmethod
    def mean_percent(values: Sequence[float]) -> int | None:
        return round(100 * mean(values)) if len(values) >= MIN_LEARNERS else None


def public_figures(
    outcomes: Iterable[tuple[Mapping[str, Any], bool, Mapping[str, int]]],
    domains: Sequence[tuple[str, str]],
) -> PublicFigures:
    """``outcomes``: (what the app said, passed, the reported per-domain scores) of each opted-in
    learner; ``domains``: (slug, name) in the page's order."""
    rows = list(outcomes)
    cells: dict[tuple[bool, bool], int] = {}
    for said, passed, _ in rows:
        key = (bool(said.get("ready")), passed)
        cells[key] = cells.get(key, 0) + 1
    comparisons = []
    for slug, name in domains:
        pairs = []
        for said, _, scores in rows:
            estimate = (said.get("domains") or {}).get(slug, {}).get("accuracy_range")
            if slug in scores and estimate:
                pairs.append((scores[slug], estimate))
        comparisons.append(
            DomainComparison(
                slug=slug,
                name=name,
                reports=len(pairs),
                mean_reported=mean(score for score, _ in pairs) if pairs else 0.0,
                mean_estimated=mean((low + high) / 2 for _, (low, high) in pairs) if pairs else 0.0,
                within=sum(1 for score, (low, high) in pairs if low <= score <= high),
            )
        )

    def rate(ready: bool) -> Rate:
        passed = cells.get((ready, True), 0)
        return Rate(passed=passed, total=passed + cells.get((ready, False), 0))

    return PublicFigures(
        learners=len(rows),
        cells=cells,
        ready=rate(True),
        not_ready=rate(False),
        recall_passed=[said.get("recall", 0.0) for said, passed, _ in rows if passed],
        recall_not_passed=[said.get("recall", 0.0) for said, passed, _ in rows if not passed],
        domains=comparisons,
    )
