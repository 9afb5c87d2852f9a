"""Real Celery worker processes on Redis and the PostgreSQL test database (issue #6).

The workers open pytest-django's test database (its name comes from the connection inside a
transactional test), so they see the rows this test commits and the test sees theirs.
"""

import os
import signal
import time

import pytest

from gameplay.tournaments import selectors, services
from gameplay.tournaments.models import Tournament, TournamentGame
from league.models import Game
from tests.tournaments.helpers import small_tournament

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
