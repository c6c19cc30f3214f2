"""How guessable and how repetitive the practice-question bank is, and the limits it must meet.

Pure: question field dicts (the ``fields`` of fixtures/questions/*.yaml) and self-check prompts
in, plain values out; no Django. ``measure`` computes ``BankFigures``, ``problems`` lists every
limit in ``LIMITS`` that the figures break, and ``summary`` words the figures for the loader.

How each figure is measured:

- Live questions: every figure counts only questions whose ``retired`` is false.
- Per domain: live questions per domain slug.
- Option length: the characters of an option's text once runs of whitespace are collapsed to one
  space and the ends stripped.
- Key is the longest: of the single-answer questions (exactly one correct option), the share
  whose correct option is at least as long as every other option; a tie for longest counts as
  longest.
- Pick the longest: a guesser who knows how many options are correct (k: one, or two for
  "Choose two.") picks the k longest. Where options tie at the cut it picks among them uniformly
  at random. A question scores 1 when the picked set is exactly the set of correct options
  (all-or-nothing, as the app scores choose-two) and 0 otherwise; the figure is the exact
  expected score, averaged over all live questions, not a sample.
- Drop absolute words, then pick the longest: the same guesser first sets aside every option that
  contains an absolute word (ABSOLUTE_WORDS: always, never, only, ... as whole words, in any
  case) and picks the longest of the rest. When fewer than k options are left it takes them all
  and fills up with the longest of those set aside, so when every option contains an absolute
  word it keeps them all and simply picks the longest.
- Choose-two both longest: of the choose-two questions (exactly two correct options), the share
  whose two correct options are both at least as long as every wrong option (ties count as
  longest).
- Similar prompts: a prompt's content words are its distinct lowercase runs of four or more
  letters a-z, less STOPWORDS (common English words and question boilerplate such as "which",
  "choose", "correct", "statements", "describes"). The share of prompt A found in prompt B is the
  part of A's content words that B also has. Every pair of questions, and every question against
  every self-check, is compared both ways; a pair is similar when either share exceeds
  LIMITS.similarity_share, and is reported with the larger share.
- Trap usage: for each seed trap in TRAPS, the number of questions with at least one wrong
  option that states it. A trap is a set of markers; a marker's ``claim`` pattern must match the
  wrong option and its ``subject`` pattern, when it has one, the option or the question's prompt
  (so "To reduce the number of parameters" under a prompt about residual connections states the
  residual-connection trap). The patterns read one clause (they stop at "." and ";"), so they
  are a screen, not a proof: an option that is only a product's name ("Riva" offered as the
  server) states no verb and is not counted.
"""

import re
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from math import comb
from typing import Final, Literal, Required, TypedDict


class OptionFields(TypedDict):
    text: str
    correct: bool


class QuestionFields(TypedDict, total=False):
    slug: Required[str]
    domain: Required[Sequence[str]]
    prompt: Required[str]
    options: Required[Sequence[OptionFields]]
    topic: Sequence[str] | None
    explanation: str
    retired: bool


@dataclass(frozen=True)
class Limits:
    min_questions: int = 180
    min_per_domain: int = 10
    # Questions a domain may sit away from its exam-weight share of the total, either way.
    domain_tolerance: int = 2
    key_longest_share: float = 0.35
    pick_longest_score: float = 0.40
    drop_absolute_score: float = 0.40
    choose_two_both_longest_share: float = 0.20
    similarity_share: float = 0.5
    max_questions_per_trap: int = 4


LIMITS: Final = Limits()

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


def _pattern(regex: str) -> re.Pattern[str]:
    return re.compile(regex, re.IGNORECASE)


@dataclass(frozen=True)
class TrapMarker:
    """One way a wrong option states a trap: a claim, and the subject it must be about."""

    claim: re.Pattern[str]
    subject: re.Pattern[str] | None = None

    def stated_by(self, option: str, prompt: str) -> bool:
        if not self.claim.search(option):
            return False
        return self.subject is None or bool(
            self.subject.search(option) or self.subject.search(prompt)
        )


# The seed's "one verb per product": NeMo builds, Riva speaks, Triton serves, TensorRT
# optimizes, ACE animates an avatar, cuDNN provides primitives.
PRODUCT_JOBS: Final[Mapping[str, str]] = {
    "NeMo": r"build\w*|customi[sz]\w*",
    "Riva": r"speak\w*|speech|voices?|transcri\w*|recogni[sz]\w*|synthesi[sz]\w*",
    "Triton": r"serv(?:e|es|ed|ing|er)\b|host(?:s|ed|ing)?\b",
    "TensorRT": r"optimi[sz]\w*",
    "ACE": r"animat\w*",
    "cuDNN": r"primitives?",
}


def _verb_swap(product: str) -> TrapMarker:
    others = [name for name in PRODUCT_JOBS if name != product]
    wrong_jobs = "|".join(PRODUCT_JOBS[name] for name in others)
    # Within the product's own clause: before any other product is named or a second step begins
    # ("Optimize with TensorRT, then serve it with Triton" gives TensorRT no wrong verb).
    stop = "|".join([*others, "then", "and", "while", "but", "before", "after", "whereas"])
    near = rf"(?:(?!\b(?:{stop})\b)[^.;]){{0,40}}?"
    return TrapMarker(_pattern(rf"\b{product}\b{near}\b(?:{wrong_jobs})"))


# What a distractor praises a higher FID with.
_FID_PRAISE: Final = (
    r"\b(?:better|wins?|improv\w*|richer|closer|superior|wider\s+variety|"
    r"more\s+(?:diverse|detailed|realistic|varied|natural)|"
    r"(?:higher|greater|better)[- ](?:quality|fidelity|realism))\b"
)

# Each seed trap (shared/seed and the `trap` fields of fixtures/syllabus.yaml), as the markers a
# wrong option states it with.
TRAPS: Final[Mapping[str, tuple[TrapMarker, ...]]] = {
    "higher-fid-better": (
        TrapMarker(
            _pattern(
                rf"\b(?:higher|rising|risen|increased|larger|bigger)\s+FID\b[^.;]*?{_FID_PRAISE}"
                r"|\b(?:better|wins?)\b[^.;]*?\bhigher\s+FID\b"
                r"|\b(?:lower|falling|decreased|smaller)\s+FID\b[^.;]*?"
                r"\b(?:worse|loses?|poorer|degrad\w*)\b"
                r"|\bFID\b[^.;]*?\b(?:rose|rises|rising|increas\w*|goes\s+up|went\s+up)\b"
                rf"[^.;]*?{_FID_PRAISE}"
                r"|\bFID\b[^.;]*?\b(?:pick|choose|prefer|return|keep)\w*\b[^.;]*?\bhigh(?:er|est)\b"
                r"|\b(?:pick|choose|prefer)\w*\b[^.;]*?\bhigh(?:er|est)\s+FID\b"
            )
        ),
    ),
    "residual-for-parameter-reduction": (
        TrapMarker(
            _pattern(
                r"\b(?:reduc\w*|fewer|cut\w*|sav\w*|shrink\w*)\b[^.;]*?\bparameter"
                r"|\bparameter\w*\b[^.;]*?\b(?:reduc\w*|fewer)\b"
                r"|\btoo\s+many\s+parameters\b|\bweights\s+removed\b"
            ),
            subject=_pattern(r"\bresidual\b|\bskip\s+(?:connection|path)s?\b"),
        ),
    ),
    "ddpm-direction-inverted": (
        TrapMarker(
            _pattern(
                r"\bforward\s+(?:process|diffusion)\b[^.;]{0,60}?"
                r"\b(?:is\s+learned|learns?|learned|trained|weights|removes?|removing|denois\w*|"
                r"at\s+inference|sampling\s+steps?|generation\s+time)\b"
                r"|\breverse\s+(?:process|diffusion|steps?)\b[^.;]{0,60}?\b(?:adds?|adding)\b"
                r"|\breverse\s+process\b[^.;]{0,30}?\bis\s+fixed\b"
            )
        ),
        TrapMarker(
            _pattern(r"^(?:it|this)\b[^.;]{0,40}?\b(?:removes?|learns?|is\s+learned|denois\w*)\b"),
            subject=_pattern(r"\bforward\s+process\b"),
        ),
        TrapMarker(
            _pattern(r"^(?:it|this)\b[^.;]{0,40}?\badds?\b[^.;]{0,30}?\bnoise\b"),
            subject=_pattern(r"\breverse\s+process\b"),
        ),
    ),
    "experimentation-is-eda": (
        TrapMarker(
            _pattern(r"(?<!not\s)\b(?:EDA|exploratory\s+data\s+analysis)\b"),
            subject=_pattern(r"\bexperimentation\b"),
        ),
    ),
    "fusion-tradeoff-inverted": (
        TrapMarker(
            _pattern(
                r"\blate\s+fusion\b[^.;]{0,80}?\b(?:low(?:er|est)?\s+latency|fast(?:er|est)|"
                r"soonest|quickest|real-time|(?:cost|compute)\s+lowest|lowest\s+(?:cost|compute))\b"
                r"|\bearly\s+fusion\b[^.;]{0,80}?\b(?:robust\w*|missing|absent|copes?|"
                r"highest\s+accuracy|most\s+accurate)\b"
            )
        ),
    ),
    "attention-proves-reasoning": (
        TrapMarker(
            _pattern(
                r"(?<!not\s)\b(?:prove[sn]?|proving|proof|certif\w*|guarantee[sd]?)\b"
                r"|\bshows?\s+how\s+the\s+model\s+reason"
            ),
            subject=_pattern(r"\battention\b"),
        ),
    ),
    "quantization-mixed-precision-swap": (
        TrapMarker(_pattern(r"\bmixed[- ]precision\b[^.;]{0,80}?\b(?:INT8|integers?)\b")),
        TrapMarker(_pattern(r"\bquantiz\w*\b[^.;]{0,60}?\bmaster\s+weights\b")),
        TrapMarker(
            _pattern(
                r"\b(?:same|identical)\s+(?:technique|thing|method)\b|\bunder\s+two\s+names\b"
                r"|\banother\s+name\s+for\b"
            ),
            subject=_pattern(r"\bquantiz"),
        ),
        TrapMarker(_pattern(r"\bINT8\b"), subject=_pattern(r"\bmixed[- ]precision\b")),
    ),
    "clip-zero-shot-needs-fine-tuning": (
        TrapMarker(
            _pattern(r"(?<!no\s)(?<!without\s)\bfine-tun\w*|\blabell?ed\s+examples\b"),
            subject=_pattern(r"\bzero-shot\b"),
        ),
    ),
    "general-llm-material-covers-media": (
        TrapMarker(
            _pattern(
                r"\bLLM\b[^.;]{0,80}?\b(?:enough|sufficient|covers?|already)\b"
                r"|\b(?:enough|sufficient)\b[^.;]{0,60}?\bLLM\b"
            )
        ),
    ),
    "skip-trustworthy-ai": (
        TrapMarker(
            _pattern(
                r"\b(?:skip|ignor|drop)\w*\b[^.;]{0,60}?\btrustworthy\b"
                r"|\btrustworthy\s+AI\b[^.;]{0,60}?\b(?:skip\w*|ignor\w*|not\s+worth)\b"
            )
        ),
    ),
    "overall-average-means-ready": (
        TrapMarker(
            _pattern(
                r"\b(?:overall|average)\b[^.;]{0,60}?\b(?:is\s+what\s+counts|what\s+matters|"
                r"enough|sufficient)\b|\bbook\s+the\s+exam\b|\boverall\s+(?:average|score)\s+rises\b"
            )
        ),
    ),
    "published-pass-mark": (
        TrapMarker(
            _pattern(
                r"\bpass(?:ing)?\s+(?:mark|score)\b[^.;]{0,60}?\b\d{1,3}\s?%"
                r"|\bNVIDIA\s+publishes\b[^.;]{0,40}?\bpass"
            )
        ),
    ),
    **{f"{product.lower()}-verb-swap": (_verb_swap(product),) for product in PRODUCT_JOBS},
}


@dataclass(frozen=True)
class SimilarPair:
    question: str
    other: str
    other_kind: Literal["question", "self-check"]
    share: float


@dataclass(frozen=True)
class BankFigures:
    total: int
    per_domain: Mapping[str, int]
    single_answer: int
    key_longest_share: float
    pick_longest_score: float
    drop_absolute_score: float
    choose_two: int
    choose_two_both_longest_share: float
    similar_pairs: tuple[SimilarPair, ...] = ()
    trap_usage: Mapping[str, int] = field(default_factory=dict)


def option_length(text: str) -> int:
    return len(" ".join(text.split()))


def has_absolute_word(text: str) -> bool:
    return bool(_ABSOLUTE.search(text))


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


def drop_absolute_chance(options: Sequence[OptionFields]) -> Fraction:
    # Ranking options without absolute words first is the same as dropping the others, and
    # falls back to them only when too few are left.
    ranks = [
        (int(not has_absolute_word(option["text"])), option_length(option["text"]))
        for option in options
    ]
    return chance_top_k_is_key(ranks, [bool(option["correct"]) for option in options])


def keys_are_longest(options: Sequence[OptionFields]) -> bool:
    keys = [option_length(o["text"]) for o in options if o["correct"]]
    wrong = [option_length(o["text"]) for o in options if not o["correct"]]
    return bool(keys) and min(keys) >= max(wrong, default=0)


def content_words(prompt: str) -> frozenset[str]:
    return frozenset(_CONTENT_WORD.findall(prompt.lower())) - STOPWORDS


def share_found_in(words: frozenset[str], other: frozenset[str]) -> float:
    return len(words & other) / len(words) if words else 0.0


def similarity(first: str, second: str) -> float:
    """The larger of the two shares: first's content words found in second, and back."""
    a, b = content_words(first), content_words(second)
    return max(share_found_in(a, b), share_found_in(b, a))


def find_similar_pairs(
    questions: Mapping[str, str], self_checks: Mapping[str, str], threshold: float
) -> tuple[SimilarPair, ...]:
    """Question-question and question-self-check pairs whose similarity exceeds threshold;
    both arguments map slugs to prompts."""
    words = {slug: content_words(prompt) for slug, prompt in questions.items()}
    check_words = {slug: content_words(prompt) for slug, prompt in self_checks.items()}
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


def traps_stated(question: QuestionFields) -> frozenset[str]:
    """The traps that at least one of the question's wrong options states."""
    wrong = [option["text"] for option in question["options"] if not option["correct"]]
    return frozenset(
        name
        for name, markers in TRAPS.items()
        if any(marker.stated_by(text, question["prompt"]) for marker in markers for text in wrong)
    )


def _share(part: int | Fraction, whole: int) -> float:
    return float(Fraction(part) / whole) if whole else 0.0


def measure(
    questions: Iterable[QuestionFields],
    self_checks: Mapping[str, str],
    limits: Limits = LIMITS,
) -> BankFigures:
    """The bank's figures; ``self_checks`` maps each live self-check's slug to its prompt."""
    live = [question for question in questions if not question.get("retired")]
    keys = [sum(1 for option in q["options"] if option["correct"]) for q in live]
    single = [q for q, k in zip(live, keys, strict=True) if k == 1]
    choose_two = [q for q, k in zip(live, keys, strict=True) if k == 2]
    trap_usage = Counter[str](dict.fromkeys(TRAPS, 0))
    for question in live:
        trap_usage.update(traps_stated(question))
    return BankFigures(
        total=len(live),
        per_domain=dict(Counter(q["domain"][0] for q in live)),
        single_answer=len(single),
        key_longest_share=_share(sum(keys_are_longest(q["options"]) for q in single), len(single)),
        pick_longest_score=_share(sum(pick_longest_chance(q["options"]) for q in live), len(live)),
        drop_absolute_score=_share(
            sum(drop_absolute_chance(q["options"]) for q in live), len(live)
        ),
        choose_two=len(choose_two),
        choose_two_both_longest_share=_share(
            sum(keys_are_longest(q["options"]) for q in choose_two), len(choose_two)
        ),
        similar_pairs=find_similar_pairs(
            {q["slug"]: q["prompt"] for q in live}, self_checks, limits.similarity_share
        ),
        trap_usage=dict(trap_usage),
    )


def _questions(count: int) -> str:
    return f"{count} question" if count == 1 else f"{count} questions"


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
                f"domain '{slug}' has {_questions(count)}; its {weight}% exam share of "
                f"{figures.total} is {expected:.1f} (within ±{limits.domain_tolerance})"
            )
        if count < limits.min_per_domain:
            found.append(
                f"domain '{slug}' has {_questions(count)}; "
                f"it needs at least {limits.min_per_domain}"
            )
    for slug in sorted(set(figures.per_domain) - set(weights)):
        found.append(
            f"domain '{slug}' has no exam weight but has {_questions(figures.per_domain[slug])}"
        )
    for value, limit, words in (
        (
            figures.key_longest_share,
            limits.key_longest_share,
            "the key is the longest option in {value} of single-answer questions",
        ),
        (
            figures.pick_longest_score,
            limits.pick_longest_score,
            "always picking the longest option scores {value}",
        ),
        (
            figures.drop_absolute_score,
            limits.drop_absolute_score,
            "dropping options with absolute words, then picking the longest, scores {value}",
        ),
        (
            figures.choose_two_both_longest_share,
            limits.choose_two_both_longest_share,
            "both keys are the two longest options in {value} of choose-two questions",
        ),
    ):
        if value > limit:
            found.append(f"{words.format(value=f'{value:.1%}')}; the limit is {limit:.0%}")
    for pair in figures.similar_pairs:
        found.append(
            f"question '{pair.question}' and {pair.other_kind} '{pair.other}' have similar "
            f"prompts ({pair.share:.0%} of one's content words are in the other)"
        )
    for name, count in sorted(figures.trap_usage.items()):
        if count > limits.max_questions_per_trap:
            found.append(
                f"trap '{name}' is in the wrong options of {_questions(count)}; "
                f"at most {limits.max_questions_per_trap}"
            )
    return found


# Pairs named in the summary; problems() names them all.
SUMMARY_PAIRS: Final = 5


def summary(figures: BankFigures, limits: Limits = LIMITS) -> list[str]:
    """The figures in words, one line each, with their limits."""
    domains = ", ".join(
        f"{slug} {count}"
        for slug, count in sorted(figures.per_domain.items(), key=lambda item: (-item[1], item[0]))
    )
    if figures.similar_pairs:
        shown = figures.similar_pairs[:SUMMARY_PAIRS]
        pairs = "; ".join(f"{pair.question} ~ {pair.other} {pair.share:.0%}" for pair in shown)
        if len(figures.similar_pairs) > len(shown):
            pairs += f"; and {len(figures.similar_pairs) - len(shown)} more"
        similar = f"{len(figures.similar_pairs)} pairs of similar prompts (limit none): {pairs}"
    else:
        similar = "no similar prompts (limit none)"
    used = sorted(
        ((name, count) for name, count in figures.trap_usage.items() if count),
        key=lambda item: (-item[1], item[0]),
    )
    traps = ", ".join(f"{name} {count}" for name, count in used) or "none"
    return [
        f"{figures.total} questions (limit at least {limits.min_questions}): {domains}",
        f"key is the longest option in {figures.key_longest_share:.0%} of "
        f"{figures.single_answer} single-answer questions (limit {limits.key_longest_share:.0%})",
        f"always picking the longest option scores {figures.pick_longest_score:.0%} "
        f"(limit {limits.pick_longest_score:.0%})",
        f"dropping options with absolute words, then picking the longest, scores "
        f"{figures.drop_absolute_score:.0%} (limit {limits.drop_absolute_score:.0%})",
        f"both keys are the two longest options in {figures.choose_two_both_longest_share:.0%} "
        f"of {figures.choose_two} choose-two questions "
        f"(limit {limits.choose_two_both_longest_share:.0%})",
        similar,
        f"questions per trap in wrong options (limit {limits.max_questions_per_trap}): {traps}",
    ]
