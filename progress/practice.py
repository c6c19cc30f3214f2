"""Practice arithmetic, pure: drawing a mock by exam weight, scoring, recent accuracy."""

import random
from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence

# Accuracy looks at a domain's most recent answers only: what the learner knows now.
RECENT_ANSWERS = 20
ACCURACY_THRESHOLD = 0.7


def mock_counts(
    weights: Mapping[str, int], total: int, available: Mapping[str, int]
) -> dict[str, int]:
    """Questions per domain for a mock of ``total``, in proportion to exam weight.

    Largest remainder, so the counts add up to ``total`` exactly (while the bank allows), each
    domain capped at the questions it has.
    """
    weight_sum = sum(weights.values())
    if weight_sum <= 0 or total <= 0:
        return dict.fromkeys(weights, 0)
    exact = {slug: total * weight / weight_sum for slug, weight in weights.items()}
    counts = {slug: min(int(share), available.get(slug, 0)) for slug, share in exact.items()}
    by_remainder = sorted(exact, key=lambda slug: (-(exact[slug] - int(exact[slug])), slug))
    while sum(counts.values()) < total:
        grown = False
        for slug in by_remainder:
            if sum(counts.values()) >= total:
                break
            if counts[slug] < available.get(slug, 0):
                counts[slug] += 1
                grown = True
        if not grown:
            break
    return counts


def draw(
    questions_by_domain: Mapping[str, Sequence[int]],
    counts: Mapping[str, int],
    rng: random.Random,
) -> list[int]:
    """Question ids for an attempt: ``counts`` from each domain, in a shuffled order."""
    drawn = [
        question
        for slug, count in counts.items()
        for question in rng.sample(list(questions_by_domain.get(slug, ())), count)
    ]
    rng.shuffle(drawn)
    return drawn


def is_correct(chosen: Iterable[int], correct: Iterable[int]) -> bool:
    """All or nothing, as the exam gives no partial credit."""
    return set(chosen) == set(correct)


def recent_accuracy(
    answers: Iterable[tuple[str, bool]], limit: int = RECENT_ANSWERS
) -> dict[str, tuple[int, int]]:
    """(right, answered) per domain over its ``limit`` newest answers; newest first in."""
    seen: dict[str, list[bool]] = defaultdict(list)
    for domain, correct in answers:
        if len(seen[domain]) < limit:
            seen[domain].append(correct)
    return {domain: (sum(results), len(results)) for domain, results in seen.items()}


def domain_scores(
    results: Iterable[tuple[str, bool | None]], weights: Mapping[str, int]
) -> list[tuple[str, int, int]]:
    """(domain slug, right, asked) per domain asked about, heaviest first; unanswered is wrong."""
    right: dict[str, int] = defaultdict(int)
    asked: dict[str, int] = defaultdict(int)
    for domain, correct in results:
        asked[domain] += 1
        right[domain] += bool(correct)
    return sorted(
        ((domain, right[domain], asked[domain]) for domain in asked),
        key=lambda row: (-weights.get(row[0], 0), row[0]),
    )


def weakest(scores: Sequence[tuple[str, int, int]], weights: Mapping[str, int]) -> str | None:
    """The lowest-scoring domain; a tie goes to the heavier one, as on the dashboard."""
    return min(
        scores,
        key=lambda row: (row[1] / row[2] if row[2] else 0, -weights.get(row[0], 0)),
        default=(None,),
    )[0]
