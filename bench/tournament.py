"""Tournament speed on Celery: games per second with 1 and with 2 worker processes, and the
task machinery's per-game overhead against playing and storing the same games in one process.

    python bench/tournament.py [--games-per-table 12] [--batch-size 5] [--playouts 10]

Needs PostgreSQL and Redis. The database POSTGRES_BENCH_URL (default
postgres://postgres@127.0.0.1:5432/president_league_tournament_bench) is dropped and created
again; the broker is BENCH_REDIS_URL (default redis://127.0.0.1:6379/14), on a queue of its own.

Three tournaments with the same entrants, seed and games (so the same work): one played here
in this process through ``services.tournament_play_batch`` with no task machinery, one by a
worker with 1 process, one by a worker with 2 processes (prefork, prefetch 1, acks late).
The machine's own speed-up of 2 processes over 1 on plain arithmetic, measured before and
after, is printed too: the ceiling the workers can reach with the load that is on the machine.
Wall time runs from enqueueing the start to the last game stored, with the workers already
up. The league's rating recomputations go to the default queue, which no bench worker
consumes, in all three runs (they are the league's coalesced task, not tournament games).
"""

import argparse
import json
import os
import subprocess
import sys
import time
import uuid
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
from bench.databases import recreate_postgres  # noqa: E402 (after the path is set)

POSTGRES_URL = os.environ.get(
    "POSTGRES_BENCH_URL", "postgres://postgres@127.0.0.1:5432/president_league_tournament_bench")
REDIS_URL = os.environ.get("BENCH_REDIS_URL", "redis://127.0.0.1:6379/14")
QUEUE = f"bench-tournament-{uuid.uuid4().hex[:8]}"
LOG = Path(os.environ.get("TMPDIR", "/tmp")) / f"{QUEUE}-worker.log"



def setup_django():
    os.environ.update({"DJANGO_SETTINGS_MODULE": "config.settings.test",
                       "DATABASE_URL": POSTGRES_URL, "CELERY_BROKER_URL": REDIS_URL,
                       "CELERY_RESULT_BACKEND": REDIS_URL, "LOG_LEVEL": "WARNING",
                       # the worker's own sends (the batches) stay on its queue
                       "CELERY_TASK_DEFAULT_QUEUE": QUEUE})
    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0)


def make_tournament(name, args):
    from league import services as league
    from league.models import Club
    from tournaments import services

    club = Club.objects.filter(name="Bench bots").first() or league.club_create(
        name="Bench bots")
    mc = f"montecarlo:playouts={args.playouts}"
    entrants = [("MC one", mc), ("MC two", mc), ("Heuristic", "heuristic"),
                ("Greedy", "greedy"), ("Random", "random")]
    return services.tournament_create(club=club, name=name, entrants=entrants, seats=4,
                                      games_per_table=args.games_per_table,
                                      batch_size=args.batch_size, seed=7)


def in_process(args):
    """The same games, played and stored here: the batches run one after the other."""
    from django.db import transaction
    from django.utils import timezone

    from tournaments import services

    tournament = make_tournament("In process", args)
    with transaction.atomic():
        services.tournament_start(tournament=tournament)
        # Taken by this process, as a sender marks what it sent: after the commit, the
        # start's sender finds nothing left to send to the broker.
        tournament.batches.filter(sent_at=None).update(sent_at=timezone.now())
    batches = list(tournament.batches.order_by("id").values_list("pk", "keys"))
    started = time.perf_counter()
    for pk, keys in batches:
        services.tournament_play_batch(tournament_id=tournament.pk, keys=keys, batch_id=pk)
    seconds = time.perf_counter() - started
    tournament.refresh_from_db()
    assert tournament.status == tournament.FINISHED, tournament.status
    return tournament, seconds


def start_worker(processes):
    env = {**os.environ, "DJANGO_SETTINGS_MODULE": "config.settings.test"}
    node = f"{QUEUE}-{processes}@localhost"
    process = subprocess.Popen(
        [sys.executable, "-m", "celery", "-A", "config.celery_app", "worker", "-Q", QUEUE,
         "-n", node, f"--concurrency={processes}", "--pool=prefork", "--without-gossip",
         "--without-mingle", "--loglevel=warning"],
        cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=open(LOG, "ab"))  # noqa: SIM115
    from config.celery_app import app

    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        replies = app.control.ping(destination=[node], timeout=0.5)
        if replies:
            return process
    process.kill()
    raise SystemExit(f"the bench worker did not start; see {LOG}")


def on_workers(args, processes):
    import resource

    from config.celery_app import app
    from tournaments import selectors
    from tournaments.tasks import tournament_start_task

    tournament = make_tournament(f"{processes} worker processes", args)
    worker = start_worker(processes)
    cpu_before = resource.getrusage(resource.RUSAGE_CHILDREN)
    try:
        started = time.perf_counter()
        tournament_start_task.apply_async((tournament.pk,), queue=QUEUE)
        while selectors.tournament_progress(tournament=tournament).status != "finished":
            time.sleep(0.05)
        seconds = time.perf_counter() - started
    finally:
        worker.terminate()
        worker.wait()
        app.control.purge()
    cpu_after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (cpu_after.ru_utime + cpu_after.ru_stime) - (cpu_before.ru_utime + cpu_before.ru_stime)
    # The worker's CPU from ping to exit (start-up excluded) over the wall time: about 2 when
    # both processes play all along, about 1 when they wait for each other or for the CPU.
    return tournament, seconds, cpu


def _spin(_):
    total = 0
    for i in range(5_000_000):
        total += i
    return total


def cpu_speed_up() -> float:
    """What 2 processes give over 1 on plain arithmetic right now: the machine's ceiling for
    the worker speed-up (other load on a 2-core machine lowers it)."""
    import multiprocessing

    started = time.perf_counter()
    for _ in range(2):
        _spin(0)
    serial = time.perf_counter() - started
    with multiprocessing.get_context("fork").Pool(2) as pool:
        started = time.perf_counter()
        pool.map(_spin, [0, 0])
        parallel = time.perf_counter() - started
    return round(serial / parallel, 2)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games-per-table", type=int, default=12)
    parser.add_argument("--batch-size", type=int, default=5)
    parser.add_argument("--playouts", type=int, default=10, help="montecarlo bots' playouts")
    args = parser.parse_args()
    ceiling_before = cpu_speed_up()
    recreate_postgres(POSTGRES_URL)
    setup_django()
    from tournaments import selectors

    runs = {"in process": (*in_process(args), None), "1 worker process": on_workers(args, 1),
            "2 worker processes": on_workers(args, 2)}
    reference = selectors.tournament_results(tournament=runs["in process"][0])
    figures = {}
    for label, (tournament, seconds, cpu) in runs.items():
        assert selectors.tournament_results(tournament=tournament) == reference, label
        figures[label] = {"games": tournament.total_games, "seconds": round(seconds, 2),
                          "games_per_second": round(tournament.total_games / seconds, 2)}
        if cpu is not None:
            figures[label]["worker cpu seconds per wall second"] = round(cpu / seconds, 2)
    one, two = (figures[k]["games_per_second"] for k in ("1 worker process",
                                                         "2 worker processes"))
    base = figures["in process"]["seconds"]
    figures["speed-up, 2 processes over 1"] = round(two / one, 2)
    figures["task overhead per game, 1 process vs in process"] = (
        f"{100 * (figures['1 worker process']['seconds'] - base) / base:.1f}%")
    figures["machine's 2-process CPU speed-up (before, after)"] = [ceiling_before,
                                                                    cpu_speed_up()]
    print(json.dumps(figures, indent=2))


if __name__ == "__main__":
    main()
