"""The bank's guessing, similarity and trap figures, on tiny hand-made banks and on the real one.

No database: the measuring module is pure and the real bank is read with plain PyYAML.
"""

from dataclasses import replace
from pathlib import Path

import pytest
import yaml

from phases.bank_quality import (
    BankFigures,
    QuestionFields,
    SimilarPair,
    content_words,
    measure,
    problems,
    summary,
    traps_stated,
)

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures"


def question(
    *options: tuple[str, bool],
    prompt: str = "Which option is right?",
    slug: str = "q",
    domain: str = "core-ml",
    retired: bool = False,
) -> QuestionFields:
    return {
        "slug": slug,
        "domain": [domain],
        "prompt": prompt,
        "options": [{"text": text, "correct": correct} for text, correct in options],
        "retired": retired,
    }


def right(text: str) -> tuple[str, bool]:
    return (text, True)


def wrong(text: str) -> tuple[str, bool]:
    return (text, False)


def figures_of(*questions: QuestionFields, checks: dict[str, str] | None = None) -> BankFigures:
    return measure(list(questions), checks or {})


# --- pick the longest -----------------------------------------------------------------------


def test_a_bank_whose_key_is_always_longest_scores_one_on_pick_longest():
    bank = [
        question(right("the long correct answer"), wrong("short"), wrong("tiny"), slug=f"q{n}")
        for n in range(3)
    ]

    figures = figures_of(*bank)

    assert figures.pick_longest_score == 1.0
    assert figures.key_longest_share == 1.0


def test_a_bank_whose_key_is_always_shortest_scores_zero():
    figures = figures_of(question(right("no"), wrong("a longer one"), wrong("longer still")))

    assert figures.pick_longest_score == 0.0
    assert figures.key_longest_share == 0.0


@pytest.mark.parametrize(("tied", "expected"), [(2, 1 / 2), (3, 1 / 3), (4, 1 / 4)])
def test_a_tie_for_longest_splits_the_expected_score(tied, expected):
    options = [right("abcde")] + [wrong("vwxyz")] * (tied - 1)
    options += [wrong("ab")] * (4 - tied)

    figures = figures_of(question(*options))

    assert figures.pick_longest_score == pytest.approx(expected)
    # For the key-is-longest share, a tie for longest counts as longest.
    assert figures.key_longest_share == 1.0


def test_pick_longest_averages_over_all_questions_exactly():
    bank = [
        question(right("the long key"), wrong("no"), slug="always"),
        question(right("short"), wrong("the long distractor"), slug="never"),
        question(right("tie"), wrong("tie"), wrong("x"), slug="half"),
    ]

    figures = figures_of(*bank)

    assert figures.pick_longest_score == pytest.approx((1 + 0 + 0.5) / 3)
    assert figures.key_longest_share == pytest.approx(2 / 3)


def test_length_counts_characters_with_whitespace_collapsed():
    figures = figures_of(question(right("a   b"), wrong("abcd")))

    assert figures.pick_longest_score == 0.0


def test_a_choose_two_question_picks_the_two_longest_all_or_nothing():
    both = question(right("longest of all"), right("second longest"), wrong("short"), wrong("x"))
    one = question(right("longest of all"), wrong("second longest"), right("short"), wrong("x"))

    assert figures_of(both).pick_longest_score == 1.0
    assert figures_of(one).pick_longest_score == 0.0


def test_a_tie_at_the_cut_of_a_choose_two_question_splits_the_chance():
    # The longest is a key; the second pick is one of three tied options, one of them a key.
    options = (right("longest option"), right("tied"), wrong("also"), wrong("same"), wrong("x"))

    assert figures_of(question(*options)).pick_longest_score == pytest.approx(1 / 3)


def test_a_choose_two_question_with_three_tied_options_picks_two_of_them():
    options = (right("abc"), right("def"), wrong("ghi"), wrong("x"))

    assert figures_of(question(*options)).pick_longest_score == pytest.approx(1 / 3)


# --- drop absolute words, then pick the longest ---------------------------------------------


def test_dropping_absolute_words_finds_a_short_key():
    figures = figures_of(
        question(
            right("Usually it helps."),
            wrong("It always removes every problem at once."),
            wrong("It never matters in any deep network."),
        )
    )

    assert figures.pick_longest_score == 0.0
    assert figures.drop_absolute_score == 1.0


@pytest.mark.parametrize("word", ["Always", "NEVER", "only", "all", "none", "must", "every"])
def test_absolute_words_count_in_any_case(word):
    figures = figures_of(question(right("It helps."), wrong(f"It {word} helps everyone a lot.")))

    assert figures.drop_absolute_score == 1.0


@pytest.mark.parametrize("text", ["It helps overall, mustard aside.", "Everything is fine here."])
def test_absolute_words_count_only_as_whole_words(text):
    figures = figures_of(question(right("It helps."), wrong(text)))

    assert figures.drop_absolute_score == 0.0


def test_when_every_option_has_an_absolute_word_all_are_kept():
    figures = figures_of(
        question(right("It always helps deep networks."), wrong("It never helps."))
    )

    assert figures.drop_absolute_score == figures.pick_longest_score == 1.0


def test_drop_absolute_still_splits_ties_among_the_options_left():
    options = (right("abcd"), wrong("wxyz"), wrong("all of them, always"))

    assert figures_of(question(*options)).drop_absolute_score == pytest.approx(1 / 2)


def test_drop_absolute_fills_a_choose_two_pick_from_the_dropped_when_too_few_are_left():
    # One option survives the drop; the guesser's second pick is the longest of the dropped.
    options = (
        right("Plain key."),
        right("It must be this one, the long key."),
        wrong("It must be this."),
        wrong("Always."),
    )

    assert figures_of(question(*options)).drop_absolute_score == 1.0


# --- choose two: both keys the two longest --------------------------------------------------


def test_choose_two_share_counts_questions_whose_keys_are_the_two_longest():
    bank = [
        question(right("long key one"), right("long key two"), wrong("x"), slug="a"),
        question(right("long key one"), right("y"), wrong("long wrong"), slug="b"),
        question(right("tied"), right("long key two"), wrong("same"), slug="c"),
        question(right("single answer"), wrong("no"), slug="d"),
    ]

    figures = figures_of(*bank)

    assert figures.choose_two == 3
    assert figures.single_answer == 1
    # a is counted, b is not, and c's tie between a key and a wrong option counts as longest.
    assert figures.choose_two_both_longest_share == pytest.approx(2 / 3)


# --- counting ---------------------------------------------------------------------------------


def test_retired_questions_are_left_out_of_every_figure():
    live = question(right("the long key"), wrong("no"), slug="live", domain="core-ml")
    retired = question(
        right("no"), wrong("the long distractor"), slug="old", domain="trustworthy-ai", retired=True
    )

    figures = figures_of(live, retired)

    assert figures.total == 1
    assert figures.per_domain == {"core-ml": 1}
    assert figures.pick_longest_score == 1.0


def test_questions_are_counted_per_domain():
    bank = [
        question(right("a"), wrong("b"), slug=f"{domain}-{n}", domain=domain)
        for domain, count in (("core-ml", 3), ("experimentation", 2))
        for n in range(count)
    ]

    assert figures_of(*bank).per_domain == {"core-ml": 3, "experimentation": 2}


# --- similar prompts ------------------------------------------------------------------------


def test_content_words_are_lowercase_words_of_four_letters_or_more_without_stopwords():
    assert content_words("Which two of THESE FID scores are better? Choose two.") == {
        "scores",
        "better",
    }


def test_a_question_like_a_self_check_is_reported_with_its_share():
    figures = figures_of(
        question(right("a"), wrong("b"), prompt="Why does lower FID mean better images?"),
        checks={"p2-fid": "Is a lower or a higher FID better, and why does FID favour images?"},
    )

    # The question's content words: lower, mean, better, images; three are in the self-check.
    assert figures.similar_pairs == (SimilarPair("q", "p2-fid", "self-check", 0.75),)


def test_similar_questions_are_reported_once_per_pair():
    first = question(right("a"), wrong("b"), slug="one", prompt="What does residual learning fix?")
    second = question(
        right("a"), wrong("b"), slug="two", prompt="Residual learning: what problem does it fix?"
    )

    (pair,) = figures_of(first, second).similar_pairs

    assert (pair.question, pair.other, pair.other_kind) == ("one", "two", "question")
    assert pair.share == 1.0


def test_a_share_of_exactly_one_half_is_not_similar():
    first = question(
        right("a"), wrong("b"), slug="one", prompt="diffusion models denoise images gradually"
    )
    second = question(right("a"), wrong("b"), slug="two", prompt="diffusion models scale poorly")

    figures = figures_of(first, second, checks={"p": "denoise gradually, then evaluate outputs"})

    assert figures.similar_pairs == ()


def test_self_checks_are_not_compared_with_each_other():
    figures = figures_of(checks={"a": "How is CLIP trained?", "b": "How is CLIP trained?"})

    assert figures.similar_pairs == ()


# --- traps ------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("trap", "prompt", "distractor"),
    [
        ("higher-fid-better", "Which model is better?", "Model B, because higher FID is better."),
        (
            "higher-fid-better",
            "Which GAN wins?",
            "GAN P, because a higher FID means richer output.",
        ),
        ("residual-for-parameter-reduction", "Why use residual connections?", "To cut parameters."),
        ("residual-for-parameter-reduction", "Why skip connections?", "To reduce parameter count."),
        ("ddpm-direction-inverted", "Which is learned?", "The forward process, which is learned."),
        ("ddpm-direction-inverted", "What does the forward process do?", "It removes noise."),
        ("ddpm-direction-inverted", "Why is it slow?", "It runs its forward process at inference."),
        ("experimentation-is-eda", "What is tested?", "Experimentation is essentially EDA."),
        ("fusion-tradeoff-inverted", "Which fusion?", "Late fusion, for the lowest latency."),
        ("fusion-tradeoff-inverted", "Audio may be missing.", "Early fusion is most robust."),
        ("fusion-tradeoff-inverted", "Which is fastest?", "Late fusion, which answers soonest."),
        ("attention-proves-reasoning", "Read this attention map.", "It proves how it reasoned."),
        ("quantization-mixed-precision-swap", "Which?", "Mixed precision converts to INT8."),
        ("riva-verb-swap", "Which serves models?", "Riva, because it serves models."),
        ("triton-verb-swap", "Which speaks?", "Triton, NVIDIA's speech AI SDK."),
        ("nemo-verb-swap", "Which serves?", "NeMo serves the models."),
        ("tensorrt-verb-swap", "Which builds?", "TensorRT builds and customizes models."),
        ("ace-verb-swap", "Which optimizes?", "ACE, to optimize the model for inference."),
        ("cudnn-verb-swap", "Which animates?", "cuDNN, to animate the avatar."),
    ],
)
def test_a_wrong_option_stating_a_trap_is_counted(trap, prompt, distractor):
    stated = question(right("The right answer."), wrong(distractor), prompt=prompt)

    assert trap in traps_stated(stated)
    assert figures_of(stated).trap_usage[trap] == 1


@pytest.mark.parametrize(
    ("prompt", "distractor"),
    [
        ("Which model is better?", "Model A, because lower FID is better."),
        ("What changed?", "A rising FID means the images moved away from the real ones."),
        ("What does the forward process do?", "The forward process is fixed; nothing learns it."),
        ("Why prune a network?", "To reduce the parameter count."),
        ("What does the forward process do?", "It adds Gaussian noise step by step."),
        ("Which fusion?", "Early fusion, for the lowest latency."),
        (
            "Read this attention map.",
            "It is evidence of where weight went, not proof of reasoning.",
        ),
        ("Which product speaks?", "Riva handles speech recognition and synthesis."),
        ("Which product serves?", "Optimize with TensorRT, then serve it with Triton."),
    ],
)
def test_a_sound_or_unrelated_wrong_option_states_no_trap(prompt, distractor):
    assert traps_stated(question(right("The right answer."), wrong(distractor), prompt=prompt)) == (
        frozenset()
    )


def test_a_trap_in_the_correct_option_is_not_counted():
    stated = question(right("Higher FID is better."), wrong("Lower FID is better."))

    assert figures_of(stated).trap_usage["higher-fid-better"] == 0


def test_a_trap_counts_once_per_question_however_many_options_state_it():
    bank = [
        question(
            right("Model A."),
            wrong("Model B, since higher FID is better."),
            wrong("Neither, but a higher FID would be better."),
            slug="twice",
        ),
        question(right("Lower is better."), wrong("Higher FID is better."), slug="once"),
    ]

    usage = figures_of(*bank).trap_usage

    assert usage["higher-fid-better"] == 2
    assert usage["riva-verb-swap"] == 0


# --- limits and wording -----------------------------------------------------------------------

WEIGHTS = {"core-ml": 50, "experimentation": 30, "trustworthy-ai": 20}


def sound_figures() -> BankFigures:
    return BankFigures(
        total=200,
        per_domain={"core-ml": 100, "experimentation": 60, "trustworthy-ai": 40},
        single_answer=160,
        key_longest_share=0.30,
        pick_longest_score=0.35,
        drop_absolute_score=0.38,
        choose_two=40,
        choose_two_both_longest_share=0.10,
        similar_pairs=(),
        trap_usage={"higher-fid-better": 4, "riva-verb-swap": 1},
    )


def test_figures_within_every_limit_have_no_problems():
    assert problems(sound_figures(), WEIGHTS) == []


def test_figures_exactly_at_their_limits_have_no_problems():
    at_limits = replace(
        sound_figures(),
        total=180,
        # Each domain exactly two questions away from its share (90, 54, 36).
        per_domain={"core-ml": 92, "experimentation": 52, "trustworthy-ai": 36},
        key_longest_share=0.35,
        pick_longest_score=0.40,
        drop_absolute_score=0.40,
        choose_two_both_longest_share=0.20,
    )

    assert problems(at_limits, WEIGHTS) == []


@pytest.mark.parametrize(
    ("change", "expected"),
    [
        (
            {
                "total": 150,
                "per_domain": {"core-ml": 75, "experimentation": 45, "trustworthy-ai": 30},
            },
            "the bank has 150 live questions; it needs at least 180",
        ),
        (
            {
                "total": 205,
                "per_domain": {"core-ml": 105, "experimentation": 60, "trustworthy-ai": 40},
            },
            "domain 'core-ml' has 105 questions; its 50% exam share of 205 is 102.5 (within ±2)",
        ),
        (
            {"key_longest_share": 0.351},
            "the key is the longest option in 35.1% of single-answer questions; the limit is 35%",
        ),
        ({"pick_longest_score": 0.41}, "always picking the longest option scores 41.0%"),
        ({"drop_absolute_score": 0.405}, "then picking the longest, scores 40.5%"),
        ({"choose_two_both_longest_share": 0.25}, "in 25.0% of choose-two questions"),
        (
            {"similar_pairs": (SimilarPair("q-a", "p1-b", "self-check", 0.6),)},
            "question 'q-a' and self-check 'p1-b' have similar prompts",
        ),
        (
            {"trap_usage": {"higher-fid-better": 5}},
            "trap 'higher-fid-better' is in the wrong options of 5 questions; at most 4",
        ),
    ],
)
def test_each_broken_limit_is_named(change, expected):
    found = problems(replace(sound_figures(), **change), WEIGHTS)

    assert len(found) == 1, found
    assert expected in found[0]


def test_a_small_domain_is_named_even_within_its_share():
    figures = replace(sound_figures(), total=200, per_domain={"core-ml": 191, "experimentation": 9})

    found = problems(figures, {"core-ml": 95, "experimentation": 5})

    assert found == ["domain 'experimentation' has 9 questions; it needs at least 10"]


def test_a_domain_missing_from_the_weights_is_named():
    figures = replace(sound_figures(), total=201, per_domain={**sound_figures().per_domain, "x": 1})

    assert problems(figures, WEIGHTS) == ["domain 'x' has no exam weight but has 1 question"]


def test_the_summary_states_each_figure_with_its_limit():
    lines = summary(replace(sound_figures(), key_longest_share=0.27))

    assert lines[0] == (
        "200 questions (limit at least 180): core-ml 100, experimentation 60, trustworthy-ai 40"
    )
    assert "key is the longest option in 27% of 160 single-answer questions (limit 35%)" in lines
    assert "always picking the longest option scores 35% (limit 40%)" in lines
    assert any(line.startswith("no similar prompts") for line in lines)
    assert lines[-1].endswith("higher-fid-better 4, riva-verb-swap 1")


# --- the real bank ----------------------------------------------------------------------------


def test_the_real_bank_meets_every_limit():
    syllabus = yaml.safe_load((FIXTURES / "syllabus.yaml").read_text(encoding="utf-8"))
    weights = {
        obj["fields"]["slug"]: obj["fields"]["exam_weight"]
        for obj in syllabus
        if obj["model"] == "phases.domain"
    }
    checks = {
        obj["fields"]["slug"]: obj["fields"]["prompt"]
        for obj in syllabus
        if obj["model"] == "phases.selfcheck" and not obj["fields"].get("retired")
    }
    files = sorted((FIXTURES / "questions").glob("*.yaml"))
    assert [path.stem for path in files] == sorted(weights), "one question file per domain"
    bank = [
        obj["fields"]
        for path in files
        for obj in yaml.safe_load(path.read_text(encoding="utf-8")) or []
        if obj["model"] == "phases.question"
    ]

    figures = measure(bank, checks)

    assert problems(figures, weights) == []
