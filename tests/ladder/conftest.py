import threading

import pytest
from django.db.models import F

from bot_games.models import BotFault
from outside_bots import services as outside_bots
from tests.bots.test_outside import Server as BotServer
from tests.league.factories import UserFactory


@pytest.fixture
def servers(settings):
    """``servers(n)``: n outside bot servers on 127.0.0.1, allow-listed; closed at the end."""
    started = []

    def start(count=1):
        new = [BotServer() for _ in range(count)]
        started.extend(new)
        settings.OUTSIDE_BOT_ALLOWED_HOSTS = [s.allowed for s in started]
        return new

    yield start
    # All at once: each close waits out its server's poll (up to half a second).
    closing = [threading.Thread(target=server.close) for server in started]
    for thread in closing:
        thread.start()
    for thread in closing:
        thread.join()


@pytest.fixture
def ladder_settings(settings):
    """A quick ladder: three fast reference bots, two-deal games, tables of 3 or 4."""
    settings.LADDER_REFERENCES = ["random", "greedy", "heuristic"]
    settings.LADDER_VALIDATION_OPPONENTS = ["random", "greedy", "heuristic"]
    settings.LADDER_DEALS_PER_GAME = 2
    settings.LADDER_TABLE_SIZES = [3, 4]
    settings.LADDER_GAMES_IN_FLIGHT = 4
    settings.LADDER_PAUSE_FAULTS = 4
    settings.LADDER_PAUSE_FAULT_SHARE = 0.05
    settings.LADDER_RESUME_COOLDOWN_SECONDS = 0  # the wait's own tests give it one
    return settings


@pytest.fixture
def author(db):
    return UserFactory(username="ada", is_staff=False)


@pytest.fixture
def other(db):
    return UserFactory(username="bob", is_staff=False)


def faults_of(entry):
    """The faults an entry made: its bot games' faults at the seats it had."""
    return BotFault.objects.filter(game__ladder_game__seats__entry=entry,
                                   game__ladder_game__seats__seat=F("seat"))


def register(owner, server, name="ada-bot", presets=("classic",), query=""):
    """The server's bot, registered by ``owner``; the server is given its secret. A ``query``
    makes another URL of the same server (a URL is registered once)."""
    bot = outside_bots.outside_bot_create(name=name, url=server.url + query, owner=owner,
                                          presets=list(presets))
    server.secrets.append(bot.secret)
    return bot
