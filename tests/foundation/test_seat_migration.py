"""A database made before a ladder seat's figures had one home (issue #27: ladder 0009, when
ladder.Seat kept positions, score, decisions, decision_ms and faults beside its bot game's
seat) migrates with each stored seat linked to its bot game's seat and reading the same
figures, on its page's rows and in the API; a seat of a game never stored links nothing and
reads as unplayed. A seat whose figures its bot game does not hold stops the migration, which
changes nothing; migrating back fills the columns again."""

from datetime import UTC, datetime

import pytest
from django.db import connection, transaction
from django.db.migrations.recorder import MigrationRecorder

from bot_games import services as bot_games
from bot_games.models import BotFault
from gameplay.bots import make_bot
from gameplay.runner.validation import deals_seed, play_ladder_game
from ladder import selectors
from tests.foundation.test_fault_migration import (  # noqa: F401  (the fixture)
    _leaves,
    _migrate,
    _new_graph_after,
)

BEFORE = {"ladder": "0009_fault_in_bot_games"}
FIGURES = ("positions", "score", "decisions", "decision_ms", "faults")
NAMES = ("random", "greedy", "heuristic", "montecarlo")


def _stored_at_0009(old, seed=11):
    """A stored rated game of four built-in entries as 0009's code stored it: its bot game
    (today's tables: bot_games has no migration here) and its seats with their figures, one
    fault at seat 1 in both."""
    entries = [old.get_model("ladder", "Entry").objects.get_or_create(
        preset="modern", name=name, reference=True, spec=name)[0] for name in NAMES]
    result = play_ladder_game([make_bot("random", seed=s) for s in range(4)], "modern",
                              seed=seed, deals=2, names=list(NAMES))
    with transaction.atomic():
        home = bot_games.game_store(result, preset="modern", seed=deals_seed(seed))
    BotFault.objects.create(game=home, seat=1, deal=0, number=1, decision="play",
                            kind="timeout", message="no answer within 2,000 ms")
    game = old.get_model("ladder", "Game").objects.create(
        kind="rated", preset="modern", status="done", seed=seed, deals=2,
        stored_at=datetime.now(UTC), bot_game_id=home.pk)
    for seat, entry in enumerate(entries):
        old.get_model("ladder", "Seat").objects.create(
            game=game, entry=entry, seat=seat, bot=entry.spec, version=1,
            positions=[order.index(seat) + 1 for order in result.finishing_orders],
            score=result.scores[seat], decisions=result.stats[seat].decisions,
            decision_ms=1000 * result.stats[seat].seconds, faults=int(seat == 1),
            mu_after=25.0 + seat, sigma_after=8.0)
    return game


def _scheduled_at_0009(old):
    """A game not played yet: its seats with no figures."""
    entries = old.get_model("ladder", "Entry").objects.filter(preset="modern")
    game = old.get_model("ladder", "Game").objects.create(kind="rated", preset="modern",
                                                          seed=12, deals=2)
    for seat, entry in enumerate(entries.order_by("id")):
        old.get_model("ladder", "Seat").objects.create(game=game, entry=entry, seat=seat,
                                                       bot=entry.spec)
    return game


def _figures(seats):
    return {(s.game_id, s.seat): tuple(getattr(s, f) for f in FIGURES) for s in seats}


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_a_ladder_seats_figures_survive_the_move_to_its_bot_games_seat(client):
    _migrate(_leaves())  # from today's graph, whatever a test before left it at
    old = _migrate(_leaves(BEFORE))
    stored, scheduled = _stored_at_0009(old), _scheduled_at_0009(old)
    before = _figures(old.get_model("ladder", "Seat").objects.all())
    assert before[(stored.pk, 1)][4] == 1 and before[(scheduled.pk, 0)] == ([], None, 0, 0, 0)

    _migrate(_leaves())

    seats = [*selectors.game_get(stored.pk).seats.all(),
             *selectors.game_get(scheduled.pk).seats.all()]
    assert {(s.game_id, s.seat): (s.positions, s.points, s.decisions, s.decision_ms, s.faults)
            for s in seats} == before
    assert [(s.bot_seat.game_id, s.bot_seat.seat) for s in seats[:4]] == [
        (stored.bot_game_id, seat) for seat in range(4)]
    assert all(s.bot_seat is None for s in seats[4:])
    assert [(s.version, s.mu_after) for s in seats[:4]] == [(1, 25.0 + s) for s in range(4)]
    answer = client.get(f"/api/v1/ladder-games/{stored.pk}/").json()
    assert {(stored.pk, s["seat"]): tuple(s[f] for f in FIGURES)
            for s in answer["seats"]} == {k: v for k, v in before.items() if k[0] == stored.pk}

    old = _migrate(_leaves(BEFORE))  # and back: the columns filled from the bot game's seats
    assert _figures(old.get_model("ladder", "Seat").objects.all()) == before


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_figures_the_bot_game_does_not_hold_stop_the_migration_and_nothing_changes():
    _migrate(_leaves())
    old = _migrate(_leaves(BEFORE))
    Seat = old.get_model("ladder", "Seat")
    stored = _stored_at_0009(old)
    Seat.objects.filter(game=stored, seat=2).update(score=999)
    never_stored = old.get_model("ladder", "Game").objects.create(
        kind="rated", preset="modern", status="done", seed=13, deals=2)
    Seat.objects.create(game=never_stored, entry=Seat.objects.first().entry, seat=0,
                        bot="random", positions=[1, 2])
    before = _figures(Seat.objects.all())

    with pytest.raises(RuntimeError, match=(
            f"2 ladder seats .*\\(game {stored.pk} seat 2: not as its bot game's seat; "
            f"game {never_stored.pk} seat 0: figures but no bot game")):
        _migrate(_leaves())

    assert not MigrationRecorder(connection).migration_qs.filter(
        app="ladder", name__startswith="0010").exists()
    assert _figures(Seat.objects.all()) == before
    never_stored.delete()  # the fixture migrates forward after
    Seat.objects.filter(game=stored, seat=2).delete()
