"""Real Celery worker processes on Redis and the PostgreSQL test database (issue #6).

The workers open pytest-django's test database (its name comes from the connection inside a
transactional test), so they see the rows this test commits and the test sees theirs.
"""

import os
import signal
import time

import pytest

from league.models import Game
from outside_bots import services as outside_bots
from tests.bots.test_outside import Server as BotServer
from tests.tournaments.helpers import small_tournament
from tournaments import selectors, services
from tournaments.models import Tournament, TournamentGame

pytestmark = [pytest.mark.integration, pytest.mark.django_db(transaction=True)]

START_TASK = "gameplay.tasks.tournament_start_task"
FINISH_SECONDS = 60


def wait_until(tournament, condition, worker, seconds=FINISH_SECONDS):
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        progress = selectors.tournament_progress(tournament=tournament)
        if condition(progress):
            return progress
        time.sleep(0.02)
    pytest.fail(f"tournament stuck at {progress}; worker log:\n{worker.log()}")


def finished(progress):
    return progress.status == Tournament.FINISHED


# 4 tables of 3 from 4 entrants, 10 one-deal games each, 2 games per task.
TOURNAMENT = {"games_per_table": 10, "batch_size": 2, "seed": 11}


def uninterrupted_run(name, tournament_settings):
    """The same tournament played here, in one process, with no worker at all."""
    tournament = small_tournament(name, **tournament_settings)
    services.tournament_start(tournament=tournament)  # no broker: runs at once, after commit
    assert selectors.tournament_progress(tournament=tournament).status == Tournament.FINISHED
    return tournament


def assert_same_as_uninterrupted(tournament, tournament_settings=TOURNAMENT, games=40,
                                 reference=None):
    """Every game stored exactly once, with the results and standings of an undisturbed run
    (``reference``, or one played now)."""
    reference = reference or uninterrupted_run("Reference", tournament_settings)
    keys = list(TournamentGame.objects.filter(tournament=tournament)
                .values_list("round", "table", "number"))
    assert len(keys) == len(set(keys)) == tournament.total_games == games
    assert Game.objects.filter(season=tournament.season).count() == games
    assert selectors.tournament_results(tournament=tournament) == \
        selectors.tournament_results(tournament=reference)
    assert selectors.tournament_standings(tournament=tournament) == \
        selectors.tournament_standings(tournament=reference)


def test_a_worker_plays_a_tournament_to_the_end(workers):
    worker = workers()
    tournament = small_tournament("Worker cup", **TOURNAMENT)

    worker.app.send_task(START_TASK, args=[tournament.pk])
    wait_until(tournament, finished, worker)

    assert "tournament_play_batch_task" in worker.log()
    assert_same_as_uninterrupted(tournament)


def test_a_tournament_survives_a_killed_worker(workers):
    first = workers()
    tournament = small_tournament("Crash cup", **TOURNAMENT)

    first.app.send_task(START_TASK, args=[tournament.pk])
    wait_until(tournament, lambda p: p.done >= 5, first)
    os.kill(first.process.pid, signal.SIGKILL)
    first.process.wait()
    done_at_kill = selectors.tournament_progress(tournament=tournament).done
    assert 5 <= done_at_kill < 40, "the worker must die in the middle of the tournament"

    second = workers()
    wait_until(tournament, finished, second)

    assert_same_as_uninterrupted(tournament)


@pytest.fixture
def slow_bots(settings):
    """Three outside bots on one server that takes half a second a decision: a one-deal game
    of three of them lasts several seconds, longer than the workers' stall time (5 s)."""
    server = BotServer()
    server.mode = "slow"
    settings.OUTSIDE_BOT_ALLOWED_HOSTS = [server.allowed]
    for name in ("slow-a", "slow-b", "slow-c"):
        bot = outside_bots.outside_bot_create(name=name, url=f"{server.url}?{name}")  # a URL each
        server.secrets.append(bot.secret)
    yield server
    server.close()


def test_a_slow_game_is_not_stalled_and_a_killed_workers_batch_is_stalled_at_once(
        workers, slow_bots, settings):
    """Issue #26: a batch's heartbeat came only after each game, so a game longer than
    TOURNAMENT_STALL_SECONDS showed as stalled (and was sent again) while its worker lived,
    and a killed worker's tournament showed a tiny ETA. Now the worker beats while it plays."""
    settings.TOURNAMENT_STALL_SECONDS = 5  # as the workers' (worker_settings)
    worker = workers(OUTSIDE_BOT_ALLOWED_HOSTS=slow_bots.allowed)
    tournament = small_tournament(
        "Slow cup", entrants=[("A", "outside:slow-a"), ("B", "outside:slow-b"),
                              ("C", "outside:slow-c")], games_per_table=3, batch_size=3)
    worker.app.send_task(START_TASK, args=[tournament.pk])
    wait_until(tournament, lambda p: tournament.batches.exclude(beat_at=None).exists(), worker)

    # The first game: longer than the stall time, and never stalled.
    taken = time.monotonic()
    while time.monotonic() - taken < settings.TOURNAMENT_STALL_SECONDS + 2:
        progress = selectors.tournament_progress(tournament=tournament)
        assert progress.done == 0, "a game was quicker than the stall time"
        assert not progress.stalled, worker.log()
        time.sleep(0.2)

    os.kill(worker.process.pid, signal.SIGKILL)
    worker.process.wait()
    progress = wait_until(tournament, lambda p: p.stalled, worker,
                          seconds=settings.TOURNAMENT_STALL_SECONDS + 10)
    assert progress.eta_seconds is None and progress.status == Tournament.RUNNING
