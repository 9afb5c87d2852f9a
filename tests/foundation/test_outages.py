"""Outages of the Redis cache and of PostgreSQL, made by cutting a real TCP forwarder.

A cache outage degrades to uncached reads (CACHES from CACHE_URL=redis://… ignores the cache's
errors after a short timeout). After a database outage the kept connection is checked before
reuse (CONN_HEALTH_CHECKS), and a request during the outage answers 503 with Retry-After.
"""

from contextlib import contextmanager

import pytest
import redis
from django.core.cache import cache
from django.core.handlers.wsgi import WSGIHandler
from django.db import connection
from django.test import RequestFactory, override_settings
from django.urls import reverse

from league import services
from tests.conftest import TEST_REDIS_URL
from tests.league.factories import make_game, seated_ids

# The cache's own Redis database: clearing the cache empties its database (FLUSHDB), which in
# TEST_REDIS_URL's took the queued tasks of the integration tests' workers running meanwhile.
CACHE_DATABASE = 14


@contextmanager
def through_proxy(proxy, conn_max_age=60):
    """The default database connection goes through ``proxy``, kept between requests for
    ``conn_max_age`` seconds as production keeps it."""
    settings_dict = connection.settings_dict
    saved = {key: settings_dict[key] for key in ("HOST", "PORT", "CONN_MAX_AGE")}
    connection.close()
    settings_dict.update(HOST="127.0.0.1", PORT=str(proxy.port), CONN_MAX_AGE=conn_max_age)
    try:
        yield
    finally:
        connection.close()
        settings_dict.update(saved)


def serve(handler, path):
    """One GET through Django's WSGI handler as gunicorn serves it: request_started and
    request_finished fire, so kept connections are checked and closed as in production (the
    test client turns that off). Returns (status, headers, body)."""
    answer = {}

    def start_response(status, headers, exc_info=None):
        answer.update(status=int(status.split()[0]), headers=dict(headers))

    result = handler(RequestFactory().get(path).environ, start_response)
    try:
        body = b"".join(result)
    finally:
        result.close()
    return answer["status"], answer["headers"], body


@pytest.fixture
def season_with_deals():
    game = make_game(season_kwargs={"scoring_limit": 50})
    a, b, c, d = seated_ids(game)
    services.deal_record(game=game, finishing_order=[a, b, c, d])
    return game


def standings(client, season):
    response = client.get(f"/api/v1/seasons/{season.pk}/standings/")
    assert response.status_code == 200
    return {row["player_id"]: row["points"] for row in response.json()["rows"]}


def season_page(client, season):
    response = client.get(reverse("league:season_detail", args=[season.pk]))
    assert response.status_code == 200
    return response.text


@pytest.mark.integration
@pytest.mark.django_db
def test_a_redis_cache_outage_serves_uncached_pages_and_standings(
        client, redis_proxy, season_with_deals):
    from config.settings.base import cache_settings

    game = season_with_deals
    season = game.season
    a, b, c, d = seated_ids(game)
    store = redis.Redis.from_url(f"{TEST_REDIS_URL.rsplit('/', 1)[0]}/{CACHE_DATABASE}")
    with override_settings(CACHES=cache_settings(redis_proxy.url(
            f"redis://127.0.0.1:{{port}}/{CACHE_DATABASE}"))):
        cache.clear()
        season_page(client, season)
        assert standings(client, season) == {a: 0, b: 1, c: 1, d: 2}
        assert store.dbsize() > 0  # the cache is in use

        redis_proxy.cut()
        services.deal_record(game=game, finishing_order=[b, a, c, d])
        page = season_page(client, season)
        during = standings(client, season)

        redis_proxy.restore()
        cache.clear()
        after = standings(client, season)
        cached_again = store.dbsize()

    assert during == after == {a: 1, b: 1, c: 2, d: 4}
    assert f'href="/league/players/{a}/"' in page
    assert cached_again > 0


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_the_first_requests_after_postgresql_comes_back_succeed(postgres_proxy,
                                                                season_with_deals):
    if connection.vendor != "postgresql":
        pytest.skip("needs PostgreSQL behind the proxy")
    handler = WSGIHandler()
    url = reverse("league:season_detail", args=[season_with_deals.season.pk])
    with through_proxy(postgres_proxy):
        assert serve(handler, url)[0] == 200
        # An outage while no request runs: the kept connection's socket dies with it.
        postgres_proxy.cut()
        postgres_proxy.restore()
        statuses = [serve(handler, url)[0] for _ in range(3)]

    assert statuses == [200, 200, 200]


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_a_request_during_a_postgresql_outage_answers_503_and_service_resumes(
        postgres_proxy, season_with_deals):
    if connection.vendor != "postgresql":
        pytest.skip("needs PostgreSQL behind the proxy")
    handler = WSGIHandler()
    season = season_with_deals.season
    page = reverse("league:season_detail", args=[season.pk])
    api = f"/api/v1/seasons/{season.pk}/standings/"
    with through_proxy(postgres_proxy):
        assert serve(handler, page)[0] == 200
        postgres_proxy.cut()
        during = [serve(handler, url) for url in (page, api)]
        postgres_proxy.restore()
        after = [serve(handler, url)[0] for url in (page, api, page)]

    for status, headers, _ in during:
        assert status == 503
        assert int(headers["Retry-After"]) > 0
    assert after == [200, 200, 200]
