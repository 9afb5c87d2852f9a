"""Par against luck (issue #31, docs/par.md): how much par, the duplicate rotation and both
narrow the spread of a bot's results, and what par costs a game.

    python bench/par.py [--preset classic --preset presidents-deck]
                        [--lineup 'montecarlo:playouts=40;heuristic;heuristic;heuristic' ...]
                        [--blocks 100] [--deals 4] [--playouts 32] [--seed 1] [--workers 1]

Each lineup plays ``--blocks`` duplicate blocks (one game per seat rotation on the same
shuffles; match.py) of ``--deals`` deals scored fixed-rounds, as the ladder scores. The first
bot's result of a deal is its points less the table's mean points. Methods: ``par`` (each deal
luck-adjusted), ``duplicate`` (the mean over a block's rotations of the same deal, its spread
given per deal played: sd × √rotations) and ``both``. Prints one JSON line per preset, lineup
and method: ``deals`` played, ``sd_raw`` and ``sd_par`` (the per-deal standard deviation without
and with the method), ``sd_reduction`` (1 − sd_par / sd_raw), ``deals_to_separate_raw`` and
``_par`` (deals for the 95% interval of the mean to exclude zero: (Z95·sd/mean)²), ``mean_raw``
and ``mean_par`` with their 95% intervals; the same spreads from each game's sum over its deals
(``sd_raw_game``, ``sd_par_game``: the sd of a game's sum over √deals, one a deal played;
``sd_reduction_game``, ``deals_to_separate_raw_game`` and ``_par_game``): a game's deals are
not independent (presidents-deck: a President tends to stay President), so these are the
spreads a ladder's mean over games sees; then ``par_ms_per_deal``, ``game_ms_per_deal`` (the
game without par) and ``games_per_second_ratio`` (games per worker-second with par over
without).
Fixed playouts: the same figures on every run.
"""

import argparse
import json
import math
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from gameplay.engine.scoring import Scoring, deal_points  # noqa: E402
from gameplay.runner.figures import Z95, mean_interval  # noqa: E402
from gameplay.runner.match import play_spec, schedule  # noqa: E402
from gameplay.runner.par import PLAYOUTS, game_pars  # noqa: E402

LINEUPS = ("montecarlo:playouts=40;heuristic;heuristic;heuristic",
           "heuristic;greedy;greedy;greedy")


def played(lineup, name, blocks, deals, seed, playouts):
    """Per game: (block, the first bot's raw and adjusted result of each deal); and the seconds
    spent playing and finding par."""
    scoring = Scoring("fixed-rounds", deals=deals)
    n = len(lineup)
    specs = schedule(lineup, name, games=blocks * n, seed=seed, scoring=scoring.to_dict(),
                     duplicate=True)
    games, seconds = [], {"game": 0.0, "par": 0.0}
    for spec, result, pars in timed(specs, playouts, seconds):
        seat = spec.seat_of(0)
        rows = []
        for par, order in zip(pars, result.finishing_orders, strict=True):
            points = deal_points(scoring, order)
            results = [points[s] for s in range(n)]
            mean = sum(results) / n
            rows.append((results[seat] - mean, par.adjusted(results)[seat] - mean))
        games.append((spec.index // n, rows))
    return games, seconds["game"], seconds["par"]


def timed(specs, playouts, seconds):
    """Each game of ``specs`` played, with its par: (spec, result, each deal's Par); the time
    each took added to ``seconds`` (its "game" and "par")."""
    for spec in specs:
        started = time.perf_counter()
        _, result = play_spec(spec)
        played_at = time.perf_counter()
        pars = game_pars(result.transcript, result.finishing_orders, playouts=playouts)
        seconds["game"] += played_at - started
        seconds["par"] += time.perf_counter() - played_at
        yield spec, result, pars


def figures(values):
    """(mean, its 95% interval, standard deviation) of a list of values."""
    total, squares = sum(values), sum(v * v for v in values)
    return total / len(values), mean_interval(total, squares, len(values)), \
        statistics.stdev(values)


def to_separate(sd, mean):
    return math.ceil((Z95 * sd / mean) ** 2) if mean else None


def methods(games, n):
    """The values each method averages (raw, with the method) and the per-deal scale of their
    standard deviation."""
    deals = [row for _, rows in games for row in rows]
    blocks: dict = {}
    for block, rows in games:
        for j, row in enumerate(rows):
            blocks.setdefault((block, j), []).append(row)
    means = [tuple(sum(r[i] for r in rows) / len(rows) for i in (0, 1))
             for rows in blocks.values()]
    raw = [r for r, _ in deals]
    return {"par": (raw, [a for _, a in deals], 1.0),
            "duplicate": (raw, [r for r, _ in means], math.sqrt(n)),
            "both": (raw, [a for _, a in means], math.sqrt(n))}


def game_methods(games, n):
    """The same per game: each game's sum over its deals (raw, with the method), and the scale
    that makes their standard deviation one a deal played, so deals of one game that move
    together (a President who stays President) count as they do in a ladder's mean."""
    deals = len(games[0][1])
    sums = [(b, tuple(sum(row[i] for row in rows) for i in (0, 1))) for b, rows in games]
    blocks: dict = {}
    for block, total in sums:
        blocks.setdefault(block, []).append(total)
    means = [tuple(sum(t[i] for t in totals) / len(totals) for i in (0, 1))
             for totals in blocks.values()]
    raw = [t[0] for _, t in sums]
    per_deal = 1 / math.sqrt(deals)
    return {"par": (raw, [t[1] for _, t in sums], per_deal),
            "duplicate": (raw, [m[0] for m in means], math.sqrt(n) * per_deal),
            "both": (raw, [m[1] for m in means], math.sqrt(n) * per_deal)}


def cost(game_seconds: float, par_seconds: float, deals: int) -> dict:
    """What par costs: its milliseconds a deal, the game's, and the games per worker-second
    with par over without."""
    return {"par_ms_per_deal": round(1000 * par_seconds / deals, 2),
            "game_ms_per_deal": round(1000 * game_seconds / deals, 2),
            "games_per_second_ratio": round(game_seconds / (game_seconds + par_seconds), 3)}


def arguments(doc: str, count: str, default: int, argv=None) -> argparse.Namespace:
    """A par bench's options: presets, lineups, ``--<count>`` (games or blocks), deals per
    game, play-outs and seed."""
    parser = argparse.ArgumentParser(description=doc.splitlines()[0])
    parser.add_argument("--preset", action="append")
    parser.add_argument("--lineup", action="append", help="bot specs separated by ';'")
    parser.add_argument(f"--{count}", type=int, default=default)
    parser.add_argument("--deals", type=int, default=4, help="deals per game")
    parser.add_argument("--playouts", type=int, default=PLAYOUTS)
    parser.add_argument("--seed", type=int, default=1)
    return parser.parse_args(argv)


def cases(args, lineups):
    """Each (preset, lineup) the options ask for, every preset with every lineup."""
    for name in args.preset or ["classic", "presidents-deck"]:
        for text in args.lineup or lineups:
            yield name, [s.strip() for s in text.split(";")]


def main(argv=None):
    args = arguments(__doc__, "blocks", 100, argv)
    for name, lineup in cases(args, LINEUPS):
        games, game_s, par_s = played(lineup, name, args.blocks, args.deals, args.seed,
                                      args.playouts)
        dealt = sum(len(rows) for _, rows in games)
        by_game = game_methods(games, len(lineup))
        for method, (raw, reduced, scale) in methods(games, len(lineup)).items():
            mean_raw, raw_ci, sd_raw = figures(raw)
            mean_par, par_ci, sd = figures(reduced)
            sd_par = sd * scale
            game_raw, game_par, game_scale = by_game[method]
            sd_raw_game = statistics.stdev(game_raw) * by_game["par"][2]
            sd_par_game = statistics.stdev(game_par) * game_scale
            print(json.dumps({
                "preset": name, "lineup": lineup, "method": method, "deals": dealt,
                "sd_raw": round(sd_raw, 4), "sd_par": round(sd_par, 4),
                "sd_reduction": round(1 - sd_par / sd_raw, 3),
                "deals_to_separate_raw": to_separate(sd_raw, mean_raw),
                "deals_to_separate_par": to_separate(sd_par, mean_par),
                "mean_raw": round(mean_raw, 4), "mean_raw_ci": [round(x, 4) for x in raw_ci],
                "mean_par": round(mean_par, 4), "mean_par_ci": [round(x, 4) for x in par_ci],
                "sd_raw_game": round(sd_raw_game, 4), "sd_par_game": round(sd_par_game, 4),
                "sd_reduction_game": round(1 - sd_par_game / sd_raw_game, 3),
                "deals_to_separate_raw_game": to_separate(sd_raw_game, mean_raw),
                "deals_to_separate_par_game": to_separate(sd_par_game, mean_par),
                **cost(game_s, par_s, dealt),
            }), flush=True)


if __name__ == "__main__":
    main()
