"""A big club night entered from many phones at once, served as in production.

    python bench/night.py [--people 60] [--deals 8] [--resends 3] [--history-games 300]
                          [--screen-interval 1] [--workers 2] [--keep]

Builds a club, a season already played (--history-games games of 10 deals, bench/league_rows.py,
moved a week back so they are not tonight's) and a club night with the league's own services:
the people present are planned in one round at tables of 4 (league.nights.night_plan, 60 people
make 15 tables), the round is confirmed (night_confirm) and each table gets its link
(league.table_links). The database is NIGHT_BENCH_DATABASE_URL (default
postgres://postgres@127.0.0.1:5432/president_league_night_bench), dropped and created again, and
dropped at the end unless --keep.

Serves it as production does: config.settings.production, gunicorn with 2 sync workers, the
cache in Redis (NIGHT_BENCH_CACHE_URL, default redis://127.0.0.1:6379/11) and a Celery worker of
the `celery` queue on the broker NIGHT_BENCH_BROKER_URL (default redis://127.0.0.1:6379/12) for
the ratings each deal marks stale; both Redis databases are flushed first.

Then one phone per table, each a thread with its own cookie jar, does what the entry page does
over real HTTP: opens its table link, and for each deal loads the entry page, posts the
finishing order to preview/ (a form post with the CSRF token) and posts the confirm form to
deal/ as league/static/league/outbox.js does (Accept: application/json, Idempotency-Key and
X-CSRFToken headers, the form's token as key), as fast as it can. --resends of each phone's
deals are sent twice with the same key, as an outbox whose answer was lost sends them again:
half while the first post is still on its way, half after it was answered. Meanwhile a screen
asks tonight's standings page and tonight.json in turn every --screen-interval seconds, and
pg_stat_activity is sampled every 20 ms for requests waiting on a lock.

Prints deals per second, p50/p99 latency of each kind of request, errors (any answer not
2xx/3xx, or no answer), lock waits by relation and deadlocks. Then checks the database: each
game holds exactly the deals its phone sent, in order, none doubled, none lost, one idempotency
claim per deal, and every seat's totals (points, deals, positions, roles, winners) equal to
scoring the sent orders again with the engine. Exits 1 if an error happened or a check failed.
"""

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import argparse  # noqa: E402
import json  # noqa: E402
import os  # noqa: E402
import random  # noqa: E402
import secrets  # noqa: E402
import statistics  # noqa: E402
import subprocess  # noqa: E402
import tempfile  # noqa: E402
import threading  # noqa: E402
import time  # noqa: E402
from collections import Counter, defaultdict  # noqa: E402
from html.parser import HTMLParser  # noqa: E402

from bench.serving import BIN, PROXY_HEADERS, production_server  # noqa: E402
from bench.web import CpuMeter, children  # noqa: E402

DATABASE_URL = os.environ.get("NIGHT_BENCH_DATABASE_URL",
                              "postgres://postgres@127.0.0.1:5432/president_league_night_bench")
CACHE_URL = os.environ.get("NIGHT_BENCH_CACHE_URL", "redis://127.0.0.1:6379/11")
BROKER_URL = os.environ.get("NIGHT_BENCH_BROKER_URL", "redis://127.0.0.1:6379/12")
TABLE = 4  # players per table
HISTORY_DEALS = 10  # deals a game of the season so far
SCORING = {"system": "fixed-rounds", "deals": 100}  # no table ends during the bench


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--people", type=int, default=60, help="present tonight (tables of 4)")
    parser.add_argument("--deals", type=int, default=8, help="deals each table enters")
    parser.add_argument("--resends", type=int, default=3,
                        help="deals of each table sent twice with the same key")
    parser.add_argument("--history-games", type=int, default=300)
    parser.add_argument("--screen-interval", type=float, default=1.0,
                        help="seconds between the screen's requests")
    parser.add_argument("--workers", type=int, default=2, help="gunicorn's workers")
    parser.add_argument("--port", type=int, default=0, help="gunicorn's (0: a free one)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--keep", action="store_true", help="do not drop the database at the end")
    parser.add_argument("--build", action="store_true", help=argparse.SUPPRESS)  # a child run
    parser.add_argument("--check", help=argparse.SUPPRESS)  # a child run: the sent deals' file
    args = parser.parse_args()
    if args.build:
        build(args)
        return
    if args.check:
        sys.exit(check(Path(args.check)))
    if args.people % TABLE or not 0 < args.people <= 100:
        sys.exit(f"--people must be a multiple of {TABLE}, at most 100")
    if not 0 <= args.resends <= args.deals:
        sys.exit("--resends must be between 0 and --deals")

    from bench.databases import recreate_postgres

    say(f"machine: {os.cpu_count()} CPUs, {load_average()}")
    recreate_postgres(DATABASE_URL)
    try:
        started = time.perf_counter()
        night = json.loads(run_child(["--build", "--people", str(args.people),
                                      "--history-games", str(args.history_games),
                                      "--seed", str(args.seed)]))
        say(f"built a season of {args.history_games} games and tonight's {len(night['tables'])}"
            f" tables of {TABLE} in {time.perf_counter() - started:.0f} s")
        failed = serve_and_enter(args, night)
    finally:
        if not args.keep:
            drop(DATABASE_URL)
    sys.exit(1 if failed else 0)


def say(text):
    print(text, flush=True)


def load_average():
    return "load average " + ", ".join(f"{x:.2f}" for x in os.getloadavg()) + " (1, 5, 15 min)"


def drop(url):
    import psycopg

    base, name = url.rsplit("/", 1)
    with psycopg.connect(base + "/postgres", autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def child_env(settings):
    env = {**os.environ, "DJANGO_SETTINGS_MODULE": settings, "DATABASE_URL": DATABASE_URL}
    env.pop("CELERY_BROKER_URL", None)
    return env


def run_child(arguments):
    """This script as a Django process on the bench database: its standard output."""
    return subprocess.run([sys.executable, "-m", "bench.night", *arguments],
                          env=child_env("config.settings.test"), cwd=ROOT, check=True,
                          stdout=subprocess.PIPE, text=True).stdout


# The club, its season and tonight's tables (a child process)


def build(args):
    import django

    django.setup()
    from django.core.management import call_command
    from django.db import connection
    from django.utils import timezone

    from bench.league_rows import played_season
    from league import nights, services
    from league.models import Game, TableLink

    call_command("migrate", verbosity=0)
    rng = random.Random(args.seed)
    club = services.club_create(name="Night bench club")
    people = [services.player_create(name=f"Player {i + 1}", clubs=[club])
              for i in range(args.people)]
    season = services.season_create(club=club, name="Night bench", preset="classic",
                                    scoring=SCORING, starts_on=timezone.localdate())
    played_season(season, args.history_games, lambda: rng.sample(people, TABLE),
                  HISTORY_DEALS, rng)
    Game.objects.filter(season=season).update(
        created_at=timezone.now() - timezone.timedelta(days=7))  # an earlier night's
    plan = nights.night_plan(season=season, present=people, rounds=1, preferred=(TABLE, TABLE))
    tables = [(list(t.seats), list(t.seats).index(t.dealer)) for t in plan.rounds[0].tables]
    games = nights.night_confirm(season=season, tables=tables)
    tokens = dict(TableLink.objects.filter(game__in=games).values_list("game_id", "token"))
    with connection.cursor() as cursor:
        cursor.execute("VACUUM ANALYZE")
    print(json.dumps({"season": season.pk, "tables": [
        {"game": g.pk, "token": tokens[g.pk]} for g in games]}))


# The phones and the screen


class Forms(HTMLParser):
    """The fields of a page's forms, by the form's id or class: {name: value} of its inputs,
    and each select's option values."""

    def __init__(self, html):
        super().__init__()
        self.forms, self.options, self._form, self._select = {}, {}, None, None
        self.feed(html)

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "form":
            self._form = a.get("id") or a.get("class", "").split(" ")[0]
            self.forms[self._form] = {}
        elif self._form is None:
            return
        elif tag == "input" and a.get("name") and a.get("type") not in ("checkbox", "radio"):
            self.forms[self._form][a["name"]] = a.get("value") or ""
        elif tag == "select":
            self._select = a["name"]
            self.forms[self._form][self._select] = ""
            self.options[self._select] = []
        elif tag == "option" and self._select and a.get("value"):
            self.options[self._select].append(a["value"])

    def handle_endtag(self, tag):
        if tag == "form":
            self._form = None
        elif tag == "select":
            self._select = None


class Night:
    """What the phones and the screen saw: each request's latency by kind, the errors, and the
    deals each table sent (game id: [finishing order of deal 1, 2, …])."""

    def __init__(self, base):
        self.base = base
        self.lock = threading.Lock()
        self.latency = defaultdict(list)
        self.errors = []
        self.sent = defaultdict(list)
        self.replayed = Counter()  # the answers to the resends: 200 (said as recorded), …

    def request(self, session, kind, method, path, **kwargs):
        started = time.perf_counter()
        try:
            response = session.request(method, self.base + path, timeout=60, **kwargs)
        except Exception as e:  # noqa: BLE001 (no answer at all: counted as an error)
            with self.lock:
                self.errors.append(f"{kind} {path}: {e!r}")
            return None
        # The production cookies are Secure: the phone speaks HTTPS to the proxy in front,
        # which speaks plain HTTP to gunicorn here, so they go back as the phone's would.
        for cookie in session.cookies:
            cookie.secure = False
        with self.lock:
            self.latency[kind].append(time.perf_counter() - started)
            if not 200 <= response.status_code < 400:
                self.errors.append(f"{kind} {path}: {response.status_code} "
                                   f"{response.text[:300]!r}")
        return response


def phone(night, table, deals, resent, origin):
    """One table's phone: open its link, then enter ``deals`` deals as the entry page does."""
    import requests

    session = requests.Session()
    session.headers.update(PROXY_HEADERS)
    enter = f"/league/games/{table['game']}/enter/"
    opened = night.request(session, "table link", "GET", f"/league/t/{table['token']}/",
                           allow_redirects=False)
    if opened is None or opened.headers.get("Location") != enter:
        return
    page = night.request(session, "entry page", "GET", enter)
    rng = random.Random(table["game"])
    for number in range(1, deals + 1):
        if page is None or page.status_code != 200:
            return
        forms = Forms(page.text)
        order_form = forms.forms["order-form"]
        players = forms.options["place_1"]
        order = rng.sample(players, len(players))
        fields = {**order_form, "token": secrets.token_hex(16),  # Outbox.newKey()
                  **{f"place_{i}": p for i, p in enumerate(order, 1)}}
        preview = night.request(session, "preview", "POST", enter + "preview/", data=fields,
                                headers={"Origin": origin, "Referer": origin + enter})
        if preview is None or preview.status_code != 200:
            return
        confirm = Forms(preview.text).forms["confirm-form"]
        key = confirm.pop("token")
        body = {k: v for k, v in confirm.items() if k != "csrfmiddlewaretoken"}
        body["token"] = key
        headers = {"Accept": "application/json", "Idempotency-Key": key, "Origin": origin,
                   "Referer": origin + enter, "X-CSRFToken": session.cookies["csrftoken"]}

        def post(body=body, headers=headers):
            return night.request(session, "deal", "POST", enter + "deal/", data=body,
                                 headers=headers)

        with night.lock:
            night.sent[table["game"]].append([int(p) for p in order])
        if number in resent and number % 2:  # the answer lost, sent again at once
            answers = [None, None]
            twin = threading.Thread(target=lambda at=answers: at.__setitem__(1, post()))
            twin.start()
            answers[0] = post()
            twin.join()
        else:
            answers = [post()]
            if number in resent:  # the answer lost, sent again once the first was stored
                answers.append(post())
        if len(answers) > 1:
            with night.lock:
                night.replayed.update(a.status_code if a is not None else "none"
                                      for a in answers)
        page = night.request(session, "entry page", "GET", enter)  # location.replace(here)


def screen(night, season, interval, stop):
    """Tonight's standings on the screen in the room: the page, then its news, in turn."""
    import requests

    session = requests.Session()
    session.headers.update(PROXY_HEADERS)
    paths = [("screen page", f"/league/seasons/{season}/tonight/"),
             ("screen json", f"/league/seasons/{season}/tonight.json")]
    turn = 0
    while not stop.is_set():
        kind, path = paths[turn % 2]
        night.request(session, kind, "GET", path)
        turn += 1
        stop.wait(interval)


def lock_waits(stop, found):
    """Sample the bench database every 20 ms: the statement of each request waiting for a
    lock (its first words), as "waiting <- holding"."""
    import psycopg

    name = DATABASE_URL.rsplit("/", 1)[1]
    with psycopg.connect(DATABASE_URL, autocommit=True) as conn:
        while not stop.is_set():
            rows = conn.execute(
                "SELECT left(regexp_replace(w.query, '\\s+', ' ', 'g'), 70) || ' <- ' || "
                "left(regexp_replace(h.query, '\\s+', ' ', 'g'), 70) "
                "FROM pg_stat_activity w "
                "JOIN pg_stat_activity h ON h.pid = (pg_blocking_pids(w.pid))[1] "
                "WHERE w.wait_event_type = 'Lock' AND w.datname = %s", [name]).fetchall()
            found["samples"] += 1
            found["waiting"] += bool(rows)
            found["waits"] += len(rows)
            found["on"].update(r for r, in rows)
            stop.wait(found["every"])


def deadlocks():
    import psycopg

    name = DATABASE_URL.rsplit("/", 1)[1]
    with psycopg.connect(DATABASE_URL, autocommit=True) as conn:
        return conn.execute("SELECT deadlocks FROM pg_stat_database WHERE datname = %s",
                            [name]).fetchone()[0]


def serve_and_enter(args, built):
    import psycopg
    import redis

    for url in (CACHE_URL, BROKER_URL):
        redis.Redis.from_url(url).flushdb()
    celery = [BIN / "celery", "-A", "config.celery_app", "worker", "-Q", "celery", "-c", "1",
              "--without-gossip", "--without-mingle", "--without-heartbeat", "-l", "warning"]
    with production_server(DATABASE_URL, CACHE_URL, args.workers, args.port,
                           broker_url=BROKER_URL, worker=celery) as server:
        base, worker = server.url, server.worker
        origin = f"https://127.0.0.1:{server.port}"  # the address the phones see, through the proxy
        night = Night(base)
        rng = random.Random(args.seed)
        stop, waits = threading.Event(), {"samples": 0, "waiting": 0, "waits": 0,
                                          "every": 0.02, "on": Counter()}
        deadlocks_before = deadlocks()
        watchers = [threading.Thread(target=screen, args=(night, built["season"],
                                                          args.screen_interval, stop)),
                    threading.Thread(target=lock_waits, args=(stop, waits))]
        phones = [threading.Thread(target=phone, args=(
            night, table, args.deals, set(rng.sample(range(1, args.deals + 1),
                                                     args.resends)), origin))
            for table in built["tables"]]
        say(f"{len(phones)} phones, {args.deals} deals each ({load_average()})")
        for t in watchers:
            t.start()
        with psycopg.connect(DATABASE_URL, autocommit=True) as conn:
            def backends():  # the PostgreSQL processes serving the bench database
                return [pid for pid, in conn.execute(
                    "SELECT pid FROM pg_stat_activity WHERE datname = %s AND pid <> "
                    "pg_backend_pid()", [DATABASE_URL.rsplit("/", 1)[1]]).fetchall()]

            cpu = [CpuMeter(lambda: children(server.process.pid)), CpuMeter(backends),
                   CpuMeter(lambda: [worker.pid, *children(worker.pid)])]
            started = time.perf_counter()
            for t in phones:
                t.start()
            while any(t.is_alive() for t in phones):
                for meter in cpu:
                    meter.sample()
                time.sleep(0.5)
            seconds = time.perf_counter() - started
            for meter in cpu:
                meter.sample()
        stop.set()
        for t in watchers:
            t.join()
        deadlocked = deadlocks() - deadlocks_before
        say(f"after the night: {load_average()}")
    report(night, seconds, waits, deadlocked, args, len(built["tables"]),
           [meter.used() for meter in cpu])
    with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as sent:
        json.dump(night.sent, sent)
    try:
        checked = run_child(["--check", sent.name])
    except subprocess.CalledProcessError as e:
        say(e.stdout)
        return True
    finally:
        os.unlink(sent.name)
    say(checked)
    return bool(night.errors) or deadlocked > 0


def report(night, seconds, waits, deadlocked, args, tables, cpu):
    deals = sum(len(orders) for orders in night.sent.values())
    requests = sum(len(times) for times in night.latency.values())
    say(f"\n{tables} tables of {TABLE}, {args.deals} deals each, {args.resends} of them sent "
        f"twice; gunicorn {args.workers} workers; screen every {args.screen_interval} s")
    say(f"{deals} deals in {seconds:.1f} s: {deals / seconds:.1f} deals/s")
    head = f"{'request':<12} {'count':>6} {'p50 ms':>7} {'p99 ms':>7} {'max ms':>7}"
    say(head)
    say("-" * len(head))
    for kind in ("table link", "entry page", "preview", "deal", "screen page", "screen json"):
        times = sorted(t * 1000 for t in night.latency[kind])
        if times:
            p99 = times[min(len(times) - 1, round(0.99 * (len(times) - 1)))]
            say(f"{kind:<12} {len(times):>6} {statistics.median(times):>7.1f} {p99:>7.1f} "
                f"{times[-1]:>7.1f}")
    web, db, worker = (seconds * 1000 / max(requests, 1) for seconds in cpu)
    say(f"CPU per request (all {requests} requests): gunicorn {web:.1f} ms, PostgreSQL "
        f"{db:.1f} ms, the Celery worker (ratings) {worker:.1f} ms")
    say(f"answers to the deals sent twice: {dict(night.replayed)}")
    waited = waits["waits"] * waits["every"]
    spent = sum(sum(night.latency[k]) for k in night.latency)
    say(f"lock waits: {waits['waiting']} of {waits['samples']} samples had a request waiting "
        f"for a lock; about {waited:.1f} s of waiting of the {spent:.0f} s the requests took "
        f"in all ({waited / max(spent, 1e-9):.1%}); the statements waiting <- the holder's:")
    for statement, n in waits["on"].most_common(8):
        say(f"  {n:>5}  {statement}")
    say(f"deadlocks: {deadlocked}")
    say(f"errors: {len(night.errors)}")
    for error in night.errors[:20]:
        say(f"  {error}")


# The check (a child process)


def check(sent_file):
    """0 if the database holds exactly the deals sent and every seat's totals are the
    engine's score of them, else 1; says each difference."""
    import django

    django.setup()
    from gameplay.engine.roles import Role, roles_of
    from gameplay.engine.scoring import ScoreSheet
    from league.models import Deal, Game, IdempotentRequest, Place
    from league.rules import scoring_of

    sent = {int(game): orders for game, orders in json.loads(sent_file.read_text()).items()}
    wrong = []
    role_field = {Role.PRESIDENT: "presidents", Role.VICE_PRESIDENT: "vice_presidents",
                  Role.CITIZEN: "citizens", Role.VICE_SCUM: "vice_scums", Role.SCUM: "scums"}
    for game in Game.objects.filter(pk__in=sent).select_related("season"):
        orders = sent[game.pk]
        stored = defaultdict(list)
        for number, player in (Place.objects.filter(deal__game=game)
                               .order_by("deal__number", "position")
                               .values_list("deal__number", "player_id")):
            stored[number].append(player)
        numbers = list(Deal.objects.filter(game=game).order_by("number")
                       .values_list("number", flat=True))
        if numbers != list(range(1, len(orders) + 1)):
            wrong.append(f"game {game.number}: deals {numbers}, sent 1 to {len(orders)}")
        for number, order in enumerate(orders, 1):
            if stored.get(number) != order:
                wrong.append(f"game {game.number} deal {number}: stored {stored.get(number)}, "
                             f"sent {order}")
        sheet = ScoreSheet(scoring_of(game.season))
        totals = defaultdict(Counter)
        for order in orders:
            sheet.add(order)
            for position, (player, role) in enumerate(roles_of(order).items(), 1):
                totals[player].update({"deals": 1, "position_sum": position,
                                       role_field[role]: 1})
        winners = set(sheet.winners)
        for seat in game.seats.all():
            expected = {"points": sheet.totals.get(seat.player_id, 0),
                        "is_winner": seat.player_id in winners,
                        **{f: totals[seat.player_id][f]
                           for f in ("deals", "position_sum", *role_field.values())}}
            actual = {f: getattr(seat, f) for f in expected}
            if actual != expected:
                wrong.append(f"game {game.number} seat {seat.number}: {actual}, "
                             f"recomputed {expected}")
        if game.status != (Game.FINISHED if sheet.finished else Game.OPEN):
            wrong.append(f"game {game.number}: status {game.status}")
    deals = sum(len(orders) for orders in sent.values())
    stored_deals = Deal.objects.filter(game__in=sent).count()
    claims = IdempotentRequest.objects.filter(table_link__game__in=sent).count()
    print(f"check: {stored_deals} deals stored of {deals} sent over {len(sent)} games; "
          f"{claims} idempotency claims")
    if claims != deals:
        wrong.append(f"{claims} idempotency claims for {deals} deals")
    for line in wrong[:30]:
        print(f"  WRONG: {line}")
    print("check FAILED" if wrong else "check passed: none lost, none doubled, every total "
          "equal to the engine's score of the deals sent")
    return 1 if wrong else 0


if __name__ == "__main__":
    main()
