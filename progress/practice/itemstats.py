"""How each practice question behaves, from every learner's counted answers (pure).

- answered: counted answers to the question; right: those scored right.
- discrimination: the point-biserial correlation, over the question's answers, between being
  right on it and the learner's share right on every other question they answered. Near +1 the
  learners who know the material get it right and the others do not; at 0 it tells them apart no
  better than chance; below 0 strong learners do worse than weak ones, the mark of a wrong key or
  a trap (flagged once there are enough answers to say so).
"""

import statistics
from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass

FLAG_AFTER = 10  # answers before a question's discrimination is trusted enough to flag


@dataclass(frozen=True)
class ItemStats:
    answered: int
    right: int
    discrimination: float | None  # None: too few answers, or nobody to compare with

    @property
    def share_right(self) -> float | None:
        return self.right / self.answered if self.answered else None

    @property
    def reversed(self) -> bool:
        """Strong learners do worse on it than weak ones."""
        return self.answered >= FLAG_AFTER and (self.discrimination or 0.0) < 0


def correlation(pairs: list[tuple[float, float]]) -> float | None:
    """Pearson's r over (x, y) pairs; None when there are too few or either side does not vary."""
    try:
        return statistics.correlation([x for x, _ in pairs], [y for _, y in pairs])
    except statistics.StatisticsError:
        return None


def item_statistics(answers: Iterable[tuple[int, int, bool]]) -> dict[int, ItemStats]:
    """Per question id, from (learner id, question id, right) for every counted answer."""
    rows = list(answers)
    totals: dict[int, list[int]] = defaultdict(lambda: [0, 0])  # learner: [right, answered]
    for learner, _, right in rows:
        totals[learner][0] += right
        totals[learner][1] += 1
    results: dict[int, list[bool]] = defaultdict(list)
    pairs: dict[int, list[tuple[float, float]]] = defaultdict(list)  # (right, rest's share right)
    for learner, question, right in rows:
        results[question].append(right)
        learner_right, learner_answered = totals[learner]
        if learner_answered > 1:
            rest = (learner_right - right) / (learner_answered - 1)
            pairs[question].append((float(right), rest))
    return {
        question: ItemStats(
            answered=len(rights), right=sum(rights), discrimination=correlation(pairs[question])
        )
        for question, rights in results.items()
    }
