"""How long starting a large tournament takes (issue #16): the start records every batch and
sends at most TOURNAMENT_QUEUED_BATCHES tasks after its commit, so it stays short whatever the
size; with the broker down it still answers, in about the broker connection timeout.

    python bench/tournament_start.py [--entrants 20] [--seats 4] [--games-per-table 40]

Needs PostgreSQL and Redis. The database POSTGRES_BENCH_URL (default
postgres://postgres@127.0.0.1:5432/president_league_start_bench) is dropped and created again;
the broker is BENCH_REDIS_URL (default redis://127.0.0.1:6379/14), on a queue of its own that
is deleted at the end (no worker plays the games). Prints one JSON line per start: games,
batches recorded, tasks sent, seconds.
"""

import argparse
import json
import os
import sys
import time
import uuid
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from bench.databases import recreate_postgres  # noqa: E402 (after the path is set)

POSTGRES_URL = os.environ.get(
    "POSTGRES_BENCH_URL", "postgres://postgres@127.0.0.1:5432/president_league_start_bench")
REDIS_URL = os.environ.get("BENCH_REDIS_URL", "redis://127.0.0.1:6379/14")
QUEUE = f"bench-start-{uuid.uuid4().hex[:8]}"



def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--entrants", type=int, default=20)
    parser.add_argument("--seats", type=int, default=4)
    parser.add_argument("--games-per-table", type=int, default=40)
    args = parser.parse_args()

    recreate_postgres(POSTGRES_URL)
    os.environ.update({"DJANGO_SETTINGS_MODULE": "config.settings.test",
                       "DATABASE_URL": POSTGRES_URL, "CELERY_BROKER_URL": REDIS_URL,
                       "CELERY_RESULT_BACKEND": REDIS_URL, "CELERY_TASK_DEFAULT_QUEUE": QUEUE})
    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0)
    import redis

    from config.celery_app import app
    from league import services as league
    from tournaments import services

    app.conf.task_default_queue = QUEUE
    club = league.club_create(name="Bench club")
    entrants = [(f"Bot {i}", "random") for i in range(args.entrants)]
    try:
        for name, broker in (("broker up", REDIS_URL), ("broker down", "redis://127.0.0.1:1/0")):
            app.close()
            app.conf.broker_url = broker
            tournament = services.tournament_create(
                club=club, name=f"Bench {name}", entrants=entrants, seats=args.seats,
                games_per_table=args.games_per_table)
            began = time.perf_counter()
            services.tournament_start(tournament=tournament)  # sends after its commit
            seconds = time.perf_counter() - began
            print(json.dumps({"start": name, "games": tournament.total_games,
                              "batches": tournament.batches.count(),
                              "sent": tournament.batches.exclude(sent_at=None).count(),
                              "seconds": round(seconds, 2)}))
    finally:
        direct = redis.Redis.from_url(REDIS_URL)
        direct.delete(QUEUE, f"_kombu.binding.{QUEUE}")


if __name__ == "__main__":
    main()
