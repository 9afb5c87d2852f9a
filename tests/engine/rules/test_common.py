"""Rules common to all presets (RULES.md "Common to all")."""

import pytest

from gameplay.engine import Role, exchange_pairs, roles_by_position
from gameplay.engine.checker import UNREADABLE
from gameplay.engine.options import preset
from gameplay.engine.rules.leading import next_dealer
from gameplay.engine.ruleset import Rules
from tests.engine.scenario import (
    assert_fault,
    assert_valid,
    deal,
    finishing_orders,
    game,
    one_deal,
    position,
)

C = "classic"


def _whole_pack(sizes):
    rules = Rules(preset(C), len(sizes))
    text = rules.cards_text(rules.deck.cards())
    hands, at = [], 0
    for n in sizes:
        hands.append(" ".join(text[at:at + n]))
        at += n
    return hands


def test_whole_pack_is_dealt_evenly():
    """RULES.md: all cards are dealt so hand sizes differ by at most one."""
    assert_valid(one_deal(C, _whole_pack([13, 13, 13, 13])))
    assert_valid(one_deal(C, _whole_pack([18, 17, 17])))
    assert_fault(one_deal(C, _whole_pack([14, 13, 13, 12])), 0, None)


def test_partial_deal_may_have_uneven_hands():
    """RULES.md / TRANSCRIPT.md: the spread is checked only for deals using the whole deck."""
    verdict = assert_valid(one_deal(C, ["5C 6C 7C 8C", "9C", "10C"]))
    assert verdict["deals"][0]["partial"] is True


def test_every_seat_holds_a_card_when_play_starts():
    """RULES.md: every seat holds at least one card when play starts."""
    assert_fault(one_deal(C, ["5C", "", "7C"]), 0, None)


def test_card_not_in_the_pack_is_a_rule_fault():
    """TRANSCRIPT.md: a joker in a jokerless pack is a rule fault (exit 1), not unreadable."""
    assert_fault(one_deal(C, ["5C JK", "6C", "7C"]), 0, None)
    assert_fault(one_deal(C, ["5C 5C", "6C", "7C"]), 0, None)


def test_play_goes_clockwise_except_presidents_deck():
    """RULES.md: play goes clockwise (seat + 1); `ccw` elsewhere is a fault."""
    hands = ["5C 9C", "6C 8D", "7C 10D"]
    assert_valid(one_deal(C, hands, "0 5C", "1 6C", "2 7C"))
    assert_fault(one_deal(C, hands, "0 5C", "2 7C"), 0, 1)
    assert_fault(one_deal(C, hands, "0 5C", direction="ccw"), 0, None)
    assert_valid(one_deal(C, hands, "0 5C", direction="cw"))


def test_passing_is_allowed_even_with_a_legal_play():
    """RULES.md: passing is always allowed, even with a legal play."""
    assert_valid(one_deal(C, ["5C 9C", "6C 8D", "7C 10D"], "0 5C", "1 pass", "2 pass"))


def test_leader_cannot_pass():
    """RULES.md: except when leading: a lead is a play."""
    assert_fault(one_deal(C, ["5C 9C", "6C 8D", "7C 10D"], "0 pass"), 0, 0)
    state = position(C, ["5C 9C", "6C 8D", "7C 10D"], "0 5C", "1 pass", "2 pass")
    assert state.leading and state.turn == 0
    assert_fault(one_deal(C, ["5C 9C", "6C 8D", "7C 10D"], "0 5C", "1 pass", "2 pass",
                          "0 pass"), 0, 3)


def test_trick_ends_when_all_others_passed_and_its_last_player_leads():
    """RULES.md: the trick's last player leads the next trick."""
    hands = ["5C 9C", "6C 8D", "7C 10D"]
    assert_valid(one_deal(C, hands, "0 5C", "1 6C", "2 pass", "0 pass", "1 8D"))
    assert_fault(one_deal(C, hands, "0 5C", "1 6C", "2 pass", "0 pass", "2 7C"), 0, 4)


def test_trick_leader_when_the_last_player_went_out():
    """RULES.md: if that player has gone out, the next active player in play's direction leads."""
    hands = ["5C", "6C 9D", "7C 8D"]
    assert_valid(one_deal(C, hands, "0 5C", "1 pass", "2 pass", "1 6C"))
    assert_fault(one_deal(C, hands, "0 5C", "1 pass", "2 pass", "2 7C"), 0, 3)


def test_trick_leader_when_the_last_player_went_out_counterclockwise():
    """RULES.md: the next active player *in the direction of play* (presidents-deck ccw)."""
    hands = ["5", "6 9", "7 8"]
    assert_valid(one_deal("presidents-deck", hands, "0 5", "2 pass", "1 pass", "2 7",
                          leader=0, direction="ccw"))
    assert_fault(one_deal("presidents-deck", hands, "0 5", "2 pass", "1 pass", "1 6",
                          leader=0, direction="ccw"), 0, 3)


def test_player_out_the_trick_goes_on_without_them():
    """RULES.md: a player who plays their last card is out; the trick goes on without them."""
    hands = ["5C", "6C 9D", "7C 8D"]
    assert_valid(one_deal(C, hands, "0 5C", "1 6C", "2 7C", "1 9D"))
    assert_fault(one_deal(C, hands, "0 5C", "1 6C", "2 7C", "0 pass"), 0, 3)


def test_pass_is_final_example_from_rules():
    """RULES.md (`pass_is_final`): A plays and goes out, B and D have passed out of the trick,
    C plays: the trick ends and C leads."""
    s = "school-scum"
    hands = ["KC", "5D QS", "4C 10H AS 6S", "5S 9C"]  # A=0, B=1, C=2, D=3
    data = one_deal(s, hands, "2 4C", "3 pass", "0 KC", "1 pass", "2 AS", "2 6S", dealer=1)
    assert finishing_orders(data)[0] == [0]
    assert_fault(one_deal(s, hands, "2 4C", "3 pass", "0 KC", "1 pass", "2 AS", "3 9C",
                          dealer=1), 0, 5)


def test_deal_ends_when_one_player_holds_cards():
    """RULES.md: a deal is played until one player holds cards; the holder is last."""
    assert finishing_orders(one_deal(C, ["5C", "6C", "7C 8C"], "0 5C", "1 6C"))[0] == [0, 1, 2]
    assert_fault(one_deal(C, ["5C", "6C", "7C 8C"], "0 5C", "1 6C", "2 7C"), 0, 2)


@pytest.mark.parametrize(("players", "roles"), [
    (2, [Role.PRESIDENT, Role.SCUM]),
    (3, [Role.PRESIDENT, Role.CITIZEN, Role.SCUM]),
    (4, [Role.PRESIDENT, Role.VICE_PRESIDENT, Role.VICE_SCUM, Role.SCUM]),
    (6, [Role.PRESIDENT, Role.VICE_PRESIDENT, Role.CITIZEN, Role.CITIZEN, Role.VICE_SCUM,
         Role.SCUM]),
])
def test_roles_by_finishing_order(players, roles):
    """RULES.md: 1st President, 2nd VP, second-to-last Vice-Scum, last Scum; 2 or 3 players
    only President and Scum."""
    assert roles_by_position(players) == roles


@pytest.mark.parametrize(("order", "pairs"), [
    ([1, 0], [(0, 1, 2), (1, 0, 2)]),
    ([2, 0, 1], [(1, 2, 2), (2, 1, 2)]),
    ([3, 1, 0, 2], [(2, 3, 2), (3, 2, 2), (0, 1, 1), (1, 0, 1)]),
    ([4, 0, 3, 1, 2], [(2, 4, 2), (4, 2, 2), (1, 0, 1), (0, 1, 1)]),
])
def test_exchange_pairs_for_two_three_and_more_players(order, pairs):
    """RULES.md: Scum gives, President gives back, then Vice-Scum and Vice President."""
    ranking = list(zip(order, roles_by_position(len(order)), strict=True))
    assert exchange_pairs(ranking) == pairs


def test_two_player_game_exchanges_two_cards():
    """RULES.md: with 2 players, President and Scum (friday blind table)."""
    two = {"preset": "friday", "options": {"blind": True}}
    first = deal(["5C", "6C"], "0 5C", blind=["", ""])
    second = deal(["3C 4C", "KD 9D 8D"], "1 3C", exchanges=("1>0 KD 9D", "0>1 4C 3C"),
                  blind=["", ""])
    assert_valid(game(two, first, second))


def test_unreadable_leader_field_is_exit_two():
    """TRANSCRIPT.md: a seat that is no seat cannot be read."""
    assert_fault(one_deal(C, ["5C", "6C"], leader=5), 0, None, status=UNREADABLE)


def test_the_dealer_moves_one_seat_left_among_those_at_the_table():
    """RULES.md "Common to all": the deal passes to the left; seed 003 (wild-jokers): the last
    deal's Bum deals. Seats that left are skipped (RULES.md, last section)."""
    classic, wild = preset(C), preset("wild-jokers")
    assert [next_dealer(classic, range(4), d, [0, 1, 2, 3]) for d in range(4)] == [1, 2, 3, 0]
    assert next_dealer(classic, [0, 1, 3, 4], 1, [1, 0, 3, 4]) == 3  # seat 2 left
    assert next_dealer(classic, [0, 1, 3], 4, [1, 0, 3, 4]) == 0  # the dealer left
    assert next_dealer(wild, range(4), 0, [2, 0, 3, 1]) == 1
    assert next_dealer(wild, [0, 2, 3], 0, [2, 0, 3, 1]) == 2  # the Bum left: to the left
