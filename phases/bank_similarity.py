"""Which prompts, and which whole questions, say nearly the same thing.

Pure: slugs mapped to texts in, pairs out. phases.bank_quality's docstring defines similar prompts
and similar questions, and holds their thresholds; the content words are phases.bank_cues's.
"""

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Literal

from phases.bank_cues import content_words, share_found_in


@dataclass(frozen=True)
class SimilarPair:
    question: str
    other: str
    other_kind: Literal["question", "self-check"]
    share: float


def similarity(first: str, second: str) -> float:
    """The larger of the two shares: first's content words found in second, and back."""
    a, b = content_words(first), content_words(second)
    return max(share_found_in(a, b), share_found_in(b, a))


def find_similar_pairs(
    questions: Mapping[str, str], self_checks: Mapping[str, str], threshold: float
) -> tuple[SimilarPair, ...]:
    """Question-question and question-self-check pairs whose similarity exceeds threshold;
    both arguments map slugs to the text compared."""
    words = {slug: content_words(text) for slug, text in questions.items()}
    check_words = {slug: content_words(text) for slug, text in self_checks.items()}
    slugs = list(words)
    pairs: list[SimilarPair] = []
    for i, slug in enumerate(slugs):
        others: list[tuple[str, Literal["question", "self-check"], frozenset[str]]] = [
            (other, "question", words[other]) for other in slugs[i + 1 :]
        ]
        others += [(check, "self-check", prompt) for check, prompt in check_words.items()]
        for other, kind, other_words in others:
            share = max(
                share_found_in(words[slug], other_words), share_found_in(other_words, words[slug])
            )
            if share > threshold:
                pairs.append(SimilarPair(slug, other, kind, share))
    return tuple(pairs)
