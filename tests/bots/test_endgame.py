"""The kernel's exact endgame (two players left, every card known) against a brute-force search
over the engine's ``Deal``, the judge, on every preset; its node limit; montecarlo playing the
winning move it finds."""

import random

import pytest

from gameplay.bots import kernel
from gameplay.bots.montecarlo import MonteCarloBot, SearchConfig
from gameplay.bots.observation import Observation
from gameplay.engine import cards as C
from gameplay.engine import selfplay
from gameplay.engine.deal import CCW, CW, Deal
from gameplay.engine.options import PRESETS, preset
from gameplay.engine.ruleset import Rules

PRESET_NAMES = list(PRESETS)


def key(move) -> tuple:
    if isinstance(move, int):
        return (move,)
    return (move.kind, move.face, move.count, move.wilds, move.reverses, move.mask)


def move_wins(d: Deal, move) -> bool:
    """Does the seat to move go out before the other of the two left, whatever the other
    does, after ``move``?  Every line is played out on the engine."""
    mover = d.turn
    after = d.copy()
    after.apply(move)
    if not after.active >> mover & 1:
        return True
    if after.over:
        return False
    won = wins(after)
    return won if after.turn == mover else not won


def wins(d: Deal) -> bool:
    return any(move_wins(d, m) for m in d.legal_moves())


def small_endgames(name: str, seed: int, count: int):
    """Deals of a few cards a seat on 2- and 4-seat tables, played at random until two players
    are left (and a few moves more, so tricks are under way), as engine deals."""
    rng = random.Random(seed)
    found = 0
    while found < count:
        players = rng.choice((2, 4))
        rules = Rules(preset(name), players)
        pack = rules.deck.cards()
        rng.shuffle(pack)
        size = rng.randint(2, 6) if players == 2 else rng.randint(2, 4)
        hands = [C.cards_mask(pack[i * size:(i + 1) * size]) for i in range(players)]
        direction = rng.choice((CW, CCW)) if rules.options.presidents_deck else CW
        d = Deal(rules, hands, leader=rng.randrange(players), direction=direction)
        extra = rng.randrange(4)
        while not d.over and (bin(d.active).count("1") > 2 or extra):
            if bin(d.active).count("1") == 2:
                extra -= 1
            legal = d.legal_moves()
            d.apply(legal[rng.randrange(len(legal))])
        if not d.over:
            found += 1
            yield rules, d


@pytest.mark.parametrize("name", PRESET_NAMES)
def test_the_endgame_search_agrees_with_the_engine(name):
    """On 150 random small endgames per preset the kernel's result is the brute force's, and a
    winning move it gives is legal and wins."""
    results = []
    for rules, d in small_endgames(name, seed=21, count=150):
        result, move, nodes = kernel.solve(rules, kernel.state(d), 10**6)
        assert result in (kernel.WON, kernel.LOST) and 0 < nodes < 10**6
        assert result == wins(d), (name, d.hands, d.turn, d.last)
        if result == kernel.WON:
            legal = {key(kernel.move(rules, m)): m for m in d.legal_moves()}
            assert key(move) in legal
            assert move_wins(d, legal[key(move)])
        results.append(result)
    assert results.count(kernel.WON) >= 30 and results.count(kernel.LOST) >= 30


def test_the_node_limit_bounds_the_search():
    """A whole two-player deal is not settled in 500 nodes: unknown, no move, 500 nodes; a
    small endgame is settled in exactly the nodes it reports and not in one fewer."""
    rules = Rules(preset("classic"), 2)
    pack = rules.deck.cards()
    random.Random(3).shuffle(pack)
    whole = Deal(rules, [C.cards_mask(pack[:26]), C.cards_mask(pack[26:])], leader=0)
    assert kernel.solve(rules, kernel.state(whole), 500) == (kernel.UNKNOWN, 0, 500)
    checked = 0
    for rules, d in small_endgames("classic", seed=4, count=40):
        state = kernel.state(d)
        result, move, nodes = kernel.solve(rules, state, 10**6)
        assert kernel.solve(rules, state, nodes) == (result, move, nodes)
        if nodes > 1:
            assert kernel.solve(rules, state, nodes - 1) == (kernel.UNKNOWN, 0, nodes - 1)
            checked += 1
    assert checked >= 20


def test_the_endgame_search_takes_two_players_left():
    rules = Rules(preset("classic"), 3)
    pack = rules.deck.cards()
    d = Deal(rules, [C.cards_mask(pack[i * 3:i * 3 + 3]) for i in range(3)], leader=0)
    with pytest.raises(ValueError, match="two players left"):
        kernel.solve(rules, kernel.state(d), 1000)


@pytest.mark.parametrize("name", PRESET_NAMES)
def test_montecarlo_plays_the_winning_move_it_finds(name):
    """Where the endgame is won montecarlo plays a winning move; on some of them its search
    alone (``endgame=0``) plays one that loses against best play."""
    saved = solved = 0
    for _, d in small_endgames(name, seed=8, count=150):
        if not wins(d) or len(d.legal_moves()) < 2:
            continue
        obs = Observation.at(d, d.turn)  # every card outside the two hands was played
        legal = d.legal_moves()
        on = MonteCarloBot(seed=1, config=SearchConfig(playouts=20, kernel=True, endgame=10**5))
        assert move_wins(d, on.play(obs, legal))
        solved += on.figures().get("endgames_won", 0)  # none where going out is a move
        off = MonteCarloBot(seed=1, config=SearchConfig(playouts=20, kernel=True, endgame=0))
        saved += not move_wins(d, off.play(obs, legal))
    assert solved >= 10 and saved >= 1


def test_the_winning_move_found_is_one_of_the_engines_when_cards_are_alike():
    """school-scum plays two decks: a mixed play of two identical cards and another has two
    kernel codes, the kernel's own and the one ``kernel.move`` packs from the engine's play,
    so montecarlo takes the solver's move by its place in the legal moves (the kernel lists
    them in the engine's order), not by its code.  It raised StopIteration before."""
    from gameplay.bots.montecarlo import ENDGAME_CARDS, heuristic_policy

    rules = Rules(preset("school-scum"), 4)
    rng = random.Random(1)
    won = coded_apart = 0
    for _ in range(40):
        d = selfplay.fresh_deal(rules, rng)
        while not d.over:
            legal = d.legal_moves()
            seats = [s for s in range(4) if d.active >> s & 1]
            if (len(seats) == 2 and len(legal) > 1
                    and sum(C.mask_count(d.hands[s]) for s in seats) <= ENDGAME_CARDS):
                result, code, _ = kernel.solve(rules, kernel.state(d), 20000)
                if result == kernel.WON:
                    bot = MonteCarloBot(seed=1, config=SearchConfig(playouts=10, endgame=20000))
                    move = bot.solved(Observation.at(d, d.turn), legal)
                    assert move in legal
                    assert kernel.unpack(rules, kernel.move(rules, move)) == \
                        kernel.unpack(rules, code)
                    won += 1
                    coded_apart += code not in [kernel.move(rules, m) for m in legal]
            d.apply(heuristic_policy(d, legal, 0, rng))
    assert won >= 50 and coded_apart >= 1
