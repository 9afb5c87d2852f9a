import socket

import pytest
from django.db import OperationalError, connection
from django.test import override_settings

from tests.conftest import TEST_REDIS_URL
from tests.foundation.test_outages import through_proxy


@pytest.fixture
def closed_port():
    """A local port that is bound but not listening, so connecting to it is refused."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        yield sock.getsockname()[1]


def broker_settings(url):
    return override_settings(CELERY_TASK_ALWAYS_EAGER=False, CELERY_BROKER_URL=url)


@pytest.mark.postgres
@pytest.mark.django_db
def test_healthz_is_ok_with_database_and_eager_tasks(client):
    response = client.get("/healthz")

    assert response.status_code == 200
    assert response.json() == {"database": "ok", "broker": "eager"}


@pytest.mark.django_db
def test_healthz_is_503_when_the_broker_refuses_connections(client, closed_port, caplog):
    with broker_settings(f"redis://127.0.0.1:{closed_port}/0"):
        response = client.get("/healthz")

    assert response.status_code == 503
    # Status only: where the broker is and what the driver said go to the log.
    assert response.json() == {"database": "ok", "broker": "error"}
    assert "refused" in caplog.text


@pytest.mark.django_db
def test_healthz_is_503_when_the_database_fails(client, caplog):
    def database_down(execute, sql, params, many, context):
        raise OperationalError("database is down")

    with connection.execute_wrapper(database_down):
        response = client.get("/healthz")

    assert response.status_code == 503
    assert response.json() == {"database": "error", "broker": "eager"}
    assert "database is down" in caplog.text


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_healthz_names_no_host_port_or_driver_message_when_postgresql_is_cut(
        client, postgres_proxy, caplog):
    if connection.vendor != "postgresql":
        pytest.skip("needs PostgreSQL behind the proxy")
    with through_proxy(postgres_proxy):
        assert client.get("/healthz").status_code == 200
        postgres_proxy.cut()
        connection.close()  # connect afresh, as a new server process does: refused
        response = client.get("/healthz")

    assert response.status_code == 503
    assert response.json() == {"database": "error", "broker": "eager"}
    assert str(postgres_proxy.port) not in response.text
    assert str(postgres_proxy.port) in caplog.text  # the operator's details are in the log


@pytest.mark.integration
@pytest.mark.django_db
def test_healthz_is_ok_with_a_real_redis_broker(client):
    with broker_settings(TEST_REDIS_URL):
        response = client.get("/healthz")

    assert response.status_code == 200
    assert response.json() == {"database": "ok", "broker": "ok"}


def test_healthz_accepts_only_get(client):
    assert client.post("/healthz").status_code == 405
