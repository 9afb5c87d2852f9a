"""A validation's challenge answered with a broken HTTP status line: the refusal names it, and
the bytes the bot sent (a NUL among them, which PostgreSQL stores in no text column) are kept
escaped, so its entry is paused with the reason, not left validating by a storage error. Run
on PostgreSQL to see the NUL refused (DATABASE_URL, README)."""

import socket
import threading

import pytest

from ladder import services
from ladder.models import Entry, Game
from outside_bots import services as outside_bots
from tests.ladder.test_services import commit, entry_of  # noqa: F401

pytestmark = pytest.mark.django_db


@pytest.fixture
def broken_server(settings):
    """An HTTP server on 127.0.0.1 that answers every request with a status line holding a
    NUL; allow-listed."""
    listener = socket.create_server(("127.0.0.1", 0))
    port = listener.getsockname()[1]
    settings.OUTSIDE_BOT_ALLOWED_HOSTS = [f"127.0.0.1:{port}"]

    def serve():
        while True:
            try:
                conn, _ = listener.accept()
            except OSError:
                return
            with conn:
                conn.recv(65536)
                conn.sendall(b"HTTP/1.1 2\x0000 OK\r\nContent-Length: 2\r\n\r\n{}")

    threading.Thread(target=serve, daemon=True).start()
    yield f"http://127.0.0.1:{port}/"
    listener.close()


def test_a_challenge_answered_with_a_nul_pauses_the_bot_with_the_reason_escaped(
        ladder_settings, author, broken_server, commit):  # noqa: F811
    bot = outside_bots.outside_bot_create(name="ada-bot", url=broken_server, owner=author)

    commit(services.bots_sync)

    entry = entry_of(bot)
    assert entry.status == Entry.PAUSED
    assert entry.validation_game.status == Game.FAILED
    assert "failed its challenge" in entry.reason and "\x00" not in entry.reason
    assert "2\\x0000 OK" in entry.reason
