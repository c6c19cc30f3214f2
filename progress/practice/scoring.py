"""Practice arithmetic, pure: drawing questions by exam weight, scoring an attempt. An attempt's
weakest domain is the dashboard's lagging rule (readiness.lagging) applied to its own answers."""

import random
from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from phases.words import counted
from progress.verdicts import beta
from progress.verdicts.readiness import lagging

if TYPE_CHECKING:
    from phases.snapshot import DomainInfo

DRILL_LENGTH = 10


def mock_counts(
    weights: Mapping[str, int], total: int, available: Mapping[str, int]
) -> dict[str, int]:
    """Questions per domain for a mock of ``total``, in proportion to exam weight: largest
    remainder, so the counts add up to ``total`` exactly (while the bank allows), each domain
    capped at the questions it has."""
    weight_sum = sum(weights.values())
    if weight_sum <= 0 or total <= 0:
        return dict.fromkeys(weights, 0)
    exact = {slug: total * weight / weight_sum for slug, weight in weights.items()}
    counts = {slug: min(int(share), available.get(slug, 0)) for slug, share in exact.items()}
    by_remainder = sorted(exact, key=lambda slug: (-(exact[slug] - int(exact[slug])), slug))
    while (short := total - sum(counts.values())) > 0:
        growable = [slug for slug in by_remainder if counts[slug] < available.get(slug, 0)]
        if not growable:
            break
        for slug in growable[:short]:
            counts[slug] += 1
    return counts


def draw(
    questions_by_domain: Mapping[str, Sequence[int]],
    counts: Mapping[str, int],
    rng: random.Random,
    seen: Collection[int] = (),
) -> list[int]:
    """Question ids for an attempt: ``counts`` from each domain, in a shuffled order. Questions
    the learner has not seen come first; seen ones fill in only once a domain runs out."""
    drawn: list[int] = []
    for slug, count in counts.items():
        pool = list(questions_by_domain.get(slug, ()))
        fresh = [question for question in pool if question not in seen]
        stale = [question for question in pool if question in seen]
        picked = rng.sample(fresh, min(count, len(fresh)))
        picked += rng.sample(stale, min(count - len(picked), len(stale)))
        drawn += picked
    rng.shuffle(drawn)
    return drawn


def reshuffled(order: Sequence[int], rng: random.Random) -> list[int]:
    """The same options (indexes) in a new order: never ``order`` itself while there are two."""
    while True:
        new = rng.sample(list(order), len(order))
        if len(order) < 2 or new != list(order):
            return new


def chosen_options(order: Sequence[int], places: Iterable[int]) -> list[int]:
    """The stored options behind the places the learner chose (1 for the first option shown,
    in the question's shuffled ``order``; each checked by progress.practice.forms.OptionsForm),
    sorted, once each. A place says nothing about which option is right."""
    return sorted({order[place - 1] for place in places})


def choose_exactly(choose: int, chose: int) -> str:
    """The refusal when a learner chose another number of options than the question asks."""
    return (
        f"This question asks for {counted(choose, 'answer')} and you chose {chose}: "
        f"choose exactly {choose}."
    )


def choose_more(choose: int, chose: int) -> str:
    """Why a drill's answer is not checked yet: it has fewer options than the question asks."""
    if not chose:
        return "Choose an answer first."
    return f"Choose {choose} to check your answer: you have chosen {chose} so far."


def choice_status(choose: int, chose: int) -> str:
    """What a mock's question holds after the learner's last choice."""
    if chose == choose:
        return "Your answer is saved."
    if not chose:
        return "No answer: this question counts as unanswered."
    return (
        f"Kept as unanswered: this question asks for {choose} answers and you have chosen "
        f"{chose}. Choose {choose - chose} more."
    )


def is_correct(chosen: Iterable[int], correct: Iterable[int]) -> bool:
    """All or nothing, as the exam gives no partial credit."""
    return set(chosen) == set(correct)


@dataclass(frozen=True)
class Tally:
    right: int
    wrong: int
    unanswered: int

    @property
    def answered(self) -> int:
        return self.right + self.wrong

    @property
    def asked(self) -> int:
        return self.answered + self.unanswered

    @property
    def percent(self) -> int:
        """Right among all asked: an unanswered question scores as wrong."""
        return round(100 * self.right / self.asked) if self.asked else 0


@dataclass(frozen=True)
class DomainScore(Tally):
    slug: str
    name: str
    weight: int
    study_order: int
    bar: float  # the accuracy bar: likely under it, a domain is behind
    confidence: float  # the odds "likely" means (progress.verdicts.beta)
    min_answers: int  # questions a domain needs before it is judged (the dashboard's rule)

    @property
    def wrong_or_skipped(self) -> int:
        return self.asked - self.right

    @property
    def likely_text(self) -> str:
        """Where the true accuracy likely lies after this attempt alone, a skipped question
        counting as wrong (as on the exam): "80% range 49–83%"."""
        if not self.asked:
            return "—"
        low, high = beta.percent_interval(self.right, self.wrong_or_skipped, self.confidence)
        return beta.range_words(low, high, self.confidence)

    @property
    def judged(self) -> bool:
        """Enough of the domain's questions in this attempt to say "likely under"."""
        return self.asked >= max(1, self.min_answers)

    @property
    def marks_behind(self) -> float:
        """The dashboard's accuracy gap (progress.verdicts.beta.shortfall) times the exam weight,
        over the questions asked, a skipped one counting as wrong, as on the exam and in the
        table; 0 for a domain with too few questions to judge."""
        if not self.judged:
            return 0.0
        return self.weight * beta.shortfall(
            self.right, self.wrong_or_skipped, self.bar, self.confidence
        )


@dataclass(frozen=True)
class AttemptScore(Tally):
    domains: tuple[DomainScore, ...]  # heaviest first

    @property
    def total(self) -> int:
        return self.asked

    @property
    def weakest(self) -> DomainScore | None:
        """The dashboard's lagging rule on this attempt's own questions."""
        return lagging(self.domains)

    @property
    def unjudged(self) -> list[DomainScore]:
        """Domains asked too few questions here to be judged either way."""
        return [row for row in self.domains if not row.judged]


def score(
    results: Iterable[tuple[str, bool | None]],
    domains: Iterable["DomainInfo"],
    bar: float,
    confidence: float,
    min_answers: int,
) -> AttemptScore:
    """Score (domain slug, right / wrong / None for unanswered) results, per domain. A slug
    missing from ``domains`` is its own name, with no weight."""
    known = {d.slug: (d.slug, d.name, d.weight, d.study_order) for d in domains}
    tally: dict[tuple[str, str, int, int], list[int]] = {}
    for slug, correct in results:
        counts = tally.setdefault(known.get(slug, (slug, slug, 0, 0)), [0, 0, 0])
        counts[0 if correct else 1 if correct is False else 2] += 1
    rows = [
        DomainScore(right, wrong, unanswered, *about, bar, confidence, min_answers)
        for about, (right, wrong, unanswered) in tally.items()
    ]
    return AttemptScore(
        right=sum(row.right for row in rows),
        wrong=sum(row.wrong for row in rows),
        unanswered=sum(row.unanswered for row in rows),
        domains=tuple(sorted(rows, key=lambda row: (-row.weight, row.study_order, row.slug))),
    )
