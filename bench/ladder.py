"""Ladder speed: the ladder table of 200 bots and 1,000,000 rated deals, served through the
API while games land.

    python bench/ladder.py [--bots 200] [--deals 1000000] [--deals-per-game 4]
                           [--landing 20] [--landers 2] [--lander process|thread]
                           [--seconds 20] [--clients 1] [--reuse] [--database-url URL]

Builds one preset's ladder in a fresh database: the four references and authors' outside bots,
``deals / deals-per-game`` rated games of four seats with their seats, rating points and some
faults (bulk_create), and each entry's aggregates consistent with them (as the storing service
keeps them). The bulk games' bot games have seats but no transcript: the table never reads
games. Then, for
``--seconds``, ``--clients`` threads ask ``GET /api/v1/ladder/?preset=classic&page_size=200``
(the whole table) through Django's test client, while ``--landers`` landers store
``--landing`` games a second between them through ``ladder.services.game_store``, at once as
workers do: each in its own process, or with ``--lander thread`` threads of the serving
process, which then share its interpreter lock. Each game is a scheduled game row as the
scheduler makes it, its played result one of a pool played beforehand by built-in bots.
Prints one JSON line: the sizes, the landing rate reached, requests per second, the table's
median and p99 latency, and the same for a bot's page (``/api/v1/ladder/{id}/``, sampled).

The database: --database-url, else LADDER_BENCH_URL, else
postgres://postgres@127.0.0.1:5432/president_league_ladder_bench (dropped and created again); a sqlite:///
URL works for small sizes.
"""

import argparse
import json
import os
import random
import statistics
import sys
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
from bench.databases import recreate_postgres  # noqa: E402 (after the path is set)

SEATS = 4
PRESET = "classic"
CHUNK = 20_000



def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--bots", type=int, default=200)
    parser.add_argument("--deals", type=int, default=1_000_000)
    parser.add_argument("--deals-per-game", type=int, default=4)
    parser.add_argument("--landing", type=float, default=20, help="games stored a second")
    parser.add_argument("--seconds", type=float, default=20)
    parser.add_argument("--clients", type=int, default=1)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--lander", choices=("process", "thread"), default="process",
                        help="store games from another process, as workers do (default), or "
                             "from a thread of the serving process")
    parser.add_argument("--landers", type=int, default=2,
                        help="landers storing at once, --landing / landers games a second each "
                             "(workers store concurrently)")
    parser.add_argument("--switch-interval", type=float, default=0.0005,
                        help="sys.setswitchinterval for the threads (seconds)")
    parser.add_argument("--database-url", default=os.environ.get(
        "LADDER_BENCH_URL", "postgres://postgres@127.0.0.1:5432/president_league_ladder_bench"))
    parser.add_argument("--reuse", action="store_true",
                        help="keep the database of an earlier run with the same sizes: serve only")
    args = parser.parse_args()
    if args.reuse:
        pass
    elif args.database_url.startswith("postgres"):
        recreate_postgres(args.database_url)
    elif args.database_url.startswith("sqlite:///"):
        Path(args.database_url.removeprefix("sqlite:///")).unlink(missing_ok=True)
    os.environ["DATABASE_URL"] = args.database_url
    os.environ["DJANGO_SETTINGS_MODULE"] = "config.settings.test"
    os.environ.pop("CELERY_BROKER_URL", None)
    import django

    django.setup()
    from django.conf import settings
    from django.core.management import call_command
    from django.db import connection

    settings.ALLOWED_HOSTS = ["testserver"]
    call_command("migrate", verbosity=0)
    rng = random.Random(args.seed)
    started = time.perf_counter()
    if args.reuse:
        from ladder.models import Entry, Game

        entry_ids = list(Entry.objects.filter(preset=PRESET).values_list("pk", flat=True))
        games = Game.objects.count()
    else:
        entry_ids, games = build(args.bots, args.deals, args.deals_per_game, rng)
    build_seconds = time.perf_counter() - started
    with connection.cursor() as cursor:
        cursor.execute("ANALYZE")
    figures = serve_while_landing(entry_ids, args, rng)
    print(json.dumps({"database": connection.vendor, "bots": args.bots, "deals": args.deals,
                      "games": games, "build_seconds": round(build_seconds, 1), **figures}),
          flush=True)


# Building the ladder


def build(bots: int, deals: int, per_game: int, rng: random.Random):
    """The entries, their games, seats, rating points and faults; returns the entry ids and
    the number of games."""
    from django.contrib.auth import get_user_model

    from bot_games.models import BotFault, BotGame, BotSeat
    from ladder import timing
    from ladder.models import Entry, Game, RatingPoint, Seat
    from league.ratings import MODEL
    from outside_bots.models import OutsideBot, name_key

    references = ["random", "greedy", "heuristic", "montecarlo"]
    authors = bots - len(references)
    users = get_user_model().objects.bulk_create(
        get_user_model()(username=f"author{i}") for i in range(max(1, authors // 2)))
    outside = OutsideBot.objects.bulk_create(
        OutsideBot(name=f"bot-{i}", name_key=name_key(f"bot-{i}"),
                   url=f"https://bots.example.org/bot-{i}",
                   owner=users[i % len(users)], presets=[PRESET]) for i in range(authors))
    entries = [Entry(preset=PRESET, name=name, reference=True, spec=name, status=Entry.ACTIVE)
               for name in references]
    entries += [Entry(preset=PRESET, name=bot.name, outside_bot=bot, url=bot.url,
                      status=Entry.PAUSED if i % 40 == 39 else Entry.ACTIVE,
                      reason="paused: faults" if i % 40 == 39 else "")
                for i, bot in enumerate(outside)]
    entries = Entry.objects.bulk_create(entries)
    strength = {e.pk: rng.gauss(0, 1) for e in entries}
    faulty = {e.pk for e in entries if not e.reference and rng.random() < 0.1}
    totals = {e.pk: {"games": 0, "deals": 0, "firsts": 0, "lasts": 0, "positions": 0,
                     "faults": 0, "faulted": 0, "decisions": 0} for e in entries}
    ids = [e.pk for e in entries]
    games = deals // per_game
    now = time.time()
    from datetime import UTC, datetime, timedelta

    start = datetime.fromtimestamp(now, UTC) - timedelta(days=30)
    step = timedelta(days=30) / max(1, games)
    made = 0
    while made < games:
        count = min(CHUNK, games - made)
        # How a seat did is its bot game's seat (issue #27): each game has a bot game, with
        # seats but no transcript.
        homes = BotGame.objects.bulk_create(
            (BotGame(preset=PRESET, seed=rng.getrandbits(62), transcript={},
                     played_at=start + step * (made + i)) for i in range(count)),
            batch_size=5000)
        rows = Game.objects.bulk_create(
            (Game(kind=Game.RATED, preset=PRESET, status=Game.DONE, seed=home.seed,
                  deals=per_game, attempts=1, sent_at=home.played_at, stored_at=home.played_at,
                  bot_game=home) for home in homes), batch_size=5000)
        seats, points, faults = [], [], []
        for game in rows:
            seated = rng.sample(ids, SEATS)
            positions = {pk: [] for pk in seated}
            for _ in range(per_game):
                order = sorted(seated, key=lambda pk: strength[pk] + rng.gauss(0, 1.5),
                               reverse=True)
                for place, pk in enumerate(order, 1):
                    positions[pk].append(place)
            for s, pk in enumerate(seated):
                t = totals[pk]
                t["games"] += 1
                t["deals"] += per_game
                t["firsts"] += positions[pk].count(1)
                t["lasts"] += positions[pk].count(SEATS)
                t["positions"] += sum(positions[pk])
                decisions = 12 * per_game
                t["decisions"] += decisions
                fault = pk in faulty and rng.random() < 0.05
                t["faults"] += fault
                t["faulted"] += fault
                if fault:
                    faults.append((game, s))
                mu = 25 + 3 * strength[pk]
                sigma = max(0.8, MODEL.sigma / (1 + t["games"] / 20))
                seats.append((Seat(game=game, entry_id=pk, seat=s, bot="bench", mu_after=mu,
                                   sigma_after=sigma),
                              BotSeat(game=game.bot_game, seat=s, bot="bench",
                                      positions=positions[pk], decisions=decisions,
                                      decision_ms=decisions * 2.0)))
                points.append(RatingPoint(entry_id=pk, game=game, at=game.stored_at, mu=mu,
                                          sigma=sigma, ordinal=mu - 3 * sigma,
                                          deals=t["deals"]))
        bot_seats = BotSeat.objects.bulk_create((b for _, b in seats), batch_size=5000)
        for (seat, _), bot_seat in zip(seats, bot_seats, strict=True):
            seat.bot_seat = bot_seat
        Seat.objects.bulk_create((s for s, _ in seats), batch_size=5000)
        RatingPoint.objects.bulk_create(points, batch_size=5000)
        BotFault.objects.bulk_create(
            (BotFault(game=game.bot_game, seat=s, deal=0, number=3, decision="play",
                      kind="timeout", message="no answer within 1000 ms") for game, s in faults),
            batch_size=5000)
        made += count
    for entry in entries:
        t = totals[entry.pk]
        histogram = timing.add(timing.empty(), (rng.lognormvariate(0.7, 0.6)
                                                for _ in range(200)))
        scale = t["decisions"] / 200
        entry.decision_times = [round(c * scale) for c in histogram]
        entry.mu = 25 + 3 * strength[entry.pk]
        entry.sigma = max(0.8, MODEL.sigma / (1 + t["games"] / 20))
        entry.ordinal = entry.mu - 3 * entry.sigma
        entry.games, entry.deals, entry.firsts, entry.lasts = (
            t["games"], t["deals"], t["firsts"], t["lasts"])
        entry.positions, entry.faults, entry.faulted_games = (
            t["positions"], t["faults"], t["faulted"])
        entry.fault_kinds = {"timeout": t["faults"]} if t["faults"] else {}
        entry.decisions = t["decisions"]
        entry.decision_median_ms = timing.quantile(entry.decision_times, 0.5)
        entry.decision_p95_ms = timing.quantile(entry.decision_times, 0.95)
        entry.last_played_at = start + timedelta(days=30)
    Entry.objects.bulk_update(entries, ["decision_times", "mu", "sigma", "ordinal", "games",
                                        "deals", "firsts", "lasts", "positions", "faults",
                                        "faulted_games", "fault_kinds", "decisions",
                                        "decision_median_ms", "decision_p95_ms",
                                        "last_played_at"])
    return ids, games


# Serving while games land


def played_pool(size: int, per_game: int, rng: random.Random):
    """Games played by built-in bots through the match runner, as the task plays them."""
    from gameplay.bots import make_bot
    from gameplay.engine.options import preset
    from gameplay.engine.scoring import Scoring
    from gameplay.runner.match import play_game
    from ladder.services import Played, TimedBot

    pool = []
    for _ in range(size):
        bots = [TimedBot(make_bot(name, seed=rng.getrandbits(32)))
                for name in ("heuristic", "greedy", "random", "heuristic")]
        result = play_game(bots, preset(PRESET), seed=rng.getrandbits(63),
                           scoring=Scoring.from_dict({"system": "fixed-rounds",
                                                      "deals": per_game}))
        pool.append(Played(result=result, times_ms=[b.times_ms for b in bots]))
    return pool


def land(entry_ids, per_game, rate, stop: threading.Event, rng: random.Random, counts: dict):
    """Store ``rate`` games a second until ``stop``: a scheduled game row and its seats, as the
    scheduler makes them, then services.game_store."""
    from django.db import connection

    from ladder import services
    from ladder.models import Entry, Game, Seat

    pool = played_pool(20, per_game, rng)
    specs = dict(Entry.objects.filter(pk__in=entry_ids).values_list("pk", "spec"))
    started = time.perf_counter()
    stored = 0
    store_ms = []
    while not stop.is_set():
        due = started + stored / rate
        pause = due - time.perf_counter()
        if pause > 0:
            time.sleep(pause)
        seated = rng.sample(entry_ids, SEATS)
        game = Game.objects.create(kind=Game.RATED, preset=PRESET, seed=rng.getrandbits(62),
                                   deals=per_game)
        Seat.objects.bulk_create(Seat(game=game, entry_id=pk, seat=s, bot=specs[pk] or "url")
                                 for s, pk in enumerate(seated))
        t0 = time.perf_counter()
        assert services.game_store(game_id=game.pk, played=rng.choice(pool))
        store_ms.append(1000 * (time.perf_counter() - t0))
        stored += 1
    counts["stored"] = stored
    counts["seconds"] = time.perf_counter() - started
    counts["store_ms"] = store_ms
    connection.close()


def land_in_process(entry_ids, per_game, rate, stop, seed, results):
    counts: dict = {}
    land(entry_ids, per_game, rate, stop, random.Random(seed), counts)
    results.put(counts)


def percentile(values, q):
    values = sorted(values)
    return values[min(len(values) - 1, int(q * len(values)))] if values else None


def serve_while_landing(entry_ids, args, rng):
    from django.db import connection
    from django.test import Client

    from ladder.models import Entry

    # The lander waits on the database between short steps; with the default 5 ms switch
    # interval each wake-up waits for a client thread's 5 ms slice (a GIL convoy).
    sys.setswitchinterval(args.switch_interval)
    rate = args.landing / args.landers
    land_args = (entry_ids, args.deals_per_game, rate)
    if args.lander == "thread":
        stop = threading.Event()
        counts = [{} for _ in range(args.landers)]
        landers = [threading.Thread(target=land, args=(*land_args, stop,
                                                       random.Random(args.seed + n), counts[n]))
                   for n in range(args.landers)]
    else:
        import multiprocessing

        context = multiprocessing.get_context("fork")
        stop, results = context.Event(), context.Queue()
        landers = [context.Process(target=land_in_process,
                                   args=(*land_args, stop, args.seed + n, results))
                   for n in range(args.landers)]
    table_ms, detail_ms = [], []
    lock = threading.Lock()
    detail_ids = list(Entry.objects.filter(reference=False).values_list("pk", flat=True))

    def client(number):
        web = Client()
        local_rng = random.Random(number)
        while not stop.is_set():
            detail = local_rng.random() < 0.1
            path = (f"/api/v1/ladder/{local_rng.choice(detail_ids)}/" if detail else
                    f"/api/v1/ladder/?preset={PRESET}&page_size=200")
            t0 = time.perf_counter()
            answer = web.get(path)
            ms = 1000 * (time.perf_counter() - t0)
            assert answer.status_code == 200, answer.content[:300]
            with lock:
                (detail_ms if detail else table_ms).append(ms)
        connection.close()

    Client().get(f"/api/v1/ladder/?preset={PRESET}&page_size=200")  # warm
    if args.lander == "process":
        from django.db import connections

        connections.close_all()  # not shared with the forked lander, which opens its own
    for lander in landers:
        lander.start()
    clients = [threading.Thread(target=client, args=(n,)) for n in range(args.clients)]
    began = time.perf_counter()
    for thread in clients:
        thread.start()
    time.sleep(args.seconds)
    stop.set()
    for thread in clients:
        thread.join()
    if args.lander == "process":
        counts = [results.get() for _ in landers]
    for lander in landers:
        lander.join()
    stored = sum(c["stored"] for c in counts)
    store_ms = [ms for c in counts for ms in c["store_ms"]]
    elapsed = time.perf_counter() - began
    rows = len(Client().get(f"/api/v1/ladder/?preset={PRESET}&page_size=200")
               .json()["results"])
    return {
        "games_per_s_landing": round(stored / max(c["seconds"] for c in counts), 1),
        "landers": args.landers,
        "store_ms_p50": round(statistics.median(store_ms), 1),
        "store_ms_p99": round(percentile(store_ms, 0.99), 1),
        "table_rows": rows,
        "requests": len(table_ms) + len(detail_ms),
        "requests_per_s": round((len(table_ms) + len(detail_ms)) / elapsed, 1),
        "p50_ms": round(statistics.median(table_ms), 1),
        "p99_ms": round(percentile(table_ms, 0.99), 1),
        "detail_p50_ms": round(statistics.median(detail_ms), 1) if detail_ms else None,
        "detail_p99_ms": round(percentile(detail_ms, 0.99), 1) if detail_ms else None,
    }


if __name__ == "__main__":
    main()
