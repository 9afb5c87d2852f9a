"""A hosted bot that crashes in its validation game (docs/sandbox.md): the fault every game
page shows says how its program ended, and its author alone also sees there the last line of
its stderr. Played through the real bubblewrap sandbox."""

import pytest
from django.urls import reverse

from bot_games.models import BotFault
from gameplay.bots.sandbox import available
from ladder import services
from outside_bots.models import OutsideBot
from tests.ladder.test_hosted import PYTHON, upload
from tests.ladder.test_services import commit, entry_of  # noqa: F401

pytestmark = [pytest.mark.django_db,
              pytest.mark.skipif(not available(), reason="no bubblewrap sandbox here")]

# the example bot, crashing at its third request after a line of its own on stderr
CRASHING = PYTHON.replace(b"def decide(request: dict) -> dict:\n", b"""ASKED = []


def decide(request: dict) -> dict:
    ASKED.append(request)
    if len(ASKED) == 3:
        print("thinking hard", file=sys.stderr)
        raise RuntimeError("my bug")
""", 1)


def test_the_author_sees_how_the_program_ended_and_its_stderrs_last_line(
        ladder_settings, author, other, commit, client):  # noqa: F811
    assert upload(author, "py-bot", CRASHING, "bot.py", "python").status_code == 201
    commit(services.bots_sync)

    game = entry_of(OutsideBot.objects.get()).validation_game
    fault = BotFault.objects.filter(game=game.bot_game).order_by("number").first()
    assert fault.message == "the program ended: exited with code 1"
    assert fault.body == "the last line of its stderr: RuntimeError: my bug"
    url = reverse("ladder:game", args=[game.pk])
    client.force_login(author)
    page = client.get(url).content.decode()
    assert "the program ended: exited with code 1" in page
    assert "what its stderr ended with (shown to its author only)" in page
    assert "the last line of its stderr: RuntimeError: my bug" in page
    client.force_login(other)
    page = client.get(url).content.decode()
    assert "exited with code 1" in page and "my bug" not in page
