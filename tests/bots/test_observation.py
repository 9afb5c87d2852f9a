"""What a bot sees: its own hand and the public table, never another hand; and a sampled
world rebuilt from the view behaves like the real deal."""

from dataclasses import fields

import pytest

from gameplay.bots.base import Bot, BotDecider
from gameplay.bots.montecarlo import MonteCarloBot
from gameplay.bots.observation import GameLog
from gameplay.bots.simple import RandomBot
from gameplay.engine import cards as C
from gameplay.engine.game import Game
from gameplay.engine.options import PRESETS, preset
from gameplay.engine.plays import BLIND, PASS
from gameplay.engine.ruleset import Rules
from gameplay.engine.scoring import Scoring
from gameplay.engine.selfplay import play_deal


class Spy(Bot):
    """Plays randomly and checks each observation against the real deal it was built from."""

    def __init__(self, seed, deals):
        self.random = RandomBot(seed)
        self.deals = deals
        self.seen = 0

    def play(self, obs, legal):
        deal = self.deals[-1]
        assert obs.hand == deal.hands[obs.seat] and obs.turn == obs.seat
        assert obs.held == deal.held
        leaked = [s for s in range(obs.players)
                  if s != obs.seat and deal.hands[s] and deal.hands[s] != obs.hand
                  for f in fields(obs) if getattr(obs, f.name) == deal.hands[s]]
        assert not leaked
        json = obs.to_json()
        assert "hands" not in json and json["hand"] == obs.rules.cards_text(obs.cards)
        # every card is in this hand, played, or unseen — and the unseen are the others' cards
        others = sum(deal.hands[s] for s in range(obs.players) if s != obs.seat)
        if deal.blind:
            others += sum(C.cards_mask(p) for p in deal.blind)
        assert obs.unseen() == others
        assert obs.played == sum(C.cards_mask(m.cards) for _, m in obs.moves
                                 if m is not PASS and m is not BLIND) or deal.blind
        if obs.trick:
            assert obs.trick[-1][1] in (obs.last, PASS, BLIND) or obs.last is None
        world = obs.deal_with(list(deal.hands), deal.blind)
        assert [repr(m) for m in world.legal_moves()] == [repr(m) for m in legal]
        self.seen += 1
        return self.random.play(obs, legal)


@pytest.mark.parametrize("name", sorted(PRESETS))
def test_observation_is_the_seats_view_and_rebuilds_the_deal(name, monkeypatch):
    rules = Rules(preset(name), 4)
    game = Game(rules, scoring=Scoring("penalty", deals=2))
    deals = []
    original = Game.begin

    def begin(self, *args, **kwargs):
        deal = original(self, *args, **kwargs)
        deals.append(deal)
        return deal

    monkeypatch.setattr(Game, "begin", begin)
    log = GameLog()
    spies = [Spy(s, deals) for s in range(4)]
    seats = [BotDecider(spy, s, log, game) for s, spy in enumerate(spies)]
    import random

    rng = random.Random(5)
    for _ in range(2):
        play_deal(game, seats, rng)
    assert all(spy.seen for spy in spies)
    assert all(seat.stats.faults == [] for seat in seats)


def test_montecarlo_samples_respect_counts_and_exchange_knowledge():
    rules = Rules(preset("classic"), 4)
    import random

    from gameplay.engine.game import deal_cards

    hands, _ = deal_cards(rules, 0, random.Random(1))
    game = Game(rules)
    deal = game.begin(hands, leader=1)
    log = GameLog()
    seat = BotDecider(MonteCarloBot(3, playouts=8), 1, log, game)
    seat._deal_number = 0
    given = C.mask_cards(hands[2])[:2]
    seat._gave = {2: given}
    from gameplay.bots.observation import observe

    obs = observe(deal, game, log, 1, gave=seat._gave)
    bot = seat.bot
    for _ in range(20):
        world, blind = bot.sample(obs)
        assert blind is None and world[1] == hands[1]
        assert [C.mask_count(h) for h in world] == deal.held
        assert sum(world) == rules.deck.mask
        assert C.mask_contains(world[2], C.cards_mask(given))


def test_a_guessed_hand_changes_a_copy_of_the_position_not_the_deal():
    rules = Rules(preset("classic"), 4)
    pack = C.mask_cards(rules.deck.mask)
    hands = [C.cards_mask(pack[s::4]) for s in range(4)]
    game = Game(rules, scoring=None)
    deal = game.begin(list(hands), leader=0, direction=1, blind=None, opening=None)
    deal.apply(min(deal.legal_moves(), key=lambda m: deal.strengths()[m.face]))  # seat 0: a 3
    guess = deal.with_hand(1, hands[3])  # seat 1 holding the hearts instead of the spades
    assert deal.hands[1] == hands[1] and guess.hands[1] == hands[3]
    assert guess.turn == deal.turn == 1 and guess.last is deal.last
    assert {m.cards for m in guess.legal_moves() if m is not PASS} != {
        m.cards for m in deal.legal_moves() if m is not PASS}
