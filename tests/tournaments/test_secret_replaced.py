"""A registered bot's secret replaced by its author during a tournament game: the game signs
its next request with the secret as stored then, as a ladder game does (ladder f37a8c0).
Signed with the one it began with, every later request was refused (401), a fault of the
bot's made by the site's own change (docs/kit.md, "Your secret")."""

import json
import threading

import pytest

from gameplay.kit.serve import http_server
from outside_bots import services as outside_bots
from outside_bots.models import OutsideBot
from tests.kit.test_signing import first_request
from tests.league.factories import UserFactory

NEW = "the-secret-its-author-gave-the-server"


@pytest.fixture
def server():
    """The author's server, already given the new secret."""
    serving = http_server(lambda request: {"choice": 0}, 0, secret=NEW)
    thread = threading.Thread(target=serving.serve_forever, daemon=True)
    thread.start()
    yield f"127.0.0.1:{serving.server_address[1]}"
    serving.shutdown()
    serving.server_close()


@pytest.mark.django_db
def test_a_secret_replaced_during_a_game_signs_the_games_next_request(settings, server):
    settings.OUTSIDE_BOT_ALLOWED_HOSTS = [server]
    bot = outside_bots.outside_bot_create(name="ada-bot", url=f"http://{server}/",
                                          owner=UserFactory(username="ada"))
    playing = bot.engine_bot(workdir="")  # as tournaments.services plays a registered bot
    OutsideBot.objects.filter(pk=bot.pk).update(secret=NEW)  # replaced, given to the server

    assert playing.exchange_json(json.loads(first_request())) == {"choice": 0}
