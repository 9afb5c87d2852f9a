"""Role par (issue #31, docs/par.md): what the reference player is expected to score from a
starting role and a seat from the dealer, without the hands: the figure a club's phones can
compare results with, and the baseline the luck of a dealt hand is measured from.

The table (``role_par.json`` beside this module) is made by ``bench/role_par.py``: per preset
and table size, each cell is the reference's points from many random deals played out from that
role (``first`` on a game's first deal, which has no roles) and that seat (0 = the dealer, 1 =
the dealer's left …), with its sample size and 95% interval, under every scoring system.
"""

import json
from functools import cache
from pathlib import Path

from gameplay.engine.options import Options, to_ruleset
from gameplay.engine.roles import roles_of

PATH = Path(__file__).with_name("role_par.json")
FIRST = "first"  # a game's first deal: no roles, no exchange


def cell_key(role: str, seat_from_dealer: int) -> str:
    return f"{role}@{seat_from_dealer}"


def seat_roles(players: int, dealer: int, previous_order) -> list[str]:
    """Each seat's cell key: its starting role (or ``first``) and its seat from the dealer."""
    roles = {s: str(r) for s, r in roles_of(previous_order).items()} if previous_order else {}
    return [cell_key(roles.get(s, FIRST), (s - dealer) % players) for s in range(players)]


@cache
def table() -> dict:
    return json.loads(PATH.read_text()) if PATH.exists() else {}


def preset_of(options: Options) -> str | None:
    """The preset whose table ``options`` use: only a preset as it stands has one."""
    ruleset = to_ruleset(options)
    return ruleset if isinstance(ruleset, str) else None


def role_par(options: Options, players: int, system: str, key: str) -> dict | None:
    """The cell ``key`` of a preset's table at ``players`` seats under scoring ``system``:
    {"points", "interval", "deals"}, or None where the table has no such cell."""
    name = preset_of(options)
    cell = table().get(name or "", {}).get(str(players), {}).get(key)
    if cell is None or system not in cell["points"]:
        return None
    mean, low, high = cell["points"][system]
    return {"points": mean, "interval": (low, high), "deals": cell["deals"]}


def baseline(options: Options, players: int, system: str, dealer: int,
             previous_order) -> list[float] | None:
    """Each seat's role par for the deal about to be dealt, or None without a whole table."""
    cells = [role_par(options, players, system, key)
             for key in seat_roles(players, dealer, previous_order)]
    return None if None in cells else [c["points"] for c in cells]


def over_par(options: Options, players: int, system: str, dealer: int, previous_order,
             points) -> list[float] | None:
    """Each seat's points of a deal over its role par, measured from the table: (points less
    role par) less the table's mean of the same, so they sum to zero over the table (a cell is
    the reference's points against plain heuristic players, not on the scale of a deal's
    total). None without a whole table."""
    base = baseline(options, players, system, dealer, previous_order)
    if base is None:
        return None
    over = [p - b for p, b in zip(points, base, strict=True)]
    mean = sum(over) / players
    return [o - mean for o in over]
