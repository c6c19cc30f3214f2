"""The placement, pure: a short timed mock that says where a learner stands before the plan is
laid out. Its results are plain values ({domain slug: [right, asked]}) kept on the plan; the
calendar reads them here (phases.schedule.shorten, phases.short_notice)."""

from collections.abc import Iterable, Mapping, Sequence

# 15 questions by exam weight in 15 minutes: the exam's pace of a minute a question.
QUESTIONS = 15
MINUTES = 15

# A rule of thumb, not a measurement: with two to four questions a domain, only a clean sweep is
# more than a lucky guess or two (four options each: two right by chance is 1 in 16).
STRONG_AT_LEAST_ASKED = 2
STRONG_TEXT = (
    "a domain counts as strong when you got every one of its placement questions right, and it "
    f"had at least {STRONG_AT_LEAST_ASKED}: a rule of thumb, since one right answer can be a "
    "lucky guess. A strong domain's phase loses half that domain's share of its hours."
)

Scores = Mapping[str, Sequence[int]]  # {domain slug: [right, asked]}


def scores(results: Iterable[tuple[str, bool | None]]) -> dict[str, list[int]]:
    """(domain slug, right / wrong / None for unanswered) per question: an unanswered question
    counts as wrong, as in a mock."""
    tally: dict[str, list[int]] = {}
    for slug, correct in results:
        row = tally.setdefault(slug, [0, 0])
        row[0] += bool(correct)
        row[1] += 1
    return tally


def is_strong(right: int, asked: int) -> bool:
    return asked >= STRONG_AT_LEAST_ASKED and right == asked


def strong_domains(placed: Scores) -> set[str]:
    return {slug for slug, (right, asked) in placed.items() if is_strong(right, asked)}


def missed_share(placed: Scores) -> dict[str, float]:
    """Each placed domain's share of questions not answered right."""
    return {slug: 1 - right / asked for slug, (right, asked) in placed.items() if asked}


def strong_share(
    phase_domains: Sequence[tuple[int, Sequence[tuple[str, int]]]], strong: set[str]
) -> dict[int, float]:
    """Each phase's share of exam weight from domains the learner is strong in."""
    shares = {}
    for number, domains in phase_domains:
        total = sum(weight for _, weight in domains)
        strong_weight = sum(weight for slug, weight in domains if slug in strong)
        shares[number] = strong_weight / total if total else 0.0
    return shares
