"""montecarlo's worlds: dealt by the counts, exchange cards kept with their receiver, and the
walk between worlds spreads cards uniformly over the worlds the constraints allow."""

import random

from gameplay.bots.inference import Constraint, face_mask
from gameplay.bots.observation import Table, observe
from gameplay.bots.worlds import Worlds
from gameplay.engine import cards as C
from gameplay.engine.game import Game, deal_cards
from gameplay.engine.options import preset
from gameplay.engine.ruleset import Rules

ME = 1


def _start(gave_to: int | None = None):
    """Seat 1's view of a fresh classic deal, a face it does not hold, and cards it gave."""
    rules = Rules(preset("classic"), 4)
    hands, _ = deal_cards(rules, 0, random.Random(7))
    game = Game(rules)
    deal = game.begin(hands, leader=0)
    gave = {gave_to: C.mask_cards(hands[gave_to])[:2]} if gave_to is not None else {}
    obs = observe(deal, game, Table(), ME, gave=gave)
    absent = next(f for f in rules.natural_faces if not C.face_chunk(obs.hand, f))
    return obs, absent, gave


def test_walked_worlds_keep_counts_unseen_cards_and_exchange_cards():
    obs, absent, gave = _start(gave_to=2)
    # seat 3 "cannot hold" the absent face: a constraint that makes the walk run
    found = [Constraint(3, 0, face_mask(absent), ())]
    worlds = Worlds(obs, found, random.Random(1), steps=6)
    for _ in range(200):
        hands, blind = worlds.next()
        assert blind is None and hands[ME] == obs.hand
        assert [C.mask_count(h) for h in hands] == obs.held
        assert sum(h for s, h in enumerate(hands) if s != ME) == obs.unseen()
        assert C.mask_contains(hands[2], C.cards_mask(gave[2]))
        assert not C.face_chunk(hands[3], absent)  # once clean, a walk never breaks it


def test_the_walk_spreads_a_free_card_as_a_uniform_deal_would():
    """With seat 3 barred from one face, a card of any other face is at seat 3 with
    probability held[3] / (free places), the share of places the barred cards cannot take."""
    obs, absent, _ = _start()
    found = [Constraint(3, 0, face_mask(absent), ())]
    worlds = Worlds(obs, found, random.Random(2), steps=6)
    card = next(c for c in C.mask_cards(obs.unseen()) if c >> 2 != absent)
    barred = C.chunk_count(C.face_chunk(obs.unseen(), absent))
    others = sum(obs.held[s] for s in (0, 2, 3))
    expected = obs.held[3] / (others - barred)
    n = 4000
    at_three = sum(1 for _ in range(n) if worlds.next()[0][3] >> (card * 8) & 0xFF)
    assert abs(at_three / n - expected) < 0.04, (at_three / n, expected)
