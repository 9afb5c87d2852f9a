"""Constraints held by the database itself, and concurrent writers (PostgreSQL row locks)."""

import threading
from unittest import mock

import pytest
from django.db import IntegrityError, connection, connections, transaction

from league import rating_jobs, services
from league.errors import LeagueError
from league.models import Deal, Game, Place, RatingHistory, RatingJob, Seat
from league.rules import rating_scope
from tests.league.factories import PlayerFactory, make_game, seated_ids


@pytest.mark.postgres
@pytest.mark.django_db
def test_the_database_refuses_a_second_player_in_the_same_seat():
    game = make_game()

    with pytest.raises(IntegrityError), transaction.atomic():
        Seat.objects.create(game=game, number=0, player=PlayerFactory())


@pytest.mark.postgres
@pytest.mark.django_db
def test_the_database_refuses_two_places_with_one_position_in_a_deal():
    game = make_game()
    deal = services.deal_record(game=game, finishing_order=seated_ids(game))
    place = deal.places.get(position=1)

    with pytest.raises(IntegrityError), transaction.atomic():
        Place.objects.filter(pk=deal.places.get(position=2).pk).update(position=place.position)


@pytest.mark.postgres
@pytest.mark.django_db
def test_the_database_refuses_a_second_deal_with_the_same_number():
    game = make_game()
    deal = services.deal_record(game=game, finishing_order=seated_ids(game))

    with pytest.raises(IntegrityError), transaction.atomic():
        Deal.objects.create(game=game, number=deal.number, dealer=1)


def run_together(*calls):
    """Run callables in threads released at once; each gets its own connection.

    Rating tasks are not enqueued meanwhile: run eagerly from several threads at once, Celery's
    process-wide "join would block" flag (celery.result.denied_join_result) can be left set,
    which breaks a later result.get() in this process (tests/foundation's worker test).
    """
    with mock.patch("league.rating_jobs._enqueue_recompute"):
        return _run_together(calls)


def _run_together(calls):
    barrier = threading.Barrier(len(calls))
    results = [None] * len(calls)

    def run(i, call):
        try:
            barrier.wait()
            results[i] = call()
        except Exception as e:  # reported to the test, which asserts on it
            results[i] = e
        finally:
            connections.close_all()

    threads = [threading.Thread(target=run, args=(i, c)) for i, c in enumerate(calls)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return results


needs_row_locks = pytest.mark.skipif(
    "connection.vendor != 'postgresql'", reason="SQLite has no row locks; it serialises writers "
    "by locking the whole database file, which concurrent threads see as 'database is locked'")


@pytest.mark.postgres
@needs_row_locks
@pytest.mark.django_db(transaction=True)
def test_concurrent_deals_in_one_game_take_turns_and_numbers():
    game = make_game(season_kwargs={"scoring_deals": 10})
    a, b, c, d = seated_ids(game)

    results = run_together(
        *[lambda o=o: services.deal_record(game=game, finishing_order=o).number
          for o in ([a, b, c, d], [b, a, c, d], [c, a, b, d], [d, a, b, c])])

    assert sorted(results) == [1, 2, 3, 4]
    assert sum(Seat.objects.filter(game=game).values_list("deals", flat=True)) == 16


@pytest.mark.postgres
@needs_row_locks
@pytest.mark.django_db(transaction=True)
def test_of_two_concurrent_deals_the_one_after_the_end_is_refused():
    game = make_game(season_kwargs={"scoring_limit": 2})  # one deal ends it
    order = seated_ids(game)

    results = run_together(lambda: services.deal_record(game=game, finishing_order=order),
                           lambda: services.deal_record(game=game, finishing_order=order))

    refused = [r for r in results if isinstance(r, LeagueError)]
    assert len(refused) == 1 and "has ended" in refused[0].message
    assert Deal.objects.filter(game=game).count() == 1
    assert Game.objects.get(pk=game.pk).status == Game.FINISHED


@pytest.mark.postgres
@needs_row_locks
@pytest.mark.django_db(transaction=True)
def test_concurrent_recomputations_apply_once():
    game = make_game(season_kwargs={"scoring_limit": 6})
    a, b, c, d = seated_ids(game)
    # Tasks run eagerly on commit; record the deals first, then mark the season stale again.
    for order in ([a, b, c, d], [b, a, c, d]):
        services.deal_record(game=game, finishing_order=order)
    scope = rating_scope(game.season)
    RatingJob.objects.filter(scope=scope).update(dirty_from=0, runs=0)

    results = run_together(*[lambda: rating_jobs.ratings_recompute(scope=scope)] * 4)

    assert sorted(results) == [0, 0, 0, 2]
    assert RatingJob.objects.get(scope=scope).runs == 1
    assert RatingHistory.objects.filter(season=game.season).count() == 8


assert connection  # the skip condition above reads it
