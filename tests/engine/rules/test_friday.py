"""friday (seed 001, RULES.md "friday"): count at least the last, the single-2/joker exception,
top rank ends the trick, leaders, and the options revolution and blind."""

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

F = "friday"
JOKERS = {"preset": "friday", "options": {"jokers": 2}}
REVOLUTION = {"preset": "friday", "options": {"revolution": True}}
REVOLUTION_JOKERS = {"preset": "friday", "options": {"revolution": True, "jokers": 2}}
BLIND = {"preset": "friday", "options": {"blind": True}}


def test_beat_with_higher_rank_and_at_least_the_last_count():
    """Seed 001: a double 6 on a single 5; then a double or more of 7 or higher."""
    hands = ["5C 9C 9D 9H", "6C 6D 7S KS", "10C 10D QH"]
    assert_valid(one_deal(F, hands, "0 5C", "1 6C 6D", "2 10C 10D", "0 pass", "1 pass",
                          "2 QH"))
    assert_valid(one_deal(F, hands, "0 5C", "1 6C 6D", "2 pass", "0 9C 9D 9H"))
    assert_fault(one_deal(F, hands, "0 5C", "1 6C 6D", "2 QH"), 0, 2)
    assert_fault(one_deal(F, hands, "0 5C", "1 6C", "2 pass", "0 9C 9D 9H", "1 KS"), 0, 4)


def test_single_two_beats_a_group_up_to_ace():
    """Seed 001: a single 2 may be played onto any double, triple or quadruple up to Ace."""
    hands = ["AC AD 5C", "2C 6D", "7C 8D"]
    assert_valid(one_deal(F, hands, "0 AC AD", "1 2C"))
    assert "2C" in legal(position(F, hands, "0 AC AD"))
    assert_fault(one_deal(F, hands, "0 AC AD", "1 6D"), 0, 1)


def test_single_two_does_not_beat_a_group_of_twos():
    """RULES.md friday: the single 2 beats groups ranked up to Ace only (with jokers in, 22
    does not end the trick, and a single 2 cannot go on it)."""
    hands = ["2C 2D 5C", "2H JK 6D", "7C 8D"]
    assert_fault(one_deal(JOKERS, hands, "0 2C 2D", "1 2H"), 0, 1)
    assert_valid(one_deal(JOKERS, hands, "0 2C 2D", "1 JK"))


def test_single_joker_beats_a_group_of_lower_rank():
    """Seed 001 jokers: single jokers share the 2s' property of beating any lower DTQ."""
    hands = ["KC KD KH 5C", "JK 6D", "7C 8D"]
    assert_valid(one_deal(JOKERS, hands, "0 KC KD KH", "1 JK"))
    assert_fault(one_deal(JOKERS, hands, "0 KC KD KH", "1 6D"), 0, 1)


def test_after_the_single_exception_the_trick_goes_on_from_the_single():
    """RULES.md friday: after the single 2 (jokers in, so not top) the trick goes on from it."""
    hands = ["AC AD 5C", "2C 6D", "JK 8D", "AH AS KC"]
    assert_valid(one_deal(JOKERS, hands, "0 AC AD", "1 2C", "2 JK"))
    assert_fault(one_deal(JOKERS, hands, "0 AC AD", "1 2C", "2 pass", "3 AH AS"), 0, 3)


def test_top_rank_ends_the_trick_and_its_player_leads():
    """Seed 001: nothing can beat a 2, so a player who uses one wins the round at once."""
    hands = ["5C 9C", "2C 6D", "7C 8D"]
    assert_valid(one_deal(F, hands, "0 5C", "1 2C", "1 6D"))
    assert_fault(one_deal(F, hands, "0 5C", "1 2C", "2 7C"), 0, 2)
    assert position(F, hands, "0 5C", "1 2C").leading


def test_top_rank_is_the_joker_when_jokers_are_in():
    """RULES.md friday: the top rank is Joker when jokers are in; a 2 then does not end it."""
    hands = ["5C 9C", "2C 6D", "JK 8D"]
    assert_valid(one_deal(JOKERS, hands, "0 5C", "1 2C", "2 JK", "2 8D"))
    assert_fault(one_deal(JOKERS, hands, "0 5C", "1 2C", "2 JK", "0 9C"), 0, 3)
    assert not position(JOKERS, hands, "0 5C", "1 2C").leading


def test_top_rank_as_last_card_the_player_to_the_left_leads():
    """RULES.md friday: if the 2's player is out, the player to their left leads."""
    hands = ["5C 9C", "2C", "7C 8D", "6S 10S"]
    assert finishing_orders(one_deal(F, hands, "0 5C", "1 2C", "2 7C"))[0] == [1]
    assert_fault(one_deal(F, hands, "0 5C", "1 2C", "0 9C"), 0, 2)


def test_first_deal_left_of_dealer_leads_then_the_idiot():
    """Seed 001: the player left of the dealer starts the first game, later the Idiot."""
    first = deal(["5C", "6C", "7C"], "0 5C", "1 6C")
    second = deal(["3C 4C", "6D 7D", "8D 9D KD"], "2 8D", exchanges=("2>0 KD 9D", "0>2 3C 4C"))
    assert finishing_orders(game(F, first, second, dealer=2))[0] == [0, 1, 2]
    wrong = deal(["3C 4C", "6D 7D", "8D 9D KD"], "1 6D", exchanges=("2>0 KD 9D", "0>2 3C 4C"))
    assert_fault(game(F, first, wrong, dealer=2), 1, 0)
    assert_fault(one_deal(F, ["5C", "6C", "7C"], "0 5C", dealer=0), 0, 0)
    assert_valid(one_deal(F, ["5C", "6C", "7C"], "1 6C", dealer=0))


def test_revolution_quadruple_reverses_the_order():
    """Seed 001 revolution: any quadruple reverses all non-joker ranks; lower ranks now beat."""
    hands = ["5C 5D 5H 5S 9C 8D", "6C 6D 6H 6S KC", "4C 4D 4H 4S 7C"]
    assert_valid(one_deal(REVOLUTION, hands, "0 5C 5D 5H 5S", "1 pass", "2 4C 4D 4H 4S"))
    assert_fault(one_deal(REVOLUTION, hands, "0 5C 5D 5H 5S", "1 6C 6D 6H 6S"), 0, 1)
    assert_fault(one_deal(F, hands, "0 5C 5D 5H 5S", "1 pass", "2 4C 4D 4H 4S"), 0, 2)


def test_revolution_lasts_until_the_deal_ends():
    """Seed 001: the reversal remains after the trick (until another quadruple)."""
    hands = ["5C 5D 5H 5S 9C 8D", "6C KC", "4C 7C"]
    assert_valid(one_deal(REVOLUTION, hands, "0 5C 5D 5H 5S", "1 pass", "2 pass",
                          "0 9C", "1 6C"))
    assert_fault(one_deal(REVOLUTION, hands, "0 5C 5D 5H 5S", "1 pass", "2 pass",
                          "0 9C", "1 KC"), 0, 4)


def test_revolution_second_quadruple_restores_the_order():
    """Seed 001: another quadruple reverses the order back."""
    hands = ["5C 5D 5H 5S 9C", "6C KC 8S", "4C 4D 4H 4S 7C"]
    assert_valid(one_deal(REVOLUTION, hands, "0 5C 5D 5H 5S", "1 pass", "2 4C 4D 4H 4S",
                          "0 pass", "1 pass", "2 7C", "0 9C"))


def test_revolution_quadruple_of_threes_is_top_and_ends_the_trick():
    """RULES.md friday: a quadruple of 3s reverses, then 3 is top and the trick ends."""
    hands = ["3C 3D 3H 3S 9C", "6C KC", "4C 7C"]
    assert_valid(one_deal(REVOLUTION, hands, "0 3C 3D 3H 3S", "0 9C"))
    assert_fault(one_deal(REVOLUTION, hands, "0 3C 3D 3H 3S", "1 pass"), 0, 1)


def test_revolution_quadruple_means_four_or_more():
    """Our decision: "quadruple" is 4 or more cards of a rank (with two decks, five 5s)."""
    two_decks = {"preset": "friday", "options": {"revolution": True, "decks": 2}}
    hands = ["5C 5D 5H 5S 5C", "6C 6D 6H 6S 6C", "4C 4D 4H 4S 4D"]
    assert_valid(one_deal(two_decks, hands, "0 5C 5D 5H 5S 5C", "1 pass",
                          "2 4C 4D 4H 4S 4D"))
    assert_fault(one_deal(two_decks, hands, "0 5C 5D 5H 5S 5C", "1 6C 6D 6H 6S 6C"), 0, 1)


def test_revolution_single_three_beats_groups():
    """Seed 001: while reversed, single 3s beat any DTQ (ranked below 3); the 2 loses it."""
    hands = ["5C 5D 5H 5S 9C 9D", "3C 2C", "4C 7C"]
    assert_valid(one_deal(REVOLUTION, hands, "0 5C 5D 5H 5S", "1 pass", "2 pass",
                          "0 9C 9D", "1 3C"))
    assert_fault(one_deal(REVOLUTION, hands, "0 5C 5D 5H 5S", "1 pass", "2 pass",
                          "0 9C 9D", "1 2C"), 0, 4)
    jokers = ["5C 5D 5H 5S 9C 9D", "3C 2C", "JK 7C"]
    assert_valid(one_deal(REVOLUTION_JOKERS, jokers, "0 5C 5D 5H 5S", "1 pass", "2 pass",
                          "0 9C 9D", "1 3C", "2 JK"))


def test_blind_turn_plays_the_card_when_it_can_be_played():
    """RULES.md friday `blind`: the turned card is played if it can be played as a single."""
    data = one_deal(BLIND, ["5C 9C", "6C 7D"], "0 blind", "1 6C", blind=["4C KD", "8S 2S"])
    assert_valid(data)
    state = position(BLIND, ["5C 9C", "6C 7D"])
    assert "blind" not in legal(state)


def test_blind_turn_that_cannot_be_played_goes_to_hand_as_a_pass():
    """RULES.md friday `blind`: otherwise it goes into the hand and counts as a pass."""
    blind = ["4C KD", "8S 2S"]
    hands = ["5C 9C", "6C 7D"]
    # seat 0's 4C goes to hand and counts as a pass: seat 1 leads the next trick
    assert_valid(one_deal(BLIND, hands, "0 5C", "1 6C", "0 blind", "1 7D", "0 9C",
                          blind=blind))
    assert_valid(one_deal(BLIND, hands, "0 5C", "1 6C", "0 blind", "1 7D", "0 pass",
                          "1 blind", "0 9C", blind=blind))
    state = position(BLIND, hands, "0 5C", "1 6C", "0 blind", blind=blind)
    assert state.leading and state.turn == 1 and state.held[0] == 2  # 9C and the 4C
    assert_fault(one_deal(BLIND, hands, "0 5C", "1 6C", "0 blind", "0 4C", blind=blind), 0, 3)


def test_blind_player_with_empty_hand_but_blind_pile_is_still_in():
    """RULES.md friday `blind`: out only when hand and blind pile are both empty."""
    hands = ["5C", "6C 7D 8D"]
    state = position(BLIND, hands, "0 5C", blind=["9C", "KS"])
    assert 0 in state.active_seats() and state.finishing_order == []
    data = one_deal(BLIND, hands, "0 5C", "1 6C", "0 blind", blind=["9C", "KS"])
    assert finishing_orders(data)[0] == [0, 1]
    assert_fault(one_deal(BLIND, ["5C", "6C"], "0 5C", "1 blind", blind=["9C", ""]), 0, 1)
