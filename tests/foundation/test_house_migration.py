"""A database made at main before outside bots had their own app (issue #27: the graph's leaves
were gameplay 0007, ladder 0002, league 0009, accounts 0001) migrates to the new graph with
every row kept: its outside bot, the ladder entry that points at it and a played tournament read
the same through the new models, and the bot's content type (admin history) is the same row.
The move changes the migration state only, so a real drop or rebuild of the table fails here."""

import pytest
from django.conf import settings
from django.contrib.contenttypes.models import ContentType
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

from ladder.models import Entry
from ladder.selectors import ladder_rows
from outside_bots.models import OutsideBot
from outside_bots.services import outside_bot_entered
from tests.tournaments.helpers import small_tournament
from tournaments import services
from tournaments.models import Tournament
from tournaments.selectors import tournament_standings

MOVED = {"gameplay": "0007_outside_bot_url_is_checked_by_the_policy_alone",
         "ladder": "0002_entry_author", "outside_bots": None}  # no such app then


def _migrate(targets):
    executor = MigrationExecutor(connection)
    executor.migrate(targets)
    return executor.loader.project_state([t for t in targets if t[1]]).apps


def _new_leaves():
    return MigrationExecutor(connection).loader.graph.leaf_nodes()


def _old_leaves():
    """main's leaves: the moved apps' as above, every other app's as now."""
    return [(app, name) for app, name in _new_leaves() if app not in MOVED] + list(MOVED.items())


def _made_at_main():
    """The rows main's code wrote, through the models of the old migration state; the
    tournament through today's services, whose tables the move does not change."""
    old = _migrate(_old_leaves())
    ada = old.get_model(settings.AUTH_USER_MODEL).objects.create(username="ada")
    bot = old.get_model("gameplay", "OutsideBot").objects.create(
        name="ada-bot", url="https://bots.example.org/play", owner=ada, presets=["classic"])
    entry = old.get_model("ladder", "Entry").objects.create(
        preset="classic", name="ada-bot", outside_bot=bot, author=ada, status="active",
        mu=30.0, sigma=2.0, ordinal=24.0, games=3, deals=3, firsts=2, positions=5)
    content_type, _ = old.get_model("contenttypes", "ContentType").objects.get_or_create(
        app_label="gameplay", model="outsidebot")

    tournament = small_tournament()
    services.tournament_start(tournament=tournament)
    player = old.get_model("league", "Player").objects.create(name="Ada's bot", kind="bot")
    old.get_model("gameplay", "Entrant").objects.create(
        tournament_id=tournament.pk, player_id=player.pk, bot="outside:ada-bot")
    return bot.pk, entry.pk, content_type.pk, tournament.pk


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_a_database_made_before_the_move_keeps_its_outside_bots_ladder_and_tournaments():
    bot_id, entry_id, content_type_id, tournament_id = _made_at_main()
    ladder_before = list(ladder_rows(preset="classic"))
    standings_before = tournament_standings(tournament=Tournament.objects.get(pk=tournament_id))

    _migrate(_new_leaves())

    bot = OutsideBot.objects.get(pk=bot_id)
    assert (bot.name, bot.url, bot.owner.username, bot.presets) == (
        "ada-bot", "https://bots.example.org/play", "ada", ["classic"])
    assert Entry.objects.get(pk=entry_id).outside_bot == bot
    assert list(bot.owner.outside_bots.all()) == [bot]
    ladder = list(ladder_rows(preset="classic"))
    assert ladder == ladder_before
    assert [(r["name"], r["owner"], r["ordinal"], r["games"]) for r in ladder] == [
        ("ada-bot", "ada", 24.0, 3)]
    tournament = Tournament.objects.get(pk=tournament_id)
    assert tournament.status == Tournament.FINISHED
    standings = tournament_standings(tournament=tournament)
    assert standings == standings_before
    assert len(standings) == 4 and all(row["games"] > 0 for row in standings)
    assert outside_bot_entered(bot=bot) == "in tournaments"
    assert ContentType.objects.get_for_model(OutsideBot).pk == content_type_id
