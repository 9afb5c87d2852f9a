"""League speed: a season of 500 players and 100,000 recorded deals, on SQLite and PostgreSQL.

    python bench/standings.py [--players 500] [--deals 100000] [--only sqlite|postgres]

Builds the season in a fresh database of each kind with bulk_create (seat totals scored by the
engine's ScoreSheet, ratings history by the league's OpenSkill replay), then prints one JSON
object per database: the standings query (median and worst of 20 runs, warm) and recording one
deal through ``services.deal_record`` with the game's rescoring and both rating recomputations
run eagerly on commit, as with no broker (median and 95th percentile of 50 deals).

PostgreSQL: POSTGRES_BENCH_URL (default postgres://postgres@127.0.0.1:5432/president_league_bench);
the database is dropped and created again.
"""

import argparse
import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
from bench.databases import recreate_postgres  # noqa: E402 (after the path is set)
from bench.league_rows import played_season, rate  # noqa: E402

TABLE = 5  # players per game
DEALS_PER_GAME = 10  # fixed-rounds scoring
POSTGRES_URL = os.environ.get("POSTGRES_BENCH_URL",
                              "postgres://postgres@127.0.0.1:5432/president_league_bench")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=500)
    parser.add_argument("--deals", type=int, default=100_000)
    parser.add_argument("--only", choices=("sqlite", "postgres"))
    parser.add_argument("--database-url", help=argparse.SUPPRESS)  # a child run
    args = parser.parse_args()
    if args.database_url:
        print(json.dumps(run(args.database_url, args.players, args.deals)))
        return
    with tempfile.TemporaryDirectory() as tmp:
        urls = {"sqlite": f"sqlite:///{tmp}/bench.sqlite3", "postgres": POSTGRES_URL}
        for vendor, url in urls.items():
            if args.only and args.only != vendor:
                continue
            if vendor == "postgres":
                recreate_postgres(url)
            # One process per database: Django's settings are read once per process.
            env = {**os.environ, "DJANGO_SETTINGS_MODULE": "config.settings.test",
                   "DATABASE_URL": url}
            env.pop("CELERY_BROKER_URL", None)
            out = subprocess.run([sys.executable, __file__, "--database-url", url,
                                  "--players", str(args.players), "--deals", str(args.deals)],
                                 env=env, cwd=ROOT, check=True, capture_output=True, text=True)
            print(out.stdout.strip().splitlines()[-1], flush=True)



def run(url, players, deals):
    import django

    django.setup()
    from django.core.management import call_command
    from django.db import connection

    call_command("migrate", verbosity=0)
    started = time.perf_counter()
    season, people = build(players, deals)
    build_seconds = time.perf_counter() - started
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute("ANALYZE")
    else:
        with connection.cursor() as cursor:
            cursor.execute("ANALYZE")
    return {"database": connection.vendor, "players": players, "deals": deals,
            "build_seconds": round(build_seconds, 1),
            **time_standings(season), **time_record(season, people)}


def build(players, deals):
    """The big season, written with bulk_create; ratings history as the tasks would write it."""
    import datetime

    from league import services
    from league.models import Club, Player, RatingJob

    rng = random.Random(5)
    club = Club.objects.create(name="Bench club")
    people = Player.objects.bulk_create(Player(name=f"P{i:04d}") for i in range(players))
    club.players.set(people)
    season = services.season_create(club=club, name="Bench", preset="classic",
                                    scoring={"system": "fixed-rounds",
                                             "deals": DEALS_PER_GAME},
                                    starts_on=datetime.date(2025, 1, 1))
    _, played = played_season(season, deals // DEALS_PER_GAME,
                              lambda: rng.sample(people, TABLE), DEALS_PER_GAME, rng)
    # One season only, so its ratings and the all-time ratings are the same numbers.
    for season_id in (season.pk, None):
        rate(played, season_id)
    RatingJob.objects.update(dirty_from=None)
    return season, people


def time_standings(season, runs=20):
    from league.selectors import season_standings

    rows = season_standings(season=season)  # warm
    times = []
    for _ in range(runs):
        started = time.perf_counter()
        rows = season_standings(season=season)
        times.append((time.perf_counter() - started) * 1000)
    return {"standings_rows": len(rows), "standings_ms_median": round(statistics.median(times), 1),
            "standings_ms_max": round(max(times), 1)}


def time_record(season, people, deals=50):
    """Record deals into new games of the big season, one ``deal_record`` call each."""
    from league import services
    from league.models import RatingJob

    rng = random.Random(7)
    times = []
    game = None
    for i in range(deals):
        if i % DEALS_PER_GAME == 0:
            table = rng.sample(people, TABLE)
            game = services.game_create(season=season, players=table)
        order = [p.pk for p in rng.sample(table, TABLE)]
        started = time.perf_counter()
        services.deal_record(game=game, finishing_order=order)  # ratings run on commit
        times.append((time.perf_counter() - started) * 1000)
    assert not RatingJob.objects.filter(dirty_from__isnull=False).exists()
    times.sort()
    return {"record_deal_ms_median": round(statistics.median(times), 1),
            "record_deal_ms_p95": round(times[int(len(times) * 0.95) - 1], 1)}


if __name__ == "__main__":
    main()
