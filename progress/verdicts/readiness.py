"""Readiness formulas, pure: plain values in, plain values out. docs/verdicts.md states each one.

- covered(d) = done / self-checks; planned(d): the share the calendar expects done by today.
- gap(d): the larger of planned(d) - covered(d) and the accuracy shortfall
(progress.verdicts.beta), never below 0. Marks behind(d) = weight(d) x gap(d), in marks of the
exam's 100: the only marks. - lagging: the most marks behind; a tie goes to the heavier domain,
then the one studied first. No gap anywhere means the learner is on plan.
- ready to book: every domain's recall on exam day at the bar and likely accurate.

The numbers come in as Rules, built from settings by progress.verdicts.figures; the words the pages
show for each rule are made here and in progress.verdicts.rules from those numbers.
"""

import datetime
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, fields
from functools import cached_property
from typing import Any, Protocol, TypeVar

from phases.snapshot import DomainInfo
from phases.words import counted
from progress.verdicts import beta
from progress.verdicts.rules import Percent, Rules


def fields_of(value: Any) -> dict[str, Any]:
    """A dataclass's fields as keywords for another, the values themselves (``asdict`` copies
    each one deeply: some 20 copies a dashboard for nothing, every value here is immutable)."""
    return {field.name: getattr(value, field.name) for field in fields(value)}


@dataclass(frozen=True)
class DomainCount(DomainInfo):  # the snapshot's domain, with this learner's counts
    done: int
    total: int
    planned: float = 0.0
    right: int = 0  # right answers among the domain's counted window
    answered: int = 0  # answers in that window
    due_reviews: int = 0  # ticked self-checks due for review
    recall_sum: float = 0.0  # predicted exam-day recall added up over its ticked self-checks
    skipped: int = 0  # answers in that window left unanswered in a mock (counted as wrong)
    skipped_days: tuple[datetime.date, ...] = ()  # the days of those mocks, newest first


@dataclass(frozen=True, kw_only=True)
class DomainReadiness(DomainCount):
    """A domain's counts read against the rules: its figures, verdicts and their words."""

    rules: Rules

    @property
    def recall(self) -> float:
        return readiness(self.recall_sum, self.total)

    @property
    def readiness(self) -> float:
        return readiness(self.done, self.total)

    percent = Percent("readiness")
    planned_percent = Percent("planned")
    recall_percent = Percent("recall")

    @property
    def remembered(self) -> bool:
        return self.recall >= self.rules.recall - 1e-9

    # Each page reads these more than once: worked out once per report.
    @property
    def enough_answers(self) -> bool:
        """Enough answers for accuracy to say anything, either way (rules.min_answers)."""
        return self.answered >= self.rules.min_answers

    @cached_property
    def chance_accurate(self) -> float | None:
        """P(true accuracy >= the bar) from the window's answers; None before there are enough
        of them to decide either way."""
        if not self.enough_answers:
            return None
        return beta.prob_at_least(self.right, self.answered - self.right, self.rules.accurate)

    @property
    def likely_accurate(self) -> bool:
        chance = self.chance_accurate
        return chance is not None and chance >= self.rules.confidence - 1e-9

    @property
    def likely_under(self) -> bool:
        chance = self.chance_accurate
        return chance is not None and 1 - chance >= self.rules.confidence - 1e-9

    @cached_property
    def accuracy_range(self) -> tuple[int, int] | None:
        """The posterior's central ``rules.confidence`` interval, in whole percent."""
        if not self.answered:
            return None
        return beta.percent_interval(self.right, self.answered - self.right, self.rules.confidence)

    @property
    def accuracy_text(self) -> str:
        """ "7 of 10 right: 80% range 49–83%"; "—" before any answer."""
        if self.accuracy_range is None:
            return "—"
        range_text = beta.range_words(*self.accuracy_range, self.rules.confidence)
        return f"{self.right} of {self.answered} right: {range_text}"

    @property
    def skipped_text(self) -> str:
        """ " (13 of them skipped in your mock of 7 Dec, counted as wrong)": where skipped
        questions drag the figure down, so it is not mistaken for what is known."""
        if not self.skipped:
            return ""
        days = sorted(set(self.skipped_days), reverse=True)
        where = (
            f"your mock of {days[0]:%-d %b}"
            if len(days) == 1
            else f"your mocks, the newest of {days[0]:%-d %b}"
        )
        return f" ({self.skipped} of them skipped in {where}, counted as wrong)"

    @property
    def verdict_text(self) -> str:
        """The accuracy rule's verdict in words: "likely at least 70%", "likely under 70%", or
        what would settle it."""
        bar = self.rules.accurate_percent
        if not self.answered:
            return "no practice answers yet"
        if not self.enough_answers:
            short = self.rules.min_answers - self.answered
            return (
                f"too few answers to tell yet: {counted(short, 'more first answer')} in this "
                "domain before any verdict"
            )
        if self.likely_accurate:
            return f"likely at least {bar}%"
        if self.likely_under:
            return f"likely under {bar}%"
        # Above 0 here: 0 means likely accurate or likely under.
        more = beta.answers_to_settle(
            self.right, self.answered - self.right, self.rules.accurate, self.rules.confidence
        )
        if more is None:
            return "not settled: right at the bar: only more practice will tell"
        rate = beta.current_rate(self.right, self.answered - self.right)
        way = f"at least {bar}%" if rate >= self.rules.accurate else f"under {bar}%"
        return (
            f"not settled: about {counted(more, 'more answer')} at your estimated rate, "
            f"{round(100 * rate)}%, would settle it as likely {way}"
        )

    @property
    def plan_gap(self) -> float:
        return max(0.0, self.planned - self.readiness)

    @cached_property
    def accuracy_gap(self) -> float:
        """How far under the bar the true accuracy is, with the rules' odds: above 0 exactly
        when the domain is likely under the bar."""
        if not self.enough_answers:
            return 0.0
        return beta.shortfall(
            self.right, self.answered - self.right, self.rules.accurate, self.rules.confidence
        )

    @property
    def gap(self) -> float:
        return max(self.plan_gap, self.accuracy_gap)

    @property
    def marks_behind(self) -> float:
        return self.weight * self.gap

    @property
    def behind_plan(self) -> bool:
        return self.plan_gap > 0

    @property
    def ready(self) -> bool:
        return self.remembered and self.likely_accurate

    @property
    def reason(self) -> str:
        """Why this domain is behind, in the learner's own numbers."""
        if self.accuracy_gap > self.plan_gap:
            low, high = self.accuracy_range or (0, 0)
            likely = beta.range_words(low, high, self.rules.confidence)
            return (
                f"{self.name}: {self.right} of your last {self.answered} practice answers "
                f"right{self.skipped_text}, {likely}, so likely under the "
                f"{self.rules.accurate_percent}% bar: {self.marks_behind:.1f} marks of the "
                "exam's 100 behind"
            )
        return (
            f"{self.name}: {self.done} of {self.total} self-checks done, your plan expected "
            f"{_count(self.planned * self.total)} by today: {self.marks_behind:.1f} marks of the "
            "exam's 100 behind"
        )


def _count(value: float) -> str:
    return str(round(value)) if abs(value - round(value)) < 0.05 else f"{value:.1f}"


class Weighed(Protocol):
    @property
    def weight(self) -> int: ...
    @property
    def study_order(self) -> int: ...
    @property
    def marks_behind(self) -> float: ...


W = TypeVar("W", bound=Weighed)


def lagging(domains: Iterable[W]) -> W | None:
    """The one lagging rule: most marks behind; ties to the heavier, then the earlier domain;
    None when nothing is behind. Practice results and the dashboard both ask it."""
    behind = [domain for domain in domains if domain.marks_behind > 1e-9]
    return min(
        behind,
        key=lambda domain: (-round(domain.marks_behind, 9), -domain.weight, domain.study_order),
        default=None,
    )


@dataclass(frozen=True)
class Report:
    domains: tuple[DomainReadiness, ...]  # heaviest first
    rules: Rules

    @property
    def covered(self) -> float:
        return by_exam_weight((domain.weight, domain.readiness) for domain in self.domains)

    covered_percent = Percent("covered")

    @property
    def weighted_recall(self) -> float:
        return by_exam_weight((domain.weight, domain.recall) for domain in self.domains)

    weighted_recall_percent = Percent("weighted_recall")

    @cached_property  # the verdict, the focus card and the table each ask
    def lagging(self) -> DomainReadiness | None:
        return lagging(self.domains)

    @property
    def on_plan(self) -> bool:
        return self.lagging is None

    @property
    def remembered(self) -> bool:
        return bool(self.domains) and all(domain.remembered for domain in self.domains)

    @property
    def practised(self) -> bool:
        return any(domain.answered for domain in self.domains)

    @property
    def ready_to_book(self) -> bool:
        """Every domain remembered and accurate: the study guide's own test, never the average."""
        return bool(self.domains) and all(domain.ready for domain in self.domains)

    @property
    def started(self) -> bool:
        return any(domain.done for domain in self.domains)

    @property
    def done(self) -> int:
        return sum(domain.done for domain in self.domains)

    @property
    def total(self) -> int:
        return sum(domain.total for domain in self.domains)

    @property
    def due_reviews(self) -> int:
        return sum(domain.due_reviews for domain in self.domains)


def by_exam_weight(figures: Iterable[tuple[int, float]]) -> float:
    """The mean of (weight, figure) over the domains, each weighted by its share of the exam."""
    pairs = list(figures)
    total_weight = sum(weight for weight, _ in pairs)
    if not total_weight:
        return 0.0
    return sum(weight * figure for weight, figure in pairs) / total_weight


def readiness(done: float, total: int) -> float:
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


@dataclass(frozen=True)
class Accuracy:
    """A domain's window of answers: right, answered, and those left unanswered (skipped) in a
    closed mock, with the days of those mocks."""

    right: int = 0
    answered: int = 0
    skipped: int = 0
    skipped_days: tuple[datetime.date, ...] = ()


def accuracy_counts(
    answers: Iterable[tuple[str, bool | None, datetime.date | None]], window: int
) -> dict[str, Accuracy]:
    """Each domain's Accuracy over its ``window`` newest answers, from (domain, right, the day of
    the mock it was skipped in) newest first. An answer of None (a closed mock's unanswered
    question) counts as wrong, and as skipped on its mock's day."""
    answered: dict[str, int] = {}
    right: dict[str, int] = {}
    skipped_days: dict[str, list[datetime.date]] = {}
    for domain, correct, skipped_on in answers:
        if answered.get(domain, 0) < window:
            answered[domain] = answered.get(domain, 0) + 1
            right[domain] = right.get(domain, 0) + bool(correct)
            if correct is None and skipped_on is not None:
                skipped_days.setdefault(domain, []).append(skipped_on)
    return {
        domain: Accuracy(
            right=right[domain],
            answered=count,
            skipped=len(days := skipped_days.get(domain, [])),
            skipped_days=tuple(days),
        )
        for domain, count in answered.items()
    }


def assess(domains: Iterable[DomainCount], rules: Rules) -> Report:
    rated = (DomainReadiness(**fields_of(domain), rules=rules) for domain in domains)
    heaviest_first = sorted(rated, key=lambda domain: (-domain.weight, domain.study_order))
    return Report(domains=tuple(heaviest_first), rules=rules)
