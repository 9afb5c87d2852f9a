"""montecarlo's worlds: the history of the other seats' choices and the walk over hands that
keep to it (BOTS.md, inference)."""

import functools
import random

import pytest

from gameplay.bots import kernel
from gameplay.bots.heuristic import HeuristicBot
from gameplay.bots.montecarlo import MonteCarloBot
from gameplay.bots.observation import GameLog, observe
from gameplay.bots.simple import RandomBot
from gameplay.bots.worlds import History, Worlds
from gameplay.engine import cards as C
from gameplay.engine.game import Game
from gameplay.engine.options import preset
from gameplay.engine.plays import PASS
from gameplay.engine.ruleset import Rules
from gameplay.runner.match import play_game
from tests.bots.test_montecarlo import _play_spied

PRESETS = ["school-scum", "friday", "classic", "modern", "wild-jokers", "presidents-deck"]


@pytest.mark.parametrize("name", PRESETS)
def test_the_true_hands_of_heuristic_players_break_no_position(name):
    """The heuristic is deterministic, so the hands heuristic players really held reproduce
    every choice they made; and the history holds every move of the other seats (seed 004's
    Bomb Reverses turn the direction, so the replay starts from the deal's first one)."""
    positions = 0

    def check(obs, deal):
        nonlocal positions
        history = History(obs)
        others = sum(1 for s, _ in obs.moves if s != obs.seat)
        assert sum(len(p) for p in history.positions) == others
        for s in range(4):
            if s != obs.seat:
                positions += len(history.positions[s])
                assert history.broken(s, deal.hands[s]) == 0, (name, obs.moves, s)

    for seed in range(6):
        _play_spied(name, seed, check)
    assert positions > 300


@pytest.mark.parametrize("name", ["wild-jokers", "presidents-deck"])
def test_a_history_built_on_an_earlier_one_judges_hands_as_a_fresh_one(name):
    """What an earlier History found of guessed hands is kept (a position and a hand decide the
    heuristic's move) while the moves go on from the same ones: a History carried from decision
    to decision, and on into the next deal, judges the true and guessed hands exactly as one
    built afresh, and it does carry within a deal."""
    rng = random.Random(7)
    earlier = None
    carried = 0

    def check(obs, deal):
        nonlocal earlier, carried
        history, fresh = History(obs, earlier), History(obs)
        carried += earlier is not None and history.known is earlier.known
        cards = C.mask_cards(obs.unseen())
        for s in range(4):
            if s != obs.seat and obs.held[s]:
                for hand in (deal.hands[s], C.cards_mask(rng.sample(cards, obs.held[s]))):
                    assert history.broken(s, hand) == fresh.broken(s, hand)
        earlier = history

    for seed in range(3):
        _play_spied(name, seed, check)
    assert carried > 50


@pytest.mark.parametrize("name", PRESETS)
def test_the_kernel_judges_hands_as_the_engine_and_heuristic(name):
    """A History judged in the kernel (``fast``, as montecarlo walks) counts the positions a
    hand breaks exactly as one judged with the engine's legal moves and ``heuristic_move``,
    for the true hands and for guessed ones, counting to the end or stopping at ``enough``."""
    rng = random.Random(3)
    hands = broken = 0

    def check(obs, deal):
        nonlocal hands, broken
        slow, fast = History(obs), History(obs, fast=kernel)
        cards = C.mask_cards(obs.unseen())
        for s in range(4):
            if s != obs.seat and obs.held[s]:
                for hand in (deal.hands[s], C.cards_mask(rng.sample(cards, obs.held[s]))):
                    bad = slow.broken(s, hand)
                    assert fast.broken(s, hand) == bad, (obs.moves, s)
                    assert fast.broken(s, hand, 2) == slow.broken(s, hand, 2) == min(bad, 2)
                    hands += 1
                    broken += bad > 0

    for seed in range(2):
        _play_spied(name, seed, check)
    assert hands > 50
    assert broken > 10


def test_the_kernel_walks_as_python_does():
    """Walked in the kernel (``History(fast=kernel)``), a world takes the same swaps from the
    same generator as the Python walk: the same hands, the same counts of broken positions,
    the generator left in the same state (so the same moves at fixed playouts)."""
    moved = 0

    def check(obs, deal):
        nonlocal moved
        if not obs.moves:
            return
        walked = []
        for fast in (None, kernel):
            bot = MonteCarloBot(seed=len(obs.moves), playouts=8)
            w = bot.chains[0]
            w.follow(obs, History(obs, fast=fast), functools.partial(bot.sample, obs))
            start = w.hands[:]
            for _ in range(5):
                w.walk(10)
            walked.append((w.hands, w.bad, bot.rng.getstate()))
        assert walked[0] == walked[1], obs.moves
        moved += walked[0][0] != start

    for seed in range(2):
        _play_spied("presidents-deck", seed, check)
    assert moved > 20


def test_a_pass_breaks_for_a_hand_that_would_have_beaten_the_pile():
    """Classic (seed 002): seat 0 leads a single King and seat 1 passes.  A heuristic player
    holding an Ace would have taken the trick with it, so that hand breaks the pass; a hand
    with nothing above a King does not."""
    rules = Rules(preset("classic"), 4)
    king, ace = 13 * 4, 14 * 4
    hands = [C.cards_mask([king, 7 * 4, 8 * 4, 9 * 4]), C.cards_mask([4 * 4, 5 * 4, 6 * 4]),
             C.cards_mask([10 * 4, 11 * 4, 12 * 4]), C.cards_mask([10 * 4 + 1, 11 * 4 + 1])]
    game = Game(rules, dealer=0, scoring=None)
    log = GameLog()
    deal = game.begin(hands, leader=0, direction=1, blind=None, opening=None)
    log.follow(deal)
    lead = next(m for m in deal.legal_moves() if m is not PASS and m.face == 13)
    for seat, move in ((0, lead), (1, PASS)):
        deal.apply(move)
        log.record(seat, move)
    history = History(observe(deal, game, log, 2))
    assert len(history.positions[1]) == 1
    assert history.broken(1, C.cards_mask([ace, 5 * 4 + 1, 6 * 4 + 1])) == 1
    assert history.broken(1, C.cards_mask([4 * 4 + 1, 5 * 4 + 1, 6 * 4 + 1])) == 0


@pytest.mark.parametrize("name", ["classic", "wild-jokers", "presidents-deck"])
def test_the_walked_world_keeps_the_counts_and_keeps_to_the_history(name):
    """Followed from decision to decision, the world gives each seat its card count, holds
    exactly the unseen cards, and after settling breaks nothing far more often than a world
    dealt by the card counts alone."""
    decisions = consistent = dealt = 0
    worlds = {}

    def check(obs, deal):
        nonlocal decisions, consistent, dealt
        if obs.seat != 0:
            return
        bot = worlds.setdefault(obs.deal_number, MonteCarloBot(seed=1, playouts=8))
        w = bot.chains[0]
        w.follow(obs, History(obs), lambda: bot.sample(obs))
        for _ in range(20):
            if w.consistent:
                break
            w.walk(10)
        hands = w.walk(10)
        assert sum(hands) == obs.unseen()
        for s in range(4):
            if s != obs.seat:
                assert C.mask_count(hands[s]) == obs.held[s]
        assert hands[obs.seat] == 0
        decisions += 1
        consistent += w.consistent
        fresh, _ = bot.sample(obs)
        dealt += not any(w.history.broken(s, fresh[s]) for s in range(4) if s != obs.seat)

    for seed in range(8):
        worlds.clear()
        _play_spied(name, seed, check)
    assert decisions > 50
    assert consistent >= 0.6 * decisions
    assert consistent >= dealt + 0.2 * decisions


def test_cards_given_in_the_exchange_stay_with_their_receiver():
    rng = random.Random(0)
    w = Worlds(rng)

    class Obs:  # the parts of an Observation the walk reads
        pass

    rules = Rules(preset("classic"), 4)
    cards = C.mask_cards(rules.deck.mask)
    obs = Obs()
    obs.rules, obs.seat, obs.players = rules, 0, 4
    obs.hand = C.cards_mask(cards[:13])
    obs.held = [13, 13, 13, 13]
    obs.blind_held = [0] * 4
    obs.moves, obs.deal_number = [], 0
    given = cards[0:2]  # what seat 0 gave seat 3 (its hand holds them no more)
    obs.hand = C.cards_mask(cards[2:15])
    obs.gave = {3: given}
    obs.unseen = lambda: rules.deck.mask - obs.hand
    w.follow(obs, History(obs), lambda: (_deal_plainly(obs, cards[15:] + given), None))
    for _ in range(50):
        hands = w.walk(10)
        for card in given:
            assert hands[3] >> (card * 8) & 0xFF


def _deal_plainly(obs, pool):
    hands = [0] * 4
    pool = list(pool)
    for s in (1, 2, 3):
        hands[s] = C.cards_mask(pool[:13])
        pool = pool[13:]
    return hands


@pytest.mark.parametrize("name, walks", [("classic", False), ("school-scum", False),
                                         ("friday", True), ("modern", True),
                                         ("wild-jokers", True), ("presidents-deck", True)])
def test_montecarlo_walks_only_where_the_constraint_reader_cannot_read(name, walks):
    """Where inference.py reads the rules its freshly dealt worlds measured better, so the walk
    serves the other presets."""
    bot = MonteCarloBot(seed=2, playouts=20)
    play_game([bot, HeuristicBot(), HeuristicBot(), HeuristicBot()], preset(name), seed=3)
    assert (bot.chains[0].deal_number is not None) is walks


def test_montecarlo_follows_each_chain_from_a_dealing_of_its_own():
    """With several chains (default 4) one decision's playouts start from worlds dealt apart at
    the deal's start and followed each on its own, not from near copies of one world; every
    chain holds the unseen cards by the seats' counts."""
    bot = MonteCarloBot(seed=2, playouts=40, chains=3)
    seen = []
    play = bot.play

    def spy(obs, legal):
        move = play(obs, legal)
        if len(legal) > 1 and not seen:
            seen.extend(list(w.hands) for w in bot.chains)
            for hands in seen:
                assert sum(hands) == obs.unseen()
                assert all(C.mask_count(hands[s]) == obs.held[s]
                           for s in range(4) if s != obs.seat)
        return move

    bot.play = spy
    play_game([bot, HeuristicBot(), HeuristicBot(), HeuristicBot()], preset("presidents-deck"),
              seed=3)
    assert len(seen) == 3
    assert len({tuple(hands) for hands in seen}) == 3


def test_a_random_player_is_read_as_one_and_heuristic_players_never_are():
    """``strange`` (issue #32, reading every style): a seat whose choices the walked worlds
    keep breaking is read as a random player for the rest of the deal, the others not."""
    flagged = []
    for seed in range(6):
        bot = MonteCarloBot(seed=seed, playouts=30, strange=0.4)
        play_game([bot, RandomBot(seed), HeuristicBot(), HeuristicBot()],
                  preset("presidents-deck"), seed=seed)
        flagged.append(bot.strangers[1])
    assert sum(1 for bits in flagged if bits & 1 << 1) >= 4  # the random seat, mostly
    assert all(bits & (1 << 2 | 1 << 3) == 0 for bits in flagged)  # the heuristic seats, never


def test_reading_random_players_changes_nothing_against_heuristic_players():
    def game(strange):
        bots = [MonteCarloBot(seed=3, playouts=30, strange=strange), HeuristicBot(),
                HeuristicBot(), HeuristicBot()]
        return play_game(bots, preset("presidents-deck"), seed=4).transcript

    assert game(0.4) == game(0)
