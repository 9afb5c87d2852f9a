"""presidents-deck (seed 004, RULES.md "presidents-deck"): equal-rank skips, bombs and bomb
reverses, doppelgängers, leader and direction."""

from tests.engine.scenario import (
    assert_fault,
    assert_valid,
    deal,
    finishing_orders,
    game,
    legal,
    one_deal,
    position,
)

P = "presidents-deck"


def pd(hands, *moves, leader=0, direction=None):
    return one_deal(P, hands, *moves, leader=leader, direction=direction)


def test_beat_with_same_count_and_equal_or_higher_rank():
    """Seed 004: play cards equal or higher, the count the trick was started with."""
    hands = ["5 5 9", "6 6 4 4", "7 7 12"]
    assert_valid(pd(hands, "0 5 5", "1 6 6", "2 7 7"))
    assert_fault(pd(hands, "0 5 5", "1 4 4"), 0, 1)
    assert_fault(pd(hands, "0 5 5", "1 6"), 0, 1)
    assert_fault(pd(hands, "0 5 5", "1 pass", "2 12"), 0, 2)


def test_equal_rank_skips_the_next_player():
    """Seed 004: the same card as the previous one skips the next person."""
    hands = ["5 9", "5 8", "7 12", "6 10"]
    assert_valid(pd(hands, "0 5", "1 5", "3 6"))
    assert_fault(pd(hands, "0 5", "1 5", "2 7"), 0, 2)
    assert position(P, hands, "0 5", "1 5", leader=0).turn == 3


def test_skipped_player_counts_as_passed():
    """RULES.md common: presidents-deck, a skipped player counts as having passed."""
    hands = ["5 9", "5 8", "7 12"]
    assert_valid(pd(hands, "0 5", "1 5", "0 pass", "1 8"))
    assert_fault(pd(hands, "0 5", "1 5", "0 pass", "2 7"), 0, 3)


def test_equal_rank_with_two_players_clears_the_pile():
    """Seed 004 "Skipping with final 2": it skips the other one and resets the pile."""
    hands = ["5 9", "5 3"]
    assert_valid(pd(hands, "0 5", "1 5", "1 3"))
    assert_fault(pd(hands, "0 5", "1 5", "0 9"), 0, 2)
    assert position(P, hands, "0 5", "1 5", leader=0).leading


def test_bomb_on_any_pile_clears_it_and_the_bomber_leads():
    """Seed 004: the Bomb resets the pile; the bomber then plays any card or set."""
    hands = ["12 12 9", "B 3 4", "7 8"]
    assert_valid(pd(hands, "0 12 12", "1 B", "1 3"))
    assert_fault(pd(hands, "0 12 12", "1 B", "2 7"), 0, 2)
    assert "B" in legal(position(P, hands, "0 12 12", leader=0))


def test_bomb_as_a_lead_and_several_bombs_at_once():
    """Seed 004: a Bomb may lead; multiple Bombs may be played at a time."""
    hands = ["B B 9 10", "3 4", "7 8"]
    assert_valid(pd(hands, "0 B", "0 9"))
    assert_valid(pd(hands, "0 10", "1 pass", "2 pass", "0 B B", "0 9"))


def test_bomb_only_on_your_turn():
    """Seed 004: like any other card, Bombs can only be played on your turn."""
    assert_fault(pd(["5 9", "6 8", "B 3"], "0 5", "2 B"), 0, 1)


def test_bomb_reverse_changes_the_direction():
    """Seed 004: the Bomb (Reverse) resets the pile and changes the direction."""
    hands = ["5 9", "BR 3 4", "7 8", "6 10"]
    assert_valid(pd(hands, "0 5", "1 BR", "1 3", "0 9"))
    assert_fault(pd(hands, "0 5", "1 BR", "1 3", "2 7"), 0, 3)


def test_each_bomb_reverse_reverses_once():
    """RULES.md: each Bomb Reverse card in the play reverses the direction once."""
    hands = ["5 9", "BR BR 3 4", "7 8", "6 10"]
    assert_valid(pd(hands, "0 5", "1 BR BR", "1 3", "2 7"))
    assert_fault(pd(hands, "0 5", "1 BR BR", "1 3", "0 9"), 0, 3)


def test_bomb_as_last_card_next_player_in_new_direction_leads():
    """Seed 004: if someone's final card is a Bomb, it is a clean slate to the next player."""
    hands = ["5 9", "B", "7 8", "6 10"]
    assert_valid(pd(hands, "0 5", "1 B", "2 7"))
    assert_fault(pd(hands, "0 5", "1 B", "3 6"), 0, 2)
    reverse = ["5 9", "BR", "7 8", "6 10"]
    assert_valid(pd(reverse, "0 5", "1 BR", "0 9"))
    assert_fault(pd(reverse, "0 5", "1 BR", "2 7"), 0, 2)


def test_bombs_are_played_on_their_own():
    """Our reading of seed 004: bombs are one rank (0) of their own; doppelgängers never join."""
    assert_fault(pd(["B 5 9", "6", "7"], "0 B 5"), 0, 0)
    assert_fault(pd(["B DG 9", "6", "7"], "0 B DG"), 0, 0)
    assert_fault(pd(["B 9", "6", "7"], "0 B as 5"), 0, 0)


def test_doppelganger_joins_a_group_as_one_more_card():
    """Seed 004: a Doppelgänger duplicates a card (triple 11 from double 11 and DG)."""
    hands = ["7 7 7 3", "11 11 DG 4", "12 12 12"]
    assert_valid(pd(hands, "0 7 7 7", "1 11 11 DG", "2 12 12 12"))
    assert_valid(pd(hands, "0 7 7 7", "1 11 11 DG as 11"))
    assert_fault(pd(hands, "0 7 7 7", "1 11 11 DG as 12"), 0, 1)
    assert_fault(pd(hands, "0 7 7 7", "1 11 DG"), 0, 1)


def test_several_doppelgangers_in_one_group():
    """RULES.md: a group needs one numbered card and may hold several doppelgängers."""
    hands = ["7 7 7 3", "11 DG DG 4", "12 12 12"]
    assert_valid(pd(hands, "0 7 7 7", "1 11 DG DG"))


def test_doppelganger_alone_only_leads_below_one():
    """Seed 004: unable to join a card, a DG is the lowest value and only on a clean slate."""
    hands = ["DG 5", "1 DG", "7"]
    assert_valid(pd(hands, "0 DG", "1 1"))
    assert_fault(pd(hands, "0 5", "1 DG"), 0, 1)
    assert_fault(pd(hands, "0 DG as 5"), 0, 0)
    assert "DG" not in legal(position(P, hands, "0 5", leader=0))


def test_first_deal_dealer_names_leader_and_direction():
    """Seed 004: the dealer elects someone to go first and chooses the direction."""
    hands = ["5 9", "6 8", "7 10"]
    assert_valid(one_deal(P, hands, "2 7", "1 8", leader=2, direction="ccw"))
    assert_fault(one_deal(P, hands, "2 7", "0 9", leader=2, direction="ccw"), 0, 1)
    assert_valid(one_deal(P, hands, "2 7", "0 9", leader=2))
    assert_fault(one_deal(P, hands, "0 5"), 0, None, status=2)


def test_later_deals_the_president_leads():
    """Seed 004: after the exchange the President goes first; VP (President with 3) picks
    the direction."""
    first = deal(["5", "6", "7 10"], "0 5", "1 6", leader=0)
    hands = ["3 4", "12 11", "9 10"]
    swaps = ("2>0 10 9 high high", "0>2 3 4")
    assert finishing_orders(game(P, first, deal(hands, "0 10", exchanges=swaps,
                                                direction="ccw")))[0] == [0, 1, 2]
    assert_fault(game(P, first, deal(hands, "1 12", exchanges=swaps, leader=1)), 1, None)
