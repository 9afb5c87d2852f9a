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

    from gameplay.engine.roles import Role, roles_of
    from gameplay.engine.scoring import ScoreSheet
    from gameplay.runner.figures import ordinal
    from league import services
    from league.models import (
        Club,
        Deal,
        Game,
        Place,
        Player,
        Rating,
        RatingHistory,
        RatingJob,
        Seat,
    )
    from league.ratings import replay
    from league.rules import scoring_of

    rng = random.Random(5)
    club = Club.objects.create(name="Bench club")
    people = Player.objects.bulk_create(Player(name=f"P{i:04d}") for i in range(players))
    club.players.set(people)
    season = services.season_create(club=club, name="Bench", preset="classic",
                                    scoring={"system": "fixed-rounds",
                                             "deals": DEALS_PER_GAME},
                                    starts_on=datetime.date(2025, 1, 1))
    scoring = scoring_of(season)
    role_field = {Role.PRESIDENT: "presidents", Role.VICE_PRESIDENT: "vice_presidents",
                  Role.CITIZEN: "citizens", Role.VICE_SCUM: "vice_scums", Role.SCUM: "scums"}
    games_count = deals // DEALS_PER_GAME
    games = Game.objects.bulk_create(Game(season=season, number=g + 1, dealer=0,
                                          status=Game.FINISHED) for g in range(games_count))
    seats, deal_rows, orders = [], [], []
    for game in games:
        table = rng.sample(people, TABLE)
        sheet = ScoreSheet(scoring)
        totals = {p.pk: {"deals": 0, "position_sum": 0, **dict.fromkeys(role_field.values(), 0)}
                  for p in table}
        for number in range(1, DEALS_PER_GAME + 1):
            order = [p.pk for p in rng.sample(table, TABLE)]
            sheet.add(order)
            for position, (pid, role) in enumerate(roles_of(order).items(), start=1):
                totals[pid]["deals"] += 1
                totals[pid]["position_sum"] += position
                totals[pid][role_field[role]] += 1
            deal_rows.append(Deal(game=game, number=number, dealer=(number - 1) % TABLE))
            orders.append(order)
        winners = set(sheet.winners)
        seats += [Seat(game=game, number=i, player=p, points=sheet.totals[p.pk],
                       is_winner=p.pk in winners, **totals[p.pk]) for i, p in enumerate(table)]
    Seat.objects.bulk_create(seats, batch_size=5000)
    deal_rows = Deal.objects.bulk_create(deal_rows, batch_size=5000)
    seat_of = {(s.game_id, s.player_id): s.number for s in seats}
    Place.objects.bulk_create(
        (Place(deal=d, seat=seat_of[(d.game_id, pid)], player_id=pid, position=i,
               role=role.value)
         for d, order in zip(deal_rows, orders, strict=True)
         for i, (pid, role) in enumerate(roles_of(order).items(), start=1)),
        batch_size=5000)
    # One season only, so its ratings and the all-time ratings are the same numbers.
    rows, state = replay([(d.pk, order) for d, order in zip(deal_rows, orders, strict=True)], {})
    for season_id in (season.pk, None):
        RatingHistory.objects.bulk_create(
            (RatingHistory(player_id=p, season_id=season_id, deal_id=d, mu=mu, sigma=sigma,
                           ordinal=o) for d, p, mu, sigma, o in rows), batch_size=5000)
        Rating.objects.bulk_create(
            Rating(player_id=p, season_id=season_id, mu=mu, sigma=sigma,
                   ordinal=ordinal(mu, sigma), deals=n) for p, (mu, sigma, n) in state.items())
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
