"""How each practice question behaves, from every learner's counted answers (pure).

- answered: counted answers to the question; right: those scored right.
- discrimination: the point-biserial correlation, over the question's answers, between being
  right on it and the learner's share right on every other question they answered. Near +1 the
  learners who know the material get it right and the others do not; at 0 it tells them apart no
  better than chance; below 0 strong learners do worse than weak ones, the mark of a wrong key or
  a trap (flagged once there are enough answers to say so).
"""

import math
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
        return (
            self.answered >= FLAG_AFTER
            and self.discrimination is not None
            and self.discrimination < 0
        )


def correlation(xs: list[float], ys: list[float]) -> float | None:
    """Pearson's r; None when either side does not vary."""
    n = len(xs)
    if n < 2:
        return None
    mean_x, mean_y = sum(xs) / n, sum(ys) / n
    cov = sum((x - mean_x) * (y - mean_y) for x, y in zip(xs, ys, strict=True))
    var_x = sum((x - mean_x) ** 2 for x in xs)
    var_y = sum((y - mean_y) ** 2 for y in ys)
    if var_x == 0 or var_y == 0:
        return None
    return cov / math.sqrt(var_x * var_y)


def item_statistics(answers: Iterable[tuple[int, int, bool]]) -> dict[int, ItemStats]:
    """Per question id, from (learner id, question id, right) for every counted answer."""
    rows = list(answers)
    totals: dict[int, list[int]] = defaultdict(lambda: [0, 0])  # learner: [right, answered]
    for learner, _, right in rows:
        totals[learner][0] += right
        totals[learner][1] += 1
    by_question: dict[int, list[tuple[float, float]]] = defaultdict(list)
    counts: dict[int, list[int]] = defaultdict(lambda: [0, 0])
    for learner, question, right in rows:
        counts[question][0] += right
        counts[question][1] += 1
        learner_right, learner_answered = totals[learner]
        if learner_answered > 1:
            rest = (learner_right - right) / (learner_answered - 1)
            by_question[question].append((float(right), rest))
    stats = {}
    for question, (right_count, answered) in counts.items():
        pairs = by_question[question]
        r = correlation([x for x, _ in pairs], [y for _, y in pairs]) if pairs else None
        stats[question] = ItemStats(answered=answered, right=right_count, discrimination=r)
    return stats
