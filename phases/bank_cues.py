"""What the bank's figures read off one question, and a wording-only guesser's chance on it.

Pure: a question's field dicts in, plain values out. The cues are the options' lengths, their
absolute words and the content words they share with the prompt; phases.bank_quality's docstring
defines each figure built on them.
"""

import re
from collections.abc import Sequence
from fractions import Fraction
from math import comb
from typing import Final, Required, TypedDict


class OptionFields(TypedDict):
    text: str
    correct: bool


class QuestionFields(TypedDict, total=False):
    slug: Required[str]
    domain: Required[Sequence[str]]
    prompt: Required[str]
    options: Required[Sequence[OptionFields]]
    topic: Sequence[str] | None
    subarea: Sequence[str] | None
    explanation: str
    stretch: bool
    retired: bool


ABSOLUTE_WORDS: Final = (
    "always",
    "never",
    "only",
    "all",
    "none",
    "must",
    "every",
    "guaranteed",
    "completely",
)
_ABSOLUTE: Final = re.compile(rf"\b(?:{'|'.join(ABSOLUTE_WORDS)})\b", re.IGNORECASE)


def _word_set(words: str) -> frozenset[str]:
    return frozenset(words.split())


# Common English words, then the boilerplate of exam prompts ("Which two statements are correct?
# Choose two.", "Which description best matches ...?"), which says nothing about what is asked.
STOPWORDS: Final = _word_set(
    """
    about above after again against also among another because been before being below
    between both cannot could does doing done down during each either else even ever from
    further have having here itself just least less like make makes many more most much
    neither once only onto other ought over same should since some such than that their
    theirs them themselves then there these they this those though through thus under until
    upon very want were what when where whether which while whom whose will with within
    without would your yours
    best choose correct describes description false following matches statement statements true
    """
)
_CONTENT_WORD: Final = re.compile(r"[a-z]{4,}")


def option_length(text: str) -> int:
    return len(" ".join(text.split()))


def has_absolute_word(text: str) -> bool:
    return bool(_ABSOLUTE.search(text))


def content_words(prompt: str) -> frozenset[str]:
    return frozenset(_CONTENT_WORD.findall(prompt.lower())) - STOPWORDS


def share_found_in(words: frozenset[str], other: frozenset[str]) -> float:
    return len(words & other) / len(words) if words else 0.0


def whole_question(question: QuestionFields) -> str:
    """The prompt and every option's text, as one text."""
    return " ".join([question["prompt"], *(option["text"] for option in question["options"])])


def _key_and_wrong_lengths(options: Sequence[OptionFields]) -> tuple[list[int], list[int]]:
    keys = [option_length(o["text"]) for o in options if o["correct"]]
    wrong = [option_length(o["text"]) for o in options if not o["correct"]]
    return keys, wrong


def keys_are_longest(options: Sequence[OptionFields]) -> bool:
    keys, wrong = _key_and_wrong_lengths(options)
    return bool(keys) and min(keys) >= max(wrong, default=0)


def keys_are_shortest(options: Sequence[OptionFields]) -> bool:
    """Whether every correct option is at most as long as every wrong one; a tie counts."""
    keys, wrong = _key_and_wrong_lengths(options)
    return bool(keys) and max(keys) <= min(wrong, default=max(keys))


def key_longer_by(options: Sequence[OptionFields]) -> int:
    """How many characters the one key is longer than the longest wrong option (0 or less when
    it is not the longest; 0 for a question with two keys)."""
    keys, wrong = _key_and_wrong_lengths(options)
    return keys[0] - max(wrong, default=0) if len(keys) == 1 else 0


def stem_words_shared(question: QuestionFields) -> list[int]:
    """How many content words each option has in common with the prompt, in option order."""
    stem = content_words(question["prompt"])
    return [len(content_words(option["text"]) & stem) for option in question["options"]]


def key_shares_most_stem_words(question: QuestionFields) -> bool:
    """Whether the one correct option has at least as many content words in common with the
    prompt as every wrong option has; a tie counts, as for keys_are_longest. Never for a question
    with two correct options."""
    shared = list(zip(stem_words_shared(question), question["options"], strict=True))
    keys = [count for count, option in shared if option["correct"]]
    wrong = [count for count, option in shared if not option["correct"]]
    return len(keys) == 1 and keys[0] >= max(wrong, default=0)


def chance_top_k_is_key(ranks: Sequence[tuple[int, ...]], correct: Sequence[bool]) -> Fraction:
    """Chance that taking the k best-ranked options, ties at the cut broken uniformly at random,
    takes exactly the k correct ones."""
    k = sum(correct)
    if not 0 < k <= len(ranks):
        return Fraction(0)
    cut = sorted(ranks, reverse=True)[k - 1]
    above = [is_key for rank, is_key in zip(ranks, correct, strict=True) if rank > cut]
    tied = [is_key for rank, is_key in zip(ranks, correct, strict=True) if rank == cut]
    still_to_pick = k - len(above)
    # Every option above the cut is taken, and a key below the cut never is.
    if not all(above) or sum(tied) != still_to_pick:
        return Fraction(0)
    return Fraction(1, comb(len(tied), still_to_pick))


def pick_longest_chance(options: Sequence[OptionFields]) -> Fraction:
    ranks = [(option_length(option["text"]),) for option in options]
    return chance_top_k_is_key(ranks, [bool(option["correct"]) for option in options])


def pick_shortest_chance(options: Sequence[OptionFields]) -> Fraction:
    # The shorter the option, the better its rank.
    ranks = [(-option_length(option["text"]),) for option in options]
    return chance_top_k_is_key(ranks, [bool(option["correct"]) for option in options])


def drop_absolute_chance(options: Sequence[OptionFields]) -> Fraction:
    # Ranking options without absolute words first is the same as dropping the others, and
    # falls back to them only when too few are left.
    ranks = [
        (int(not has_absolute_word(option["text"])), option_length(option["text"]))
        for option in options
    ]
    return chance_top_k_is_key(ranks, [bool(option["correct"]) for option in options])


def drop_absolute_guess_chance(options: Sequence[OptionFields]) -> Fraction:
    correct = [bool(option["correct"]) for option in options]
    dropped = [has_absolute_word(option["text"]) for option in options]
    if len(options) - sum(dropped) < sum(correct):
        dropped = [False] * len(options)
    # Ranked by being kept alone, every kept option ties at the cut: a uniform pick among them.
    return chance_top_k_is_key([(int(not drop),) for drop in dropped], correct)


def pick_most_stem_words_chance(question: QuestionFields) -> Fraction:
    ranks = [(count,) for count in stem_words_shared(question)]
    return chance_top_k_is_key(ranks, [bool(option["correct"]) for option in question["options"]])


def pick_fewest_stem_words_chance(question: QuestionFields) -> Fraction:
    # The fewer prompt words an option shares, the better its rank.
    ranks = [(-count,) for count in stem_words_shared(question)]
    return chance_top_k_is_key(ranks, [bool(option["correct"]) for option in question["options"]])
