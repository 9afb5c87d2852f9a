"""Par's cost to a ladder worker (issue #31): ladder games per worker-second with par and
without, each game taken, played and stored by ``ladder.services.game_run`` as the worker runs
it, on PostgreSQL.

    python bench/par_worker.py [--games 40] [--preset classic] [--authors greedy,heuristic,random]
                               [--database-url URL] [--seed 1]

The tables are the scheduler's: one reference bot (a cheap one, ``random``, ``greedy`` or
``heuristic`` in turn) and the rest authors' outside bots, here built-in bots served over HTTP
on 127.0.0.1 by the kit (``python -m gameplay.kit.cli serve BOT --http PORT --secret S``), the
cheapest author a ladder game can have. Each game is played twice in a row, with par and without
(``bot_games.game_par`` answering none), so load on the machine falls on both alike.
Prints one JSON line: games, ``game_ms`` with and without par (mean of a whole ``game_run``),
``par_alone_ms`` (``game_par`` timed alone, inside the games with par),
``games_per_second_ratio`` (games per worker-second with par over without: the game without
par against the same plus par's own time) and ``games_per_second_ratio_measured`` (the two
means' ratio, which the outside bots' own timing makes noisier than par's cost).

The database: --database-url, else postgres://postgres@127.0.0.1:5432/president_league_par_bench
(dropped and created again).
"""

import argparse
import json
import os
import random
import socket
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
from bench.databases import recreate_postgres  # noqa: E402 (after the path is set)

REFERENCES = ("random", "greedy", "heuristic")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def serve(bot: str, secret: str) -> tuple[subprocess.Popen, str]:
    """A built-in bot served over HTTP by the kit; the process and its URL once it answers."""
    port = free_port()
    process = subprocess.Popen(
        [sys.executable, "-m", "gameplay.kit.cli", "serve", bot, "--http", str(port),
         "--secret", secret], cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
            return process, f"http://127.0.0.1:{port}/"
        except OSError:
            time.sleep(0.1)
    process.kill()
    raise SystemExit(f"the kit's server of {bot} did not start on port {port}")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=40, help="games each way")
    parser.add_argument("--preset", default="classic")
    parser.add_argument("--authors", default="greedy,heuristic,random",
                        help="the built-in bots the authors' outside bots are")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--database-url", default=os.environ.get(
        "PAR_BENCH_URL", "postgres://postgres@127.0.0.1:5432/president_league_par_bench"))
    args = parser.parse_args()
    recreate_postgres(args.database_url)
    os.environ["DATABASE_URL"] = args.database_url
    os.environ["DJANGO_SETTINGS_MODULE"] = "config.settings.test"
    os.environ.pop("CELERY_BROKER_URL", None)
    import django

    django.setup()
    from django.conf import settings
    from django.core.management import call_command

    call_command("migrate", verbosity=0)
    authors = args.authors.split(",")
    servers = []
    try:
        urls = []
        for bot in authors:
            secret = f"bench-secret-{bot}"
            process, url = serve(bot, secret)
            servers.append(process)
            urls.append((bot, url, secret))
        settings.OUTSIDE_BOT_ALLOWED_HOSTS = [u.split("/")[2] for _, u, _ in urls]
        figures = measure(args, urls)
    finally:
        for process in servers:
            process.terminate()
    print(json.dumps({"preset": args.preset, "authors": authors, **figures}), flush=True)


def measure(args, urls) -> dict:
    from django.contrib.auth import get_user_model

    from bot_games import services as bot_games
    from ladder import services as ladder
    from ladder.models import Entry, Game, Seat
    from outside_bots.models import OutsideBot, name_key

    author = get_user_model().objects.create_user("bench-author")
    references = ladder.references_ensure(args.preset)
    entries = []
    for bot, url, secret in urls:
        name = f"{bot}-over-http"
        outside = OutsideBot.objects.create(name=name, name_key=name_key(name), url=url,
                                            owner=author, presets=[args.preset], secret=secret)
        entries.append(Entry.objects.create(preset=args.preset, name=outside.name, url=url,
                                            outside_bot=outside, author=author,
                                            status=Entry.ACTIVE))
    rng = random.Random(args.seed)
    real_par = bot_games.game_par
    times = {True: [], False: []}
    par_alone = []

    def timed_par(result):
        started = time.perf_counter()
        found = real_par(result)
        par_alone.append(time.perf_counter() - started)
        return found
    for i in range(args.games):
        table = [references[REFERENCES[i % len(REFERENCES)]], *entries]
        rng.shuffle(table)
        seed = rng.getrandbits(63)
        for with_par in (True, False):  # the same game twice
            game = Game.objects.create(kind=Game.RATED, preset=args.preset, seed=seed, deals=4)
            Seat.objects.bulk_create(Seat(game=game, entry=e, seat=s,
                                          bot=e.spec if e.reference else e.url)
                                     for s, e in enumerate(table))
            bot_games.game_par = timed_par if with_par else (lambda result: None)
            started = time.perf_counter()
            stored = ladder.game_run(game_id=game.pk)
            times[with_par].append(time.perf_counter() - started)
            bot_games.game_par = real_par
            game.refresh_from_db()
            if not stored or game.status != Game.DONE:
                raise SystemExit(f"game {game.pk} was not stored: {game.status} {game.reason}")
    with_ms = statistics.fmean(times[True]) * 1000
    without_ms = statistics.fmean(times[False]) * 1000
    par_ms = statistics.fmean(par_alone) * 1000
    return {"games": args.games, "game_ms_with_par": round(with_ms, 1),
            "game_ms_without_par": round(without_ms, 1),
            "par_alone_ms": round(par_ms, 2),
            "games_per_second_ratio": round(without_ms / (without_ms + par_ms), 3),
            "games_per_second_ratio_measured": round(without_ms / with_ms, 3)}

if __name__ == "__main__":
    main()
