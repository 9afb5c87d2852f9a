"""Migration ladder 0006 (issue #29): games stored before versions were played by version 1 of
their entries, and an entry's rated deals so far are its rating's count; the table, its bot's
chart and its games read so afterwards."""

from datetime import UTC, datetime

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor
from django.urls import reverse

from bot_games.models import BotGame, BotSeat
from ladder import selectors
from ladder.models import Entry, RatingPoint, Seat, Version

BEFORE = [("ladder", "0005_game_in_bot_games")]


def _migrate(targets):
    executor = MigrationExecutor(connection)
    executor.migrate(targets)
    return executor.loader.project_state(targets).apps


def _leaves():
    return MigrationExecutor(connection).loader.graph.leaf_nodes()


@pytest.mark.django_db(transaction=True)
def test_games_stored_before_versions_were_played_by_version_1(client):
    old = _migrate(BEFORE)
    Entry_, Game_, Seat_, Point_ = (old.get_model("ladder", name)
                                    for name in ("Entry", "Game", "Seat", "RatingPoint"))
    played = Entry_.objects.create(preset="classic", name="played", reference=True,
                                   spec="random", status="active", mu=27.0, sigma=6.0,
                                   ordinal=9.0, games=1, deals=2, firsts=1, positions=3)
    fresh = Entry_.objects.create(preset="classic", name="fresh", status="active")
    # Stored as since 0005: its transcript and its seats' figures in its bot game too.
    # (bot_games' tables are today's: none of its migrations is undone)
    home = BotGame.objects.create(preset="classic", seed=1, transcript={},
                                  played_at=datetime.now(UTC))
    BotSeat.objects.create(game=home, seat=0, bot="played", positions=[1, 2])
    done = Game_.objects.create(kind="rated", preset="classic", status="done", seed=1, deals=2,
                                stored_at=datetime.now(UTC), bot_game_id=home.pk)
    failed = Game_.objects.create(kind="rated", preset="classic", status="failed", seed=2,
                                  deals=2)
    Seat_.objects.create(game=done, entry=played, seat=0, bot="random", positions=[1, 2])
    Seat_.objects.create(game=failed, entry=played, seat=0, bot="random")
    Point_.objects.create(entry=played, game=done, at=datetime.now(UTC), mu=27.0, sigma=6.0,
                          ordinal=9.0, deals=2)

    _migrate(_leaves())

    entry = Entry.objects.get(pk=played.pk)
    assert (entry.version, entry.rated_deals, entry.deals, entry.games) == (1, 2, 2, 1)
    assert Entry.objects.get(pk=fresh.pk).rated_deals == 0
    assert dict(Seat.objects.values_list("game_id", "version")) == {done.pk: 1, failed.pk: None}
    assert list(RatingPoint.objects.values_list("version", "deals")) == [(1, 2)]
    assert not Version.objects.exists()
    assert list(selectors.ladder_table(preset="classic")) == [entry]
    assert [e.name for e in selectors.not_yet_rated(preset="classic")] == ["fresh"]
    chart = client.get(reverse("ladder:bot", args=[entry.pk]))
    assert chart.status_code == 200 and "Version 1, as it joined the ladder." in (
        chart.content.decode())

    _migrate(BEFORE)  # and back: the columns go, the rows stay
    assert Seat_.objects.count() == 2
    _migrate(_leaves())


@pytest.mark.django_db(transaction=True)
def test_an_entry_keeps_its_bots_url_in_the_normal_form_so_no_new_version_starts():
    """Issue #29: URLs are normalised before they are compared; a bot whose stored URL only
    changed spelling (outside_bots 0002) is the same version, not validated again."""
    old = _migrate([("ladder", "0006_versions"), ("outside_bots", "0001_initial")])
    Bot_, Entry_ = old.get_model("outside_bots", "OutsideBot"), old.get_model("ladder", "Entry")
    spelt = "HTTP://Bots.Example.org:80"
    bot = Bot_.objects.create(name="lowball", url=spelt)
    Entry_.objects.create(preset="classic", name="lowball", status="active", url=spelt,
                          outside_bot_id=bot.pk)

    _migrate(_leaves())

    entry = Entry.objects.select_related("outside_bot").get(name="lowball")
    assert entry.url == entry.outside_bot.url == "http://bots.example.org/"
