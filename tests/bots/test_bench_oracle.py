"""bench/oracle.py (issue #32): montecarlo dealt the true hands, to bound what reading the
hidden cards better could win. The bound holds only if every world is the live deal."""

import random

from bench.oracle import see_the_cards
from gameplay.bots import base
from gameplay.bots.heuristic import HeuristicBot
from gameplay.bots.montecarlo import MonteCarloBot
from gameplay.bots.observation import GameLog
from gameplay.engine import selfplay
from gameplay.engine.game import Game
from gameplay.engine.options import preset
from gameplay.engine.ruleset import Rules
from gameplay.runner.match import play_game


def test_the_oracle_deals_the_hands_of_the_deal_the_seat_last_saw(monkeypatch):
    monkeypatch.setattr(base, "observe", base.observe)  # put back after the test
    monkeypatch.setattr(MonteCarloBot, "dealer", MonteCarloBot.dealer)
    see_the_cards()
    rules = Rules(preset("presidents-deck"), 4)
    deal = selfplay.fresh_deal(rules, random.Random(3))
    obs = base.observe(deal, Game(rules), GameLog(), 2)
    hands, blind = MonteCarloBot(playouts=4).dealer(obs, [])()
    assert hands == list(deal.hands) and blind is None


def test_in_a_game_every_world_is_the_live_deal_not_an_earlier_one(monkeypatch):
    monkeypatch.setattr(base, "observe", base.observe)
    monkeypatch.setattr(MonteCarloBot, "dealer", MonteCarloBot.dealer)
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
