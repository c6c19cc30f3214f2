"""How sure a count of right answers lets us be about a learner's true rate (pure).

With r right and w wrong and a uniform prior, the learner's true rate of right answers is
Beta(r + 1, w + 1). For whole counts its regularized incomplete beta function is a binomial sum
(I_x(a, b) = P(Binomial(a + b − 1, x) ≥ a)), so no special functions are needed:

    P(rate ≥ x) = P(Binomial(r + w + 1, x) ≤ r)

Figures: 7 of 10 right gives an 80% interval of 49–83% and P(rate ≥ 70%) = 0.43; 9 of 10, 0.89;
16 of 20, 0.80; 34 of 40, 0.98.
"""

from functools import lru_cache
from math import comb

STEPS = 60  # bisection steps for a quantile: far below a rounding to whole percent


def prob_at_least(right: int, wrong: int, x: float) -> float:
    """P(true rate ≥ x) after ``right`` right and ``wrong`` wrong answers."""
    if x <= 0:
        return 1.0
    if x >= 1:
        return 0.0
    n = right + wrong + 1
    # Each term of the sum from the one before: a page works out hundreds of these, and whole
    # binomial coefficients cost far more. Where (1 - x)^n underflows, the terms go one by one.
    term = (1 - x) ** n
    if term == 0.0:
        return sum(comb(n, k) * x**k * (1 - x) ** (n - k) for k in range(right + 1))
    odds, total = x / (1 - x), term
    for k in range(right):
        term *= (n - k) / (k + 1) * odds
        total += term
    return total


def quantile(q: float, right: int, wrong: int) -> float:
    """The rate the learner's true rate is under with probability ``q``."""
    low, high = 0.0, 1.0
    for _ in range(STEPS):
        middle = (low + high) / 2
        if 1 - prob_at_least(right, wrong, middle) < q:
            low = middle
        else:
            high = middle
    return (low + high) / 2


# Memoised, the three figures a page reads for each domain (an interval, a shortfall, the
# answers to settle): pure functions of whole counts up to the accuracy window and of the rules'
# few numbers, so every page asks for the same few, and each costs up to hundreds of Beta sums.
@lru_cache(maxsize=4096)
def percent_interval(right: int, wrong: int, level: float = 0.8) -> tuple[int, int]:
    """The central ``level`` interval of the true rate, in whole percent as the pages show it."""
    tail = (1 - level) / 2
    low, high = quantile(tail, right, wrong), quantile(1 - tail, right, wrong)
    return round(low * 100), round(high * 100)


def range_words(low: int, high: int, level: float) -> str:
    """A percent_interval as every page says it: "80% range 49–83%"."""
    return f"{round(level * 100)}% range {low}–{high}%"


@lru_cache(maxsize=4096)
def shortfall(right: int, wrong: int, bar: float, confidence: float) -> float:
    """How far under ``bar`` the true rate is with ``confidence`` odds: ``bar`` minus the rate
    the true rate is under with those odds, never below 0. Above 0 exactly when
    P(rate < bar) exceeds ``confidence``: 0 of 1 right gives 0.15 at a 0.7 bar and 0.8 odds,
    3 of 10 right 0.26, 5 of 10 right 0.08, 7 of 10 right 0."""
    return max(0.0, bar - quantile(confidence, right, wrong))


def current_rate(right: int, wrong: int) -> float:
    """The posterior mean: the rate the learner answers at, as far as their answers tell."""
    return (right + 1) / (right + wrong + 2)


@lru_cache(maxsize=4096)
def answers_to_settle(
    right: int, wrong: int, bar: float, confidence: float, limit: int = 200
) -> int | None:
    """About how many more answers at the current rate would make it likely, either way, that
    the true rate is at least ``bar`` (at least it when the current rate is, else under it): 0
    when it already is, None when not within ``limit``."""
    rate = current_rate(right, wrong)
    for more in range(limit + 1):
        gained = round(more * rate)
        p = prob_at_least(right + gained, wrong + more - gained, bar)
        if p >= confidence or p <= 1 - confidence:
            return more
    return None
