"""A ladder game whose message Redis lost (issue #26): it waited LADDER_GAME_RESEND_SECONDS
(600 s) before it was sent again. The reconciler asks the real test Redis (through a TCP proxy)
what its queue holds: a game waiting there is left alone, a game held nowhere is sent again."""

import pytest
import redis

from ladder import services
from ladder.models import Game
from tests.conftest import TEST_REDIS_URL
from tests.tournaments.test_outages import queue  # noqa: F401

pytestmark = [pytest.mark.integration, pytest.mark.django_db(transaction=True)]


def test_a_game_whose_message_vanished_is_sent_again_after_the_grace_time(
        queue, settings):  # noqa: F811
    settings.TASK_SENT_GRACE_SECONDS = 0
    game = Game.objects.create(kind=Game.RATED, preset="classic", seed=1, deals=1)
    assert services.games_send() == 1  # no worker takes it
    direct = redis.Redis.from_url(TEST_REDIS_URL)
    assert direct.llen(queue) == 1

    assert services.games_recover() == {"failed": 0, "resent": 0}

    direct.delete(queue)  # Redis lost its data
    assert services.games_recover() == {"failed": 0, "resent": 1}
    game.refresh_from_db()
    assert (game.status, game.sent_at) == (Game.SCHEDULED, None)
    assert services.games_send() == 1 and direct.llen(queue) == 1
    direct.close()
