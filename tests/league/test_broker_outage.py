"""Redis (the Celery broker) down while a deal is recorded (issue #16): the deal is stored once
and the request answers at once; the ratings catch up when the broker is back, through the
reconciler celery beat runs, on a real worker. The broker is cut with a TCP proxy, not mocked."""

import os
import time
from urllib.parse import urlsplit, urlunsplit

import pytest
from django.urls import reverse

from league import tasks
from league.models import Deal, Rating, RatingJob
from league.rules import rating_scope
from tests.api.conftest import client_for
from tests.conftest import TEST_REDIS_URL
from tests.league.factories import UserFactory, make_game, seated_ids
from tests.tournaments.conftest import database_url

pytestmark = [pytest.mark.integration, pytest.mark.django_db(transaction=True)]

CATCH_UP_SECONDS = 30


# The worker opens pytest-django's PostgreSQL test database (named as the test runs).
WORKER_ENV = {"DATABASE_URL": database_url}
pytestmark.append(pytest.mark.skipif(
    not os.environ.get("DATABASE_URL", "").startswith("postgres"),
    reason="the worker needs the PostgreSQL test database: run with DATABASE_URL=postgres://… "
           "(make test does)"))


@pytest.fixture
def site_broker(redis_proxy, celery_worker_process):
    """The site's Celery app sends (not eagerly) through the proxy to the worker's queue."""
    from config.celery_app import app

    redis = urlsplit(TEST_REDIS_URL)
    url = urlunsplit(redis._replace(netloc=f"127.0.0.1:{redis_proxy.port}"))
    names = ["broker_url", "result_backend", "task_always_eager", "task_eager_propagates",
             "task_default_queue"]
    saved = {name: app.conf[name] for name in names}

    def reconnect():
        # Connections, and the producers and queues eager calls made for the old settings
        # (as Celery resets them after a fork).
        app.close()
        app.__dict__.pop("amqp", None)

    reconnect()
    app.conf.update(broker_url=url, result_backend=url, task_always_eager=False,
                    task_eager_propagates=False,
                    task_default_queue=celery_worker_process.app.conf.task_default_queue)
    yield redis_proxy
    reconnect()
    app.conf.update(saved)


def stale_scopes():
    return RatingJob.stale_scopes()


@pytest.mark.parametrize("celery_worker_process", [WORKER_ENV], indirect=True)
def test_a_deal_recorded_with_the_broker_down_is_stored_once_and_rated_later(
        site_broker, celery_worker_process, capsys):
    game = make_game(season_kwargs={"scoring_limit": 50})
    organiser = UserFactory()
    game.season.club.organisers.add(organiser)
    order = seated_ids(game)
    site_broker.cut()

    started = time.monotonic()
    api = client_for(organiser, token=True).post(
        "/api/v1/deals/", {"game": game.pk, "number": 1, "finishing_order": order},
        format="json")
    api_seconds = time.monotonic() - started
    page = client_for(organiser).post(
        reverse("league:deal_record", args=[game.pk]),
        {"token": "t-1", "number": 2,
         **{f"place_{i}": p for i, p in enumerate(reversed(order), start=1)}})

    assert api.status_code == 201, api.content
    assert page.status_code == 302
    assert list(Deal.objects.filter(game=game).values_list("number", flat=True)) == [1, 2]
    scopes = {rating_scope(game.season), rating_scope(None)}
    assert stale_scopes() == scopes  # "updating", and nothing on its way to the worker
    with capsys.disabled():
        print(f"\n[broker down] deal recorded through the API in {api_seconds:.2f} s")

    site_broker.restore()
    assert tasks.ratings_reconcile_task() == 2

    deadline = time.monotonic() + CATCH_UP_SECONDS
    while stale_scopes() and time.monotonic() < deadline:
        time.sleep(0.2)
    assert not stale_scopes(), celery_worker_process.log()
    all_time = Rating.objects.filter(season=None)
    assert sorted(all_time.values_list("player_id", "deals")) == sorted((p, 2) for p in order)
