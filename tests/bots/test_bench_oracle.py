"""bench/oracle.py (issue #32): montecarlo dealt the true hands, to bound what reading the
hidden cards better could win. The bound holds only if every world is the live deal, and a
window (``--after``, ``--before``) only if the other decisions keep montecarlo's own worlds."""

import random

from bench.oracle import see_the_cards
from gameplay.bots import base
from gameplay.bots.heuristic import HeuristicBot
from gameplay.bots.montecarlo import MonteCarloBot
from gameplay.bots.observation import GameLog
from gameplay.bots.worlds import Worlds
from gameplay.engine import selfplay
from gameplay.engine.game import Game
from gameplay.engine.options import preset
from gameplay.engine.ruleset import Rules
from gameplay.runner.match import play_game


def put_back(monkeypatch):
    """What see_the_cards patches, put back after the test."""
    monkeypatch.setattr(base, "observe", base.observe)
    monkeypatch.setattr(MonteCarloBot, "dealer", MonteCarloBot.dealer)
    monkeypatch.setattr(Worlds, "walk", Worlds.walk)


def test_the_oracle_deals_the_hands_of_the_deal_the_seat_last_saw(monkeypatch):
    put_back(monkeypatch)
    see_the_cards()
    rules = Rules(preset("presidents-deck"), 4)
    deal = selfplay.fresh_deal(rules, random.Random(3))
    obs = base.observe(deal, Game(rules), GameLog(), 2)
    hands, blind = MonteCarloBot(playouts=4).dealer(obs, [])()
    assert hands == list(deal.hands) and blind is None


def test_in_a_game_every_world_is_the_live_deal_not_an_earlier_one(monkeypatch):
    put_back(monkeypatch)
    see_the_cards()
    oracle = MonteCarloBot.dealer
    worlds = []

    def spying(bot, obs, found):
        deal = oracle(bot, obs, found)

        def dealt():
            world = deal()
            worlds.append((obs, world))
            return world

        return dealt

    monkeypatch.setattr(MonteCarloBot, "dealer", spying)
    bot = MonteCarloBot(playouts=4, walk=0)
    play_game([bot, HeuristicBot(), HeuristicBot(), HeuristicBot()], preset("classic"), seed=7)
    assert worlds
    for obs, (hands, _) in worlds:
        assert hands[obs.seat] == obs.hand  # its own hand as it is now, after its plays
        assert sum(hands[s] for s in range(4) if s != obs.seat) == obs.unseen()


def test_before_its_window_the_dealer_deals_its_own_guesses(monkeypatch):
    put_back(monkeypatch)
    see_the_cards(after=1)
    rules = Rules(preset("presidents-deck"), 4)
    deal = selfplay.fresh_deal(rules, random.Random(3))
    obs = base.observe(deal, Game(rules), GameLog(), 2)
    hands, _ = MonteCarloBot(playouts=4).dealer(obs, [])()
    assert hands[2] == deal.hands[2] and hands != list(deal.hands)


def test_the_history_walk_gives_the_true_hands_only_inside_the_window(monkeypatch):
    """presidents-deck's worlds come from the walk (worlds.py), not the dealer."""
    put_back(monkeypatch)
    see_the_cards(after=6)
    live, walked = {}, []
    observe, walk = base.observe, Worlds.walk

    def watching(deal, game, log, seat, **kwargs):
        live["hands"] = list(deal.hands)
        return observe(deal, game, log, seat, **kwargs)

    def walking(worlds, steps):
        hands = walk(worlds, steps)
        walked.append((worlds.moves, hands[1:4], live["hands"][1:4]))  # the others' hands
        return hands

    monkeypatch.setattr(base, "observe", watching)
    monkeypatch.setattr(Worlds, "walk", walking)
    bot = MonteCarloBot(playouts=4)
    play_game([bot, HeuristicBot(), HeuristicBot(), HeuristicBot()], preset("presidents-deck"),
              seed=7)
    inside = [(hands, true) for moves, hands, true in walked if moves >= 6]
    outside = [(hands, true) for moves, hands, true in walked if moves < 6]
    assert inside and outside
    assert all(hands == true for hands, true in inside)
    assert any(hands != true for hands, true in outside)
