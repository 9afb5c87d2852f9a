"""An author acting on the ladder record of a bot they removed (its entry kept with
outside_bot None) is told the bot was removed, that its record stays and how to continue it,
not that only its author may act on it; another author is still refused as one; nothing
changes."""

import pytest
from django.test import Client

from ladder import services
from ladder.models import Entry, Game
from outside_bots import services as outside_bots
from tests.api.conftest import client_for
from tests.ladder.test_pages import text

pytestmark = pytest.mark.django_db

URL = "https://bots.example.org/play"
REMOVED = ("you removed ada-bot: its record stays on the classic ladder, and a bot you "
           "register named ada-bot continues it")


@pytest.fixture
def record(ladder_settings, author, monkeypatch):
    """The record ada's removed bot left on the classic ladder; no game goes to the workers."""
    ladder_settings.OUTSIDE_BOT_ALLOWED_HOSTS = ["bots.example.org"]
    monkeypatch.setattr(services, "games_send", lambda **kwargs: 0)
    bot = outside_bots.outside_bot_create(name="ada-bot", url=URL, owner=author)
    services.bots_sync()
    entry = Entry.objects.get(outside_bot=bot)
    outside_bots.outside_bot_delete(bot=bot)
    services.bots_sync()
    entry.refresh_from_db()
    assert (entry.outside_bot, entry.author, entry.status) == (None, author, Entry.RETIRED)
    return entry


def api_writes(client, entry):
    random = Entry.objects.get(preset="classic", reference=True, name="random")
    return {
        "pause": client.post(f"/api/v1/ladder/{entry.pk}/pause/"),
        "resume": client.post(f"/api/v1/ladder/{entry.pk}/resume/"),
        "new version": client.post(f"/api/v1/ladder/{entry.pk}/new-version/"),
        "challenge": client.post("/api/v1/ladder-games/", {"entry": entry.pk,
                                                           "opponents": [random.pk]},
                                 format="json"),
    }


def unchanged(entry):
    return Entry.objects.filter(pk=entry.pk).values().get(), Game.objects.count()


def test_its_author_is_told_the_bot_was_removed_and_how_to_continue_it(record, author):
    before = unchanged(record)

    answers = api_writes(client_for(author), record)

    for what, answer in answers.items():
        assert (answer.status_code, answer.json()) == (409, {"detail": REMOVED}), what
    assert unchanged(record) == before


def test_another_author_is_still_refused_as_not_its_author(record, other):
    before = unchanged(record)

    answers = api_writes(client_for(other), record)

    for what, answer in answers.items():
        assert answer.status_code == 403, what
        assert answer.json() == {"detail": "only the author of ada-bot may do this"}, what
    assert unchanged(record) == before


@pytest.mark.parametrize("action", ["pause", "resume", "new-version", "challenge"])
def test_its_author_is_told_so_on_the_bot_page_too(record, author, action):
    page = Client()
    page.force_login(author)
    before = unchanged(record)

    refused = page.post(f"/ladder/bots/{record.pk}/{action}/", {"opponents": []})

    assert refused.status_code == 409
    assert REMOVED[0].upper() + REMOVED[1:] in text(refused)
    assert unchanged(record) == before
