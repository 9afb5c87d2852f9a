"""A removed bot's ladder record keeps its name for its author: another author may not pose
as it with a name that only looks the same ("adab0t" with a zero, in any case),
as no bot may beside a registered one (outside_bots.models.checked_name)."""

import pytest

from ladder.models import Entry
from outside_bots import services as outside_bots
from outside_bots.errors import OutsideBotError

pytestmark = pytest.mark.django_db


@pytest.fixture
def removed(author, settings):
    settings.OUTSIDE_BOT_ALLOWED_HOSTS = ["127.0.0.1"]
    return Entry.objects.create(preset="classic", name="adabot", author=author,
                                status=Entry.RETIRED)


@pytest.mark.parametrize("name", ["adab0t", "ADAB0T", "AdAB0t"])
def test_another_author_cannot_take_a_look_alike_of_a_removed_bots_name(removed, other, name):
    with pytest.raises(OutsideBotError, match=f"{name} looks like adabot, the name of a bot "
                                              "of another author"):
        outside_bots.outside_bot_create(name=name, url="http://127.0.0.1:8765/", owner=other)
    bot = outside_bots.outside_bot_create(name="bobbot", url="http://127.0.0.1:8765/",
                                          owner=other)
    with pytest.raises(OutsideBotError, match="looks like adabot"):
        outside_bots.outside_bot_update(bot=bot, name=name)


def test_its_author_and_unlike_names_are_welcome(removed, author, other):
    outside_bots.outside_bot_create(name="adab0t", url="http://127.0.0.1:8765/", owner=author)
    outside_bots.outside_bot_create(name="adabots", url="http://127.0.0.1:8000/", owner=other)


@pytest.mark.parametrize(("kept", "name"), [("modem", "rnodem"), ("rnodem", "modem")])
def test_an_rn_poses_as_an_m(author, other, settings, kept, name):
    settings.OUTSIDE_BOT_ALLOWED_HOSTS = ["127.0.0.1"]
    Entry.objects.create(preset="classic", name=kept, author=author, status=Entry.RETIRED)
    with pytest.raises(OutsideBotError, match=f"{name} looks like {kept}"):
        outside_bots.outside_bot_create(name=name, url="http://127.0.0.1:8765/", owner=other)
