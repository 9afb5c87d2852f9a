"""Two ladder ticks at the same instant, on PostgreSQL (tests/api/conftest.py ``overlapping``):
both bring a new bot onto the ladder, and one entry is made; the tick that finds it made by the
other uses it and goes on with the rest of its tick, never an IntegrityError."""

import pytest
from django.db import connection

from ladder import services
from ladder.models import Entry, Game
from outside_bots import services as outside_bots
from tests.api.conftest import at_once, overlapping

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]

URL = "https://bots.example.org/play"


@pytest.fixture
def quiet_ladder(ladder_settings, monkeypatch):
    """No game goes to the workers; bots on bots.example.org may register."""
    if connection.vendor != "postgresql":
        pytest.skip("SQLite runs one writer at a time; the race needs PostgreSQL")
    ladder_settings.OUTSIDE_BOT_ALLOWED_HOSTS = ["bots.example.org"]
    monkeypatch.setattr(services, "games_send", lambda **kwargs: 0)
    return ladder_settings


def tick(_client):
    """A ladder tick, its report or what it raised."""
    try:
        return services.ladder_tick()
    except Exception as error:  # noqa: BLE001 - the test shows it
        return error


def two_ticks_at_once(monkeypatch, check: str) -> list:
    overlapping(monkeypatch, services, check)  # both ticks look before either writes
    reports = at_once(None, tick, tick)
    assert len(reports) == 2
    assert not [r for r in reports if isinstance(r, Exception)], reports
    return reports


def test_two_ticks_bringing_a_new_bot_on_make_one_entry(quiet_ladder, author, monkeypatch):
    bot = outside_bots.outside_bot_create(name="ada-bot", url=URL, owner=author)

    reports = two_ticks_at_once(monkeypatch, "_entry_for")

    entry = Entry.objects.get(outside_bot=bot, preset="classic")
    assert Entry.objects.filter(reference=False).count() == 1
    assert (entry.status, entry.url) == (Entry.VALIDATING, URL)
    assert Game.objects.filter(kind=Game.VALIDATION, seats__entry=entry).count() == 1
    assert sum(r["joined"] for r in reports) == 1, reports
    assert all("scheduled" in r and "sent" in r for r in reports), reports  # each went on


def test_two_ticks_bringing_a_removed_bot_back_continue_its_one_record(
        quiet_ladder, author, monkeypatch):
    """The author removed the bot and registered it again under its name: both ticks claim
    its record; one does, the other uses it."""
    removed = outside_bots.outside_bot_create(name="ada-bot", url=URL, owner=author)
    services.bots_sync()
    record = Entry.objects.get(outside_bot=removed)
    outside_bots.outside_bot_delete(bot=removed)
    services.bots_sync()
    again = outside_bots.outside_bot_create(name="ada-bot", url=URL + "?2", owner=author)

    reports = two_ticks_at_once(monkeypatch, "_entry_for")

    assert sum(r["joined"] for r in reports) == 1, reports
    assert list(Entry.objects.filter(reference=False).values_list("pk", "outside_bot")) == [
        (record.pk, again.pk)]
    record.refresh_from_db()
    assert (record.status, record.url) == (Entry.VALIDATING, URL + "?2")


def test_two_ticks_on_a_new_ladder_make_its_built_in_bots_once(quiet_ladder, author,
                                                                monkeypatch):
    """An active bot on a ladder without its built-in bots yet: both ticks create them as they
    schedule its games (references_ensure)."""
    bot = outside_bots.outside_bot_create(name="ada-bot", url=URL, owner=author)
    Entry.objects.create(preset="classic", name=bot.name, outside_bot=bot, author=author,
                         url=URL, status=Entry.ACTIVE)

    reports = two_ticks_at_once(monkeypatch, "references_ensure")

    names = sorted(Entry.objects.filter(preset="classic", reference=True)
                   .values_list("name", flat=True))
    assert names == ["greedy", "heuristic", "random"]
    assert all("sent" in r for r in reports), reports
