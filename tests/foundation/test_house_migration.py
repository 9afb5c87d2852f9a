"""A database made at main before outside bots had their own app (issue #27: the graph's leaves
were gameplay 0007, ladder 0002, league 0009, accounts 0001) migrates to the new graph with
every row kept: its outside bot, the ladder entry that points at it and a played tournament read
the same through the new models, and the bot's content type (admin history) is the same row.
The move changes the migration state only, so a real drop or rebuild of the table fails here.
A ladder game and a tournament game played then, with their faults, are found in the one home
of a played bot game (bot_games) afterwards, as the services store new ones; migrating back
puts their transcripts where main kept them."""

from datetime import UTC, datetime

import pytest
from django.conf import settings
from django.contrib.contenttypes.models import ContentType
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

import tournaments.selectors
from bot_games.selectors import game_faults
from gameplay.bots import make_bot
from gameplay.runner.validation import deals_seed, play_ladder_game
from ladder.models import Entry, Game
from ladder.selectors import ladder_rows
from league.models import Place
from outside_bots.models import OutsideBot
from outside_bots.services import outside_bot_entered
from tests.tournaments.helpers import small_tournament
from tournaments import services
from tournaments.models import Tournament, TournamentGame
from tournaments.selectors import tournament_standings

MOVED = {"gameplay": "0007_outside_bot_url_is_checked_by_the_policy_alone",
         "ladder": "0002_entry_author", "outside_bots": None, "bot_games": None}  # no such apps
FAULT = {"seat": 0, "deal": 0, "number": 1, "decision": "play", "kind": "timeout",
         "message": "no answer within 2,000 ms", "answer": ""}


def _migrate(targets):
    executor = MigrationExecutor(connection)
    executor.migrate(targets)
    return executor.loader.project_state([t for t in targets if t[1]]).apps


def _new_leaves():
    return MigrationExecutor(connection).loader.graph.leaf_nodes()


def _old_leaves():
    """main's leaves: the moved apps' as above, every other app's as now."""
    return [(app, name) for app, name in _new_leaves() if app not in MOVED] + list(MOVED.items())


@pytest.fixture(autouse=True)
def _new_graph_after(transactional_db):
    """Back to today's graph after each test: the tests after it find today's schema, and the
    database's flush knows only today's tables (main's fault tables, gone now, would stop it)."""
    yield
    _migrate(_new_leaves())


def _made_at_main():
    """The rows main's code wrote, through the models of the old migration state; the
    tournament's through today's services, whose tables the moves do not change, except its
    game, stored as main stored one (its transcript and faults with the TournamentGame)."""
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
    tournament_game = _tournament_game_at_main(old, tournament)
    player = old.get_model("league", "Player").objects.create(name="Ada's bot", kind="bot")
    old.get_model("gameplay", "Entrant").objects.create(
        tournament_id=tournament.pk, player_id=player.pk, bot="outside:ada-bot")
    return (bot.pk, entry.pk, content_type.pk, tournament.pk, tournament_game,
            _ladder_game_at_main(old, bot))


def _tournament_game_at_main(old, tournament) -> int:
    """Game (0, 0, 0) of the tournament, played and stored as main stored it."""
    tournament.tables = [services._tables_of_round(tournament, 0)]
    tournament.save(update_fields=["tables"])
    seated, result = services.tournament_game_play(tournament=tournament, key=(0, 0, 0))
    entrants = list(tournament.entrants.order_by("id"))
    game = services.league.game_store_played(
        season=tournament.season, players=[entrants[e].player for e in seated], dealer=0,
        finishing_orders=result.finishing_orders, totals=result.scores,
        winners=result.winners, over=result.over)
    stored = old.get_model("gameplay", "TournamentGame").objects.create(
        tournament_id=tournament.pk, round=0, table=0, number=0, game_id=game.pk,
        transcript=result.transcript)
    old.get_model("gameplay", "GameFault").objects.create(
        game=stored, entrant_id=entrants[seated[0]].pk, **FAULT)
    return stored.pk


def _ladder_game_at_main(old, bot) -> int:
    """A stored validation game of ada-bot on the modern ladder, with a fault of its seat."""
    Entry = old.get_model("ladder", "Entry")
    entries = [Entry.objects.create(preset="modern", name="ada-bot", outside_bot=bot)] + [
        Entry.objects.create(preset="modern", name=name, reference=True, spec=name)
        for name in ("random", "greedy", "heuristic")]
    result = play_ladder_game([make_bot("random", seed=s) for s in range(4)], "modern",
                              seed=11, deals=2, names=[e.name for e in entries])
    game = old.get_model("ladder", "Game").objects.create(
        kind="validation", preset="modern", status="done", seed=11, deals=2,
        transcript=result.transcript, stored_at=datetime.now(UTC))
    for seat, entry in enumerate(entries):
        old.get_model("ladder", "Seat").objects.create(
            game=game, entry=entry, seat=seat, bot=entry.spec or bot.url,
            positions=[order.index(seat) + 1 for order in result.finishing_orders],
            score=result.scores[seat], decisions=result.stats[seat].decisions,
            decision_ms=1000 * result.stats[seat].seconds)
    old.get_model("ladder", "Fault").objects.create(game=game, entry=entries[0], **FAULT)
    return game.pk


def _without_par(standings):
    """The standings as main showed them: without the par figures added since."""
    return [{key: value for key, value in row.items() if key != "par"} for row in standings]


def _entry_figures():
    """The ladder's rows as main's columns have them (later migrations add columns)."""
    return Entry.objects.filter(preset="classic").values(
        "id", "name", "outside_bot__owner__username", "mu", "sigma", "ordinal", "games",
        "deals", "firsts", "positions")


@pytest.mark.slow
@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_a_database_made_before_the_move_keeps_its_outside_bots_ladder_and_tournaments(
        monkeypatch):
    bot_id, entry_id, content_type_id, tournament_id, _, _ = _made_at_main()
    ladder_before = list(_entry_figures())
    with monkeypatch.context() as before:  # main had no par (nor its bot games' table)
        before.setattr(tournaments.selectors, "_par_sums", lambda tournament: {})
        standings_before = _without_par(tournament_standings(
            tournament=Tournament.objects.get(pk=tournament_id)))

    _migrate(_new_leaves())

    bot = OutsideBot.objects.get(pk=bot_id)
    assert (bot.name, bot.url, bot.owner.username, bot.presets) == (
        "ada-bot", "https://bots.example.org/play", "ada", ["classic"])
    assert Entry.objects.get(pk=entry_id).outside_bot == bot
    assert list(bot.owner.outside_bots.all()) == [bot]
    assert list(_entry_figures()) == ladder_before
    ladder = list(ladder_rows(preset="classic"))
    assert [(r["name"], r["owner"], r["ordinal"], r["games"]) for r in ladder] == [
        ("ada-bot", "ada", 24.0, 3)]
    tournament = Tournament.objects.get(pk=tournament_id)
    standings = _without_par(tournament_standings(tournament=tournament))
    assert standings == standings_before
    assert sum(row["games"] > 0 for row in standings) == 3  # the one game's table
    assert outside_bot_entered(bot=bot) == "in tournaments"
    assert ContentType.objects.get_for_model(OutsideBot).pk == content_type_id


@pytest.mark.slow
@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_games_played_before_are_found_in_the_one_home_of_a_bot_game():
    *_, tournament_game_id, ladder_game_id = _made_at_main()
    old = _migrate(_old_leaves())  # the state they were made in, to read them as they were
    old_tournament_game = old.get_model("gameplay", "TournamentGame").objects.get(
        pk=tournament_game_id)
    old_ladder_game = old.get_model("ladder", "Game").objects.get(pk=ladder_game_id)

    _migrate(_new_leaves())

    stored = TournamentGame.objects.select_related("bot_game").get(pk=tournament_game_id)
    assert stored.bot_game.transcript == old_tournament_game.transcript
    assert stored.bot_game.seed == services._deal_seed(stored.tournament, (0, 0, 0), 3)
    league_seats = list(stored.game.seats.order_by("number"))
    entrants = dict(stored.tournament.entrants.values_list("player_id", "bot"))
    places = list(Place.objects.filter(deal__game=stored.game).order_by("deal__number"))
    assert [(s.seat, s.bot, s.points, s.positions) for s in
            stored.bot_game.seats.order_by("seat")] == [
        (s.number, entrants[s.player_id], s.points,
         [p.position for p in places if p.seat == s.number]) for s in league_seats]
    assert [{k: getattr(f, k) for k in FAULT} for f in game_faults(
        game_id=stored.bot_game_id)] == [FAULT]

    game = Game.objects.select_related("bot_game").get(pk=ladder_game_id)
    assert game.bot_game.transcript == old_ladder_game.transcript
    assert game.bot_game.seed == deals_seed(11) and game.bot_game.preset == "modern"
    assert [(s.seat, s.bot, s.positions, s.points, s.decisions) for s in
            game.bot_game.seats.order_by("seat")] == [
        (s.seat, s.entry.name, s.positions, s.points, s.decisions)
        for s in game.seats.order_by("seat")]
    assert [{k: getattr(f, k) for k in FAULT} for f in game_faults(
        game_id=game.bot_game_id)] == [FAULT]

    # Migrating back puts each transcript where main kept it.
    old = _migrate(_old_leaves())
    assert old.get_model("gameplay", "TournamentGame").objects.get(
        pk=tournament_game_id).transcript == old_tournament_game.transcript
    assert old.get_model("ladder", "Game").objects.get(
        pk=ladder_game_id).transcript == old_ladder_game.transcript
