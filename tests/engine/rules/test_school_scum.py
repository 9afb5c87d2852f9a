"""school-scum (seed 000, RULES.md "school-scum"): beating, passing, the 3♣ lead and the
special moves consec, eight below, 69 and KKK."""

from tests.engine.scenario import assert_fault, assert_valid, legal, one_deal, position

S = "school-scum"
THREE = ["5C 10D QH", "5D 7S KS", "7H 9S AS"]


def test_beat_needs_strictly_higher_rank():
    """Seed 000 / RULES.md school-scum: a strictly higher rank (you can't play a 9 on a 9)."""
    assert_valid(one_deal(S, THREE, "0 5C", "1 7S"))
    assert_fault(one_deal(S, THREE, "0 5C", "1 5D"), 0, 1)


def test_beat_needs_the_count_the_trick_was_led_with():
    """Seed 000: the same number of cards as played at the start of the trick."""
    hands = ["5C 5D 9C", "6S 6H 7C", "10C 10D JS"]
    assert_valid(one_deal(S, hands, "0 5C 5D", "1 6S 6H", "2 10C 10D"))
    assert_fault(one_deal(S, hands, "0 5C 5D", "1 7C"), 0, 1)
    assert_fault(one_deal(S, hands, "0 5C 5D", "1 6S 6H", "2 10C 10D JS"), 0, 2)


def test_pass_is_final_passed_player_sits_out_the_trick():
    """Seed 000 / RULES.md `pass_is_final`: once one has passed, one is out of the trick."""
    assert_valid(one_deal(S, THREE, "0 5C", "1 pass", "2 7H", "0 10D", "2 AS", "0 pass",
                          "2 9S"))
    assert_fault(one_deal(S, THREE, "0 5C", "1 pass", "2 7H", "1 KS"), 0, 3)
    state = position(S, THREE, "0 5C", "1 pass", "2 7H")
    assert state.turn == 0


def test_passed_players_are_back_in_the_next_trick():
    """Seed 000: all passed players from the previous trick are back in."""
    assert_valid(one_deal(S, THREE, "0 5C", "1 pass", "2 AS", "0 pass", "2 7H", "0 10D",
                          "1 KS"))


def test_three_of_clubs_holder_leads_with_it():
    """Seed 000 / RULES.md: the 3♣ holder leads every deal, with the 3♣ and any other 3s."""
    hands = ["4C 9D", "3C 3D 5H", "9S JD"]
    assert_valid(one_deal(S, hands, "1 3C 3D", "2 pass"))
    assert_valid(one_deal(S, hands, "1 3C", "2 9S"))
    assert_fault(one_deal(S, hands, "0 4C"), 0, 0)
    assert_fault(one_deal(S, hands, "1 5H"), 0, 0)
    assert_fault(one_deal(S, hands, "1 3D"), 0, 0)
    assert legal(position(S, hands)) == {"3C", "3C 3D"}


def test_first_three_of_clubs_to_the_dealers_left_leads_with_two_decks():
    """RULES.md school-scum: with several decks the first 3♣ holder to the dealer's left."""
    hands = ["3C 9D", "3C 5H", "9S JD"]
    assert_valid(one_deal(S, hands, "1 3C", dealer=0))
    assert_fault(one_deal(S, hands, "0 3C", dealer=0), 0, 0)
    assert_valid(one_deal(S, hands, "0 3C", dealer=1))
    assert_fault(one_deal(S, hands, "1 3C", dealer=1), 0, 0)


CONSEC = ["6C 9C 9D 10S 2S", "7C 10C QH 3H", "8C JS KD 4H"]


def test_consec_requires_next_rank():
    """Seed 000 consec: after 6-7-8 every later play is exactly one rank above, same count."""
    assert_valid(one_deal(S, CONSEC, "0 6C", "1 7C", "2 8C", "0 9C", "1 10C", "2 JS"))
    assert_fault(one_deal(S, CONSEC, "0 6C", "1 7C", "2 8C", "0 10S"), 0, 3)
    assert_fault(one_deal(S, CONSEC, "0 6C", "1 7C", "2 8C", "0 2S"), 0, 3)


def test_consec_legal_moves_after_six_seven_eight_are_only_nines():
    """Seed 000: 6-7-8 is consec, not eight below (consec takes priority): only 9s follow."""
    state = position(S, CONSEC, "0 6C", "1 7C", "2 8C")
    assert legal(state) == {"9C", "pass"}


def test_consec_runs_to_joker_and_keeps_the_count():
    """RULES.md: consec runs Q-K-A, A-2-Joker; the count stays the trick's."""
    hands = ["QC QD 2C 2D JK", "KC KD 3D", "AC AD 4D JK"]
    assert_valid(one_deal(S, hands, "0 QC QD", "1 KC KD", "2 AC AD", "0 2C 2D"))
    assert_fault(one_deal(S, hands, "0 QC QD", "1 KC KD", "2 AC AD", "0 JK"), 0, 3)
    single = ["AC 5D", "2C 6D", "JK 7D"]
    state = position(S, ["QC AC", "KC 2C", "5D 6D"], "0 QC", "1 KC", "2 pass", "0 AC")
    assert legal(state) == {"2C", "pass"}
    assert_valid(one_deal(S, single, "0 AC", "1 2C", "2 JK"))


EIGHT = ["8C 4D 9H 3H", "7C 9S 5D", "6C 8D KS"]


def test_eight_below_next_play_is_lower_than_eight():
    """Seed 000 eight below: after 8s the next play must be lower than 8 (8, 7 legal)."""
    assert_valid(one_deal(S, EIGHT, "0 8C", "1 7C"))
    assert_fault(one_deal(S, EIGHT, "0 8C", "1 9S"), 0, 1)
    assert legal(position(S, EIGHT, "0 8C")) == {"7C", "5D", "pass"}


def test_eight_below_then_normal_order_from_the_lower_play():
    """Seed 000: 8, 7, 9 is valid but 8, 7, 4 is not."""
    assert_valid(one_deal(S, EIGHT, "0 8C", "1 7C", "2 KS", "0 pass", "1 pass",
                          "2 6C", "0 9H"))
    assert_valid(one_deal(S, ["8C 4D", "7C 5D", "3S 9H"], "0 8C", "1 7C", "2 9H"))
    assert_fault(one_deal(S, ["8C 4D", "7C 5D", "3S 9H"], "0 8C", "1 7C", "2 3S"), 0, 2)


def test_eight_below_keeps_the_count():
    """Seed 000: eight below does not affect the same number of cards (immutable)."""
    hands = ["8C 8D 3S", "7C 7D 5S", "6C KS"]
    assert_valid(one_deal(S, hands, "0 8C 8D", "1 7C 7D"))
    assert_fault(one_deal(S, hands, "0 8C 8D", "1 5S"), 0, 1)


def test_seven_eight_is_eight_below_not_a_run():
    """Seed 000: the run 7, 8 may not be followed by a 9."""
    hands = ["7C 4D", "8C 5S", "9C 6D"]
    assert_fault(one_deal(S, hands, "0 7C", "1 8C", "2 9C"), 0, 2)
    assert_valid(one_deal(S, hands, "0 7C", "1 8C", "2 6D"))


SIXTY_NINE = ["6C JC KD 4S", "9C QS 10H 3D", "JD 5C AH 7S"]


def test_sixty_nine_then_any_two_face_cards():
    """Seed 000 69: a 9 on a 6 → every later play is any two face cards (J, Q, K mixed)."""
    assert_valid(one_deal(S, SIXTY_NINE, "0 6C", "1 9C", "2 pass", "0 JC KD"))
    assert_fault(one_deal(S, SIXTY_NINE, "0 6C", "1 9C", "2 AH"), 0, 2)
    assert_fault(one_deal(S, SIXTY_NINE, "0 6C", "1 9C", "2 pass", "0 JC"), 0, 3)
    assert_fault(one_deal(S, SIXTY_NINE, "0 6C", "1 9C", "2 pass", "0 JC 4S"), 0, 3)
    assert legal(position(S, SIXTY_NINE, "0 6C", "1 9C", "2 pass")) == {"JC KD", "pass"}


def test_sixty_nine_face_cards_in_no_order():
    """Seed 000: 6, 9, JK then JQ (no order among face cards)."""
    hands = ["6C JC KD 3S", "9C QS QH 3D", "JD KS 5C"]
    assert_valid(one_deal(S, hands, "0 6C", "1 9C", "2 JD KS", "0 JC KD", "1 QS QH"))


def test_double_sixty_nine_needs_four_face_cards():
    """Seed 000: 66, 99 (double 69) → four face cards."""
    hands = ["6C 6D JC JD QS KS", "9C 9D 4S", "QH KH JH KC 5C"]
    assert_valid(one_deal(S, hands, "0 6C 6D", "1 9C 9D", "2 QH KH JH KC"))
    assert_fault(one_deal(S, hands, "0 6C 6D", "1 9C 9D", "2 QH KH"), 0, 2)
    assert_fault(one_deal(S, hands, "0 6C 6D", "1 9C 9D", "2 QH KH JH"), 0, 2)


def test_sixty_nine_after_an_eight_below_drop():
    """RULES.md: 69 can start after an eight-below drop (8, 6, 9)."""
    hands = ["8C QC KC", "6C JD 4S", "9C KH 5S"]
    assert_valid(one_deal(S, hands, "0 8C", "1 6C", "2 9C", "0 QC KC"))
    assert_fault(one_deal(S, hands, "0 8C", "1 6C", "2 9C", "0 QC"), 0, 3)


KKK = ["KC KS KD 3S", "2H 5D 9H 4C JK", "10C JD 7H 6D"]


def test_kkk_then_any_three_red_cards():
    """Seed 000 KKK: after three kings every later play is three red cards (♥ ♦)."""
    assert_valid(one_deal(S, KKK, "0 KC KS KD", "1 2H 5D 9H"))
    assert_valid(one_deal(S, KKK, "0 KC KS KD", "1 pass", "2 JD 7H 6D"))
    assert_fault(one_deal(S, KKK, "0 KC KS KD", "1 2H 5D 4C"), 0, 1)


def test_kkk_jokers_are_not_red():
    """RULES.md KKK: jokers are not red."""
    assert_fault(one_deal(S, KKK, "0 KC KS KD", "1 2H 5D JK"), 0, 1)


def test_kkk_only_with_exactly_three_kings():
    """Seed 000: KKK only exists with triples: a pair of kings is an ordinary play."""
    hands = ["KC KS 3S", "2H 5D 4C", "AC AD 6D"]
    assert_fault(one_deal(S, hands, "0 KC KS", "1 2H 5D"), 0, 1)
    assert_valid(one_deal(S, hands, "0 KC KS", "1 pass", "2 AC AD"))


def test_kkk_can_start_inside_consec():
    """RULES.md: KKK can start inside consec (QQQ then KKK)."""
    hands = ["10C 10S 10D KC KS KD", "JC JS JD 2H 3D 4H", "QC QS QD 5C"]
    assert_valid(one_deal(S, hands, "0 10C 10S 10D", "1 JC JS JD", "2 QC QS QD",
                          "0 KC KS KD", "1 2H 3D 4H"))
    assert_fault(one_deal(S, hands, "0 10C 10S 10D", "1 JC JS JD", "2 QC QS QD",
                          "0 KC KS KD", "1 pass", "2 5C"), 0, 5)
