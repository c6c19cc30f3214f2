"""Does the memory model's forecast come true for this learner? (pure)

Every logged review after a card's first carries the recall FSRS predicted at that moment and
whether the learner then remembered (any rating but "forgot"). Grouped by the predicted recall,
the share remembered should be close to the forecast: "we said 80–90%: you remembered 47 of 57,
82%". The log loss (lower is better) says how good the forecast is as a whole, beside the best
constant guess, this learner's own overall share remembered given to every review: a forecast
that cannot beat that tells them nothing.
"""

import math
from collections.abc import Iterable
from dataclasses import dataclass
from itertools import pairwise

MIN_REVIEWS = 30  # logged reviews with a forecast before the fit is shown
EDGES = (0.0, 0.5, 0.6, 0.7, 0.8, 0.9, 1.0)
CLIP = 1e-6


@dataclass(frozen=True)
class Bin:
    low: float
    high: float
    reviews: int
    remembered: int

    @property
    def label(self) -> str:
        return f"{round(self.low * 100)}–{round(self.high * 100)}%"

    @property
    def remembered_percent(self) -> int:
        return round(100 * self.remembered / self.reviews)


@dataclass(frozen=True)
class Fit:
    reviews: int
    bins: tuple[Bin, ...]  # only the ones with reviews, lowest forecast first
    log_loss: float | None
    constant_log_loss: float | None

    @property
    def shown(self) -> bool:
        return self.reviews >= MIN_REVIEWS

    @property
    def needed(self) -> int:
        return max(0, MIN_REVIEWS - self.reviews)

    @property
    def beats_constant(self) -> bool:
        return (
            self.log_loss is not None
            and self.constant_log_loss is not None
            and self.log_loss < self.constant_log_loss
        )


def log_loss(pairs: list[tuple[float, bool]]) -> float | None:
    if not pairs:
        return None
    clipped = [(min(max(p, CLIP), 1 - CLIP), remembered) for p, remembered in pairs]
    return -sum(math.log(p if remembered else 1 - p) for p, remembered in clipped) / len(pairs)


def fit(pairs: Iterable[tuple[float, bool]]) -> Fit:
    """From (predicted recall, remembered) for each logged review."""
    rows = [(min(max(p, 0.0), 1.0), bool(r)) for p, r in pairs]
    bins = []
    for low, high in pairwise(EDGES):
        inside = [r for p, r in rows if low <= p < high or p == high == EDGES[-1]]
        if inside:
            bins.append(Bin(low, high, reviews=len(inside), remembered=sum(inside)))
    rate = sum(r for _, r in rows) / len(rows) if rows else 0.0
    return Fit(
        reviews=len(rows),
        bins=tuple(bins),
        log_loss=log_loss(rows),
        constant_log_loss=log_loss([(rate, r) for _, r in rows]),
    )
