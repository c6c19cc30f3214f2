"""progress.verdicts.beta against figures worked out by hand and against its own definition."""

from math import comb

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from progress.verdicts import beta


@pytest.mark.parametrize(
    ("right", "answered", "p"),
    [(7, 10, 0.43), (9, 10, 0.89), (16, 20, 0.80), (30, 40, 0.73), (34, 40, 0.98)],
)
def test_the_chance_of_at_least_seventy_percent(right, answered, p):
    assert beta.prob_at_least(right, answered - right, 0.7) == pytest.approx(p, abs=0.005)


def test_seven_of_ten_is_likely_between_49_and_83_percent():
    assert beta.percent_interval(7, 3) == (49, 83)


def test_no_answers_is_the_uniform_prior():
    assert beta.prob_at_least(0, 0, 0.7) == pytest.approx(0.3)
    assert beta.quantile(0.1, 0, 0) == pytest.approx(0.1)
    assert beta.quantile(0.9, 0, 0) == pytest.approx(0.9)
    assert beta.percent_interval(0, 0) == (10, 90)


@given(st.integers(0, 60), st.integers(0, 60), st.floats(0.05, 0.95))
def test_a_quantile_inverts_the_chance(right, wrong, q):
    x = beta.quantile(q, right, wrong)
    assert 1 - beta.prob_at_least(right, wrong, x) == pytest.approx(q, abs=1e-6)


def test_settling_counts_the_answers_at_the_current_rate():
    assert beta.answers_to_settle(16, 4, 0.7, 0.8) == 0  # 16 of 20: 0.80, already likely
    assert beta.answers_to_settle(2, 4, 0.7, 0.8) == 0  # likely under the bar: settled too
    # 3 of 3 (0.76): one more right, at the current rate of 4/5, makes 4 of 4 (0.83).
    assert beta.prob_at_least(3, 0, 0.7) < 0.8 <= beta.prob_at_least(4, 0, 0.7)
    assert beta.answers_to_settle(3, 0, 0.7, 0.8) == 1
    # 2 of 3 (0.35) at a current rate of 3/5 goes under the bar, given enough answers.
    more = beta.answers_to_settle(2, 1, 0.7, 0.8)
    assert more is not None and more > 0
    # A learner at exactly the bar never settles it.
    assert beta.answers_to_settle(7, 3, 0.7, 0.8, limit=50) is None


def term_by_term(right: int, wrong: int, x: float) -> float:
    n = right + wrong + 1
    return sum(comb(n, k) * x**k * (1 - x) ** (n - k) for k in range(right + 1))


# Up to a window of answers and the 200 more the settling count may try.
@settings(max_examples=60)
@given(st.integers(0, 240), st.integers(0, 240), st.floats(0.001, 0.999))
def test_the_chance_is_the_binomial_sum_term_by_term(right, wrong, x):
    assert beta.prob_at_least(right, wrong, x) == pytest.approx(
        term_by_term(right, wrong, x), abs=1e-12
    )


def test_every_count_a_window_can_hold_reads_as_the_plain_sum_reads(monkeypatch):
    # The pages show whole percents and settled or not: for every count of 40 answers or fewer
    # these come out as the sum written term by term gives them, at the site's bar and odds.
    def figures(right, wrong):
        return beta.percent_interval(right, wrong), beta.answers_to_settle(right, wrong, 0.7, 0.8)

    counts = [(right, wrong) for right in range(41) for wrong in range(41 - right)]
    fast = [figures(*count) for count in counts]
    monkeypatch.setattr(beta, "prob_at_least", term_by_term)
    assert fast == [figures(*count) for count in counts]
