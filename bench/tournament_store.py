"""Storing a played tournament game: queries and time per game, by the game's length in deals.

    python bench/tournament_store.py [--deals 1 5 20] [--games 10] [--database-url URL]

For each length, a tournament of four random bots whose games last that many deals
(fixed-rounds scoring) has ``--games`` games played by the engine, then stored one by one
through ``services.tournament_game_store``; printed per length, one JSON line: the queries
one store sends (the most of any game) and its median time. Playing is not timed, nor the
ratings recomputation that runs after each commit when no broker is configured.

The database is a fresh SQLite file unless ``--database-url`` names another (a PostgreSQL
database there is dropped and created again).
"""

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
from bench.databases import recreate_postgres  # noqa: E402 (after the path is set)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, nargs="+", default=[1, 5, 20])
    parser.add_argument("--games", type=int, default=10)
    parser.add_argument("--database-url")
    parser.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        run(args.deals, args.games)
        return
    with tempfile.TemporaryDirectory() as tmp:
        url = args.database_url or f"sqlite:///{tmp}/bench.sqlite3"
        if url.startswith("postgres"):
            recreate_postgres(url)
        # A process of its own: Django reads its settings once per process.
        env = {**os.environ, "DJANGO_SETTINGS_MODULE": "config.settings.test",
               "DATABASE_URL": url, "LOG_LEVEL": "WARNING"}
        env.pop("CELERY_BROKER_URL", None)
        subprocess.run([sys.executable, __file__, "--child", "--games", str(args.games),
                        "--deals", *map(str, args.deals)], env=env, cwd=ROOT, check=True)



def run(lengths, games):
    import django

    django.setup()
    from django.core.management import call_command
    from django.db import connection, transaction
    from django.test.utils import CaptureQueriesContext

    from league import services as league
    from tournaments import services

    call_command("migrate", verbosity=0)
    club = league.club_create(name="Bench bots")
    entrants = [("Rita", "random"), ("Rob", "random"), ("Ron", "random"), ("Rex", "random")]
    for deals in lengths:
        tournament = services.tournament_create(
            club=club, name=f"{deals} deals", entrants=entrants, seats=4, games_per_table=games,
            scoring={"system": "fixed-rounds", "deals": deals})
        tournament.tables = [[list(range(4))]]
        played = [(key, *services.tournament_game_play(tournament=tournament, key=key))
                  for key in ((0, 0, g) for g in range(games))]
        queries, seconds = [], []
        for key, seated, result in played:
            assert len(result.finishing_orders) == deals
            # Measured inside a transaction of the bench's own, so the ratings recomputation
            # that runs on commit when there is no broker is left out.
            with transaction.atomic(), CaptureQueriesContext(connection) as captured:
                started = time.perf_counter()
                services.tournament_game_store(tournament=tournament, key=key, seated=seated,
                                               result=result)
                seconds.append(time.perf_counter() - started)
            queries.append(len(captured.captured_queries))
        print(json.dumps({"database": connection.vendor, "deals_per_game": deals,
                          "games": games, "queries_per_game": max(queries),
                          "median_ms_per_game": round(1000 * statistics.median(seconds), 2)}),
              flush=True)


if __name__ == "__main__":
    main()
