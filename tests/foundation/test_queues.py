"""Club work does not wait behind the ladder (issue #26): a rating recompute took 68 s instead of
0.04 s while slow ladder games held the one queue every task shared. With the ladder's games
routed to their own queue (CELERY_TASK_ROUTES) and a worker for each queue, a recompute sent by
beat's reconciler is done while a slow ladder game is still being played.

A real beat, a worker of the default queue and one of the ladder's queue, an outside bot server
that takes half a second a decision, on Redis and the PostgreSQL test database."""

import time

import pytest

from ladder.models import Game
from league.models import RatingJob
from league.rules import rating_scope
from outside_bots import services as outside_bots
from tests.bots.test_outside import Server as BotServer
from tests.league.factories import UserFactory
from tests.tournaments.conftest import beat, tournament_queue, workers  # noqa: F401

pytestmark = [pytest.mark.integration, pytest.mark.django_db(transaction=True)]

SECONDS = 90


def wait_for(condition, what, *logs):
    deadline = time.monotonic() + SECONDS
    while time.monotonic() < deadline:
        found = condition()
        if found:
            return found
        time.sleep(0.1)
    pytest.fail(f"no {what} within {SECONDS} s\n" + "\n".join(log()[-3000:] for log in logs))


@pytest.fixture
def slow_bot_server():
    server = BotServer()
    server.mode = "slow"
    yield server
    server.close()


def test_a_rating_recompute_runs_while_slow_ladder_games_fill_the_ladder_queue(
        workers, beat, tournament_queue, slow_bot_server, settings):  # noqa: F811
    ladder_queue = f"{tournament_queue}-ladder"
    settings.OUTSIDE_BOT_ALLOWED_HOSTS = [slow_bot_server.allowed]
    env = {"CELERY_LADDER_QUEUE": ladder_queue,
           "OUTSIDE_BOT_ALLOWED_HOSTS": slow_bot_server.allowed, "LADDER_TICK_SECONDS": "1",
           "LADDER_REFERENCES": "random,greedy,heuristic", "LADDER_DEALS_PER_GAME": "6",
           "RATINGS_RECONCILE_SECONDS": "1"}
    author = UserFactory(username="ada", is_staff=False)
    slow_bot_server.secrets.append(outside_bots.outside_bot_create(
        name="ada-slow", url=slow_bot_server.url, owner=author).secret)
    club_worker = workers(**env)
    ladder_worker = workers(queues=ladder_queue, **env)
    scheduler = beat(**env)
    logs = (club_worker.log, ladder_worker.log, scheduler.log)

    # The bot's validation game: a ladder game of six slow deals, on the ladder's worker.
    playing = wait_for(lambda: list(Game.objects.filter(status=Game.RUNNING)),
                       "ladder game running", *logs)
    RatingJob.objects.create(scope=rating_scope(None), dirty_from=0)  # a deal was recorded

    wait_for(lambda: RatingJob.objects.filter(dirty_from=None, runs=1).exists(),
             "recompute", *logs)
    assert Game.objects.filter(pk__in=[g.pk for g in playing], status=Game.RUNNING).count() == \
        len(playing), "the recompute waited for the ladder game"
    assert "ratings_recompute_task[" in club_worker.log()
    assert "ladder_game_task[ladder-game-" in ladder_worker.log()
    assert "ladder_game_task[" not in club_worker.log()
