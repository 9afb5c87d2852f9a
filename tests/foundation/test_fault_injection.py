"""Fault injection (issue #26): the whole service at work through repeated outages.

gunicorn, a Celery worker and celery beat run as separate processes, each reaching Redis and
PostgreSQL through a TCP proxy the test cuts; a supervisor restarts any of them that exits, as
systemd's ``Restart=always`` does. While the ladder plays rated games (two authors' bots
served from this process against the built-in references), a tournament runs and organisers
post deals through the API at five tables (every fifth deal sent twice with its
Idempotency-Key, every seventh undone and entered again), the test cuts Redis ten times, cuts
PostgreSQL once, SIGKILLs the worker and SIGKILLs beat; a second tournament is started during
a Redis cut. Nobody resumes anything.

Afterwards: no request answered 500; every tournament finished within FINISH_SECONDS of the
last fault with each game stored once; the worker is alive (restarted by its supervisor if it
died). Then each table's last deal is undone, and: every deal an organiser was told is
recorded is stored once, as entered; every league rating (each season's and all-time) and
every ladder rating equals a replay from scratch of what is stored. The figures are printed
(run with ``-s``).

The reconcilers and the ladder's tick run every second or two (SERVICE_ENV, as an operator
may set them); the broker's visibility timeout, TOURNAMENT_QUEUED_SECONDS and
LADDER_GAME_RESEND_SECONDS keep their production values, so nothing comes back by Redis
redelivery or by waiting an hour: what a fault drops, the reconcilers must find. About 2–3
minutes.
"""

import math
import os
import random
import re
import signal
import socket
import subprocess
import sys
import threading
import time
from collections import Counter, defaultdict
from pathlib import Path
from urllib.parse import urlsplit

import pytest
import requests
from django.utils import timezone
from rest_framework.authtoken.models import Token

from ladder.models import Entry, RatingPoint
from ladder.models import Game as LadderGame
from ladder.services import OPEN as OPEN_LADDER
from league import services as league
from league.models import Deal, Game, IdempotentRequest, Place, Rating, RatingJob, Season
from league.ratings import MODEL, replay
from outside_bots import services as outside_bots
from tests.bots.test_outside import Server as BotServer
from tests.conftest import PROJECT_DIR, TEST_REDIS_URL, stop
from tests.league.factories import PlayerFactory, UserFactory, make_season
from tests.tournaments.conftest import (  # noqa: F401
    beat_command,
    client_app,
    database_url,
    tournament_queue,
    worker_command,
    worker_env,
)
from tests.tournaments.helpers import bot_club, small_tournament
from tournaments import selectors as tournament_selectors
from tournaments.models import Tournament, TournamentBatch, TournamentGame

pytestmark = [pytest.mark.integration, pytest.mark.slow, pytest.mark.django_db(transaction=True)]

# The faults, in order; each Redis cut lasts CUT_SECONDS, with UP_SECONDS of service between.
REDIS_CUTS = 10
CUT_SECONDS = 3
UP_SECONDS = 4
KILL_WORKER_AFTER_CUT = 2
POSTGRES_CUT_AFTER_CUT = 4
POSTGRES_CUT_SECONDS = 8
KILL_BEAT_AFTER_CUT = 6
SECOND_TOURNAMENT_DURING_CUT = 8
# After the last fault: everything done, stored and rated within this many seconds.
FINISH_SECONDS = 150
RESTART_SECONDS = 1  # the supervisor's wait before it starts an exited process again

# 4 entrants at tables of 3, one-deal games in batches of 4.
TOURNAMENT = {"games_per_table": 40, "batch_size": 4}
TABLES = 4  # tables where organisers post deals all along
POST_PAUSE = 1.0  # seconds between two writes at a table
DOUBLE_TAP_EVERY = 5  # every fifth deal is sent twice with the same Idempotency-Key
UNDO_EVERY = 7  # every seventh deal is undone and entered again
DEALS_PER_GAME = 100  # the tables' games are fixed-rounds of 100 deals: none ends here

SERVICE_ENV = {
    # The periodic runs every one to three seconds (the tournaments' reconciler every second:
    # worker_settings), so the test is short.
    "RATINGS_RECONCILE_SECONDS": "2",
    "LADDER_TICK_SECONDS": "3",
    "LADDER_REFERENCES": "random,greedy,heuristic",
    "LADDER_VALIDATION_OPPONENTS": "random,greedy,heuristic",
    "LADDER_DEALS_PER_GAME": "2",
    "LADDER_GAMES_IN_FLIGHT": "4",
    # A few batches in the queue at a time, the next sent as each finishes: the ladder's
    # ticks (each expires when the next is due) and games get their turns on the one worker.
    "TOURNAMENT_QUEUED_BATCHES": "4",
    # As in production: a message a killed worker held comes back after an hour only, and
    # TOURNAMENT_QUEUED_SECONDS and LADDER_GAME_RESEND_SECONDS keep their production values:
    # what a fault takes out of the queue, the reconcilers must find by themselves.
    "TOURNAMENT_TEST_VISIBILITY_TIMEOUT": "3600",
}


class Supervised:
    """A service's process kept running as systemd's ``Restart=always`` keeps it: whenever it
    exits, for any reason, it is started again RESTART_SECONDS later. Each start logs to its
    own file; ``kill()`` SIGKILLs every process of the service (its process group)."""

    def __init__(self, name: str, command: list[str], env: dict, log_dir: Path):
        self.name, self.command, self.env, self.log_dir = name, command, env, log_dir
        self.logs: list[Path] = []
        self.exits: list[int] = []
        self.process = self._start()
        self._stopping = threading.Event()
        self._watcher = threading.Thread(target=self._watch, name=f"supervise {name}",
                                         daemon=True)
        self._watcher.start()

    @property
    def restarts(self) -> int:
        return len(self.logs) - 1

    def _start(self) -> subprocess.Popen:
        log_path = self.log_dir / f"{self.name}-{len(self.logs)}.log"
        self.logs.append(log_path)
        with log_path.open("wb") as log:
            return subprocess.Popen(self.command, cwd=PROJECT_DIR, env=self.env, stdout=log,
                                    stderr=subprocess.STDOUT, start_new_session=True)

    def _watch(self) -> None:
        while not self._stopping.wait(0.2):
            code = self.process.poll()
            if code is None:
                continue
            self.exits.append(code)
            if self._stopping.wait(RESTART_SECONDS):
                return
            self.process = self._start()

    def kill(self) -> None:
        try:
            os.killpg(self.process.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass  # it had just exited by itself

    def stop(self) -> None:
        self._stopping.set()
        self._watcher.join()
        stop(self.process)
        try:
            os.killpg(self.process.pid, signal.SIGKILL)  # anything it left behind
        except ProcessLookupError:
            pass

    def log(self, tail: int = 4000) -> str:
        return "".join(f"--- {path.name}\n{path.read_text(errors='replace')[-tail:]}\n"
                       for path in self.logs)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_for(condition, seconds: float, why: str, explain) -> float:
    """Poll ``condition`` until it holds and return when it did (time.monotonic()); fail
    with ``why`` and what ``explain()`` says after ``seconds``."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if condition():
            return time.monotonic()
        time.sleep(0.2)
    pytest.fail(f"{why} after {seconds} s\n{explain()}")


class Table:
    """An organiser entering the deals of one game through the API, as a phone does: each
    write is retried with its Idempotency-Key until it is answered (a 503 during the database
    cut, a connection refused); every DOUBLE_TAP_EVERY-th deal is sent twice, every
    UNDO_EVERY-th undone and entered again. It stops at ``most`` deals (its game does not
    end) or when ``stopped`` is set; ``undo_last`` undoes its last deal. ``kept`` is what the
    organiser was told is recorded: (number, finishing order) of each deal."""

    def __init__(self, base: str, token: str, game: Game, stopped: threading.Event, *,
                 most: int, seed: int):
        self.base, self.game, self.stopped, self.most = base, game.pk, stopped, most
        self.players = list(game.seats.order_by("number").values_list("player_id", flat=True))
        self.rng = random.Random(seed)
        self.session = requests.Session()
        self.session.headers["Authorization"] = f"Token {token}"
        self.kept: list[tuple[int, list[int]]] = []
        self.last: dict | None = None  # the last deal recorded, as the API answered it
        self.writes = 0
        self.retries = Counter()  # by cause
        self.double_taps = 0
        self.undos = 0
        self.problems: list[str] = []
        self.thread = threading.Thread(target=self._run, name=f"table {game.pk}", daemon=True)

    def _send(self, method: str, path: str, body=None, key=None):
        """One write, retried until answered (or 60 s): the final response, and whether it
        was retried."""
        headers = {"Idempotency-Key": key} if key else {}
        deadline = time.monotonic() + 60
        retried = False
        while time.monotonic() < deadline:
            try:
                answer = self.session.request(method, self.base + path, json=body,
                                              headers=headers, timeout=(3, 30))
            except requests.RequestException as e:
                self.retries[type(e).__name__] += 1
            else:
                if answer.status_code < 500:
                    return answer, retried
                self.retries[answer.status_code] += 1
                if answer.status_code != 503:
                    self.problems.append(f"{method} {path}: {answer.status_code} "
                                         f"{answer.text[:300]}")
            retried = True
            time.sleep(0.5)
        self.problems.append(f"{method} {path}: not answered in 60 s")
        return None, retried

    def _record(self) -> dict | None:
        self.writes += 1
        number = len(self.kept) + 1
        order = self.rng.sample(self.players, len(self.players))
        body = {"game": self.game, "number": number, "finishing_order": order}
        key = f"game-{self.game}-write-{self.writes}"
        answer, _ = self._send("POST", "/api/v1/deals/", body, key)
        if answer is None:
            return None
        if answer.status_code != 201:
            self.problems.append(f"deal {number}: {answer.status_code} {answer.text[:300]}")
            return None
        deal = self.last = answer.json()
        self.kept.append((number, order))
        if deal["number"] != number:
            self.problems.append(f"deal {number} recorded as number {deal['number']}")
        if number % DOUBLE_TAP_EVERY == 0:
            self.double_taps += 1
            again, _ = self._send("POST", "/api/v1/deals/", body, key)
            if again is None or again.status_code != 201 or again.json() != deal or \
                    again.headers.get("Idempotent-Replayed") != "true":
                self.problems.append(f"deal {number} sent again: "
                                     f"{again and (again.status_code, again.text[:300])}")
        return deal

    def _undo(self, deal: dict) -> None:
        self.writes += 1
        self.undos += 1
        answer, retried = self._send("DELETE", f"/api/v1/deals/{deal['id']}/")
        if answer is None:
            return
        # A 404 after a retry: an earlier attempt deleted it, and its answer was lost.
        if not (answer.status_code == 204 or answer.status_code == 404 and retried):
            self.problems.append(f"undo of deal {deal['number']}: {answer.status_code} "
                                 f"{answer.text[:300]}")
            return
        self.kept.pop()

    def _run(self) -> None:
        while len(self.kept) < self.most and not self.stopped.is_set():
            deal = self._record()
            if deal and deal["number"] % UNDO_EVERY == 0:
                self._undo(deal)
                self._record()
            self.stopped.wait(POST_PAUSE)

    def undo_last(self) -> None:
        if self.last is not None and self.kept and self.kept[-1][0] == self.last["number"]:
            self._undo(self.last)

    def stored(self) -> list[tuple[int, list[int]]]:
        orders = defaultdict(list)
        for number, player in (Place.objects.filter(deal__game_id=self.game)
                               .order_by("deal__number", "position")
                               .values_list("deal__number", "player_id")):
            orders[number].append(player)
        return sorted(orders.items())


def league_ratings_replayed(season_id: int | None) -> dict[int, tuple[float, float, int]]:
    """Each player's rating in a season (or all-time) replayed from scratch from the deals
    stored, in the order they were recorded."""
    places = Place.objects.order_by("deal_id", "position")
    if season_id is not None:
        places = places.filter(deal__game__season_id=season_id)
    orders = defaultdict(list)
    for deal_id, player in places.values_list("deal_id", "player_id"):
        orders[deal_id].append(player)
    return replay(sorted(orders.items()), {})[1]


def ladder_ratings_replayed() -> dict[int, tuple[float, float, int]]:
    """Each ladder entry's rating replayed from scratch from its rated games as stored (each
    deal's finishing order from the positions of its bot game's seats), in the order they
    were stored."""
    deals = []
    rated = LadderGame.objects.filter(kind=LadderGame.RATED, status=LadderGame.DONE)
    for game in rated.order_by("stored_at", "pk").prefetch_related("seats__bot_seat"):
        seats = list(game.seats.all())
        for i in range(game.deals):
            deals.append((game.pk, [s.entry_id for s in sorted(seats,
                                                               key=lambda s: s.positions[i])]))
    return replay(deals, {})[1]


def batches(cup: Tournament) -> str:
    """A tournament's progress and its open batches by state, for a failure's message."""
    progress = tournament_selectors.tournament_progress(tournament=cup)
    open_batches = TournamentBatch.objects.filter(tournament=cup, done_at=None)
    return (f"{progress.done}/{progress.total} games, {progress.status}, open batches: "
            f"{open_batches.filter(sent_at=None).count()} not sent, "
            f"{open_batches.filter(sent_at__isnull=False, beat_at=None).count()} sent and "
            f"never taken, {open_batches.filter(beat_at__isnull=False).count()} taken")


def reconciled(worker_log: str) -> dict[str, int]:
    """The batches the tournaments' reconciler sent again, as its runs logged them: taken and
    silent ("stalled"), or sent and never taken ("lost")."""
    return {kind: sum(int(n) for n in re.findall(rf"'{kind}': (\d+)", worker_log))
            for kind in ("stalled", "lost")}


def rating_differences(kept: dict, replayed: dict, scope: str) -> list[str]:
    """How ratings kept ({id: (mu, sigma, deals)}) differ from a replay's, in words."""
    differences = [f"{scope}: {pk} rated, but in no deal there"
                   for pk in kept.keys() - replayed.keys()]
    differences += [f"{scope}: {pk} not rated" for pk in replayed.keys() - kept.keys()]
    for pk in kept.keys() & replayed.keys():
        (mu, sigma, deals), (mu_r, sigma_r, deals_r) = kept[pk], replayed[pk]
        if deals != deals_r or not (math.isclose(mu, mu_r, rel_tol=1e-9)
                                    and math.isclose(sigma, sigma_r, rel_tol=1e-9)):
            differences.append(f"{scope}: {pk} has mu {mu:.4f}, sigma {sigma:.4f} after "
                               f"{deals} deals; a replay mu {mu_r:.4f}, sigma {sigma_r:.4f} "
                               f"after {deals_r}")
    return differences


def test_the_service_recovers_by_itself_from_redis_and_postgresql_cuts_and_killed_processes(
        tmp_path, settings, tournament_queue, redis_proxy, postgres_proxy):  # noqa: F811
    queue = tournament_queue
    bot_servers = [BotServer(), BotServer()]
    allowed = [s.allowed for s in bot_servers]
    settings.OUTSIDE_BOT_ALLOWED_HOSTS = allowed
    broker = redis_proxy.url("redis://127.0.0.1:{port}") + urlsplit(TEST_REDIS_URL).path
    port = free_port()
    env = worker_env(queue, {
        **SERVICE_ENV, "CELERY_BROKER_URL": broker, "CELERY_RESULT_BACKEND": broker,
        "DATABASE_URL": database_url(port=postgres_proxy.port) + "?conn_max_age=60",
        "OUTSIDE_BOT_ALLOWED_HOSTS": ",".join(allowed), "ALLOWED_HOSTS": "127.0.0.1"})
    node = f"{queue}@localhost"
    client = client_app(queue)
    services = {}
    posting = threading.Event()  # set: the tables make their last write

    def logs():
        return "\n".join(f"===== {s.name} (restarts {s.restarts}, exits {s.exits})\n"
                         f"{s.log(tail=1500 if s.name == 'web' else 5000)}"
                         for s in services.values())

    try:
        # The league: an organiser of a club with TABLES games of four, and one more table
        # whose only deal is undone; the bot club of the tournaments.
        organiser = UserFactory(username="organiser", is_staff=False)
        token = Token.objects.create(user=organiser).key
        season = make_season(scoring_system="fixed-rounds", scoring_deals=DEALS_PER_GAME)
        season.club.organisers.add(organiser)
        bot_club().organisers.add(organiser)
        games = [league.game_create(
            season=season, players=[PlayerFactory(clubs=[season.club]) for _ in range(4)])
            for _ in range(TABLES + 1)]
        base = f"http://127.0.0.1:{port}"
        # The last table enters one deal and undoes it: its players are rated nowhere.
        tables = [Table(base, token, g, posting, most=1 if i == TABLES else DEALS_PER_GAME - 1,
                        seed=i)
                  for i, g in enumerate(games)]
        first_cup = small_tournament("First cup", seed=26, **TOURNAMENT)
        second_cup = small_tournament("Second cup", seed=27, **TOURNAMENT)
        # The ladder: two authors' bots, brought in by beat's tick.
        author = UserFactory(username="ada", is_staff=False)
        for i, server in enumerate(bot_servers):
            bot = outside_bots.outside_bot_create(name=f"ada-{i}", url=server.url, owner=author)
            server.secrets.append(bot.secret)  # its author's server: it answers the challenge

        services["worker"] = Supervised("worker", worker_command(queue, node), env, tmp_path)
        services["beat"] = Supervised("beat", beat_command(tmp_path / "beat.pid"), env,
                                      tmp_path)
        services["web"] = Supervised("web", [
            sys.executable, "-m", "gunicorn", "config.wsgi", "--bind", f"127.0.0.1:{port}",
            "--workers", "2", "--access-logfile", "-"], env, tmp_path)
        worker, scheduler = services["worker"], services["beat"]

        def web_up():
            try:
                return requests.get(f"{base}/healthz", timeout=2).status_code == 200
            except requests.RequestException:
                return False

        wait_for(web_up, 60, "gunicorn not serving", logs)
        wait_for(lambda: client.control.ping(destination=[node], timeout=0.5), 60,
                 "worker not ready", logs)
        organiser_api = requests.Session()
        organiser_api.headers["Authorization"] = f"Token {token}"

        def start(cup):
            answer = organiser_api.post(f"{base}/api/v1/tournaments/{cup.pk}/start/",
                                        timeout=30)
            assert answer.status_code == 200, answer.text

        began = time.monotonic()
        start(first_cup)
        for table in tables:
            table.thread.start()
        wait_for(lambda: LadderGame.objects.filter(kind=LadderGame.RATED,
                                                   status=LadderGame.DONE).exists(),
                 60, "no rated ladder game played", logs)

        def taken():
            return TournamentBatch.objects.filter(done_at=None, beat_at__isnull=False).exists()

        faults = []
        finished_at = {}  # tournament name: its finish, in seconds after the last fault

        def figures():
            retries = sum((t.retries for t in tables), Counter())
            ladder_games = LadderGame.objects.filter(kind=LadderGame.RATED,
                                                     status=LadderGame.DONE).count()
            return (f"{'; '.join(faults)}; restarts by the supervisor: worker "
                    f"{worker.restarts} (exit codes {worker.exits}), beat {scheduler.restarts} "
                    f"(exit codes {scheduler.exits}); deals: {sum(t.writes for t in tables)} "
                    f"writes at {len(tables)} tables ({sum(t.double_taps for t in tables)} "
                    f"sent twice, {sum(t.undos for t in tables)} undone, retries "
                    f"{dict(retries)}), {sum(len(t.kept) for t in tables)} told recorded, "
                    f"{Deal.objects.filter(game__season=season).count()} stored; tournaments: "
                    f"{batches(first_cup)}; {batches(second_cup)}; finished after the last "
                    f"fault: {', '.join(f'{k} {v:.0f} s' for k, v in finished_at.items())}; "
                    f"{ladder_games} rated ladder games; the tournaments' reconciler sent again "
                    f"{reconciled(worker.log(tail=10**9))} batches")

        for cut in range(1, REDIS_CUTS + 1):
            redis_proxy.cut()
            faults.append(f"Redis cut {cut} at {time.monotonic() - began:.0f} s")
            if cut == SECOND_TOURNAMENT_DURING_CUT:
                start(second_cup)  # the web process cannot send its batches
            time.sleep(CUT_SECONDS)
            redis_proxy.restore()
            time.sleep(UP_SECONDS)
            if cut == KILL_WORKER_AFTER_CUT:
                # While it plays a batch, if it gets to one within 15 s.
                deadline = time.monotonic() + 15
                while not taken() and time.monotonic() < deadline:
                    time.sleep(0.05)
                worker.kill()
                faults.append(f"worker SIGKILLed at {time.monotonic() - began:.0f} s")
            if cut == POSTGRES_CUT_AFTER_CUT:
                postgres_proxy.cut()
                faults.append(f"PostgreSQL cut at {time.monotonic() - began:.0f} s")
                time.sleep(POSTGRES_CUT_SECONDS)
                postgres_proxy.restore()
            if cut == KILL_BEAT_AFTER_CUT:
                scheduler.kill()
                faults.append(f"beat SIGKILLed at {time.monotonic() - began:.0f} s")
        last_fault, last_fault_at = time.monotonic(), timezone.now()
        posting.set()
        ladder_before = set(LadderGame.objects.values_list("pk", flat=True))

        # Afterwards, with nobody acting: the tables' last writes land, both tournaments
        # finish, every rating is brought up to date and every ladder game sent is stored.
        for table in tables:
            table.thread.join(timeout=FINISH_SECONDS)

        def settled():
            for cup in (first_cup, second_cup):
                cup.refresh_from_db()
                if cup.status == Tournament.FINISHED:
                    finished_at[cup.name] = (cup.finished_at - last_fault_at).total_seconds()
            return (len(finished_at) == 2 and not any(t.thread.is_alive() for t in tables)
                    and not RatingJob.stale_scopes()
                    and not LadderGame.objects.filter(pk__in=ladder_before,
                                                      status__in=OPEN_LADDER).exists())

        def stuck():
            cups = "; ".join(f"{cup.name}: {batches(cup)}" for cup in (first_cup, second_cup))
            stale = sorted(RatingJob.stale_scopes())
            ladder = list(LadderGame.objects.filter(pk__in=ladder_before, status__in=OPEN_LADDER)
                          .values_list("pk", "status", "sent_at", "attempts"))
            return (f"{cups}\nstale ratings {stale}\nopen ladder games {ladder}\n"
                    f"{figures()}\n{logs()}")

        settled_at = wait_for(settled, FINISH_SECONDS,
                              "not finished, stored and rated", stuck) - last_fault
        # Then each table's last deal is undone, with no other deal to rate: no rating may
        # keep an undone deal.
        for table in tables:
            table.undo_last()
        wait_for(lambda: not RatingJob.stale_scopes(), 60,
                 "ratings not brought up to date after the undos", stuck)
        # The worker is alive, restarted by its supervisor if it died, and answers.
        wait_for(lambda: worker.process.poll() is None and client.control.ping(
            destination=[node], timeout=0.5), 30, "the worker does not answer", logs)
        # Quiet, for the checks: no new ladder game, no game half stored while they read.
        for name in ("beat", "worker"):
            services.pop(name).stop()
    finally:
        posting.set()
        for service in services.values():
            service.stop()
        client.close()
        for server in bot_servers:
            server.close()

    print(f"\nfault injection: {figures()}; all stored and rated {settled_at:.0f} s after "
          "the last fault")
    # Deals: each stored once, as the organiser was told it was recorded; no answer 500.
    problems = [p for t in tables for p in t.problems]
    assert not problems, problems
    for table in tables:
        assert table.stored() == table.kept, f"game {table.game}"
    assert Deal.objects.filter(game__season=season).count() == sum(len(t.kept) for t in tables)
    assert IdempotentRequest.objects.filter(user=organiser).count() == \
        sum(t.writes - t.undos for t in tables)
    # Both tournaments finished by themselves, every game stored once.
    for cup in (first_cup, second_cup):
        keys = list(TournamentGame.objects.filter(tournament=cup)
                    .values_list("round", "table", "number"))
        assert len(keys) == len(set(keys)) == cup.total_games
        assert Game.objects.filter(season=cup.season).count() == cup.total_games
    # The supervisor restarted each killed process (and any that died by itself).
    assert worker.restarts >= 1 and scheduler.restarts >= 1
    assert "Connection to broker lost" in worker.log(tail=10**9)
    # Ratings: every league rating, each season's and all-time, and every ladder rating
    # equals a replay from scratch of what is stored.
    differences = []
    for scope in [None, *Season.objects.values_list("pk", flat=True)]:
        kept = {r.player_id: (r.mu, r.sigma, r.deals)
                for r in Rating.objects.filter(season_id=scope)}
        differences += rating_differences(kept, league_ratings_replayed(scope),
                                          f"season {scope}" if scope else "all-time")
    entries = {e.pk: (e.mu, e.sigma, e.deals) for e in Entry.objects.exclude(
        deals=0, mu=MODEL.mu, sigma=MODEL.sigma)}
    differences += rating_differences(entries, ladder_ratings_replayed(), "ladder")
    assert not differences, "ratings unlike a replay from scratch:\n" + "\n".join(differences)
    points = list(RatingPoint.objects.values_list("entry_id", "game_id"))
    assert len(points) == len(set(points))
    assert not LadderGame.objects.filter(status=LadderGame.FAILED).exists()
