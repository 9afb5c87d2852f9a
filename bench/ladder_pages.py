"""The ladder's pages: the table, a bot's page and an author's dashboard, rendered whole.

    python bench/ladder_pages.py [--bots 200] [--points 500] [--runs 200]

Builds a ladder of ``--bots`` entries (four built-in references, the rest outside bots of
authors with five bots each) with their stored aggregates, and for one author's bot
``--points`` rated games (seats, rating points) and 50 faults, in a fresh PostgreSQL database
(POSTGRES_BENCH_URL, default postgres://postgres@127.0.0.1:5432/pl_ladderweb_bench; dropped and
created again). Then it requests each page ``--runs`` times through Django's test client (the
whole middleware stack and template, one process, warm) and prints one JSON line per page:
median and p99 milliseconds and the SQL queries of one request. The pages read the entries'
stored aggregates, so the table's time does not grow with the games played.
"""

import argparse
import json
import os
import random
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
from bench.databases import recreate_postgres  # noqa: E402 (after the path is set)

POSTGRES_URL = os.environ.get("POSTGRES_BENCH_URL",
                              "postgres://postgres@127.0.0.1:5432/pl_ladderweb_bench")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--bots", type=int, default=200)
    parser.add_argument("--points", type=int, default=500)
    parser.add_argument("--runs", type=int, default=200)
    args = parser.parse_args()
    recreate_postgres(POSTGRES_URL)
    os.environ.update(DJANGO_SETTINGS_MODULE="config.settings.test", DATABASE_URL=POSTGRES_URL)
    os.environ.pop("CELERY_BROKER_URL", None)
    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0)
    author, entry = build(args.bots, args.points)
    measure(author, entry, args)



def build(bots, points):
    from django.contrib.auth import get_user_model
    from django.utils import timezone

    from bot_games.models import BotFault, BotGame, BotSeat
    from ladder.models import Entry, Game, RatingPoint, Seat
    from outside_bots.models import OutsideBot, name_key

    rng = random.Random(1)
    users = get_user_model().objects.bulk_create(
        get_user_model()(username=f"author{i}") for i in range((bots - 4) // 5 + 1))
    outside = OutsideBot.objects.bulk_create(
        OutsideBot(name=f"bot{i}", name_key=name_key(f"bot{i}"),
                   url=f"https://bots.example.org/{i}", owner=users[i // 5],
                   presets=["classic"]) for i in range(bots - 4))

    def figures():
        games = rng.randint(50, 5000)
        deals = 4 * games
        mu, sigma = rng.gauss(25, 5), rng.uniform(0.8, 3)
        return dict(mu=mu, sigma=sigma, ordinal=mu - 3 * sigma, games=games, deals=deals,
                    firsts=deals // 4, lasts=deals // 4, positions=deals * 5 // 2,
                    faults=rng.randint(0, 9), decisions=deals * 30,
                    decision_median_ms=rng.uniform(1, 40), decision_p95_ms=rng.uniform(40, 400),
                    status=Entry.ACTIVE)

    entries = Entry.objects.bulk_create(
        [Entry(preset="classic", name=n, reference=True, spec=n, **figures())
         for n in ("random", "greedy", "heuristic", "montecarlo")]
        + [Entry(preset="classic", name=b.name, outside_bot=b, url=b.url, **figures())
           for b in outside])
    entry = entries[4]
    now = timezone.now()
    # How a seat did is its bot game's seat (issue #27): each game has one, without a transcript.
    homes = BotGame.objects.bulk_create(
        BotGame(preset="classic", seed=i, transcript={}, played_at=now) for i in range(points))
    games = Game.objects.bulk_create(
        Game(kind=Game.RATED, preset="classic", status=Game.DONE, seed=i, deals=4, stored_at=now,
             bot_game=home) for i, home in enumerate(homes))
    seats, history = [], []
    for i, game in enumerate(games):
        table = [entry, *rng.sample(entries[:4] + entries[5:], 3)]
        seats += [(Seat(game=game, entry=e, seat=s, bot=e.url or e.spec),
                   BotSeat(game=game.bot_game, seat=s, bot=e.name, positions=[1, 2, 3, 4],
                           points=3, decisions=30)) for s, e in enumerate(table)]
        history.append(RatingPoint(entry=entry, game=game, at=now, mu=25, sigma=8 - i / points,
                                   ordinal=1 + i / 50, deals=4 * (i + 1)))
    for (seat, _), bot_seat in zip(seats, BotSeat.objects.bulk_create(b for _, b in seats),
                                   strict=True):
        seat.bot_seat = bot_seat
    Seat.objects.bulk_create(s for s, _ in seats)
    RatingPoint.objects.bulk_create(history)
    BotFault.objects.bulk_create(
        BotFault(game=games[-1 - i].bot_game, seat=0, deal=0, number=i + 1, decision="play",
              kind=rng.choice(["timeout", "malformed", "illegal"]), message="a fault",
              answer="x" * 100) for i in range(50))
    return users[0], entry


def measure(author, entry, args):
    from django.conf import settings
    from django.db import connection
    from django.test import Client
    from django.urls import reverse

    settings.ALLOWED_HOSTS = [*settings.ALLOWED_HOSTS, "testserver"]  # the test client's

    client = Client()
    client.force_login(author)
    pages = {"table": reverse("ladder:table") + "?preset=classic",
             "bot": reverse("ladder:bot", args=[entry.pk]),
             "dashboard": reverse("ladder:mine")}
    for name, url in pages.items():
        first = client.get(url)
        assert first.status_code == 200, (url, first.status_code, first.content[:300])
        queries = []

        def count(run, sql, *rest, queries=queries):
            queries.append(sql)
            return run(sql, *rest)

        with connection.execute_wrapper(count):
            client.get(url)
        times = []
        for _ in range(args.runs):
            start = time.perf_counter()
            client.get(url)
            times.append(1000 * (time.perf_counter() - start))
        times.sort()
        print(json.dumps({"page": name, "bots": args.bots, "history_points": args.points,
                          "runs": args.runs, "median_ms": round(statistics.median(times), 2),
                          "p99_ms": round(times[int(0.99 * (len(times) - 1))], 2),
                          "queries": len(queries)}), flush=True)


if __name__ == "__main__":
    main()
