"""Which accuracy rule lets a learner who knows the material reach "ready", and how often one who
does not gets through: the figures of docs/verdicts.md, "The accuracy rule, and why".

Accuracy reads each domain's newest WINDOW first answers (a repeat has seen the key, so only a
learner's first answer to a question counts) and says nothing before MIN_ANSWERS. So a domain
holds at most as many counted answers as the bank has questions at the exam's depth for it:
the pools below are read from fixtures/questions/ (live questions, stretch ones left out).

    .venv/bin/python bench/accuracy_window.py
"""

import random
import sys
from functools import cache
from math import comb
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from progress.verdicts.beta import prob_at_least  # noqa: E402

BAR, CONFIDENCE = 0.7, 0.8
WINDOWS = (20, 30, 40, 60)
MINIMA = (1, 10, 20)
RATES = (0.9, 0.85, 0.8, 0.75, 0.7, 0.65)
RUNS = 2000


def pools() -> dict[str, int]:
    """Live questions at the exam's depth per domain: the most first answers a domain can hold."""
    counts: dict[str, int] = {}
    for path in sorted((ROOT / "fixtures" / "questions").glob("*.yaml")):
        for obj in yaml.safe_load(path.read_text(encoding="utf-8")):
            fields = obj["fields"]
            live = obj["model"] == "phases.question" and not fields.get("retired")
            if live and not fields.get("stretch"):
                counts[path.stem] = counts.get(path.stem, 0) + 1
    return counts


def needed(n: int) -> int:
    """The fewest right of n that make P(rate >= BAR) at least CONFIDENCE."""
    return next(r for r in range(n + 1) if prob_at_least(r, n - r, BAR) >= CONFIDENCE)


def meets(p: float, n: int) -> float:
    """P(a learner of true rate p meets the rule on n answers), exactly."""
    return sum(comb(n, k) * p**k * (1 - p) ** (n - k) for k in range(needed(n), n + 1))


@cache
def likely(right: int, n: int) -> bool:
    return prob_at_least(right, n - right, BAR) >= CONFIDENCE


def answers_until_met(
    p: float, pool: int, window: int, minimum: int, rng: random.Random
) -> int | None:
    """Drills of 10 first answers until the window meets the rule (with at least ``minimum``
    answers): how many answers it took; None when the domain's questions ran out first."""
    history: list[bool] = []
    while len(history) < pool:
        history += [rng.random() < p for _ in range(min(10, pool - len(history)))]
        recent = history[-window:]
        if len(recent) >= minimum and likely(sum(recent), len(recent)):
            return len(history)
    return None


def main() -> None:
    sizes = pools()
    print("questions at the exam's depth per domain:", sizes)
    smallest = min(sizes, key=sizes.__getitem__)
    n = sizes[smallest]
    print(
        f"\n{smallest} answered whole ({n} first answers): needs {needed(n)} right; "
        "meets the rule, by true rate " + "  ".join(f"{p:.0%} {meets(p, n):.2f}" for p in RATES)
    )
    print(
        "\nA learner drilling each domain until it is likely accurate (first answers only), "
        f"{RUNS} runs: the share meeting the rule in all seven domains before any runs out of "
        f"questions, and in {smallest}; then the median answers used by an 85% learner."
    )
    rng = random.Random(1)
    for window in WINDOWS:
        for minimum in MINIMA:
            cells, used = [], []
            for p in RATES:
                all_seven = small = 0
                for _ in range(RUNS):
                    took = {
                        d: answers_until_met(p, k, window, minimum, rng) for d, k in sizes.items()
                    }
                    all_seven += all(t is not None for t in took.values())
                    small += took[smallest] is not None
                    if p == 0.85 and all(t is not None for t in took.values()):
                        used.append(sum(t for t in took.values() if t is not None))
                cells.append(f"{p:.0%} {all_seven / RUNS:.2f}/{small / RUNS:.2f}")
            used.sort()
            median = used[len(used) // 2] if used else 0
            print(
                f"window {window:2}, at least {minimum:2}: "
                + "  ".join(cells)
                + f"   85%: {median} answers"
            )


if __name__ == "__main__":
    main()
