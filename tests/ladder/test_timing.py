"""Decision times kept as a histogram (ladder.timing): a median and p95 read from it are
within the buckets' resolution of the true ones, and histograms add up."""

import math

from hypothesis import given
from hypothesis import strategies as st

from ladder import timing

TIMES = st.lists(st.floats(min_value=0.02, max_value=5_000, allow_nan=False), min_size=1,
                 max_size=300)
# A bucket is a quarter of a doubling wide and a quantile its geometric middle.
WITHIN = 2 ** (0.5 / timing.STEPS_PER_DOUBLING) * 1.0001


def true_quantile(times, q):
    ordered = sorted(times)
    return ordered[max(0, math.ceil(q * len(ordered)) - 1)]


@given(TIMES, st.sampled_from([0.5, 0.95]))
def test_a_quantile_from_the_histogram_is_within_a_bucket_of_the_true_one(times, q):
    estimate = timing.quantile(timing.add(timing.empty(), times), q)
    exact = true_quantile(times, q)
    assert exact / WITHIN <= estimate <= exact * WITHIN


@given(TIMES, TIMES)
def test_histograms_of_two_games_add_up_to_the_histogram_of_both(first, second):
    both = timing.add(timing.empty(), first + second)
    assert timing.merge(timing.add([], first), timing.add([], second)) == both
    assert sum(both) == len(first) + len(second)


def test_no_decisions_have_no_quantile_and_extremes_stay_in_the_end_buckets():
    assert timing.quantile(timing.empty(), 0.5) is None
    histogram = timing.add([], [0.0, 10 ** 9])
    assert histogram[0] == histogram[-1] == 1
