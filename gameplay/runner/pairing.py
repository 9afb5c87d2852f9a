"""Who sits where in a bot tournament: pure functions, no database (STYLE.md, Tabbycat).

A tournament game is identified by (round, table, game number).  ``round_robin`` meets every
entrant with every other equally often; ``rating_round`` pairs one round by current rating.
``seating`` rotates the seats from game to game so each entrant sits in each seat in turn.
"""

from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass
from itertools import combinations
from math import ceil, comb

MAX_ROUND_ROBIN_TABLES = 20_000


class PairingError(ValueError):
    """A tournament that cannot be paired as asked; the message says why."""


@dataclass(frozen=True)
class Table:
    round: int
    number: int
    entrants: tuple[Hashable, ...]


def round_robin(entrants: Sequence[Hashable], seats: int) -> list[Table]:
    """One table for every group of ``seats`` entrants: each pair meets C(n-2, k-2) times."""
    _check(entrants, seats)
    if len(entrants) < seats:
        raise PairingError(f"{len(entrants)} entrants cannot fill a table of {seats}")
    count = comb(len(entrants), seats)
    if count > MAX_ROUND_ROBIN_TABLES:
        raise PairingError(f"a round robin of {len(entrants)} entrants at tables of {seats} "
                           f"needs {count} tables (at most {MAX_ROUND_ROBIN_TABLES}); "
                           "use rating-paired rounds")
    return [Table(0, i, group) for i, group in enumerate(combinations(entrants, seats))]


def rating_round(ratings: Mapping[Hashable, float], seats: int, round_number: int) -> list[Table]:
    """Tables of neighbours in the rating order (best first), as even in size as possible.

    Ties in rating keep the mapping's order.  With tables of 2 and an odd number of entrants,
    one entrant sits out, a different one each round.
    """
    entrants = sorted(ratings, key=lambda e: -ratings[e])
    _check(entrants, seats)
    if seats == 2 and len(entrants) % 2:
        entrants.pop(round_number % len(entrants))
    tables = ceil(len(entrants) / seats)
    base, extra = divmod(len(entrants), tables)
    result, at = [], 0
    for number in range(tables):
        size = base + (number < extra)
        result.append(Table(round_number, number, tuple(entrants[at:at + size])))
        at += size
    return result


def seating(table: Table, game_number: int) -> tuple[Hashable, ...]:
    """The table's entrants by seat for one game: rotated one seat per game."""
    k = len(table.entrants)
    shift = game_number % k
    return table.entrants[shift:] + table.entrants[:shift]


def _check(entrants: Sequence[Hashable], seats: int) -> None:
    if seats < 2:
        raise PairingError("a table needs at least 2 seats")
    if len(set(entrants)) != len(entrants):
        raise PairingError("an entrant is listed twice")
    if len(entrants) < 2:
        raise PairingError("a tournament needs at least 2 entrants")
