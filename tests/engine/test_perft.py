"""Counted move trees (perft, as python-chess does): from fixed deals of every preset, the
number of legal move sequences to a small depth.  Any change to what the engine allows shows up
as a changed count; the counts were taken from the engine as it passed the conformance suite
(566/566).  The RULES.md sections each tree exercises are named beside it."""

import random
from collections import Counter

import pytest

from gameplay.engine.deal import CCW, CW, MODE_NAMES, Deal
from gameplay.engine.game import deal_cards
from gameplay.engine.options import preset
from gameplay.engine.rules import leading
from gameplay.engine.ruleset import Rules


def position(name: str, seed: int, moves: int) -> Deal:
    """Deal ``seed``'s cards for four players (dealer 0), lead as the preset says, then play
    ``moves`` moves chosen by the same generator from the legal moves in a fixed order."""
    rules = Rules(preset(name), 4)
    rng = random.Random(seed)
    hands, blind = deal_cards(rules, 0, rng)
    leader, opening = leading.fixed_leader(rules.options, 4, 0, hands, None)
    direction = CW
    if leader is None:  # presidents-deck's first deal: the dealer names leader and direction
        leader, direction = 1, CCW
    deal = Deal(rules, hands, leader=leader, direction=direction, blind=blind, opening=opening)
    for _ in range(moves):
        legal = sorted(deal.legal_moves(), key=repr)
        deal.apply(legal[rng.randrange(len(legal))])
    return deal


def perft(deal: Deal, depth: int, leaves: Counter) -> int:
    """The number of move sequences of ``depth`` moves (fewer where the deal ends); each leaf's
    special trick rule and direction are counted in ``leaves``."""
    if depth == 0 or deal.over:
        if deal.mode:
            leaves[MODE_NAMES[deal.mode]] += 1
        if deal.direction == CCW:
            leaves["ccw"] += 1
        return 1
    total = 0
    for move in deal.legal_moves():
        child = deal.copy()
        child.apply(move)
        total += perft(child, depth - 1, leaves)
    return total


# (preset, seed, moves played first, counts at depth 1, 2, …, special leaves at the last depth)
TREES = [
    # "Common to all" and "classic and modern": the left of the dealer leads; a single is beaten
    # by a higher group of any count, a group only by the same count; passing always allowed
    ("classic", 1, 0, [13, 82, 310, 680], {}),
    ("classic", 19, 20, [9, 65, 136, 851, 1408, 7238], {}),
    # "modern": twos low, equal rank beats, a larger set beats any smaller one
    ("modern", 1, 0, [13, 96, 630, 2888], {}),
    ("modern", 16, 20, [9, 57, 173, 827, 2655, 9259], {}),
    # "friday": count at least, the single-2 exception, the top rank ends the trick
    ("friday", 1, 0, [13, 96, 666, 4066], {}),
    ("friday", 17, 20, [7, 40, 142, 363, 1249, 6435], {}),
    # "school-scum": the 3♣ opens, pass_is_final, consec, eight below, 69 and KKK
    ("school-scum", 1, 0, [2, 22, 136, 555], {"consec": 13, "eight below": 35, "69": 7}),
    ("school-scum", 9, 20, [2, 23, 107, 564, 2447],
     {"consec": 65, "eight below": 116, "69": 109, "KKK": 355}),
    # "wild-jokers": the 2♣ holder leads, jokers wild (one play per declared rank), 1 to 4 cards
    ("wild-jokers", 1, 0, [13, 46, 437, 4000], {}),
    ("wild-jokers", 8, 20, [7, 32, 174, 547, 1023, 2952], {}),
    # "presidents-deck": chosen direction, equal rank skips, Bombs, Bomb Reverses, doppelgängers
    ("presidents-deck", 1, 0, [14, 97, 612, 4095], {"ccw": 3582}),
    # a Bomb Reverse turns the direction in some lines: 1,070 of 2,162 leaves still ccw
    ("presidents-deck", 3, 20, [5, 18, 54, 187, 643, 2162], {"ccw": 1070}),
]


@pytest.mark.parametrize(("name", "seed", "moves", "counts", "special"), TREES)
def test_counted_move_trees(name, seed, moves, counts, special):
    deal = position(name, seed, moves)
    leaves = Counter()
    found = [perft(deal, depth, leaves if depth == len(counts) else Counter())
             for depth in range(1, len(counts) + 1)]
    assert found == counts
    assert dict(leaves) == special
