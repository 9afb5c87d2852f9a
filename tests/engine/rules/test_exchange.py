"""The exchange before a deal, per preset (RULES.md "Common to all" and each preset)."""

from tests.engine.scenario import assert_fault, assert_valid, deal, game

FIRST3 = ["5C", "6C", "7C 8C"]  # finishing order 0, 1, 2: President 0, Scum 2


def two_deals(ruleset, second, first_hands=FIRST3, first_moves=("0 5C", "1 6C"), **kw):
    return game(ruleset, deal(first_hands, *first_moves, **kw), second)


def test_no_exchange_before_the_first_deal():
    """RULES.md: no exchange before a game's first deal."""
    data = game("friday", deal(["5C", "6C", "7C"], exchanges=("2>0 7C",)))
    assert_fault(data, 0, None)


def test_school_scum_president_names_any_cards_of_the_scum():
    """Seed 000: the Scum gives whatever two cards the President desires; the President gives
    any two back."""
    hands = ["9C 10C", "6D", "4D 5D KD"]
    ok = deal(hands, "1 6D", exchanges=("2>0 4D 5D", "0>2 9C 10C"))
    assert_valid(two_deals("school-scum", ok))
    missing = deal(hands, "1 6D", exchanges=("2>0 4D 5D",))
    assert_fault(two_deals("school-scum", missing), 1, None)
    not_held = deal(hands, "1 6D", exchanges=("2>0 4D AD", "0>2 9C 10C"))
    assert_fault(two_deals("school-scum", not_held), 1, None)
    one_card = deal(hands, "1 6D", exchanges=("2>0 4D", "0>2 9C"))
    assert_fault(two_deals("school-scum", one_card), 1, None)


def test_giving_back_never_returns_a_card_just_received():
    """RULES.md: the one giving back never returns a card just received."""
    hands = ["9C 10C", "6D", "4D 5D KD"]
    back = deal(hands, "1 6D", exchanges=("2>0 4D KD", "0>2 KD 9C"))
    assert_fault(two_deals("school-scum", back), 1, None)


def test_exchange_order_scum_first_then_vices():
    """RULES.md: the Scum gives, the President gives back, then the Vice-Scum and the VP."""
    first = ["5C", "6C", "7C", "8C 9C"]
    moves = ("0 5C", "1 6C", "2 7C")
    hands = ["3C 4C", "3D 10D", "QD 4S", "KD AD 5S"]
    ok = deal(hands, "3 5S", exchanges=("3>0 AD KD", "0>3 3C 4C", "2>1 QD", "1>2 3D"))
    assert_valid(game("friday", deal(first, *moves), ok))
    swapped = deal(hands, "3 5S", exchanges=("2>1 QD", "1>2 3D", "3>0 AD KD", "0>3 3C 4C"))
    assert_fault(game("friday", deal(first, *moves), swapped), 1, None)
    vice = deal(hands, "3 5S", exchanges=("3>0 AD KD", "0>3 3C 4C", "2>1 4S", "1>2 3D"))
    assert_fault(game("friday", deal(first, *moves), vice), 1, None)


def test_friday_idiot_gives_two_highest():
    """Seed 001: the Idiot gives the two highest cards; the President gives any two."""
    hands = ["3C 4C", "6D", "2D 9D KD"]
    assert_valid(two_deals("friday", deal(hands, "2 9D",
                                          exchanges=("2>0 2D KD", "0>2 4C 3C"))))
    assert_fault(two_deals("friday", deal(hands, "2 9D",
                                          exchanges=("2>0 9D KD", "0>2 4C 3C"))), 1, None)


def test_highest_is_judged_on_the_givers_hand_with_fewer_cards_giving_all():
    """RULES.md: a giver holding fewer cards than asked gives all they hold."""
    hands = ["3C 4C", "6D", "KD"]
    assert_valid(two_deals("friday", deal(hands, "2 4C",
                                          exchanges=("2>0 KD", "0>2 4C 3C"))))


def test_wild_jokers_bum_gives_highest_with_jokers_highest():
    """Seed 003: the Bum exchanges their two highest cards (jokers count highest)."""
    hands = ["3C 4C", "6D", "JK AD KD"]
    ok = deal(hands, "0 AD", exchanges=("2>0 JK AD", "0>2 3C 4C"))
    assert_valid(two_deals("wild-jokers", ok))
    bad = deal(hands, "0 AD", exchanges=("2>0 AD KD", "0>2 3C 4C"))
    assert_fault(two_deals("wild-jokers", bad), 1, None)


def test_wild_jokers_bum_deals_next():
    """Seed 003: the Bum deals the next deal, so the player to the Bum's left leads when
    nobody holds the 2♣."""
    hands = ["3C 4C", "6D", "JK AD KD"]
    swaps = ("2>0 JK AD", "0>2 3C 4C")
    assert_valid(two_deals("wild-jokers", deal(hands, "0 AD", exchanges=swaps)))
    assert_fault(two_deals("wild-jokers", deal(hands, "1 6D", exchanges=swaps)), 1, 0)


PD_FIRST = ["5", "6", "7 8"]


def pd_game(second):
    return game("presidents-deck", deal(PD_FIRST, "0 5", "1 6", leader=0), second)


def test_presidents_deck_high_and_low_asks():
    """Seed 004: the President asks high or low per card and gets the highest or lowest."""
    hands = ["1 2", "9", "12 B 4 DG"]
    assert_valid(pd_game(deal(hands, "0 12", exchanges=("2>0 12 B high low", "0>2 1 2"))))
    assert_valid(pd_game(deal(hands, "0 DG", exchanges=("2>0 B DG low low", "0>2 1 2"))))
    assert_fault(pd_game(deal(hands, "0 4", exchanges=("2>0 4 B high low", "0>2 1 2"))),
                 1, None)
    assert_fault(pd_game(deal(hands, "0 4", exchanges=("2>0 DG 12 low high", "0>2 1 2"))),
                 1, None)


def test_presidents_deck_between_bomb_and_reverse_the_giver_chooses():
    """RULES.md: Bomb = Bomb Reverse (0) in the ask order; between them the giver chooses."""
    hands = ["1 2", "9", "12 B BR 4"]
    for given in ("B", "BR"):
        swaps = (f"2>0 {given} 12 low high", "0>2 1 2")
        assert_valid(pd_game(deal(hands, "0 12", exchanges=swaps)))


def test_presidents_deck_exchange_needs_asked():
    """TRANSCRIPT.md: a presidents-deck exchange's `asked` is required (exit 2 without)."""
    hands = ["1 2", "9", "12 B 4 DG"]
    assert_fault(pd_game(deal(hands, "0 12", exchanges=("2>0 12 B", "0>2 1 2"))), 1, None,
                 status=2)


def test_classic_has_no_exchange():
    """Seed 002: no exchange."""
    data = two_deals("classic", deal(["3C 4C", "6D", "9D KD"], "1 6D",
                                     exchanges=("2>0 KD 9D", "0>2 3C 4C")))
    assert_fault(data, 1, None)
