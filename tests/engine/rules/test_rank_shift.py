"""Players entering and leaving between deals (RULES.md, seed 004, for all presets)."""

import pytest

from gameplay.engine import Role, RuleViolation, exchange_pairs, rank_shift

P, VP, CIT, VS, S = Role.PRESIDENT, Role.VICE_PRESIDENT, Role.CITIZEN, Role.VICE_SCUM, Role.SCUM


def test_no_change_keeps_the_roles():
    assert rank_shift("abcde") == [("a", P), ("b", VP), ("c", CIT), ("d", VS), ("e", S)]


def test_president_leaves_the_vice_president_moves_up():
    """Seed 004: the VP becomes President and whoever was 3rd becomes VP."""
    assert rank_shift("abcde", leaving="a") == [("b", P), ("c", VP), ("d", VS), ("e", S)]


def test_scum_leaves_the_vice_scum_moves_down():
    """RULES.md: the Vice-Scum becomes Scum and the worst neutral becomes Vice-Scum."""
    assert rank_shift("abcdef", leaving="f") == [("a", P), ("b", VP), ("c", CIT), ("d", VS),
                                                   ("e", S)]


def test_leaving_vice_president_replaced_from_the_neutrals():
    """RULES.md: a leaving Vice President is replaced from the neutrals the same way."""
    assert rank_shift("abcdef", leaving="b") == [("a", P), ("c", VP), ("d", CIT), ("e", VS),
                                                   ("f", S)]


def test_joiner_enters_as_citizen_above_the_vice_scum():
    """Seed 004: someone who enters does so as a citizen; our decision: placed just above the
    Vice-Scum, giving nobody else a role."""
    assert rank_shift("abcd", joining="x") == [("a", P), ("b", VP), ("x", CIT), ("c", VS),
                                                ("d", S)]
    assert rank_shift("abc", joining="x") == [("a", P), ("b", CIT), ("x", CIT), ("c", S)]


def test_next_exchange_uses_the_shifted_ranks():
    """RULES.md: the next exchange uses the shifted ranks."""
    assert exchange_pairs(rank_shift("abcd", leaving="a")) == [("d", "b", 2), ("b", "d", 2)]
    # the joiner gives nobody a role: four players, but no Vice President or Vice-Scum yet
    assert exchange_pairs(rank_shift("abc", joining="x")) == [("c", "a", 2), ("a", "c", 2)]


@pytest.mark.parametrize(("order", "leaving", "joining"), [
    ("abc", "z", ""), ("abc", "", "a"), ("ab", "a", ""), ("aab", "", ""), ("abc", "", "xx"),
])
def test_impossible_shifts_are_refused(order, leaving, joining):
    with pytest.raises(RuleViolation):
        rank_shift(order, leaving=leaving, joining=joining)
