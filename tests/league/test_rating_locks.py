"""Deal writers and the ratings recompute on PostgreSQL, in real threads with their own
connections: a writer waits for no other club's writer and for no running recompute, and what
it writes meanwhile is rated by a later recompute (league.rating_jobs)."""

import threading
from contextlib import contextmanager
from unittest import mock

import pytest
from django.db import connection, connections, transaction

from league import rating_jobs, services
from league.models import Deal, Rating, RatingJob, RatingStale
from league.ratings import replay
from league.rules import rating_scope
from tests.league.factories import make_game, make_season, seated_ids

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]

WAIT_SECONDS = 30  # how long a blocked thread may take: only a test that fails waits this long


@pytest.fixture(autouse=True)
def _postgres_only():
    if connection.vendor != "postgresql":
        pytest.skip("row locks are PostgreSQL's: run with DATABASE_URL=postgres://")


def in_thread(job):
    """Run ``job`` in a thread with its own connection; returns the thread and its outcome."""
    outcome = {}

    def run():
        try:
            outcome["result"] = job()
        except Exception as e:  # noqa: BLE001 - the test reads it
            outcome["error"] = e
        finally:
            connections.close_all()

    thread = threading.Thread(target=run)
    thread.start()
    return thread, outcome


def without_waiting(write):
    """``write`` in a transaction that may not wait for any lock: waiting is an error."""
    def job():
        with transaction.atomic():
            with connection.cursor() as cursor:
                cursor.execute("SET LOCAL lock_timeout = '2s'")
            return write()
    return job


def replayed_from_scratch(season):
    deals = Deal.objects.all() if season is None else Deal.objects.filter(game__season=season)
    orders = [(deal.pk, [p.player_id for p in deal.places.order_by("position")])
              for deal in deals.order_by("pk")]
    _, state = replay(orders, {})
    return {p: (pytest.approx(mu), pytest.approx(sigma), n) for p, (mu, sigma, n) in state.items()}


def current(season):
    return {r.player_id: (r.mu, r.sigma, r.deals) for r in Rating.objects.filter(season=season)}


@contextmanager
def recompute_paused(scope):
    """The scope's recompute in a thread, paused in its replay (after it read its stale rows
    and holds its job row) until the block is left; yields (the thread, its outcome). Leaving
    releases it and waits for its commit and its look for rows left."""
    replaying, release = threading.Event(), threading.Event()
    real_replay = rating_jobs.replay
    recomputer = []

    def paused_replay(*args):
        if threading.current_thread() is recomputer[0]:
            replaying.set()
            release.wait(WAIT_SECONDS)
        return real_replay(*args)

    with mock.patch("league.rating_jobs.replay", paused_replay):
        thread, recomputed = in_thread(lambda: rating_jobs.ratings_recompute(scope=scope))
        recomputer.append(thread)
        try:
            assert replaying.wait(WAIT_SECONDS), recomputed
            yield thread, recomputed
        finally:
            release.set()
            thread.join(WAIT_SECONDS)


def test_a_deal_at_one_club_does_not_wait_for_another_clubs_deal_still_being_written():
    first, other = make_game(season=make_season()), make_game(season=make_season())
    writing, release = threading.Event(), threading.Event()

    def held_open():
        with transaction.atomic():
            services.deal_record(game=first, finishing_order=seated_ids(first))
            writing.set()
            release.wait(WAIT_SECONDS)

    holder, held = in_thread(held_open)
    assert writing.wait(WAIT_SECONDS), held
    try:
        writer, wrote = in_thread(without_waiting(
            lambda: services.deal_record(game=other, finishing_order=seated_ids(other))))
        writer.join(WAIT_SECONDS)
    finally:
        release.set()
        holder.join(WAIT_SECONDS)

    assert "error" not in wrote, wrote
    assert "error" not in held, held
    assert Deal.objects.filter(game__in=[first, other]).count() == 2
    for season in (first.season, other.season, None):
        assert current(season) == replayed_from_scratch(season)


def test_deals_recorded_and_deleted_during_a_recompute_are_rated_after_it():
    season = make_season(scoring_limit=100)
    game, other = make_game(season=season), make_game(season=make_season())
    for order in ([0, 1, 2, 3], [3, 2, 1, 0], [1, 0, 3, 2]):
        seated = seated_ids(game)
        services.deal_record(game=game, finishing_order=[seated[i] for i in order])
    RatingJob.objects.filter(scope=rating_scope(None)).update(dirty_from=0)

    with recompute_paused(rating_scope(None)) as (_, recomputed):
        writes = []
        for write in (
                lambda: services.deal_record(game=other, finishing_order=seated_ids(other)),
                lambda: services.deal_delete(deal=Deal.objects.get(game=game, number=2)),
                lambda: services.deal_edit(deal=Deal.objects.get(game=game, number=1),
                                           finishing_order=seated_ids(game)[::-1])):
            writes.append(in_thread(without_waiting(write)))
            writes[-1][0].join(WAIT_SECONDS)

    assert [outcome for _, outcome in writes if "error" in outcome] == []
    assert "error" not in recomputed, recomputed
    assert Deal.objects.filter(game=game).count() == 2
    for scope_season in (season, other.season, None):
        assert current(scope_season) == replayed_from_scratch(scope_season)
    assert RatingJob.stale_scopes() == set()


def test_a_deal_committed_just_after_the_running_recompute_of_its_scope_is_rated():
    """The writer finds the scope stale (the running recompute's row, not deleted yet) and so
    sends nothing; the recompute commits and looks for rows left before the writer commits, so
    it finds none; the writer's deal must still be rated, not wait for the reconciler."""
    season, other_season = make_season(), make_season()
    game, other = make_game(season=season), make_game(season=other_season)
    first = services.deal_record(game=game, finishing_order=seated_ids(game))
    # A deal whose all-time recompute is the one about to run.
    RatingStale.objects.create(scope=rating_scope(None), from_deal=first.pk)
    written, commit = threading.Event(), threading.Event()

    def write_then_wait():
        with transaction.atomic():
            deal = services.deal_record(game=other, finishing_order=seated_ids(other))
            written.set()
            commit.wait(WAIT_SECONDS)
        return deal

    writer, wrote = None, {}
    try:
        with recompute_paused(rating_scope(None)) as (thread, recomputed):
            writer, wrote = in_thread(write_then_wait)
            assert written.wait(WAIT_SECONDS), wrote
        # left: the recompute committed and looked for rows left, the writer not yet
    finally:
        commit.set()
        if writer is not None:
            writer.join(WAIT_SECONDS)

    assert not thread.is_alive() and not writer.is_alive()
    assert "error" not in recomputed, recomputed
    assert recomputed["result"] == 1  # it replayed the first deal only: the other was not there
    assert "error" not in wrote, wrote
    assert RatingJob.stale_scopes() == set()
    for scope_season in (season, other_season, None):
        assert current(scope_season) == replayed_from_scratch(scope_season)
