"""The ladder end to end (issue #20): a real celery beat and a real worker on Redis and the
PostgreSQL test database, two outside bot servers on 127.0.0.1 (allow-listed through
OUTSIDE_BOT_ALLOWED_HOSTS, as an administrator would for a lab network). Nobody calls a
service: beat's tick brings the registered bots in, their validation games and then rated
games run on the worker, until both bots have ratings.

Run with DATABASE_URL=postgres://… (the workers need the PostgreSQL test database). About
half a minute.
"""

import time

import pytest

from bot_games.models import BotFault
from gameplay.engine import checker
from ladder.models import Entry, Game, RatingPoint, Seat
from league.ratings import MODEL
from outside_bots import services as outside_bots
from tests.bots.test_outside import Server as BotServer
from tests.conftest import stop
from tests.league.factories import UserFactory
from tests.tournaments.conftest import beat, tournament_queue, workers  # noqa: F401

pytestmark = [pytest.mark.integration, pytest.mark.django_db(transaction=True)]

RATED_GAMES = 3  # each bot's rated games before the test is satisfied
SECONDS = 120


@pytest.fixture
def bot_servers():
    found = [BotServer(), BotServer()]
    yield found
    for server in found:
        server.close()


def test_beat_and_a_worker_play_rated_ladder_games_until_both_bots_have_ratings(
        workers, beat, bot_servers, settings):  # noqa: F811
    settings.OUTSIDE_BOT_ALLOWED_HOSTS = [s.allowed for s in bot_servers]
    author = UserFactory(username="ada", is_staff=False)
    env = {"OUTSIDE_BOT_ALLOWED_HOSTS": ",".join(s.allowed for s in bot_servers),
           "LADDER_TICK_SECONDS": "1", "LADDER_REFERENCES": "random,greedy,heuristic",
           "LADDER_DEALS_PER_GAME": "2", "LADDER_GAMES_IN_FLIGHT": "2"}
    bots = [outside_bots.outside_bot_create(name=f"ada-{i}", url=server.url, owner=author)
            for i, server in enumerate(bot_servers)]
    for server, bot in zip(bot_servers, bots, strict=True):
        server.secrets.append(bot.secret)
    worker = workers(**env)
    scheduler = beat(**env)

    deadline = time.monotonic() + SECONDS
    while time.monotonic() < deadline:
        entries = list(Entry.objects.filter(outside_bot__in=bots))
        if len(entries) == 2 and all(e.games >= RATED_GAMES for e in entries):
            break
        time.sleep(0.2)
    else:
        pytest.fail(f"entries {list(Entry.objects.values('name', 'status', 'games'))}\n"
                    f"worker log:\n{worker.log()[-4000:]}\nbeat log:\n{scheduler.log()[-3000:]}")

    stop(scheduler.process)
    stop(worker.process)  # a warm shutdown: the game in hand is stored first
    assert "ladder.tasks.ladder_tick_task" in scheduler.log()
    assert "ladder_game_task" in worker.log()
    for bot, server in zip(bots, bot_servers, strict=True):
        entry = Entry.objects.get(outside_bot=bot)
        assert entry.status == Entry.ACTIVE and len(server.requests) > 0
        validation = entry.validation_game
        assert validation.status == Game.DONE and not validation.bot_game.faults.exists()
        # Rated: a rating with its uncertainty narrowed by every rated deal, and its history.
        assert entry.sigma < MODEL.sigma
        assert entry.deals == sum(len(p) for p in Seat.objects.filter(
            entry=entry, game__kind=Game.RATED, game__status=Game.DONE)
            .values_list("bot_seat__positions", flat=True))
        assert RatingPoint.objects.filter(entry=entry).count() == entry.games
    assert not BotFault.objects.exists()
    for game in Game.objects.filter(status=Game.DONE):
        assert checker.check(game.bot_game.transcript)[0] == checker.VALID


def test_a_bot_with_an_upper_case_url_scheme_plays_and_holds_no_reference(
        workers, beat, bot_servers, settings):  # noqa: F811
    """Issue #26: ``HTTP://…`` crashed every game it was in, and each such game held its
    three built-in opponents until its third resend, half an hour later."""
    settings.OUTSIDE_BOT_ALLOWED_HOSTS = [s.allowed for s in bot_servers]
    author = UserFactory(username="ada", is_staff=False)
    env = {"OUTSIDE_BOT_ALLOWED_HOSTS": ",".join(s.allowed for s in bot_servers),
           "LADDER_TICK_SECONDS": "1", "LADDER_REFERENCES": "random,greedy,heuristic",
           "LADDER_DEALS_PER_GAME": "2", "LADDER_GAMES_IN_FLIGHT": "2"}
    shouting, plain = bot_servers
    shouting.secrets.append(outside_bots.outside_bot_create(
        name="ada-upper", url=shouting.url.replace("http://", "HTTP://"), owner=author).secret)
    plain.secrets.append(outside_bots.outside_bot_create(name="ada-plain", url=plain.url,
                                                         owner=author).secret)
    worker = workers(**env)
    scheduler = beat(**env)

    deadline = time.monotonic() + SECONDS
    while time.monotonic() < deadline:
        played = dict(Entry.objects.values_list("name", "games"))
        if len(played) == 5 and all(games >= 1 for games in played.values()):
            break
        time.sleep(0.2)
    else:
        pytest.fail(f"entries {list(Entry.objects.values('name', 'status', 'games'))}\n"
                    f"games {list(Game.objects.values('kind', 'status', 'attempts', 'reason'))}"
                    f"\nworker log:\n{worker.log()[-4000:]}")

    stop(scheduler.process)
    stop(worker.process)
    upper = Entry.objects.get(name="ada-upper")
    assert upper.status == Entry.ACTIVE and len(shouting.requests) > 0
    assert not Game.objects.filter(status=Game.FAILED).exists()
    assert not Game.objects.filter(attempts__gt=1).exists()  # nothing waited for a resend
