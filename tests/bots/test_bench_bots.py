"""bench/bots.py, the strength bench (issue #21): lineups of bot specs with several settings,
montecarlo's budget set for the whole table, seats balanced, and the figures it prints."""

from collections import Counter

import pytest

from bench.bots import (
    TABLES,
    block_games,
    measure,
    orders,
    parse_lineup,
    schedule_balanced,
    with_search,
)


def test_a_lineup_keeps_each_bots_several_settings():
    assert parse_lineup("montecarlo:playouts=200,chains=4; heuristic ;heuristic; greedy") == [
        "montecarlo:playouts=200,chains=4", "heuristic", "heuristic", "greedy"]
    # the old comma form still reads, a key=value piece going with the seat before it
    assert parse_lineup("montecarlo:playouts=200,chains=4,heuristic,random") == [
        "montecarlo:playouts=200,chains=4", "heuristic", "random"]
    assert parse_lineup("greedy,random,random,random") == ["greedy"] + ["random"] * 3
    with pytest.raises(ValueError, match="two seats or more"):
        parse_lineup("montecarlo:playouts=200,chains=4")


def test_ms_and_playouts_set_every_montecarlo_seats_budget_and_nothing_else():
    assert with_search("montecarlo", 50, None) == "montecarlo:budget_ms=50"
    assert with_search("montecarlo:playouts=60,kernel=1", 50, None) == \
        "montecarlo:kernel=1,budget_ms=50"
    assert with_search("montecarlo:budget_ms=20,chains=2", None, 300) == \
        "montecarlo:chains=2,playouts=300"
    assert with_search("montecarlo:chains=2", None, None) == "montecarlo:chains=2"
    assert with_search("heuristic", 50, None) == "heuristic"


def test_the_mixed_table_seats_every_bot_in_every_seat_after_every_other_equally():
    lineup = ["montecarlo"] + TABLES["mixed"]
    assert len(orders(lineup)) == 6 and block_games(2000, lineup) == 2016
    specs = schedule_balanced(lineup, "classic", games=30, seed=1, scoring=None)
    assert len(specs) == 48  # two whole cycles of 6 orders by 4 rotations
    seat_of = Counter()  # (bot, seat)
    after = Counter()  # (bot, the bot on the seat before it)
    for spec in specs:
        seats = {spec.seat_of(p): bot for p, bot in enumerate(spec.lineup)}
        for seat, bot in seats.items():
            seat_of[bot, seat] += 1
            after[bot, seats[(seat - 1) % 4]] += 1
        assert spec.lineup[0] == "montecarlo"
    assert set(seat_of.values()) == {12}
    assert set(after.values()) == {16}
    # a block of four games deals the same hands, each player from each seat
    first = specs[0].deal_seed
    assert [s.deal_seed == first for s in specs[:5]] == [True] * 4 + [False]
    assert sorted(s.seat_of(0) for s in specs[:4]) == [0, 1, 2, 3]


def test_a_line_has_intervals_the_opponents_and_montecarlos_playouts_per_decision():
    r = measure("classic", ["montecarlo:playouts=3", "heuristic", "greedy", "random"],
                games=24, seed=1, workers=1, scoring=None)
    assert (r["games"], r["deals"]) == (24, 24)
    for name in ("first_out", "last_place", "mean_position"):
        low, high = r[name + "_ci"]
        assert low <= r[name] <= high
    assert set(r["opponents_mean_position"]) == {"heuristic", "greedy", "random"}
    # each searched decision plays at least its 3 playouts, one per candidate per world
    assert 3 <= r["playouts_per_decision"] < 10
    assert r["faults"] == 0 and "win_rate" not in r
    assert measure("classic", ["heuristic", "greedy"], games=2, seed=1, workers=1,
                   scoring=None)["playouts_per_decision"] is None


def test_whole_games_with_exchanges_report_game_wins_with_an_interval():
    r = measure("classic", ["greedy", "heuristic", "heuristic", "heuristic"], games=4, seed=2,
                workers=1, scoring={"system": "penalty", "limit": 4})
    assert r["games"] == 4 and r["deals"] > 4  # a penalty game to 4 points takes deals
    low, high = r["win_rate_ci"]
    assert r["wins"] == round(4 * r["win_rate"]) and low <= r["win_rate"] <= high
