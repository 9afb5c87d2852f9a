"""Ladder matchmaking fairness: simulated hours of play, W workers, 20 to 200 bots.

    python bench/ladder_fairness.py [--bots 20 50 200] [--workers 1 4 16 64] [--hours 1]
                                    [--sizes 4] [--game-seconds 30] [--reserve 0.1] [--seed 1]

Each game lasts a random time, uniform between half and one and a half times --game-seconds; a
worker that finishes one asks the matchmaker for the next (``Matchmaker.next_games`` for all the
free workers at once). One in twenty authors' bots is paused; the four built-in bots play as
references. Prints one JSON object per case: the fair share (seats played by authors' bots not
paused / their number), the fewest and most games of an author's bot relative to it, the same
for the references (held below it when they are too many for one per table), the mean rating
gap at a table (highest mu minus lowest) beside the same for tables drawn at random, the share
of tables whose bots had already sat together at an earlier table, and the matchmaker's seconds
per table.
"""

import argparse
import heapq
import itertools
import json
import random
import statistics
import sys
import time
from collections import Counter
from dataclasses import replace
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from ladder.matchmaking import Bot, Matchmaker  # noqa: E402

REFERENCES = {"random": 15.0, "greedy": 22.0, "heuristic": 27.0, "montecarlo": 31.0}


def ladder(count, rng, paused_share=0.05):
    """``count`` bots: the four references and authors' bots of random ratings."""
    bots = [Bot(id=name, mu=mu, reference=True) for name, mu in REFERENCES.items()]
    for n in range(count - len(bots)):
        bots.append(Bot(id=f"bot{n}", mu=rng.gauss(25, 5),
                        last_played=-rng.uniform(0, 3600), paused=rng.random() < paused_share))
    return bots


def simulate(bots, matchmaker, workers, seconds, game_seconds, rng):
    """Play ``seconds`` of ladder; the games each bot started and every table, with the time spent
    picking them."""
    state = {bot.id: bot for bot in bots}
    busy = Counter()
    running = []  # (ends, n, table), a heap
    tables = []
    picking = 0.0
    order = itertools.count()
    now = 0.0
    while now < seconds:
        started = time.perf_counter()
        batch = matchmaker.next_games(state.values(), busy, workers - len(running), now, rng)
        picking += time.perf_counter() - started
        for table in batch:
            ends = now + rng.uniform(game_seconds / 2, game_seconds * 3 / 2)
            heapq.heappush(running, (ends, next(order), table))
            for bot_id in table:
                busy[bot_id] += 1
                state[bot_id] = replace(state[bot_id], games=state[bot_id].games + 1, new=False)
        tables.extend(batch)
        if not running:
            break
        now, _, table = heapq.heappop(running)
        for bot_id in table:
            busy[bot_id] -= 1
            state[bot_id] = replace(state[bot_id], last_played=now)
    games = {bot.id: state[bot.id].games - bot.games for bot in bots if not bot.paused}
    return games, tables, picking


def fair_share(games):
    """The games each author's bot not paused is owed: their seats played / their number.

    Reference bots are owed as much, but the cap of references per table may hold them below it.
    """
    authors = [n for bot_id, n in games.items() if bot_id not in REFERENCES]
    return sum(authors) / len(authors)


def rating_gap(tables, mu):
    return statistics.fmean(max(mu[i] for i in t) - min(mu[i] for i in t) for t in tables)


def run(bots, workers, hours, sizes, game_seconds, reserve, seed):
    rng = random.Random(seed)
    players = ladder(bots, rng)
    matchmaker = Matchmaker(sizes=tuple(sizes), reserve=reserve)
    games, tables, picking = simulate(players, matchmaker, workers, hours * 3600, game_seconds,
                                      rng)
    share = fair_share(games)
    authors = [n for bot_id, n in games.items() if bot_id not in REFERENCES]
    references = [games[name] for name in REFERENCES]
    mu = {bot.id: bot.mu for bot in players}
    playing = [bot.id for bot in players if not bot.paused]
    random_tables = [rng.sample(playing, len(t)) for t in tables]
    return {
        "bots": bots,
        "workers": workers,
        "hours": hours,
        "sizes": sizes,
        "reserve": reserve,
        "games": len(tables),
        "fair_share": round(share, 2),
        "min_share": round(min(authors) / share, 3),
        "max_share": round(max(authors) / share, 3),
        "references_share": [round(min(references) / share, 3),
                             round(max(references) / share, 3)],
        "mean_rating_gap": round(rating_gap(tables, mu), 2),
        "random_table_rating_gap": round(rating_gap(random_tables, mu), 2),
        "repeated_tables": round(1 - len({frozenset(t) for t in tables}) / len(tables), 3),
        "seconds_per_pick": float(f"{picking / max(len(tables), 1):.2g}"),
    }


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--bots", type=int, nargs="+", default=[20, 50, 200])
    parser.add_argument("--workers", type=int, nargs="+", default=[1, 4, 16, 64])
    parser.add_argument("--hours", type=float, default=1.0)
    parser.add_argument("--sizes", type=int, nargs="+", default=[4])
    parser.add_argument("--game-seconds", type=float, default=30.0)
    parser.add_argument("--reserve", type=float, default=0.1)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    for bots, workers in itertools.product(args.bots, args.workers):
        print(json.dumps(run(bots, workers, args.hours, args.sizes, args.game_seconds,
                             args.reserve, args.seed)), flush=True)


if __name__ == "__main__":
    main()
