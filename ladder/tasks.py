"""Celery tasks of the ladder: thin, take ids, call ``ladder.services``.

``ladder_game_task`` is idempotent by its game row (a stored game is never stored again), so
the broker may deliver it twice: acknowledged late, run again if its worker dies, retried
with backoff on transient database or broker errors, and bounded by the tasks' time limits
(CELERY_TASK_SOFT_TIME_LIMIT: the game is given back and sent again, at most
LADDER_GAME_ATTEMPTS times). Any other exception is a bug in our own code: that one game fails
at once with its reason (services.game_crashed), so its seats are free for the next tick.
"""

from celery import shared_task
from celery.exceptions import SoftTimeLimitExceeded

from ladder import services
from plumbing import queue
from tournaments.tasks import TASK_OPTIONS, TRANSIENT


def _game_beat(game_id: int) -> None:
    services.game_beat(game_id=game_id)


# A game's heartbeat goes on while its slowest bots think, so a game whose worker died is sent
# again within LADDER_GAME_STALL_SECONDS.
queue.heartbeat(services.GAME_TASK, _game_beat)


@shared_task(name=services.GAME_TASK, **TASK_OPTIONS)
def ladder_game_task(game_id: int) -> bool:
    """Play and store one ladder game; a second delivery finds it stored and does nothing."""
    try:
        return services.game_run(game_id=game_id)
    except SoftTimeLimitExceeded:
        services.game_release(game_id=game_id)
        return False
    except TRANSIENT:
        raise  # retried with backoff (TASK_OPTIONS)
    except Exception as error:  # noqa: BLE001 - one game's bug must not hold its seats
        services.game_crashed(game_id=game_id, error=error)
        return False


@shared_task(ignore_result=True)
def ladder_tick_task() -> dict:
    """Celery beat's periodic run of services.ladder_tick (LADDER_TICK_SECONDS); a run that
    fails is the next run's work, so it is not retried."""
    return services.ladder_tick()
