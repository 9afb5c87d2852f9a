"""bench/par.py's figures (issue #31 "Done when": the per-deal standard deviation of the first
bot's result, raw and luck-adjusted): the spread from each game's sum counts a game's deals
that move together, which the per-deal spread does not."""

import math
import statistics

import pytest

from bench.par import game_methods, methods


def test_deals_that_move_together_in_a_game_widen_the_spread_from_game_sums():
    # two games a block, four deals a game; the raw result repeats through a game (a President
    # who stays President), par's adjusted result alternates within it
    games = [(block, [(sign, (-1) ** deal) for deal in range(4)])
             for block in range(3) for sign in (1, -1)]
    raw, adjusted, _ = methods(games, 2)["par"]
    game_raw, game_adjusted, scale = game_methods(games, 2)["par"]
    assert scale == pytest.approx(1 / 2)
    per_deal_sd = statistics.stdev(raw)
    assert per_deal_sd == pytest.approx(math.sqrt(24 / 23))  # 24 deals of ±1
    # raw: each game's sum is ±4, one a deal played 4/√4 = 2: twice the per-deal spread
    assert game_raw == [4, -4] * 3
    assert statistics.stdev(game_raw) * scale == pytest.approx(2 * math.sqrt(6 / 5))
    # adjusted: the deals cancel within each game
    assert statistics.stdev(game_adjusted) == 0
    assert statistics.stdev(adjusted) == pytest.approx(per_deal_sd)


def test_the_duplicate_spread_from_game_sums_averages_a_blocks_rotations():
    games = [(0, [(1.0, 0.0)] * 2), (0, [(3.0, 0.0)] * 2), (1, [(0.0, 0.0)] * 2),
             (1, [(2.0, 0.0)] * 2)]
    raw, duplicate, scale = game_methods(games, 2)["duplicate"]
    assert raw == [2.0, 6.0, 0.0, 4.0]
    assert duplicate == [4.0, 2.0]  # each block's mean game sum
    assert scale == pytest.approx(1)  # √rotations / √deals
