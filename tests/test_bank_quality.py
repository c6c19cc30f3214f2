"""The bank's guessing, similarity, trap and coverage figures, on tiny hand-made banks and on the
real one.

No database: the measuring module is pure and the real bank is read with plain PyYAML.
"""

from dataclasses import replace
from pathlib import Path

import pytest

from phases.bank_cues import QuestionFields, content_words
from phases.bank_quality import LIMITS, BankFigures, SimilarPair, measure, problems, summary
from phases.bank_traps import GAPS, traps_stated
from tests.conftest import read_yaml

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures"


def question(
    *options: tuple[str, bool],
    prompt: str = "Which option is right?",
    slug: str = "q",
    domain: str = "core-ml",
    topic: str | None = None,
    retired: bool = False,
) -> QuestionFields:
    return {
        "slug": slug,
        "domain": [domain],
        "topic": [topic] if topic else None,
        "prompt": prompt,
        "options": [{"text": text, "correct": correct} for text, correct in options],
        "retired": retired,
    }


def right(text: str) -> tuple[str, bool]:
    return (text, True)


def wrong(text: str) -> tuple[str, bool]:
    return (text, False)


def figures_of(
    *questions: QuestionFields,
    checks: dict[str, str] | None = None,
    topics: tuple[str, ...] = (),
) -> BankFigures:
    return measure(list(questions), checks or {}, topics)


# --- pick the longest -----------------------------------------------------------------------


def test_a_bank_whose_key_is_always_longest_scores_one_on_pick_longest():
    bank = [
        question(right("the long correct answer"), wrong("short"), wrong("tiny"), slug=f"q{n}")
        for n in range(3)
    ]

    figures = figures_of(*bank)

    assert figures.pick_longest_score == 1.0
    assert figures.key_longest_share == 1.0


def test_a_bank_whose_key_is_always_shortest_scores_zero_on_pick_longest():
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


# --- pick the shortest ----------------------------------------------------------------------


def test_a_bank_whose_key_is_always_shortest_scores_one_on_pick_shortest():
    bank = [
        question(right("DDIM."), wrong("DDPM, with 1000 steps."), wrong("A GAN."), slug=f"q{n}")
        for n in range(3)
    ]

    figures = figures_of(*bank)

    assert figures.pick_shortest_score == 1.0
    assert figures.key_shortest_share == 1.0
    assert figures.pick_longest_score == figures.key_longest_share == 0.0


def test_a_key_between_the_shortest_and_the_longest_is_neither():
    options = (right("a middling key"), wrong("short"), wrong("the longest one"))

    figures = figures_of(question(*options))

    assert figures.key_shortest_share == figures.key_longest_share == 0.0
    assert figures.pick_shortest_score == figures.pick_longest_score == 0.0


@pytest.mark.parametrize(("tied", "expected"), [(2, 1 / 2), (3, 1 / 3), (4, 1 / 4)])
def test_a_tie_for_shortest_splits_the_expected_score(tied, expected):
    options = [right("ab")] + [wrong("yz")] * (tied - 1)
    options += [wrong("abcde")] * (4 - tied)

    figures = figures_of(question(*options))

    assert figures.pick_shortest_score == pytest.approx(expected)
    # For the key-is-shortest share, a tie for shortest counts as shortest.
    assert figures.key_shortest_share == 1.0


def test_options_all_of_one_length_count_as_both_shortest_and_longest():
    figures = figures_of(question(right("abc"), wrong("def"), wrong("ghi")))

    assert figures.key_shortest_share == figures.key_longest_share == 1.0
    assert figures.pick_shortest_score == figures.pick_longest_score == pytest.approx(1 / 3)


def test_pick_shortest_averages_over_all_questions_and_key_shortest_over_single_answer():
    bank = [
        question(right("no"), wrong("the long distractor"), slug="always"),
        question(right("the long key"), wrong("short"), slug="never"),
        question(right("tie"), wrong("tie"), wrong("longer"), slug="half"),
        question(right("ab"), right("cd"), wrong("longer"), wrong("longest"), slug="two"),
        question(right("x"), wrong("a longer one"), slug="old", retired=True),
    ]

    figures = figures_of(*bank)

    # The choose-two question's two keys are its two shortest: it scores 1 for the guesser but
    # is not one of the three single-answer questions the share is of.
    assert figures.pick_shortest_score == pytest.approx((1 + 0 + 0.5 + 1) / 4)
    assert figures.key_shortest_share == pytest.approx(2 / 3)


def test_a_choose_two_question_picks_the_two_shortest_all_or_nothing():
    both = question(right("short"), right("x"), wrong("longest of all"), wrong("second longest"))
    one = question(right("short"), wrong("x"), right("longest of all"), wrong("second longest"))

    assert figures_of(both).pick_shortest_score == 1.0
    assert figures_of(one).pick_shortest_score == 0.0


def shortest_key_bank(short_keys: int, total: int = 20) -> list[QuestionFields]:
    """Single-answer questions whose key is the shortest option in ``short_keys`` of them and
    neither the shortest nor the longest in the rest."""
    short = (right("DDIM."), wrong("DDPM with 1000 steps."), wrong("A one-step GAN."))
    middling = (right("DDIM with 50 steps."), wrong("DDPM."), wrong("A GAN trained adversarially."))
    return [question(*(short if n < short_keys else middling), slug=f"q{n}") for n in range(total)]


def length_problems(bank: list[QuestionFields]) -> list[str]:
    found = problems(figures_of(*bank), {"core-ml": 100})
    return [problem for problem in found if "shortest" in problem or "longest" in problem]


def test_a_bank_whose_key_is_shortest_within_the_limit_has_no_length_problem():
    # 7 of 20 is exactly 35%; picking the shortest scores 35% too.
    assert length_problems(shortest_key_bank(7)) == []


def test_a_bank_whose_key_is_shortest_too_often_is_named():
    # 8 of 20: the key is shortest in 40%, over its 35%; picking the shortest scores 40%, which
    # is at its own limit and so not named.
    assert length_problems(shortest_key_bank(8)) == [
        "the key is the shortest option in 40.0% of single-answer questions; the limit is 35%"
    ]


def test_a_bank_where_picking_the_shortest_pays_too_well_is_named():
    assert length_problems(shortest_key_bank(9)) == [
        "the key is the shortest option in 45.0% of single-answer questions; the limit is 35%",
        "always picking the shortest option scores 45.0%; the limit is 40%",
    ]


# --- key shares the most stem words ---------------------------------------------------------


def test_a_key_sharing_more_prompt_words_than_every_distractor_is_counted():
    echoed = question(
        right("Early fusion, for the lower latency."),
        wrong("Late fusion, for robustness."),
        wrong("Intermediate fusion, for accuracy."),
        prompt="Which fusion gives the lower latency?",
    )

    # The key shares fusion, lower and latency with the prompt; each distractor only fusion.
    assert figures_of(echoed).key_most_stem_words_share == 1.0


def test_a_key_tied_with_a_distractor_on_prompt_words_counts_as_sharing_the_most():
    # Every option shares one prompt word: fusion.
    tied = question(
        right("Early fusion, joined at the input."),
        wrong("Late fusion, for robustness."),
        wrong("Intermediate fusion."),
        prompt="Which fusion gives the lower latency?",
    )
    # Stopwords are no content words: no option shares one with the prompt, a tie at none.
    none_shared = question(
        right("Which one is correct."), wrong("Something else."), prompt="Which is correct?"
    )

    assert figures_of(tied).key_most_stem_words_share == 1.0
    assert figures_of(none_shared).key_most_stem_words_share == 1.0


def test_a_key_sharing_fewer_prompt_words_than_a_distractor_is_not_counted():
    outshared = question(
        right("Early fusion."),
        wrong("Late fusion, for the lower latency."),
        prompt="Which fusion gives the lower latency?",
    )

    assert figures_of(outshared).key_most_stem_words_share == 0.0


def test_the_stem_words_share_is_of_single_answer_questions_only():
    prompt = "Which sampler needs fewer denoising steps?"
    bank = [
        question(right("DDIM, with fewer steps."), wrong("DDPM."), prompt=prompt, slug="echo"),
        question(right("DDIM."), wrong("DDPM, with more steps."), prompt=prompt, slug="plain"),
        question(right("DDIM, fewer steps."), right("DDIM sampler."), wrong("DDPM."), slug="two"),
    ]

    figures = figures_of(*bank)

    assert figures.single_answer == 2
    assert figures.key_most_stem_words_share == pytest.approx(1 / 2)


# --- pick the option sharing the most, or the fewest, prompt words ---------------------------

FUSION = "Which fusion gives the lower latency?"  # content words: fusion, gives, lower, latency


def test_a_key_sharing_the_most_prompt_words_is_picked_by_most_not_by_fewest():
    echoed = question(
        right("Early fusion, for the lower latency."),  # 3 shared
        wrong("Late fusion, for robustness."),  # 1
        wrong("Intermediate fusion."),  # 1
        wrong("A cascade of models."),  # 0
        prompt=FUSION,
    )

    figures = figures_of(echoed)

    assert figures.pick_most_stem_words_score == 1.0
    assert figures.pick_fewest_stem_words_score == 0.0


def test_a_key_tied_for_fewest_prompt_words_splits_the_fewest_guessers_score():
    plain = question(
        right("Late fusion."),  # 1 shared
        wrong("Intermediate fusion."),  # 1
        wrong("Early fusion, for the lower latency."),  # 3
        prompt=FUSION,
    )

    figures = figures_of(plain)

    assert figures.pick_most_stem_words_score == 0.0
    assert figures.pick_fewest_stem_words_score == pytest.approx(1 / 2)


def test_options_sharing_no_prompt_word_tie_for_both_most_and_fewest():
    # Stopwords are no content words: every option shares none, so both guessers pick blindly.
    blind = question(
        right("Which one is correct."),
        wrong("Something else."),
        wrong("Another thing."),
        prompt="Which is correct?",
    )

    figures = figures_of(blind)

    assert figures.pick_most_stem_words_score == pytest.approx(1 / 3)
    assert figures.pick_fewest_stem_words_score == pytest.approx(1 / 3)


def test_a_choose_two_question_picks_the_two_most_or_fewest_sharing_all_or_nothing():
    options = (
        right("Early fusion, for the lower latency."),  # 3 shared
        right("Late fusion."),  # 1
        wrong("Intermediate fusion."),  # 1
        wrong("A cascade of models."),  # 0
    )
    fewest_keys = (
        right("A cascade of models."),  # 0 shared
        right("Late fusion."),  # 1
        wrong("Intermediate fusion."),  # 1
        wrong("Hybrid fusion."),  # 1
        wrong("Early fusion, for the lower latency."),  # 3
    )

    # Most: the 3 is taken, then one of the two tied at 1, which is the key half the time.
    # Fewest: the 0 is taken first, and it is wrong.
    two = figures_of(question(*options, prompt=FUSION))
    assert two.pick_most_stem_words_score == pytest.approx(1 / 2)
    assert two.pick_fewest_stem_words_score == 0.0
    # Fewest: the 0 is taken, then one of the three tied at 1, a key one time in three.
    other = figures_of(question(*fewest_keys, prompt=FUSION))
    assert other.pick_most_stem_words_score == 0.0
    assert other.pick_fewest_stem_words_score == pytest.approx(1 / 3)


def test_the_prompt_word_guessers_average_over_all_questions_exactly():
    bank = [
        question(right("Early fusion, lower latency."), wrong("Late fusion."), prompt=FUSION),
        question(
            right("Late fusion."),
            wrong("Intermediate fusion."),
            wrong("Early fusion, lower latency."),
            prompt=FUSION,
            slug="q2",
        ),
        question(right("Late fusion."), wrong("Early fusion, lower latency."), slug="q3"),
    ]

    figures = figures_of(*bank)

    # q3's default prompt shares no word with either option: a blind pick of two.
    assert figures.pick_most_stem_words_score == pytest.approx((1 + 0 + 1 / 2) / 3)
    assert figures.pick_fewest_stem_words_score == pytest.approx((0 + 1 / 2 + 1 / 2) / 3)


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


# --- drop absolute words, then guess --------------------------------------------------------


def test_dropping_absolute_words_then_guessing_picks_uniformly_among_the_rest():
    kept_key = question(
        right("It usually helps."),
        wrong("It hurts a little."),
        wrong("It always helps."),
        wrong("It never hurts."),
    )
    dropped_key = question(right("It always helps."), wrong("It hurts."), wrong("It helps."))

    assert figures_of(kept_key).drop_absolute_guess_score == pytest.approx(1 / 2)
    assert figures_of(dropped_key).drop_absolute_guess_score == 0.0


def test_dropping_then_guessing_ignores_length():
    # The longest-option guesser finds the key; a random pick among the three kept does not.
    options = (right("The long and careful key."), wrong("Short."), wrong("Brief."), wrong("All."))

    figures = figures_of(question(*options))

    assert figures.drop_absolute_score == 1.0
    assert figures.drop_absolute_guess_score == pytest.approx(1 / 3)


def test_when_every_option_has_an_absolute_word_the_guess_is_among_all():
    options = (right("Always A."), wrong("Never B."), wrong("Only C."), wrong("All D."))

    assert figures_of(question(*options)).drop_absolute_guess_score == pytest.approx(1 / 4)


def test_a_choose_two_guess_with_too_few_options_left_is_among_all():
    # One option survives the drop, fewer than the two to pick: the guess is two of all four.
    options = (
        right("Plain key."),
        right("It must be this one."),
        wrong("It must be this."),
        wrong("Always."),
    )

    assert figures_of(question(*options)).drop_absolute_guess_score == pytest.approx(1 / 6)


def test_a_choose_two_guess_needs_both_keys_among_those_kept():
    both_kept = question(right("A."), right("B."), wrong("C."), wrong("Never D."))
    one_dropped = question(right("A."), right("Only B."), wrong("C."), wrong("D."))

    assert figures_of(both_kept).drop_absolute_guess_score == pytest.approx(1 / 3)
    assert figures_of(one_dropped).drop_absolute_guess_score == 0.0


def test_dropping_then_guessing_averages_over_all_questions_exactly():
    bank = [
        question(right("A."), wrong("B."), wrong("Always C."), slug="half"),
        question(right("Never A."), wrong("B."), slug="none"),
        question(right("A."), wrong("Every B."), slug="sure"),
    ]

    assert figures_of(*bank).drop_absolute_guess_score == pytest.approx((1 / 2 + 0 + 1) / 3)


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


def test_questions_are_counted_per_syllabus_topic_including_none():
    bank = [
        question(right("a"), wrong("b"), slug="f1", topic="fid"),
        question(right("a"), wrong("b"), slug="f2", topic="fid"),
        question(right("a"), wrong("b"), slug="p1", topic="pruning"),
        question(right("a"), wrong("b"), slug="old", topic="privacy", retired=True),
        question(right("a"), wrong("b"), slug="untopical"),
        question(right("a"), wrong("b"), slug="elsewhere", topic="not-in-the-syllabus"),
    ]

    figures = figures_of(*bank, topics=("fid", "pruning", "privacy"))

    assert figures.per_topic == {"fid": 2, "pruning": 1, "privacy": 0}


def test_topics_may_be_given_as_a_mapping_to_their_domains():
    bank = [question(right("a"), wrong("b"), topic="fid")]

    figures = measure(bank, {}, {"fid": "experimentation", "privacy": "trustworthy-ai"})

    assert figures.per_topic == {"fid": 1, "privacy": 0}


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


# --- similar questions ----------------------------------------------------------------------


def test_questions_sharing_most_words_across_prompt_and_options_are_similar():
    options = (right("Diffusion denoises images."), wrong("Guidance sharpens prompts."))
    first = question(*options, slug="one", prompt="Pick one.")
    second = question(*options, slug="two", prompt="Choose again.")
    retired_copy = question(*options, slug="old", prompt="Pick one.", retired=True)

    figures = figures_of(
        first,
        second,
        retired_copy,
        checks={"p": "Diffusion denoises images; guidance sharpens prompts."},
    )

    # Their prompts share nothing; their options share all six of the second's content words.
    assert figures.similar_pairs == ()
    assert figures.similar_questions == (SimilarPair("one", "two", "question", 1.0),)


def test_questions_sharing_exactly_half_their_words_are_not_similar():
    first = question(right("models denoise"), wrong("images"), slug="one", prompt="diffusion")
    second = question(right("diffusion models"), wrong("scale"), slug="two", prompt="poorly")

    assert figures_of(first, second).similar_questions == ()


def test_one_more_shared_word_makes_questions_similar():
    first = question(right("models denoise"), wrong("images"), slug="one", prompt="diffusion")
    second = question(right("diffusion models"), wrong("images"), slug="two", prompt="poorly")

    (pair,) = figures_of(first, second).similar_questions

    assert (pair.question, pair.other, pair.share) == ("one", "two", pytest.approx(3 / 4))


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


# --- gaps -------------------------------------------------------------------------------------


def test_every_gap_is_counted_even_when_no_question_covers_it():
    assert figures_of().gap_coverage == dict.fromkeys(GAPS, 0)


@pytest.mark.parametrize(
    ("gap", "prompt", "key"),
    [
        ("NIM", "How should the team ship the model as a NIM?", "As a container."),
        ("NIM", "How should the team ship the model?", "Package it as an NVIDIA NIM."),
        ("FP8", "Which format halves memory against fp16?", "fp8 on Hopper."),
        ("C2PA / Content Credentials", "How is provenance attached?", "With C2PA manifests."),
    ],
)
def test_a_gap_is_covered_by_a_prompt_or_a_key_in_any_case(gap, prompt, key):
    covering = question(right(key), wrong("Something else."), prompt=prompt)

    assert figures_of(covering).gap_coverage[gap] == 1


def test_a_gap_named_only_in_a_wrong_option_or_a_retired_question_is_not_covered():
    bank = [
        question(right("As a container."), wrong("As an NVIDIA NIM."), slug="wrong-only"),
        question(right("As an NVIDIA NIM."), wrong("No."), slug="old", retired=True),
    ]

    assert figures_of(*bank).gap_coverage["NIM"] == 0


def test_a_gap_counts_once_per_question():
    twice = question(right("Deploy the NIM."), right("Scale the NIM."), prompt="Which NIM steps?")

    assert figures_of(twice).gap_coverage["NIM"] == 1


def test_choose_two_share_counts_questions_whose_keys_are_the_two_shortest():
    both_short = question(right("a"), right("b"), wrong("long one"), wrong("longer one"))
    one_short = question(right("a"), right("longest of all"), wrong("mid one"), wrong("mid two"))

    figures = figures_of(both_short, one_short)

    assert figures.choose_two_both_shortest_share == 0.5
    assert figures.choose_two_both_longest_share == 0.0


def test_a_key_outrunning_every_wrong_option_by_ten_characters_is_counted():
    by_ten = question(right("x" * 30), wrong("y" * 20), wrong("z" * 19), wrong("w" * 5))
    by_nine = question(right("x" * 29), wrong("y" * 20), wrong("z" * 19), wrong("w" * 5))

    assert figures_of(by_ten, by_nine).key_longest_by_margin_share == 0.5


def test_questions_are_counted_per_subarea_and_stretch_ones_counted_apart():
    tagged = {**question(right("a"), wrong("b")), "subarea": ["nim"], "stretch": True}
    plain = question(right("a"), wrong("c"), slug="q2")
    retired = {**question(right("a"), wrong("d"), slug="q3", retired=True), "subarea": ["nim"]}

    figures = measure([tagged, plain, retired], {}, (), subareas=["nim", "dali"])

    assert figures.per_subarea == {"nim": 1, "dali": 0}
    assert figures.stretch == 1


# --- limits and wording -----------------------------------------------------------------------

WEIGHTS = {"core-ml": 50, "experimentation": 30, "trustworthy-ai": 20}


def sound_figures() -> BankFigures:
    return BankFigures(
        total=600,
        per_domain={"core-ml": 300, "experimentation": 180, "trustworthy-ai": 120},
        single_answer=520,
        key_longest_share=0.30,
        key_shortest_share=0.25,
        key_most_stem_words_share=0.20,
        pick_longest_score=0.35,
        pick_shortest_score=0.20,
        drop_absolute_score=0.38,
        drop_absolute_guess_score=0.30,
        pick_most_stem_words_score=0.15,
        pick_fewest_stem_words_score=0.32,
        choose_two=80,
        choose_two_both_longest_share=0.10,
        choose_two_both_shortest_share=0.15,
        key_longest_by_margin_share=0.005,
        stretch=30,
        per_topic={"fid": 6, "pruning": 5},
        per_subarea={"multimodal-rag": 7, "nim": 6},
        similar_pairs=(),
        similar_questions=(),
        trap_usage={"higher-fid-better": 4, "riva-verb-swap": 1},
        gap_coverage={"NIM": 3, "FP8": 2},
    )


def test_figures_within_every_limit_have_no_problems():
    assert problems(sound_figures(), WEIGHTS) == []


def test_figures_exactly_at_their_limits_have_no_problems():
    at_limits = replace(
        sound_figures(),
        total=520,
        # Each domain exactly two questions away from its share (260, 156, 104).
        per_domain={"core-ml": 262, "experimentation": 154, "trustworthy-ai": 104},
        per_topic={"fid": 4, "pruning": 4},
        per_subarea={"multimodal-rag": 6, "nim": 6},
        stretch=52,
        key_longest_share=0.35,
        key_shortest_share=0.35,
        key_most_stem_words_share=0.35,
        pick_longest_score=0.40,
        pick_shortest_score=0.40,
        drop_absolute_score=0.40,
        drop_absolute_guess_score=0.40,
        pick_most_stem_words_score=0.40,
        pick_fewest_stem_words_score=0.40,
        choose_two_both_longest_share=0.20,
        choose_two_both_shortest_share=0.20,
        key_longest_by_margin_share=0.01,
        trap_usage={"higher-fid-better": 4, "riva-verb-swap": 1},
        gap_coverage={"NIM": 2, "FP8": 2},
    )

    assert problems(at_limits, WEIGHTS) == []


@pytest.mark.parametrize(
    ("change", "expected"),
    [
        (
            {
                "total": 518,
                "per_domain": {"core-ml": 259, "experimentation": 155, "trustworthy-ai": 104},
            },
            "the bank has 518 live questions; it needs at least 520",
        ),
        (
            {
                "total": 605,
                "per_domain": {"core-ml": 305, "experimentation": 180, "trustworthy-ai": 120},
            },
            "domain 'core-ml' has 305 questions; its 50% exam share of 605 is 302.5 (within ±2)",
        ),
        (
            {"per_topic": {"fid": 4, "pruning": 3}},
            "topic 'pruning' has 3 questions; it needs at least 4",
        ),
        ({"per_topic": {"fid": 4, "privacy": 0}}, "topic 'privacy' has 0 questions"),
        (
            {"key_longest_share": 0.351},
            "the key is the longest option in 35.1% of single-answer questions; the limit is 35%",
        ),
        (
            {"key_shortest_share": 0.351},
            "the key is the shortest option in 35.1% of single-answer questions; the limit is 35%",
        ),
        (
            {"key_most_stem_words_share": 0.351},
            "the key shares the most words with the prompt in 35.1% of single-answer questions; "
            "the limit is 35%",
        ),
        ({"pick_longest_score": 0.41}, "always picking the longest option scores 41.0%"),
        (
            {"pick_shortest_score": 0.41},
            "always picking the shortest option scores 41.0%; the limit is 40%",
        ),
        ({"drop_absolute_score": 0.405}, "then picking the longest, scores 40.5%"),
        (
            {"drop_absolute_guess_score": 0.401},
            "dropping options with absolute words, then guessing among the rest, scores 40.1%; "
            "the limit is 40%",
        ),
        (
            {"pick_most_stem_words_score": 0.401},
            "always picking the option sharing the most words with the prompt scores 40.1%; "
            "the limit is 40%",
        ),
        (
            {"pick_fewest_stem_words_score": 0.401},
            "always picking the option sharing the fewest words with the prompt scores 40.1%; "
            "the limit is 40%",
        ),
        ({"choose_two_both_longest_share": 0.25}, "in 25.0% of choose-two questions"),
        (
            {"choose_two_both_shortest_share": 0.22},
            "both keys are the two shortest options in 22.0% of choose-two questions",
        ),
        (
            {"key_longest_by_margin_share": 0.015},
            "the key outruns every wrong option by 10 or more characters in 1.5%",
        ),
        (
            {"per_subarea": {"multimodal-rag": 7, "nim": 5}},
            "sub-area 'nim' has 5 questions; it needs at least 6",
        ),
        ({"stretch": 61}, "61 questions of 600 are stretch questions; at most 10%"),
        (
            {"trap_usage": {"higher-fid-better": 4, "riva-verb-swap": 1, "fid-x": 0}},
            "trap 'fid-x' is in the wrong options of 0 questions; at least 1",
        ),
        (
            {"trap_usage": {"higher-fid-better": 4, "riva-verb-swap": 1, "skip-trustworthy-ai": 0}},
            None,
        ),
        (
            {"similar_pairs": (SimilarPair("q-a", "p1-b", "self-check", 0.6),)},
            "question 'q-a' and self-check 'p1-b' have similar prompts",
        ),
        (
            {"similar_questions": (SimilarPair("q-a", "q-b", "question", 0.6),)},
            "questions 'q-a' and 'q-b' share most of their words (60% of one's content words",
        ),
        (
            {"trap_usage": {"higher-fid-better": 5}},
            "trap 'higher-fid-better' is in the wrong options of 5 questions; at most 4",
        ),
        (
            {"gap_coverage": {"NIM": 2, "FP8": 1}},
            "gap 'FP8' is in the prompt or a key of 1 question; it needs at least 2",
        ),
    ],
)
def test_each_broken_limit_is_named(change, expected):
    found = problems(replace(sound_figures(), **change), WEIGHTS)

    if expected is None:  # a study-process trap need not be offered as a wrong answer
        assert found == []
        return
    assert len(found) == 1, found
    assert expected in found[0]


def test_a_small_domain_is_named_even_within_its_share():
    figures = replace(sound_figures(), total=600, per_domain={"core-ml": 591, "experimentation": 9})

    found = problems(figures, {"core-ml": 985, "experimentation": 15})

    assert found == ["domain 'experimentation' has 9 questions; it needs at least 10"]


def test_a_domain_missing_from_the_weights_is_named():
    figures = replace(sound_figures(), total=601, per_domain={**sound_figures().per_domain, "x": 1})

    assert problems(figures, WEIGHTS) == ["domain 'x' has no exam weight but has 1 question"]


def test_the_summary_states_each_figure_with_its_limit():
    lines = summary(replace(sound_figures(), key_longest_share=0.27))

    assert lines[0] == (
        "600 questions (limit at least 520): core-ml 300, experimentation 180, trustworthy-ai 120"
    )
    assert "questions per topic (limit at least 4): none of 2 topics under it" in lines
    assert "key is the longest option in 27% of 520 single-answer questions (limit 35%)" in lines
    assert "key is the shortest option in 25% of 520 single-answer questions (limit 35%)" in lines
    assert (
        "key shares the most words with the prompt in 20% of 520 single-answer questions "
        "(limit 35%)"
    ) in lines
    assert (
        "both keys are the two shortest options in 15% of 80 choose-two questions (limit 20%)"
    ) in lines
    assert "30 stretch questions, drills only (limit 10% of the bank)" in lines
    assert "questions per sub-area (limit at least 6): multimodal-rag 7, nim 6" in lines
    assert "always picking the longest option scores 35% (limit 40%)" in lines
    assert "always picking the shortest option scores 20% (limit 40%)" in lines
    assert (
        "dropping options with absolute words, then guessing among the rest, scores 30% (limit 40%)"
    ) in lines
    assert (
        "always picking the option sharing the most words with the prompt scores 15% (limit 40%)"
    ) in lines
    assert (
        "always picking the option sharing the fewest words with the prompt scores 32% (limit 40%)"
    ) in lines
    assert "no similar prompts (limit none)" in lines
    assert "no similar questions (limit none)" in lines
    assert (
        "questions per trap in wrong options (limit 4): higher-fid-better 4, riva-verb-swap 1"
    ) in lines
    assert lines[-1] == (
        "questions per gap, in a prompt or a key (limit at least 2): none of 2 gaps under it"
    )


def test_the_summary_states_each_shortest_figure_next_to_its_longest_one():
    lines = summary(sound_figures())

    key_longest = next(n for n, line in enumerate(lines) if line.startswith("key is the longest"))
    pick_longest = lines.index("always picking the longest option scores 35% (limit 40%)")
    assert lines[key_longest + 1].startswith("key is the shortest option in 25%")
    assert lines[pick_longest + 1] == "always picking the shortest option scores 20% (limit 40%)"


def test_the_summary_names_what_falls_short_fewest_first():
    pairs = tuple(SimilarPair(f"q-{n}", f"q-{n}x", "question", 0.6) for n in range(7))
    lines = summary(
        replace(
            sound_figures(),
            per_topic={"fid": 6, "pruning": 3, "privacy": 0},
            similar_questions=pairs,
            gap_coverage={"NIM": 1, "FP8": 2, "VAE": 1},
        )
    )

    assert (
        "questions per topic (limit at least 4): 2 of 3 topics under it: privacy 0, pruning 3"
        in lines
    )
    assert (
        "7 pairs of similar questions (limit none): q-0 ~ q-0x 60%; q-1 ~ q-1x 60%; "
        "q-2 ~ q-2x 60%; q-3 ~ q-3x 60%; q-4 ~ q-4x 60%; and 2 more"
    ) in lines
    assert lines[-1].endswith("(limit at least 2): 2 of 3 gaps under it: NIM 1, VAE 1")


# --- the real bank ----------------------------------------------------------------------------


def test_the_real_bank_meets_every_limit():
    syllabus = read_yaml(FIXTURES / "syllabus.yaml")
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
        for obj in read_yaml(path) or []
        if obj["model"] == "phases.question"
    ]
    topics = [obj["fields"]["slug"] for obj in syllabus if obj["model"] == "phases.topic"]
    subareas = [
        obj["fields"]["slug"]
        for path in files
        for obj in read_yaml(path) or []
        if obj["model"] == "phases.subarea"
    ]

    figures = measure(bank, checks, topics, subareas=subareas)

    # Every subject issue 39 found missing or thin is a sub-area with at least six questions.
    assert len(figures.per_subarea) >= 24

    assert problems(figures, weights) == []
    # problems() covers these too; named here so a guesser over its limit fails by name.
    assert figures.key_most_stem_words_share <= LIMITS.key_most_stem_words_share
    assert figures.pick_most_stem_words_score <= LIMITS.pick_most_stem_words_score
    assert figures.pick_fewest_stem_words_score <= LIMITS.pick_fewest_stem_words_score
