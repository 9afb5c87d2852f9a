"""wild-jokers (seed 003, RULES.md "wild-jokers")."""

from tests.engine.scenario import assert_fault, assert_valid, legal, one_deal, position

W = "wild-jokers"


def test_plays_are_one_to_four_cards():
    """Seed 003: one, two, three or four cards of the same rank."""
    assert_valid(one_deal(W, ["5C 5D 5H 5S 9C", "6C", "7C"], "0 5C 5D 5H 5S"))
    assert_fault(one_deal(W, ["5C 5D 5H 5S JK", "6C", "7C"], "0 5C 5D 5H 5S JK"), 0, 0)


def test_beat_with_same_count_and_equal_or_higher_rank():
    """Seed 003: two 10s may be followed by two 10s, Jacks, … or Aces, nothing else."""
    hands = ["10C 10D 5C", "10H 10S 9C 9D JC", "AC AD 7C"]
    assert_valid(one_deal(W, hands, "0 10C 10D", "1 10H 10S", "2 AC AD"))
    assert_fault(one_deal(W, hands, "0 10C 10D", "1 9C 9D"), 0, 1)
    assert_fault(one_deal(W, hands, "0 10C 10D", "1 JC"), 0, 1)


def test_twos_low_aces_high():
    """Seed 003: cards are ranked Ace high, 2 the lowest."""
    assert_valid(one_deal(W, ["3C 5C", "2D AC", "7C"], "0 3C", "1 AC"))
    assert_fault(one_deal(W, ["AC 5C", "2D 6D", "7C"], "0 AC", "1 2D"), 0, 1)


def test_wild_joker_alone_declares_its_rank():
    """Seed 003: jokers are wild and count as any rank; alone, the play declares it."""
    hands = ["QC 5C", "JK 6D", "KC"]
    assert_valid(one_deal(W, hands, "0 QC", "1 JK as K", "2 KC"))
    assert_fault(one_deal(W, hands, "0 QC", "1 JK as J"), 0, 1)
    assert_fault(one_deal(W, hands, "0 QC", "1 JK"), 0, 1)
    assert "JK" in legal(position(W, hands, "0 QC"))


def test_wild_joker_in_a_group_takes_the_group_rank():
    """Seed 003: a joker stands for any rank in a group; a given "as" must match the cards."""
    hands = ["9C 9D 5C", "JK 10C 6D", "JC JD"]
    assert_valid(one_deal(W, hands, "0 9C 9D", "1 JK 10C", "2 JC JD"))
    assert_valid(one_deal(W, hands, "0 9C 9D", "1 JK 10C as 10"))
    assert_fault(one_deal(W, hands, "0 9C 9D", "1 JK 10C as Q"), 0, 1)
    assert_fault(one_deal(W, ["9C 9D 5C", "JK 8C 6D", "JC"], "0 9C 9D", "1 JK 8C"), 0, 1)


def test_two_of_clubs_holder_leads_with_any_play():
    """Seed 003: the player holding the 2 of clubs leads (not necessarily with that card)."""
    hands = ["5C 9C", "2C 6D", "7C"]
    assert_valid(one_deal(W, hands, "1 6D", dealer=2))
    assert_valid(one_deal(W, hands, "1 2C", dealer=0))
    assert_fault(one_deal(W, hands, "0 5C", dealer=2), 0, 0)
