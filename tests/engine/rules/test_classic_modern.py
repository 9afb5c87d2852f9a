"""classic and modern (seed 002, RULES.md "classic and modern")."""

from tests.engine.scenario import assert_fault, assert_valid, deal, game, legal, one_deal, position

C, M = "classic", "modern"


def test_classic_single_beaten_by_higher_group_of_any_count():
    """Seed 002: a single card can be beaten by any number of higher rank cards."""
    hands = ["5C 9C", "6C 6D 6H", "7C 7D 8S"]
    assert_valid(one_deal(C, hands, "0 5C", "1 6C 6D"))
    assert_valid(one_deal(C, hands, "0 5C", "1 6C 6D 6H"))
    assert_fault(one_deal(C, ["9C 5C", "6C 6D", "7C"], "0 9C", "1 6C 6D"), 0, 1)
    assert legal(position(C, hands, "0 5C")) == {"6C", "6C 6D", "6C 6D 6H", "pass"}


def test_classic_group_count_then_fixed():
    """RULES.md classic: the trick's count is then that group's; a group only by the same count."""
    hands = ["5C 9C", "6C 6D KH", "7C 7D 8S 8D 8H"]
    assert_valid(one_deal(C, hands, "0 5C", "1 6C 6D", "2 7C 7D"))
    assert_fault(one_deal(C, hands, "0 5C", "1 6C 6D", "2 8S"), 0, 2)
    assert_fault(one_deal(C, hands, "0 5C", "1 6C 6D", "2 8S 8D 8H"), 0, 2)
    assert_fault(one_deal(C, ["5C 5D", "KH", "7C"], "0 5C 5D", "1 KH"), 0, 1)


def test_classic_twos_high():
    """Seed 002 classic: twos are the highest card."""
    assert_valid(one_deal(C, ["AC 5C", "2D 6D", "7C"], "0 AC", "1 2D"))
    assert_fault(one_deal(C, ["2D 5C", "AC 6D", "7C"], "0 2D", "1 AC"), 0, 1)


def test_classic_equal_rank_not_allowed():
    """Seed 002 classic: must beat, equal rank is not enough."""
    assert_fault(one_deal(C, ["5C 9C", "5D 6D", "7C"], "0 5C", "1 5D"), 0, 1)


def test_modern_twos_low():
    """Seed 002 modern (`two_high` off): twos are the lowest card."""
    assert_valid(one_deal(M, ["2D 5C", "AC 6D", "7C"], "0 2D", "1 AC"))
    assert_fault(one_deal(M, ["AC 5C", "2D 6D", "7C"], "0 AC", "1 2D"), 0, 1)


def test_modern_equal_rank_allowed():
    """Seed 002 modern (`equal_rank_allowed`): cards matching the previous value may be played."""
    assert_valid(one_deal(M, ["5C 9C", "5D 6D", "7C"], "0 5C", "1 5D"))
    assert_fault(one_deal(M, ["5C 9C", "4D 6D", "7C"], "0 5C", "1 4D"), 0, 1)


def test_modern_any_larger_set_beats_whatever_its_rank():
    """Seed 002 modern (`any_larger_set`): a larger set of any value beats a set."""
    assert_valid(one_deal(M, ["KC KD", "3C 3D 3H", "7C"], "0 KC KD", "1 3C 3D 3H"))
    assert_valid(one_deal(M, ["KC 9C", "3C 3D", "7C"], "0 KC", "1 3C 3D"))
    assert_fault(one_deal(C, ["KC KD", "3C 3D 3H", "7C"], "0 KC KD", "1 3C 3D 3H"), 0, 1)
    assert_fault(one_deal(M, ["5C 5D", "KH", "7C"], "0 5C 5D", "1 KH"), 0, 1)


def test_no_exchange_and_left_of_the_moving_dealer_leads():
    """Seed 002: no exchange; the player left of the dealer leads; the dealer moves left."""
    first = deal(["5C", "6C", "7C"], "0 5C", "1 6C")
    second = deal(["8C", "9C", "10C"], "1 9C", "2 10C")
    assert_valid(game(C, first, second, dealer=2))
    assert_fault(game(C, first, deal(["8C", "9C", "10C"], "0 8C"), dealer=2), 1, 0)
    swapped = deal(["8C", "9C", "10C"], "1 9C", exchanges=("2>0 10C",))
    assert_fault(game(M, first, swapped, dealer=2), 1, None)
