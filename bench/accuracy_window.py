"""Which accuracy window lets a learner who knows the material reach the ready rule, and how
often a weaker one gets through by luck: the figures of docs/verdicts.md, "Why a window of 40".

    .venv/bin/python bench/accuracy_window.py
"""

import random
import sys
from functools import cache
from math import comb
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from progress.beta import prob_at_least  # noqa: E402

BAR, CONFIDENCE = 0.7, 0.8
WINDOWS = (20, 30, 40, 50, 60)
RUNS = 4000


def needed(n: int) -> int:
    """The fewest right of n that make P(rate >= BAR) at least CONFIDENCE."""
    return next(r for r in range(n + 1) if prob_at_least(r, n - r, BAR) >= CONFIDENCE)


def meets(p: float, n: int) -> float:
    """P(a learner of true rate p meets the rule with a full window of n), exactly."""
    return sum(comb(n, k) * p**k * (1 - p) ** (n - k) for k in range(needed(n), n + 1))


@cache
def likely(right: int, n: int) -> bool:
    return prob_at_least(right, n - right, BAR) >= CONFIDENCE


def answers_until_met(p: float, window: int, rng: random.Random, limit: int) -> int | None:
    """Drills of 10 until the window's answers meet the rule: how many answers it took."""
    history: list[bool] = []
    while len(history) < limit:
        history += [rng.random() < p for _ in range(10)]
        recent = history[-window:]
        if likely(sum(recent), len(recent)):
            return len(history)
    return None


def main() -> None:
    rng = random.Random(1)
    print("window  needs      one domain / all seven, by true rate 90 85 80 75 65%")
    for window in WINDOWS:
        cells = [
            f"{meets(p, window):.2f}/{meets(p, window) ** 7:.2f}"
            for p in (0.9, 0.85, 0.8, 0.75, 0.65)
        ]
        print(f"{window:6}  {needed(window)} of {window}   " + "  ".join(cells))
    print(
        "\nwindow  true 85%: answers in one domain (median, 90th), all seven (median, 90th);"
        " true 65%: met within 100 answers"
    )
    for window in WINDOWS:
        one = sorted(answers_until_met(0.85, window, rng, 400) or 400 for _ in range(RUNS))
        seven = sorted(
            sum(answers_until_met(0.85, window, rng, 400) or 400 for _ in range(7))
            for _ in range(RUNS // 4)
        )
        lucky = sum(answers_until_met(0.65, window, rng, 100) is not None for _ in range(RUNS))
        print(
            f"{window:6}  {one[RUNS // 2]:4} {one[RUNS * 9 // 10]:4}   "
            f"{seven[len(seven) // 2]:4} {seven[len(seven) * 9 // 10]:4}   {lucky / RUNS:.2f}"
        )


if __name__ == "__main__":
    main()
