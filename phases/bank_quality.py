"""How guessable, how repetitive and how complete the practice-question bank is, and the limits it
must meet (docs/content.md gives each figure with its limit and today's reading).

Pure: question field dicts (the ``fields`` of fixtures/questions/*.yaml), self-check prompts and
the syllabus's topic slugs in, plain values out; no Django. ``measure`` computes ``BankFigures``,
``problems`` lists every limit in ``LIMITS`` that the figures break, and ``summary`` words the
figures for the loader. What the figures read off one question is in phases.bank_cues, the
pairwise comparison in phases.bank_similarity, and the trap and gap tables in phases.bank_traps.

How each figure is measured:

- Live questions: every figure counts only questions whose ``retired`` is false.
- Per domain: live questions per domain slug.
- Per topic: live questions per topic slug of the syllabus, a topic no question names counting 0;
  a question that names no topic counts for none.
- Option length: the characters of an option's text once runs of whitespace are collapsed to one
  space and the ends stripped.
- Key is the longest: of the single-answer questions (exactly one correct option), the share
  whose correct option is at least as long as every other option; a tie for longest counts as
  longest.
- Key is the shortest: the mirror of the above; a tie for shortest counts as shortest (so a
  question whose options are all one length counts as both).
- Shared prompt words: the number of distinct content words (see Similar prompts) an option's
  text has in common with the question's prompt.
- Key shares the most stem words: of the single-answer questions, the share whose correct option
  shares at least as many prompt words as every wrong option; a tie for most counts as most, as
  for Key is the longest (so a question where no option shares a prompt word counts).
- Pick the longest: a guesser who knows how many options are correct (k: one, or two for
  "Choose two.") picks the k longest. Where options tie at the cut it picks among them uniformly
  at random. A question scores 1 when the picked set is exactly the set of correct options
  (all-or-nothing, as the app scores choose-two) and 0 otherwise; the figure is the exact
  expected score, averaged over all live questions, not a sample.
- Pick the shortest: the mirror guesser (the k shortest), scored and averaged the same way.
- Drop absolute words, then pick the longest: the same guesser first sets aside every option that
  contains an absolute word (ABSOLUTE_WORDS: always, never, only, ... as whole words, in any
  case) and picks the longest of the rest. When fewer than k options are left it takes them all
  and fills up with the longest of those set aside, so when every option contains an absolute
  word it keeps them all and simply picks the longest.
- Drop absolute words, then guess: a guesser who sets aside every option that contains an
  absolute word, keeping them all when fewer than k would be left, and picks k of the options
  kept uniformly at random; scored all-or-nothing, the exact expected score averaged over all
  live questions.
- Pick the most prompt words: the k options sharing the most prompt words, ties at the cut
  broken uniformly at random; scored and averaged as Pick the longest.
- Pick the fewest prompt words: the mirror guesser, scored and averaged the same way.
- Choose-two both longest: of the choose-two questions, the share whose two correct options are
  both at least as long as every wrong option (ties count as longest).
- Choose-two both shortest: the mirror, the share whose two correct options are both at most as
  long as every wrong option (ties count as shortest). A writer who avoids "both longest" can
  overshoot into this one; chance is 1 in 6 with four options, 1 in 10 with five.
- Key longest by a margin: of the single-answer questions, the share whose key is longer than
  every wrong option by at least KEY_MARGIN characters: a key that stands out at a glance.
- Per sub-area: live questions per sub-area of the bank (a subject the exam lists, inside one of
  the guide's topics), a sub-area no question names counting 0.
- Stretch: live questions tagged ``stretch`` (deeper than the associate exam asks): drills offer
  them as such; the mock and the placement never draw them.
- Similar prompts: a prompt's content words are its distinct lowercase runs of four or more
  letters a-z, less STOPWORDS (common English words and question boilerplate such as "which",
  "choose", "correct", "statements", "describes"). The share of prompt A found in prompt B is the
  part of A's content words that B also has. Every pair of questions, and every question against
  every self-check, is compared both ways; a pair is similar when either share exceeds
  LIMITS.similarity_share, and is reported with the larger share.
- Similar questions: the same comparison over whole questions, a question's content words being
  those of its prompt and every option's text together; every pair of live questions is compared
  both ways, and is similar when the larger share exceeds LIMITS.question_similarity_share.
- Trap usage: for each seed trap in TRAPS, the number of questions with at least one wrong
  option that states it. A trap is a set of markers; a marker's ``claim`` pattern must match the
  wrong option and its ``subject`` pattern, when it has one, the option or the question's prompt
  (so "To reduce the number of parameters" under a prompt about residual connections states the
  residual-connection trap). The patterns read one clause (they stop at "." and ";"), so they
  are a screen, not a proof: an option that is only a product's name ("Riva" offered as the
  server) states no verb and is not counted.
- Gap coverage: for each subject in GAPS, the number of live questions whose prompt or a correct
  option matches its pattern (in any case); a wrong option naming the subject does not cover it.
"""

from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Final

# Names exported from here too: QuestionFields, the type measure() takes; content_words and
# has_absolute_word, which the question writers' measuring script imports from here; and
# SimilarPair and similarity, which lived here before phases.bank_similarity.
from phases.bank_cues import QuestionFields as QuestionFields
from phases.bank_cues import content_words as content_words
from phases.bank_cues import (
    drop_absolute_chance,
    drop_absolute_guess_chance,
    key_longer_by,
    key_shares_most_stem_words,
    keys_are_longest,
    keys_are_shortest,
    pick_fewest_stem_words_chance,
    pick_longest_chance,
    pick_most_stem_words_chance,
    pick_shortest_chance,
    whole_question,
)
from phases.bank_cues import has_absolute_word as has_absolute_word
from phases.bank_similarity import SimilarPair as SimilarPair
from phases.bank_similarity import find_similar_pairs
from phases.bank_similarity import similarity as similarity
from phases.bank_traps import GAPS, PROCESS_TRAPS, TRAPS, gaps_covered, traps_stated
from phases.words import counted


@dataclass(frozen=True)
class Limits:
    min_questions: int = 520
    min_per_domain: int = 10
    # Questions a domain may sit away from its exam-weight share of the total, either way.
    domain_tolerance: int = 2
    min_per_topic: int = 4
    key_longest_share: float = 0.35
    key_shortest_share: float = 0.35
    key_most_stem_words_share: float = 0.35
    pick_longest_score: float = 0.40
    pick_shortest_score: float = 0.40
    drop_absolute_score: float = 0.40
    drop_absolute_guess_score: float = 0.40
    pick_most_stem_words_score: float = 0.40
    pick_fewest_stem_words_score: float = 0.40
    choose_two_both_longest_share: float = 0.20
    choose_two_both_shortest_share: float = 0.20
    key_longest_by_margin_share: float = 0.01
    similarity_share: float = 0.5
    question_similarity_share: float = 0.5
    max_questions_per_trap: int = 4
    # Every trap the guide names is offered as a wrong answer somewhere.
    min_questions_per_trap: int = 1
    min_questions_per_gap: int = 2
    min_per_subarea: int = 6
    # Stretch questions are a minority: the bank is for an associate exam.
    max_stretch_share: float = 0.10


# Characters by which a key must outrun every wrong option to count as standing out.
KEY_MARGIN: Final = 10


LIMITS: Final = Limits()


@dataclass(frozen=True)
class BankFigures:
    total: int
    per_domain: Mapping[str, int]
    single_answer: int
    key_longest_share: float
    key_shortest_share: float
    key_most_stem_words_share: float
    pick_longest_score: float
    pick_shortest_score: float
    drop_absolute_score: float
    drop_absolute_guess_score: float
    pick_most_stem_words_score: float
    pick_fewest_stem_words_score: float
    choose_two: int
    choose_two_both_longest_share: float
    choose_two_both_shortest_share: float = 0.0
    key_longest_by_margin_share: float = 0.0
    stretch: int = 0
    per_topic: Mapping[str, int] = field(default_factory=dict)
    per_subarea: Mapping[str, int] = field(default_factory=dict)
    similar_pairs: tuple[SimilarPair, ...] = ()
    similar_questions: tuple[SimilarPair, ...] = ()
    trap_usage: Mapping[str, int] = field(default_factory=dict)
    gap_coverage: Mapping[str, int] = field(default_factory=dict)


def _share(part: int | Fraction, whole: int) -> float:
    return float(Fraction(part) / whole) if whole else 0.0


def measure(
    questions: Iterable[QuestionFields],
    self_checks: Mapping[str, str],
    topics: Iterable[str] = (),
    limits: Limits = LIMITS,
    *,
    subareas: Iterable[str] = (),
) -> BankFigures:
    """The bank's figures; ``self_checks`` maps each live self-check's slug to its prompt,
    ``topics`` are the syllabus's topic slugs (a mapping of topic slug to domain serves too) and
    ``subareas`` the bank's sub-area slugs."""
    live = [question for question in questions if not question.get("retired")]
    keys = [sum(1 for option in q["options"] if option["correct"]) for q in live]
    single = [q for q, k in zip(live, keys, strict=True) if k == 1]
    choose_two = [q for q, k in zip(live, keys, strict=True) if k == 2]
    per_topic = Counter((q.get("topic") or ("",))[0] for q in live)
    per_subarea = Counter((q.get("subarea") or ("",))[0] for q in live)
    trap_usage = Counter[str](dict.fromkeys(TRAPS, 0))
    gap_coverage = Counter[str](dict.fromkeys(GAPS, 0))
    for question in live:
        trap_usage.update(traps_stated(question))
        gap_coverage.update(gaps_covered(question))
    return BankFigures(
        total=len(live),
        per_domain=dict(Counter(q["domain"][0] for q in live)),
        single_answer=len(single),
        key_longest_share=_share(sum(keys_are_longest(q["options"]) for q in single), len(single)),
        key_shortest_share=_share(
            sum(keys_are_shortest(q["options"]) for q in single), len(single)
        ),
        key_most_stem_words_share=_share(
            sum(key_shares_most_stem_words(q) for q in single), len(single)
        ),
        pick_longest_score=_share(sum(pick_longest_chance(q["options"]) for q in live), len(live)),
        pick_shortest_score=_share(
            sum(pick_shortest_chance(q["options"]) for q in live), len(live)
        ),
        drop_absolute_score=_share(
            sum(drop_absolute_chance(q["options"]) for q in live), len(live)
        ),
        drop_absolute_guess_score=_share(
            sum(drop_absolute_guess_chance(q["options"]) for q in live), len(live)
        ),
        pick_most_stem_words_score=_share(
            sum(pick_most_stem_words_chance(q) for q in live), len(live)
        ),
        pick_fewest_stem_words_score=_share(
            sum(pick_fewest_stem_words_chance(q) for q in live), len(live)
        ),
        choose_two=len(choose_two),
        choose_two_both_longest_share=_share(
            sum(keys_are_longest(q["options"]) for q in choose_two), len(choose_two)
        ),
        choose_two_both_shortest_share=_share(
            sum(keys_are_shortest(q["options"]) for q in choose_two), len(choose_two)
        ),
        key_longest_by_margin_share=_share(
            sum(key_longer_by(q["options"]) >= KEY_MARGIN for q in single), len(single)
        ),
        stretch=sum(1 for q in live if q.get("stretch")),
        per_topic={slug: per_topic[slug] for slug in topics},
        per_subarea={slug: per_subarea[slug] for slug in subareas},
        similar_pairs=find_similar_pairs(
            {q["slug"]: q["prompt"] for q in live}, self_checks, limits.similarity_share
        ),
        similar_questions=find_similar_pairs(
            {q["slug"]: whole_question(q) for q in live}, {}, limits.question_similarity_share
        ),
        trap_usage=dict(trap_usage),
        gap_coverage=dict(gap_coverage),
    )


def problems(
    figures: BankFigures, weights: Mapping[str, int], limits: Limits = LIMITS
) -> list[str]:
    """Every limit the bank breaks, one sentence each; ``weights`` are the domains' exam
    weights."""
    found: list[str] = []
    if figures.total < limits.min_questions:
        found.append(
            f"the bank has {figures.total} live questions; it needs at least {limits.min_questions}"
        )
    weight_sum = sum(weights.values())
    for slug, weight in weights.items():
        count = figures.per_domain.get(slug, 0)
        expected = figures.total * weight / weight_sum if weight_sum else 0.0
        if abs(count - expected) > limits.domain_tolerance:
            found.append(
                f"domain '{slug}' has {counted(count, 'question')}; its {weight}% exam share of "
                f"{figures.total} is {expected:.1f} (within ±{limits.domain_tolerance})"
            )
        if count < limits.min_per_domain:
            found.append(
                f"domain '{slug}' has {counted(count, 'question')}; "
                f"it needs at least {limits.min_per_domain}"
            )
    for slug in sorted(set(figures.per_domain) - set(weights)):
        found.append(
            f"domain '{slug}' has no exam weight but has "
            f"{counted(figures.per_domain[slug], 'question')}"
        )
    for slug, count in figures.per_topic.items():
        if count < limits.min_per_topic:
            found.append(
                f"topic '{slug}' has {counted(count, 'question')}; "
                f"it needs at least {limits.min_per_topic}"
            )
    for slug, count in figures.per_subarea.items():
        if count < limits.min_per_subarea:
            found.append(
                f"sub-area '{slug}' has {counted(count, 'question')}; "
                f"it needs at least {limits.min_per_subarea}"
            )
    if figures.total and figures.stretch / figures.total > limits.max_stretch_share:
        found.append(
            f"{counted(figures.stretch, 'question')} of {figures.total} are stretch questions; "
            f"at most {limits.max_stretch_share:.0%}"
        )
    for value, limit, words in (
        (
            figures.key_longest_share,
            limits.key_longest_share,
            "the key is the longest option in {value} of single-answer questions",
        ),
        (
            figures.key_shortest_share,
            limits.key_shortest_share,
            "the key is the shortest option in {value} of single-answer questions",
        ),
        (
            figures.key_most_stem_words_share,
            limits.key_most_stem_words_share,
            "the key shares the most words with the prompt in {value} of single-answer questions",
        ),
        (
            figures.pick_longest_score,
            limits.pick_longest_score,
            "always picking the longest option scores {value}",
        ),
        (
            figures.pick_shortest_score,
            limits.pick_shortest_score,
            "always picking the shortest option scores {value}",
        ),
        (
            figures.drop_absolute_score,
            limits.drop_absolute_score,
            "dropping options with absolute words, then picking the longest, scores {value}",
        ),
        (
            figures.drop_absolute_guess_score,
            limits.drop_absolute_guess_score,
            "dropping options with absolute words, then guessing among the rest, scores {value}",
        ),
        (
            figures.pick_most_stem_words_score,
            limits.pick_most_stem_words_score,
            "always picking the option sharing the most words with the prompt scores {value}",
        ),
        (
            figures.pick_fewest_stem_words_score,
            limits.pick_fewest_stem_words_score,
            "always picking the option sharing the fewest words with the prompt scores {value}",
        ),
        (
            figures.choose_two_both_longest_share,
            limits.choose_two_both_longest_share,
            "both keys are the two longest options in {value} of choose-two questions",
        ),
        (
            figures.choose_two_both_shortest_share,
            limits.choose_two_both_shortest_share,
            "both keys are the two shortest options in {value} of choose-two questions",
        ),
        (
            figures.key_longest_by_margin_share,
            limits.key_longest_by_margin_share,
            f"the key outruns every wrong option by {KEY_MARGIN} or more characters in {{value}} "
            "of single-answer questions",
        ),
    ):
        if value > limit:
            found.append(f"{words.format(value=f'{value:.1%}')}; the limit is {limit:.0%}")
    for pair in figures.similar_pairs:
        found.append(
            f"question '{pair.question}' and {pair.other_kind} '{pair.other}' have similar "
            f"prompts ({pair.share:.0%} of one's content words are in the other)"
        )
    for pair in figures.similar_questions:
        found.append(
            f"questions '{pair.question}' and '{pair.other}' share most of their words "
            f"({pair.share:.0%} of one's content words are in the other)"
        )
    for name, count in sorted(figures.trap_usage.items()):
        if count > limits.max_questions_per_trap:
            found.append(
                f"trap '{name}' is in the wrong options of {counted(count, 'question')}; "
                f"at most {limits.max_questions_per_trap}"
            )
        if count < limits.min_questions_per_trap and name not in PROCESS_TRAPS:
            found.append(
                f"trap '{name}' is in the wrong options of {counted(count, 'question')}; "
                f"at least {limits.min_questions_per_trap}"
            )
    for name, count in figures.gap_coverage.items():
        if count < limits.min_questions_per_gap:
            found.append(
                f"gap '{name}' is in the prompt or a key of {counted(count, 'question')}; "
                f"it needs at least {limits.min_questions_per_gap}"
            )
    return found


# Pairs named in the summary; problems() names them all.
SUMMARY_PAIRS: Final = 5


def _pairs(pairs: tuple[SimilarPair, ...], what: str) -> str:
    if not pairs:
        return f"no similar {what} (limit none)"
    shown = "; ".join(
        f"{pair.question} ~ {pair.other} {pair.share:.0%}" for pair in pairs[:SUMMARY_PAIRS]
    )
    if len(pairs) > SUMMARY_PAIRS:
        shown += f"; and {len(pairs) - SUMMARY_PAIRS} more"
    return f"{len(pairs)} pairs of similar {what} (limit none): {shown}"


def _fewer_than(counts: Mapping[str, int], minimum: int, what: str) -> str:
    """The counts below minimum, fewest first, in words."""
    if not counts:
        return f"no {what} given"
    under = sorted(
        ((name, count) for name, count in counts.items() if count < minimum),
        key=lambda item: (item[1], item[0]),
    )
    if not under:
        return f"none of {len(counts)} {what} under it"
    listed = ", ".join(f"{name} {count}" for name, count in under)
    return f"{len(under)} of {len(counts)} {what} under it: {listed}"


def summary(figures: BankFigures, limits: Limits = LIMITS) -> list[str]:
    """The figures in words, one line each, with their limits."""
    domains = ", ".join(
        f"{slug} {count}"
        for slug, count in sorted(figures.per_domain.items(), key=lambda item: (-item[1], item[0]))
    )
    used = sorted(
        ((name, count) for name, count in figures.trap_usage.items() if count),
        key=lambda item: (-item[1], item[0]),
    )
    traps = ", ".join(f"{name} {count}" for name, count in used) or "none"
    return [
        f"{figures.total} questions (limit at least {limits.min_questions}): {domains}",
        f"questions per topic (limit at least {limits.min_per_topic}): "
        + _fewer_than(figures.per_topic, limits.min_per_topic, "topics"),
        f"key is the longest option in {figures.key_longest_share:.0%} of "
        f"{figures.single_answer} single-answer questions (limit {limits.key_longest_share:.0%})",
        f"key is the shortest option in {figures.key_shortest_share:.0%} of "
        f"{figures.single_answer} single-answer questions (limit {limits.key_shortest_share:.0%})",
        f"key shares the most words with the prompt in {figures.key_most_stem_words_share:.0%} "
        f"of {figures.single_answer} single-answer questions "
        f"(limit {limits.key_most_stem_words_share:.0%})",
        f"always picking the longest option scores {figures.pick_longest_score:.0%} "
        f"(limit {limits.pick_longest_score:.0%})",
        f"always picking the shortest option scores {figures.pick_shortest_score:.0%} "
        f"(limit {limits.pick_shortest_score:.0%})",
        f"dropping options with absolute words, then picking the longest, scores "
        f"{figures.drop_absolute_score:.0%} (limit {limits.drop_absolute_score:.0%})",
        f"dropping options with absolute words, then guessing among the rest, scores "
        f"{figures.drop_absolute_guess_score:.0%} (limit {limits.drop_absolute_guess_score:.0%})",
        f"always picking the option sharing the most words with the prompt scores "
        f"{figures.pick_most_stem_words_score:.0%} (limit {limits.pick_most_stem_words_score:.0%})",
        f"always picking the option sharing the fewest words with the prompt scores "
        f"{figures.pick_fewest_stem_words_score:.0%} "
        f"(limit {limits.pick_fewest_stem_words_score:.0%})",
        f"both keys are the two longest options in {figures.choose_two_both_longest_share:.0%} "
        f"of {figures.choose_two} choose-two questions "
        f"(limit {limits.choose_two_both_longest_share:.0%})",
        f"both keys are the two shortest options in "
        f"{figures.choose_two_both_shortest_share:.0%} of {figures.choose_two} choose-two "
        f"questions (limit {limits.choose_two_both_shortest_share:.0%})",
        f"the key outruns every wrong option by {KEY_MARGIN}+ characters in "
        f"{figures.key_longest_by_margin_share:.0%} of {figures.single_answer} single-answer "
        f"questions (limit {limits.key_longest_by_margin_share:.0%})",
        f"{figures.stretch} stretch questions, drills only "
        f"(limit {limits.max_stretch_share:.0%} of the bank)",
        f"questions per sub-area (limit at least {limits.min_per_subarea}): "
        + (
            ", ".join(f"{slug} {count}" for slug, count in figures.per_subarea.items())
            or "no sub-areas"
        ),
        _pairs(figures.similar_pairs, "prompts"),
        _pairs(figures.similar_questions, "questions"),
        f"questions per trap in wrong options (limit {limits.max_questions_per_trap}): {traps}",
        f"questions per gap, in a prompt or a key (limit at least {limits.min_questions_per_gap}): "
        + _fewer_than(figures.gap_coverage, limits.min_questions_per_gap, "gaps"),
    ]
