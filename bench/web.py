"""Web speed: the season standings page and the standings API under load, served as in
production.

    python bench/web.py [--players 500] [--deals 100000] [--duration 30] [--connections 32]
                         [--reuse] [--keep]

Builds a season of 500 players and 100,000 deals with bench/standings.py's builder in the
PostgreSQL database HTTP_BENCH_DATABASE_URL (default
postgres://postgres@127.0.0.1:5432/president_league_http_bench), dropped and created again;
with --reuse, a database that already holds the bench season is used as it is (whatever its
size; the table says what it holds). The database is dropped at the end unless --keep or
--reuse. Serves it as `make serve` does: config.settings.production, gunicorn with 2 sync
workers and its access log, WhiteNoise, with the cache in Redis (HTTP_BENCH_CACHE_URL, default
redis://127.0.0.1:6379/13, flushed first) so both workers share it. Each endpoint gets one
request first (it must answer 200 with no redirect, and it fills the cache as the first reader
would), then wrk (32 connections, 2 threads, 30 s) on loopback, sending X-Forwarded-Proto:
https as the HTTPS proxy would.

Prints requests/s and p50/p99 latency against the goal (p99 under 100 ms, at least 300
requests/s for each), the machine's CPUs and load average as it goes, and the CPU time spent
per request by the gunicorn workers, by the PostgreSQL processes serving them and by wrk
(from /proc): what a request costs whatever else the machine is doing, where requests/s and
latency depend on what others run on it. Exits 1 if a response was not 2xx or 3xx (wrk's
count) or a socket error happened.
"""

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import argparse  # noqa: E402
import contextlib  # noqa: E402
import os  # noqa: E402
import re  # noqa: E402
import resource  # noqa: E402
import shutil  # noqa: E402
import subprocess  # noqa: E402
import time  # noqa: E402
import urllib.error  # noqa: E402
import urllib.request  # noqa: E402

from bench.serving import PROXY_HEADERS, production_server  # noqa: E402

DATABASE_URL = os.environ.get("HTTP_BENCH_DATABASE_URL",
                              "postgres://postgres@127.0.0.1:5432/president_league_http_bench")
CACHE_URL = os.environ.get("HTTP_BENCH_CACHE_URL", "redis://127.0.0.1:6379/13")
GOAL_P99_MS = 100
GOAL_RPS = 300
SEASON_NAME = "Bench"  # bench/standings.py's build()


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=500)
    parser.add_argument("--deals", type=int, default=100_000)
    parser.add_argument("--duration", type=int, default=30, help="seconds per endpoint")
    parser.add_argument("--connections", type=int, default=32)
    parser.add_argument("--threads", type=int, default=2, help="wrk's threads")
    parser.add_argument("--workers", type=int, default=2, help="gunicorn's workers")
    parser.add_argument("--port", type=int, default=0, help="gunicorn's (0: a free one)")
    parser.add_argument("--reuse", action="store_true",
                        help="use the database as it is when it already holds the season")
    parser.add_argument("--keep", action="store_true", help="do not drop the database at the end")
    parser.add_argument("--build", action="store_true", help=argparse.SUPPRESS)  # a child run
    args = parser.parse_args()
    if args.build:
        build(args.players, args.deals)
        return
    if shutil.which("wrk") is None:
        sys.exit("wrk is not installed: sudo apt-get install wrk (Debian/Ubuntu package 'wrk')")

    say(f"machine: {os.cpu_count()} CPUs, {uptime()}")
    season_id = season_in(DATABASE_URL) if args.reuse else None
    if season_id is None:
        recreate(DATABASE_URL)
        started = time.perf_counter()
        run_child(["--build", "--players", str(args.players), "--deals", str(args.deals)],
                  settings="config.settings.test")
        say(f"built {args.players} players and {args.deals} deals "
            f"in {time.perf_counter() - started:.0f} s")
        season_id = season_in(DATABASE_URL)
    players, deals = season_size(DATABASE_URL, season_id)
    say(f"season {season_id}: {players} players, {deals} deals")
    flush_cache(CACHE_URL)
    try:
        failed = serve_and_load(args, season_id, f"{players} players, {deals} deals")
    finally:
        if not (args.keep or args.reuse):
            drop(DATABASE_URL)
    sys.exit(1 if failed else 0)


def say(text):
    print(text, flush=True)


def uptime():
    load = ", ".join(f"{x:.2f}" for x in os.getloadavg())
    return f"load average {load} (1, 5, 15 min)"


# The database


def admin_connection(url):
    import psycopg

    return psycopg.connect(url.rsplit("/", 1)[0] + "/postgres", autocommit=True)


def recreate(url):
    name = url.rsplit("/", 1)[1]
    with admin_connection(url) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}"')
        conn.execute(f'CREATE DATABASE "{name}"')


def drop(url):
    name = url.rsplit("/", 1)[1]
    with admin_connection(url) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def season_in(url):
    """The bench season's id, or None when the database or the season is not there."""
    import psycopg

    try:
        with psycopg.connect(url) as conn:
            row = conn.execute("SELECT id FROM league_season WHERE name = %s",
                               [SEASON_NAME]).fetchone()
    except psycopg.Error:
        return None
    return row and row[0]


def season_size(url, season_id):
    import psycopg

    with psycopg.connect(url) as conn:
        return conn.execute(
            "SELECT (SELECT count(DISTINCT player_id) FROM league_seat s JOIN league_game g"
            " ON g.id = s.game_id WHERE g.season_id = %(id)s),"
            " (SELECT count(*) FROM league_deal d JOIN league_game g ON g.id = d.game_id"
            " WHERE g.season_id = %(id)s)", {"id": season_id}).fetchone()


def build(players, deals):
    import django

    django.setup()
    from django.core.management import call_command
    from django.db import connection

    from bench.standings import build as build_season

    call_command("migrate", verbosity=0)
    build_season(players, deals)
    with connection.cursor() as cursor:
        cursor.execute("VACUUM ANALYZE")


def run_child(arguments, settings):
    env = {**os.environ, "DJANGO_SETTINGS_MODULE": settings, "DATABASE_URL": DATABASE_URL}
    env.pop("CELERY_BROKER_URL", None)
    subprocess.run([sys.executable, "-m", "bench.web", *arguments], env=env, cwd=ROOT,
                   check=True)


def flush_cache(url):
    import redis

    redis.Redis.from_url(url).flushdb()


# The server and the load


def serve_and_load(args, season_id, size):
    endpoints = [("standings page", f"/league/seasons/{season_id}/"),
                 ("standings API", f"/api/v1/seasons/{season_id}/standings/")]
    # wrk is one client address: the API's throttles (anonymous 120 a minute; the user one,
    # 600, counts anonymous clients by address too) would answer it 429 after its first
    # seconds. The bench measures what serving costs, so it lifts them.
    unthrottled = {"API_THROTTLE_ANON": "100000000/minute",
                   "API_THROTTLE_USER": "100000000/minute"}
    with production_server(DATABASE_URL, CACHE_URL, args.workers, args.port,
                           settings=unthrottled) as server:
        base = server.url
        rows = []
        for name, path in endpoints:
            check_ok(base + path)  # also fills the cache, as the first reader would
            say(f"{name}: wrk {args.duration} s on {path} ({uptime()})")
            rows.append((name, load(base + path, args, server.process.pid)))
        say(f"after the runs: {uptime()}")
    print_table(rows, args, size)
    return any(r["non_2xx"] or r["socket_errors"] for _, r in rows)


def request(url):
    return urllib.request.urlopen(urllib.request.Request(url, headers=PROXY_HEADERS), timeout=60)


def check_ok(url):
    """One request first, so a redirect (which wrk counts as a success) or an error shows."""
    started = time.perf_counter()
    try:
        with request(url) as response:
            size = len(response.read())
            status = response.status
            final = response.url
    except urllib.error.HTTPError as e:
        sys.exit(f"{url} answered {e.code}: {e.read()[:500]!r}")
    if status != 200 or final != url:
        sys.exit(f"{url} answered {status} (at {final}), not 200")
    say(f"first request {url}: {status}, {size / 1000:.0f} kB, "
        f"{(time.perf_counter() - started) * 1000:.0f} ms")


def load(url, args, server_pid):
    """wrk's figures, and the CPU time per request of the web workers, of the database
    server's processes serving them and of wrk itself: what the run cost whatever else the
    machine was doing."""
    command = ["wrk", f"-t{args.threads}", f"-c{args.connections}", f"-d{args.duration}s",
               "--latency", *(f"-H{k}: {v}" for k, v in PROXY_HEADERS.items()), url]
    with database_backends() as backends:
        web, db = CpuMeter(lambda: children(server_pid)), CpuMeter(backends)
        wrk_before = resource.getrusage(resource.RUSAGE_CHILDREN)
        wrk = subprocess.Popen(command, stdout=subprocess.PIPE, text=True)
        while wrk.poll() is None:  # a database process may end (CONN_MAX_AGE) and start
            web.sample()
            db.sample()
            time.sleep(0.5)
        out = wrk.stdout.read()
        if wrk.returncode:
            sys.exit(f"wrk failed with status {wrk.returncode}:\n{out}")
        wrk_after = resource.getrusage(resource.RUSAGE_CHILDREN)
        web.sample()
        db.sample()
    result = parse_wrk(out)

    def per_request(seconds):
        return seconds * 1000 / max(result["requests"], 1)

    result["cpu_web"] = per_request(web.used())
    result["cpu_db"] = per_request(db.used())
    result["cpu_wrk"] = per_request(wrk_after.ru_utime + wrk_after.ru_stime
                                    - wrk_before.ru_utime - wrk_before.ru_stime)
    return result


UNITS = {"us": 0.001, "ms": 1, "s": 1000, "m": 60_000}


def parse_wrk(out):
    """Requests/s, p50 and p99 (ms), non-2xx/3xx responses and socket errors from wrk's text."""
    def latency(percent):
        value, unit = re.search(rf"^\s*{percent}%\s+([\d.]+)(us|ms|s|m)\s*$", out, re.M).groups()
        return float(value) * UNITS[unit]

    errors = re.search(r"Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)",
                       out)
    non_2xx = re.search(r"Non-2xx or 3xx responses: (\d+)", out)
    return {"rps": float(re.search(r"Requests/sec:\s+([\d.]+)", out).group(1)),
            "p50": latency(50), "p99": latency(99),
            "requests": int(re.search(r"(\d+) requests in", out).group(1)),
            "non_2xx": int(non_2xx.group(1)) if non_2xx else 0,
            "socket_errors": sum(int(n) for n in errors.groups()) if errors else 0}


class CpuMeter:
    """CPU time used by a changing set of processes since the first sample; a process that
    ends between samples loses what it used after its last one (up to half a second)."""

    def __init__(self, pids):
        self.pids = pids
        self.first = {pid: cpu_seconds(pid) for pid in pids()}
        self.last = dict(self.first)

    def sample(self):
        for pid in self.pids():
            self.last[pid] = max(self.last.get(pid, 0), cpu_seconds(pid))

    def used(self):
        return sum(cpu - self.first.get(pid, 0) for pid, cpu in self.last.items())


def cpu_seconds(pid):
    """User and system CPU time of a process so far (Linux's /proc), 0 once it is gone."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return 0
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def children(pid):
    return [int(p.parent.name) for p in Path("/proc").glob("[0-9]*/stat")
            if _parent(p) == pid]


def _parent(stat):
    try:
        return int(stat.read_text().rsplit(")", 1)[1].split()[1])
    except (OSError, IndexError):
        return None


@contextlib.contextmanager
def database_backends():
    """A function listing the PostgreSQL server processes connected to the bench database
    (but this one; none when the database runs elsewhere: then the db column reads 0)."""
    import psycopg

    name = DATABASE_URL.rsplit("/", 1)[1]
    with psycopg.connect(DATABASE_URL, autocommit=True) as conn:
        def pids():
            rows = conn.execute("SELECT pid FROM pg_stat_activity WHERE datname = %s "
                                "AND pid <> pg_backend_pid()", [name]).fetchall()
            return [pid for pid, in rows if Path(f"/proc/{pid}").exists()]

        yield pids


def print_table(rows, args, size):
    say(f"\n{size}; gunicorn {args.workers} workers; "
        f"wrk -t{args.threads} -c{args.connections} -d{args.duration}s; "
        f"goal p99 < {GOAL_P99_MS} ms and >= {GOAL_RPS} requests/s")
    head = f"{'endpoint':<16} {'requests/s':>10} {'p50 ms':>7} {'p99 ms':>7} " \
           f"{'requests':>8} {'non-2xx':>7} {'errors':>6} {'CPU ms/request web+db+wrk':>26}  goal"
    say(head)
    say("-" * len(head))
    for name, r in rows:
        met = r["p99"] < GOAL_P99_MS and r["rps"] >= GOAL_RPS
        cpu = f"{r['cpu_web']:.2f}+{r['cpu_db']:.2f}+{r['cpu_wrk']:.2f}"
        say(f"{name:<16} {r['rps']:>10.0f} {r['p50']:>7.1f} {r['p99']:>7.1f} "
            f"{r['requests']:>8} {r['non_2xx']:>7} {r['socket_errors']:>6} {cpu:>26}  "
            f"{'met' if met else 'NOT met'}")
    for name, r in rows:
        if r["non_2xx"] or r["socket_errors"]:
            say(f"FAILED: {name} had {r['non_2xx']} non-2xx/3xx responses and "
                f"{r['socket_errors']} socket errors")


if __name__ == "__main__":
    main()
