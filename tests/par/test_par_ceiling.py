"""bench/par_ceiling.py (issue #31: how far par could narrow a spread): the spread a deal's
play leaves is the variance among its replays, apart from the spread between deals."""

import pytest

from bench.par_ceiling import split


def test_the_play_leaves_the_variance_among_a_deals_replays():
    # two deals, each replayed twice: the cards decide ±1, the play ±0.5 around it
    total, within = split([[1.5, 0.5], [-0.5, -1.5]])
    assert total == pytest.approx(1.25)  # 1 between the deals, 0.25 within them
    assert within == pytest.approx(0.5)  # each deal's sample variance of ±0.5


def test_replays_that_always_end_alike_leave_nothing_to_the_play():
    total, within = split([[1.0, 1.0, 1.0], [0.0, 0.0, 0.0]])
    assert within == 0 and total == pytest.approx(0.25)
