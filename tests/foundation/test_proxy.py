"""The outage fixture itself: a cut really cuts, a restore really restores (tests/proxy.py)."""

import pytest
import redis
from redis.backoff import NoBackoff
from redis.retry import Retry

from tests.proxy import TcpProxy


def client(port, **kwargs):
    """A client that reports the first failure instead of retrying it away."""
    return redis.Redis(port=port, db=15, socket_timeout=2, socket_connect_timeout=1,
                       retry=Retry(NoBackoff(), 0), **kwargs)


def test_a_cut_proxy_refuses_and_drops_and_a_restored_one_forwards_again(redis_proxy):
    connected = client(redis_proxy.port)
    assert connected.ping()

    redis_proxy.cut()
    with pytest.raises(redis.ConnectionError):
        connected.ping()
    with pytest.raises(redis.ConnectionError):
        client(redis_proxy.port).ping()

    redis_proxy.restore()
    assert client(redis_proxy.port).ping()


def test_the_proxy_passes_large_payloads_both_ways(redis_proxy):
    connected = client(redis_proxy.port)
    payload = b"x" * 3_000_000
    connected.set("proxy-test", payload)
    try:
        assert connected.get("proxy-test") == payload
    finally:
        connected.delete("proxy-test")


def test_a_proxy_to_a_closed_port_closes_the_client():
    proxy = TcpProxy("127.0.0.1", 1)
    try:
        with pytest.raises(redis.ConnectionError):
            client(proxy.port).ping()
    finally:
        proxy.stop()
