"""Tournament pairing without a database (gameplay/runner/pairing.py)."""

from collections import Counter
from itertools import combinations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from gameplay.runner.pairing import PairingError, rating_round, round_robin, seating


@given(st.integers(min_value=2, max_value=9), st.integers(min_value=2, max_value=5))
def test_round_robin_meets_every_pair_equally_often(n, k):
    if n < k:
        with pytest.raises(PairingError):
            round_robin(list(range(n)), k)
        return
    tables = round_robin(list(range(n)), k)
    meetings = Counter(pair for t in tables for pair in combinations(sorted(t.entrants), 2))
    assert set(meetings) == set(combinations(range(n), 2))
    assert len(set(meetings.values())) == 1
    assert len({t.number for t in tables}) == len(tables)


def test_seating_rotates_every_entrant_through_every_seat():
    table = round_robin(["a", "b", "c", "d"], 4)[0]
    seats = Counter((e, seat) for g in range(8) for seat, e in enumerate(seating(table, g)))
    assert len(seats) == 16
    assert set(seats.values()) == {2}


def test_rating_round_seats_neighbours_together_best_first():
    ratings = {f"bot{i}": float(i) for i in range(8)}
    tables = rating_round(ratings, 4, round_number=3)
    assert [t.entrants for t in tables] == [("bot7", "bot6", "bot5", "bot4"),
                                           ("bot3", "bot2", "bot1", "bot0")]
    assert {t.round for t in tables} == {3}


@given(st.integers(min_value=2, max_value=30), st.integers(min_value=2, max_value=6),
       st.integers(min_value=0, max_value=10))
def test_rating_round_tables_are_even_and_seat_everyone_once(n, k, round_number):
    ratings = {i: float((i * 7) % 5) for i in range(n)}
    tables = rating_round(ratings, k, round_number)
    seated = [e for t in tables for e in t.entrants]
    assert len(seated) == len(set(seated))
    sits_out = 1 if k == 2 and n % 2 else 0
    assert len(seated) == n - sits_out
    sizes = [len(t.entrants) for t in tables]
    assert max(sizes) <= k and min(sizes) >= 2 and max(sizes) - min(sizes) <= 1


def test_pairs_sitting_out_changes_from_round_to_round():
    ratings = {e: 1.0 for e in "abcde"}
    out = [set(ratings) - {e for t in rating_round(ratings, 2, r) for e in t.entrants}
           for r in range(5)]
    assert len({frozenset(o) for o in out}) == 5


@pytest.mark.parametrize("entrants, seats, message", [
    (["a"], 4, "at least 2 entrants"),
    (["a", "a", "b"], 2, "listed twice"),
    (["a", "b"], 1, "at least 2 seats"),
    (list(range(60)), 4, "use rating-paired rounds"),
])
def test_unpairable_tournaments_say_why(entrants, seats, message):
    with pytest.raises(PairingError, match=message):
        round_robin(entrants, seats)
