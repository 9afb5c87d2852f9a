"""Bot strength: a bot against a table of others, duplicate deals, 95% intervals, every preset.

    python bench/bots.py [--games 2000] [--preset classic ...] [--workers 2] [--seed 1]
        [--bot montecarlo] [--ms 50 | --playouts 200]
        [--table heuristic --table mixed ...]
        [--lineup 'montecarlo:playouts=200,chains=4; heuristic; heuristic; heuristic' ...]
        [--seat montecarlo:kernel=1 --seat greedy --seat greedy --seat greedy]
        [--scoring '{"system": "penalty", "limit": 4}']

The measured bot is the first seat of each lineup.  Lineups come from
- ``--table NAME`` (repeatable): ``--bot`` against three of ``heuristic``, ``greedy``,
  ``spender``, ``hoarder``, or ``mixed`` (one each of heuristic, greedy and random); without
  ``--table``, ``--lineup`` or ``--seat``, all five (issue #21's tables);
- ``--lineup`` (repeatable): one bot spec per seat separated by ``;``, so that a spec keeps its
  several ``key=value`` settings (``montecarlo:playouts=200,chains=4``).  A lineup without ``;``
  is read the old way, comma separated, a ``key=value`` piece going with the seat before it;
- ``--seat SPEC`` (repeatable): one lineup, a seat at a time.

``--ms N`` plays every montecarlo seat at N ms per decision (``budget_ms``), ``--playouts N`` at
a fixed N playouts per decision (the same games on every run and machine); either replaces the
spec's own.

Duplicate mode: the games go in blocks of one shuffle per seat rotation, so every bot holds every
hand from every seat.  Where the opponents differ (the mixed table) the blocks also take every
order of the opponents round the table in turn, and the games are rounded up to a whole number
of such cycles, so each bot sits after each other equally often.  A game is one deal by default
(BOTS.md: strength per deal without exchanges); ``--scoring`` plays whole games with exchanges
and adds the game wins with their interval.

Prints one JSON line per (preset, lineup): the measured bot's first-out rate, last-place rate
and mean finishing position with 95% intervals (Wilson for rates, normal for the mean), deals,
games, wins when scored, mean ms per decision, playouts per searched decision where the bot
counts them, and each opponent's mean position; then a table.  The machine must be otherwise
idle for timed bots (``--ms``): what they play depends on its speed.
"""

import argparse
import itertools
import json
import math
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from gameplay.bots import make_bot  # noqa: E402
from gameplay.engine.errors import OptionsError  # noqa: E402
from gameplay.engine.options import PRESETS  # noqa: E402
from gameplay.engine.scoring import Scoring  # noqa: E402
from gameplay.runner.match import GameSpec, PlayerTally, run  # noqa: E402

TABLES = {
    "heuristic": ["heuristic"] * 3,
    "greedy": ["greedy"] * 3,
    "spender": ["spender"] * 3,
    "hoarder": ["hoarder"] * 3,
    "mixed": ["heuristic", "greedy", "random"],
}


def parse_lineup(text: str) -> list[str]:
    """The bot specs of a ``--lineup``: ``;`` between seats, or the old commas."""
    if ";" in text:
        seats = text.split(";")
    else:
        seats = []
        for piece in text.split(","):
            if seats and "=" in piece and ":" not in piece:  # a setting of the seat before
                seats[-1] += "," + piece
            else:
                seats.append(piece)
    seats = [s.strip() for s in seats if s.strip()]
    if len(seats) < 2:
        raise ValueError(f"a lineup needs two seats or more, not {text!r}")
    return seats


def with_search(spec: str, ms: float | None, playouts: int | None) -> str:
    """``spec`` with montecarlo's budget set to ``ms`` or ``playouts`` (other bots as given)."""
    name, _, rest = spec.partition(":")
    if name != "montecarlo" or (ms is None and playouts is None):
        return spec
    kept = [s for s in rest.split(",") if s and s.partition("=")[0].strip()
            not in ("budget_ms", "playouts")]
    kept.append(f"budget_ms={ms:g}" if ms is not None else f"playouts={playouts}")
    return f"{name}:{','.join(kept)}"


def orders(lineup: list[str]) -> list[tuple[str, ...]]:
    """Every distinct order of the opponents round the table, the measured bot first."""
    first, *others = lineup
    return [(first, *p) for p in sorted(set(itertools.permutations(others)))]


def block_games(games: int, lineup: list[str]) -> int:
    """``games`` rounded up to whole cycles of seat rotations and opponents' orders."""
    cycle = len(lineup) * len(orders(lineup))
    return math.ceil(games / cycle) * cycle


def schedule_balanced(lineup: list[str], preset: str, *, games: int, seed: int,
                      scoring: dict | None, programs: dict | None = None) -> list[GameSpec]:
    """Duplicate games, block ``b`` seating the opponents in their ``b``-th order (cycling).
    ``programs`` names local programs seated by name (``{"frozen": argv}``, bench/frozen.py)."""
    tables = orders(lineup)
    n = len(lineup)
    progs = tuple(sorted((k, tuple(v)) for k, v in (programs or {}).items()))
    return [GameSpec(tables[(g // n) % len(tables)], preset, g, seed, scoring, True, progs)
            for g in range(block_games(games, lineup))]


def measure(preset: str, lineup: list[str], *, games: int, seed: int, workers: int,
            scoring: dict | None, programs: dict | None = None,
            places: list | None = None) -> dict:
    """The measured bot's figures; ``places``, when given, gets its place in each deal, in the
    games' order (the same games for the same arguments: bench/frozen.py pairs them)."""
    specs = schedule_balanced(lineup, preset, games=games, seed=seed, scoring=scoring,
                              programs=programs)
    me = PlayerTally(lineup[0])
    opponents = {spec: PlayerTally(spec) for spec in lineup[1:]}
    start = time.perf_counter()
    for spec, result in run(specs, workers=workers):
        me.add(spec.seat_of(0), result)
        for player in range(1, len(lineup)):
            opponents[spec.lineup[player]].add(spec.seat_of(player), result)
    if places is not None:
        places.extend(me.positions)
    s = me.summary()
    figures = s["figures"]
    r = {"preset": preset, "lineup": "; ".join(lineup), "games": len(specs), "deals": s["deals"],
         "first_out": s["first_out_rate"], "first_out_ci": s["first_out_ci"],
         "last_place": s["last_place_rate"], "last_place_ci": s["last_place_ci"],
         "mean_position": s["mean_position"], "mean_position_ci": s["mean_position_ci"],
         "opponents_mean_position": {k: t.summary()["mean_position"]
                                     for k, t in opponents.items()},
         "mean_decision_ms": s["mean_decision_ms"],
         "playouts_per_decision": (round(figures["playouts"] / figures["searches"], 1)
                                   if figures.get("searches") else None),
         "faults": s["faults"],
         "opponents_faults": {k: t.faults for k, t in opponents.items()},
         "seconds": round(time.perf_counter() - start, 1)}
    if figures.get("endgames"):  # montecarlo's exact endgames: how often, what, how many nodes
        r["endgames"] = {k: v for k, v in figures.items() if k.startswith("endgame")}
    if scoring:
        r.update(scoring=scoring, wins=s["wins"], win_rate=s["win_rate"],
                 win_rate_ci=s["win_rate_ci"])
    return rounded(r)


def rounded(value):
    """Figures to 4 places (intervals too), for lines a person reads."""
    if isinstance(value, float):
        return round(value, 4)
    if isinstance(value, list | tuple):
        return [rounded(v) for v in value]
    if isinstance(value, dict):
        return {k: rounded(v) for k, v in value.items()}
    return value


def row(r: dict) -> str:
    def ci(name):
        low, high = r[name + "_ci"]
        return f"{r[name]:.3f} [{low:.3f}, {high:.3f}]"

    wins = ci("win_rate") if "win_rate" in r else "-"
    return (f"| {r['preset']} | {r['lineup']} | {r['deals']} | {ci('first_out')} | "
            f"{ci('last_place')} | {ci('mean_position')} | {wins} | "
            f"{r['mean_decision_ms']:.2f} | {r['playouts_per_decision'] or '-'} |")


def print_table(results: list[dict]) -> None:
    """The lines as a Markdown table, one row each."""
    print("| preset | lineup (first bot measured) | deals | first-out [95% CI] | "
          "last place [95% CI] | mean position [95% CI] | game wins [95% CI] | ms/decision | "
          "playouts/decision |")
    print("|---|---|---|---|---|---|---|---|---|")
    for r in results:
        print(row(r))


def lineups(args) -> list[list[str]]:
    chosen = [parse_lineup(text) for text in args.lineup or []]
    if args.seat:
        chosen.append(list(args.seat))
    if args.table or not chosen:
        chosen += [[args.bot] + TABLES[name] for name in args.table or TABLES]
    chosen = [[with_search(spec, args.ms, args.playouts) for spec in lineup]
              for lineup in chosen]
    for lineup in chosen:  # a wrong spec stops here, not in a worker an hour in
        for spec in lineup:
            make_bot(spec).close()
    return chosen


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__.splitlines()[0],
        epilog="Tables: " + "; ".join(f"{k}: {', '.join(v)}" for k, v in TABLES.items()))
    parser.add_argument("--games", type=int, default=2000)
    parser.add_argument("--preset", action="append", choices=sorted(PRESETS))
    parser.add_argument("--bot", default="montecarlo", help="the measured bot of --table")
    parser.add_argument("--table", action="append", choices=sorted(TABLES))
    parser.add_argument("--lineup", action="append", help="bot specs separated by ';'")
    parser.add_argument("--seat", action="append", help="one seat of one lineup (repeat)")
    search = parser.add_mutually_exclusive_group()
    search.add_argument("--ms", type=float, help="montecarlo's time per decision (budget_ms)")
    search.add_argument("--playouts", type=int, help="montecarlo's fixed playouts per decision")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--scoring", type=json.loads, default=None,
                        help='whole games, e.g. \'{"system": "penalty", "limit": 4}\'')
    args = parser.parse_args()
    try:
        chosen = lineups(args)
        if args.scoring is not None:
            Scoring.from_dict(args.scoring)
    except (ValueError, OptionsError) as error:
        parser.error(str(error))
    results = []
    for preset in args.preset or list(PRESETS):
        for lineup in chosen:
            r = measure(preset, lineup, games=args.games, seed=args.seed,
                        workers=args.workers, scoring=args.scoring)
            print(json.dumps(r), flush=True)
            results.append(r)
    print_table(results)


if __name__ == "__main__":
    main()
