"""Starting a tournament while Redis is cut off (issue #16): the app sends its tasks through a
TCP proxy to the test Redis, and the proxy is cut like a network link."""

import uuid
from urllib.parse import urlsplit

import pytest
import redis

from config.celery_app import app
from tests.api.conftest import client_for
from tests.conftest import TEST_REDIS_URL
from tests.league.factories import UserFactory
from tests.tournaments.helpers import small_tournament
from tournaments import services
from tournaments.models import Tournament, TournamentBatch

pytestmark = [pytest.mark.integration, pytest.mark.django_db(transaction=True)]


def _fresh_connections():
    """Drop the app's connection pools (made on first use), so that the next send connects to
    the broker_url set now; as Celery does in a forked process (app.close() would unregister
    the app instead)."""
    app._pool = None
    app.amqp._producer_pool = None


@pytest.fixture
def queue(redis_proxy, settings):
    """This process's Celery app sends through ``redis_proxy`` to a queue of its own."""
    name = f"test-start-{uuid.uuid4().hex[:12]}"
    db = urlsplit(TEST_REDIS_URL).path
    # Read before the settings change: the app reads Django's settings when first asked.
    saved = {key: app.conf[key] for key in ("broker_url", "task_always_eager",
                                            "task_default_queue")}
    settings.CELERY_TASK_ALWAYS_EAGER = False
    _fresh_connections()
    app.conf.update(broker_url=redis_proxy.url("redis://127.0.0.1:{port}") + db,
                    task_always_eager=False, task_default_queue=name)
    yield name
    _fresh_connections()
    app.conf.update(saved)
    direct = redis.Redis.from_url(TEST_REDIS_URL)
    direct.delete(name, f"_kombu.binding.{name}")
    direct.close()


def test_a_start_while_redis_is_down_answers_and_its_games_are_sent_when_it_is_back(
        queue, redis_proxy):
    tournament = small_tournament(batch_size=3)  # 16 games: 6 batches
    organiser = UserFactory(username="cup-organiser")
    tournament.club.organisers.add(organiser)

    redis_proxy.cut()
    answer = client_for(organiser, token=True).post(
        f"/api/v1/tournaments/{tournament.pk}/start/")

    assert answer.status_code == 200, answer.content
    assert answer.json()["status"] == Tournament.RUNNING
    batches = TournamentBatch.objects.filter(tournament=tournament)
    assert batches.count() == 6 and not batches.exclude(sent_at=None).exists()

    redis_proxy.restore()
    assert services.tournaments_reconcile()["sent"] == 6  # what celery beat runs

    assert not batches.filter(sent_at=None).exists()
    direct = redis.Redis.from_url(TEST_REDIS_URL)
    assert direct.llen(queue) == 6
    direct.close()


def test_a_batch_whose_message_vanished_from_the_queue_is_sent_again_after_the_grace_time(
        queue, settings):
    """Issue #26: a batch sent whose message Redis lost waited TOURNAMENT_QUEUED_SECONDS (an
    hour); one still waiting in the queue must not be sent twice."""
    settings.TASK_SENT_GRACE_SECONDS = 0
    tournament = small_tournament(batch_size=3)  # 16 games: 6 batches
    services.tournament_start(tournament=tournament)  # sent after commit, no worker takes them
    direct = redis.Redis.from_url(TEST_REDIS_URL)
    assert direct.llen(queue) == 6

    assert services.tournaments_reconcile() == {"stalled": 0, "lost": 0, "sent": 0}
    assert direct.llen(queue) == 6

    direct.delete(queue)  # Redis lost its data
    assert services.tournaments_reconcile() == {"stalled": 0, "lost": 6, "sent": 6}
    assert direct.llen(queue) == 6
    direct.close()
