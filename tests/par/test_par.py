"""Par of a deal (issue #31 "Par"): each seat's par is what the reference policy is expected to
score from the dealt position, from a seed of the deal alone; luck is par (over role par) less
the table's mean; the luck-adjusted result is the result less the luck."""

import random

import pytest

from gameplay.bots import make_bot
from gameplay.engine.game import deal_cards
from gameplay.engine.options import preset
from gameplay.engine.ruleset import Rules
from gameplay.engine.scoring import Scoring, deal_points
from gameplay.runner.figures import mean_interval
from gameplay.runner.match import play_game
from gameplay.runner.par import before_deal, game_pars, par

SCORING = Scoring("fixed-rounds", deals=4)


def _game(lineup, name="classic", seed=7, scoring=SCORING):
    bots = [make_bot(spec, seed=seed + s) for s, spec in enumerate(lineup)]
    return play_game(bots, preset(name), seed=seed, scoring=scoring)


@pytest.mark.parametrize("name", ["classic", "presidents-deck", "friday"])
@pytest.mark.parametrize("system", [SCORING, Scoring("penalty", deals=4)])
def test_luck_is_zero_sum_so_a_tables_adjusted_results_add_up_to_its_raw_results(name, system):
    # issue #31: "Luck is a seat's par minus the table's mean par (zero-sum over the table)"
    result = _game(["heuristic", "greedy", "random", "heuristic"], name, scoring=system)
    pars = game_pars(result.transcript, result.finishing_orders, playouts=8)
    assert len(pars) == len(result.finishing_orders) == 4
    for p, order in zip(pars, result.finishing_orders, strict=True):
        points = deal_points(system, order)
        results = [points[s] for s in range(4)]
        assert sum(p.luck) == pytest.approx(0, abs=1e-9)
        assert sum(p.adjusted(results)) == pytest.approx(sum(results))
        assert any(abs(luck) > 1e-9 for luck in p.luck)  # some seat was dealt luck


def test_par_is_the_same_for_the_same_deal_whoever_plays_it():
    # issue #31: par is "from a seed that depends only on the deal, so it is reproducible";
    # the same shuffles played by other bots (who exchange other cards) have the same par
    # wherever the deal is the same: the first deal, and any deal from the same roles
    first = _game(["heuristic", "greedy", "random", "heuristic"])
    second = _game(["random", "random", "montecarlo:playouts=4", "greedy"])
    assert first.transcript["deals"][0]["hands"] == second.transcript["deals"][0]["hands"]
    par_first = game_pars(first.transcript, first.finishing_orders, playouts=16)
    par_second = game_pars(second.transcript, second.finishing_orders, playouts=16)
    assert par_first[0] == par_second[0]
    assert par_first == game_pars(first.transcript, first.finishing_orders, playouts=16)
    # deal 2 of the first game, dealt again from the same roles in a game of its own
    rules = Rules(preset("classic"), 4)
    hands, _ = deal_cards(rules, 1, random.Random(3))
    roles = first.finishing_orders[0]
    assert par(before_deal(rules, 1, roles), hands, scoring=SCORING) == \
        par(before_deal(rules, 1, list(roles)), list(hands), scoring=SCORING)
    assert par(before_deal(rules, 1, roles), hands, scoring=SCORING) != \
        par(before_deal(rules, 1, roles[::-1]), hands, scoring=SCORING)


@pytest.mark.parametrize("name", ["classic", "presidents-deck"])
def test_over_many_deals_the_adjusted_mean_difference_equals_the_raw_one(name):
    # issue #31: "over many deals, the mean adjusted difference between two bots equals the raw
    # one within its interval": heuristic (seat turning each game) against three greedy bots
    raw, adjusted = [], []
    for number in range(150):
        lineup = ["greedy"] * 4
        seat = number % 4
        lineup[seat] = "heuristic"
        result = _game(lineup, name, seed=1000 + number)
        pars = game_pars(result.transcript, result.finishing_orders, playouts=8)
        for p, order in zip(pars, result.finishing_orders, strict=True):
            points = deal_points(SCORING, order)
            results = [points[s] for s in range(4)]
            others = [s for s in range(4) if s != seat]
            adj = p.adjusted(results)
            raw.append(results[seat] - sum(results[s] for s in others) / 3)
            adjusted.append(adj[seat] - sum(adj[s] for s in others) / 3)
    gaps = [a - r for a, r in zip(adjusted, raw, strict=True)]
    low, high = mean_interval(sum(gaps), sum(g * g for g in gaps), len(gaps))
    assert low <= 0 <= high  # the adjusted difference estimates the raw one
    raw_low, _ = mean_interval(sum(raw), sum(r * r for r in raw), len(raw))
    adj_low, _ = mean_interval(sum(adjusted), sum(a * a for a in adjusted), len(adjusted))
    assert raw_low > 0 and adj_low > 0  # and both see heuristic is the better bot


def test_the_time_cap_bounds_the_work_of_a_deal():
    # issue #31: par is "bounded in time per deal": with no time at all, one play-out a seat
    rules = Rules(preset("classic"), 5)
    hands, _ = deal_cards(rules, 0, random.Random(5))
    capped = par(before_deal(rules, 0), hands, scoring=SCORING, playouts=10_000, seconds=0)
    assert capped.playouts == 1
    assert par(before_deal(rules, 0), hands, scoring=SCORING, playouts=12).playouts == 12
