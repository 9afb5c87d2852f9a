"""A database made at main before a bot game's faults had one home (issue #27: ladder 0008,
gameplay 0009, when the ladder's Fault and the tournaments' GameFault were written beside
BotFault) migrates with each of their faults in its bot game once: the rows its bot game
lacks are copied (with their replay step), the rows it has are not copied twice, and the
entrant's and the entry's faults read through their seats are the same as before."""

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

from bot_games.models import BotFault
from ladder import selectors as ladder_selectors
from ladder.models import Entry
from tests.tournaments.helpers import small_tournament
from tournaments import selectors as tournament_selectors
from tournaments import services

BEFORE = {"ladder": "0008_entry_par", "gameplay": "0009_tournament_game_in_bot_games"}
ROWS = ("seat", "deal", "number", "decision", "kind", "message", "answer")


def _migrate(targets):
    executor = MigrationExecutor(connection)
    executor.migrate(targets)
    return executor.loader.project_state(targets).apps


def _leaves(before=None):
    leaves = MigrationExecutor(connection).loader.graph.leaf_nodes()
    return [(app, (before or {}).get(app, name)) for app, name in leaves]


@pytest.fixture(autouse=True)
def _new_graph_after(transactional_db):
    """Back to today's graph after the test, whatever it stopped at: the flush knows only
    today's tables."""
    yield
    _migrate(_leaves())


def _rows(faults):
    return sorted(tuple(getattr(f, k) for k in (*ROWS, "step")) for f in faults)


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_faults_kept_beside_a_bot_game_are_found_in_it_once():
    _migrate(_leaves())  # from today's graph, whatever a test before left it at
    old = _migrate(_leaves(BEFORE))
    tournament = small_tournament(games_per_table=1)
    # Entered before bot settings were bounded: each of Rita's decisions is an error fault.
    tournament.entrants.filter(player__name="Rita").update(bot="montecarlo:budget_ms=1e8")
    tournament.tables = [services._tables_of_round(tournament, 0)]
    tournament.save(update_fields=["tables"])
    seated, result = services.tournament_game_play(tournament=tournament, key=(0, 0, 0))
    stored = services.tournament_game_store(tournament=tournament, key=(0, 0, 0),
                                            seated=seated, result=result)
    faults = list(stored.bot_game.faults.all())
    assert len(faults) > 2
    before = _rows(faults)
    rita = tournament.entrants.get(player__name="Rita")
    # As main kept them: each fault beside the bot game's, as the entrant's and as a ladder
    # entry's (the same bot game, as a ladder game of Rita's entry).
    entry = old.get_model("ladder", "Entry").objects.create(preset=tournament.preset,
                                                            name="rita", reference=True,
                                                            spec="montecarlo")
    others = [old.get_model("ladder", "Entry").objects.create(
        preset=tournament.preset, name=name, reference=True, spec=name)
        for name in ("random", "greedy")]
    rita_seat = faults[0].seat
    game = old.get_model("ladder", "Game").objects.create(
        kind="validation", preset=tournament.preset, status="done", seed=1, deals=1,
        bot_game_id=stored.bot_game_id)
    for seat in range(len(seated)):
        old.get_model("ladder", "Seat").objects.create(
            game=game, seat=seat, entry=entry if seat == rita_seat else others.pop())
    for fault in faults:
        columns = {k: getattr(fault, k) for k in ROWS}
        old.get_model("gameplay", "GameFault").objects.create(
            game_id=stored.pk, entrant_id=rita.pk, **columns)
        old.get_model("ladder", "Fault").objects.create(game=game, entry=entry, **columns)
    # The bot game lost some of its own (as if written before it kept them).
    BotFault.objects.filter(pk__in=[f.pk for f in faults[::2]]).delete()

    _migrate(_leaves())

    assert _rows(BotFault.objects.filter(game_id=stored.bot_game_id)) == before
    counts = tournament_selectors.fault_counts(rita)
    assert (counts["total"], counts["error"]) == (len(faults), len(faults))
    assert _rows(ladder_selectors.faults(entry=Entry.objects.get(pk=entry.pk))) == before
