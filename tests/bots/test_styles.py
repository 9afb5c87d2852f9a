"""The opponent styles ``spender`` and ``hoarder`` (gameplay/bots/styles.py, issue #21): they
play only legal moves on every preset and at every table size, and choose otherwise than the
heuristic at positions where the style says they should."""

import dataclasses
import random

import pytest

from gameplay.bots import BUILT_IN, SETTINGS, make_bot
from gameplay.bots.base import BotDecider
from gameplay.bots.heuristic import HeuristicBot
from gameplay.bots.observation import GameLog, Observation
from gameplay.bots.styles import HoarderBot, SpenderBot
from gameplay.engine import cards as C
from gameplay.engine import selfplay
from gameplay.engine.deal import CCW
from gameplay.engine.game import Game
from gameplay.engine.options import PRESETS, SAME_COUNT, preset
from gameplay.engine.plays import PASS
from gameplay.engine.ruleset import Rules
from gameplay.engine.scoring import Scoring

STYLES = ["spender", "hoarder"]


class Judged:
    """A seat whose every move is checked against the engine's ``legal_moves()`` of the deal
    it was asked about (the engine is the judge)."""

    def __init__(self, seat: BotDecider, counted: list):
        self.seat, self.counted = seat, counted

    def move(self, deal, legal):
        engine_legal = deal.legal_moves()
        move = self.seat.move(deal, legal)
        assert move in engine_legal, move
        self.counted.append(len(engine_legal))
        return move

    def __getattr__(self, name):
        return getattr(self.seat, name)


def _play_judged(options, players: int, bots: list, seed: int, judged: set) -> list:
    """One game of three deals (so with the exchanges) with the seats in ``judged`` checked."""
    game = Game(Rules(options, players), dealer=0, scoring=Scoring("penalty", deals=3))
    log = GameLog()
    counted: list = []
    seats = [BotDecider(b, s, log, game) for s, b in enumerate(bots)]
    deciders = [Judged(s, counted) if s.seat in judged else s for s in seats]
    selfplay.play_game(game, deciders, random.Random(seed))
    return counted


def test_the_styles_are_built_in_bots_without_settings():
    for name, cls in (("spender", SpenderBot), ("hoarder", HoarderBot)):
        assert name in BUILT_IN and SETTINGS[name] == {}
        assert isinstance(make_bot(name, seed=3), cls)
        with pytest.raises(ValueError, match=f"{name} takes no settings, not 'x'"):
            make_bot(f"{name}:x=1")


@pytest.mark.parametrize("name", sorted(PRESETS))
@pytest.mark.parametrize("style", STYLES)
def test_a_style_plays_thousands_of_legal_moves_on_every_preset(style, name):
    """Two of the style at a table with a heuristic and a greedy player, whole games with the
    exchanges: every move the style chooses is one of the engine's legal moves."""
    counted: list = []
    seed = 0
    while len(counted) < 1500:
        bots = [make_bot(style, seed=seed), make_bot("heuristic"), make_bot(style),
                make_bot("greedy")]
        counted += _play_judged(preset(name), 4, bots, seed, {0, 2})
        seed += 1
    assert sum(n > 1 for n in counted) > 500  # real choices, not only forced moves


@pytest.mark.parametrize("style", STYLES)
@pytest.mark.parametrize("name, players", [
    ("classic", 2), ("school-scum", 3), ("friday", 7), ("modern", 18), ("wild-jokers", 27),
    ("presidents-deck", 12), ("presidents-deck", 2), ("classic", 52)])
def test_a_style_plays_at_every_table_size(style, name, players):
    """From two seats to one card a seat (the engine's largest table): no fixed seat limit."""
    bots = [make_bot(style, seed=s) if s % 2 == 0 else make_bot("heuristic")
            for s in range(players)]
    counted = _play_judged(preset(name), players, bots, 1, set(range(0, players, 2)))
    assert counted


# Classic (seed 002: 2s high, then Aces): card codes are face * 4 + suit, the 2s' face is 2.
def _code(face: int, suit: int = 0) -> int:
    return face * 4 + suit


def _choices(mine: list[int], led: int, **options) -> dict:
    """Seat 0 holds ``mine``; seat 1 leads the single ``led`` and seat 0 answers next
    (counter-clockwise): what heuristic, spender and hoarder choose there."""
    rules = Rules(dataclasses.replace(preset("classic"), **options), 4)
    others = [c for c in C.mask_cards(rules.deck.mask) if c not in mine and c != led]
    hands = [C.cards_mask(mine), C.cards_mask([led] + others[:12]),
             C.cards_mask(others[12:24]), C.cards_mask(others[24:36])]
    game = Game(rules, dealer=0, scoring=None)
    deal = game.begin(hands, leader=1, direction=CCW, blind=None, opening=None)
    deal.apply(next(m for m in deal.legal_moves() if m.cards == (led,)))
    obs = Observation.at(deal, 0)
    chosen = {}
    for bot in (HeuristicBot(), SpenderBot(), HoarderBot()):
        move = bot.play(obs, deal.legal_moves())
        chosen[bot.name] = "pass" if move is PASS else (move.face, move.count)
    return chosen


def test_the_spender_takes_a_low_trick_early_where_the_heuristic_passes():
    """Thirteen cards, a single 6 led: the lowest whole group that beats it (seed 002: a
    single is beaten by any count) is the King, 7 ranks up.  The heuristic passes rather than
    spend a card that high on a low trick early in the deal (pass_jump 6), and so does the
    hoarder; the spender plays it."""
    mine = [_code(3), _code(3, 1), _code(3, 2), _code(4), _code(4, 1), _code(5), _code(5, 1),
            _code(6, 1), _code(6, 2), _code(13), _code(14), _code(14, 1), _code(2)]
    assert _choices(mine, _code(6)) == {"heuristic": "pass", "spender": (13, 1),
                                        "hoarder": "pass"}


def test_the_spender_breaks_a_pair_for_a_trick_the_heuristic_lets_go():
    """Classic played with seed 000's count rule (a trick keeps the count it was led with),
    thirteen cards, a single 7 led, and only pairs above it: the heuristic splits a high pair
    only near the top (a King or better) or near its end; the spender splits its 9s."""
    mine = [_code(3), _code(3, 1), _code(4), _code(4, 1), _code(5), _code(5, 1), _code(6, 1),
            _code(6, 2), _code(9), _code(9, 1), _code(10), _code(10, 1), _code(3, 2)]
    assert _choices(mine, _code(7), count_rule=SAME_COUNT) == {
        "heuristic": "pass", "spender": (9, 1), "hoarder": "pass"}


def test_the_hoarder_keeps_its_2_where_the_heuristic_spends_it():
    """Three cards, a 2, a 5 and a 7, and a single Queen led: two groups left against one
    control is the heuristic's endgame (it spends the 2 to take the lead), and the spender's;
    the hoarder keeps its 2 until its controls outnumber the rest, so it passes."""
    mine = [_code(2), _code(5), _code(7)]
    assert _choices(mine, _code(12)) == {"heuristic": (2, 1), "spender": (2, 1),
                                         "hoarder": "pass"}


def test_the_hoarder_passes_rather_than_jump_four_ranks_early():
    """Thirteen cards, a single 8 led: the lowest whole group above it is the Queen, 4 ranks
    up, near the top.  The heuristic (and the spender) plays it; the hoarder passes."""
    mine = [_code(3), _code(3, 1), _code(4), _code(4, 1), _code(5), _code(5, 1), _code(6, 1),
            _code(6, 2), _code(7), _code(7, 1), _code(12), _code(2), _code(2, 1)]
    assert _choices(mine, _code(8)) == {"heuristic": (12, 1), "spender": (12, 1),
                                        "hoarder": "pass"}
