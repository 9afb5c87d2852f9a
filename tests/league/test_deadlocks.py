"""Deals recorded and deleted while ratings are recomputed, at once, on PostgreSQL (issue #16):
every writer takes its locks in one order (game, season's rating job, all-time rating job), so
none deadlocks. Real threads, each with its own database connection."""

import random
import threading

import pytest
from django.db import connection, connections

from league import rating_jobs, services
from league.models import Deal, RatingJob
from league.rules import rating_scope
from tests.league.factories import PlayerFactory, make_game, make_season

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]

DEALS_EACH = 8
ROUNDS = 8


def run_at_once(*jobs):
    """Run each job in its own thread, all starting together; returns their exceptions."""
    start = threading.Barrier(len(jobs))
    errors = []

    def run(job):
        try:
            start.wait()
            job()
        except Exception as e:  # noqa: BLE001 - every failure is the test's finding
            errors.append(e)
        finally:
            connections.close_all()

    threads = [threading.Thread(target=run, args=(job,)) for job in jobs]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return errors


def test_deleting_and_recording_deals_during_recomputes_never_deadlocks():
    if connection.vendor != "postgresql":
        pytest.skip("row locks and deadlocks are PostgreSQL's: run with DATABASE_URL=postgres://")
    season = make_season(scoring_limit=100)
    club = season.club
    people = [PlayerFactory(clubs=[club]) for _ in range(6)]
    games = [make_game(season=season, players=random.Random(i).sample(people, 4))
             for i in range(4)]
    for game in games:
        seated = list(game.seats.values_list("player_id", flat=True))
        for n in range(DEALS_EACH):
            services.deal_record(game=game, finishing_order=random.Random(n).sample(seated, 4))
    scopes = [rating_scope(season), rating_scope(None)]

    def recompute(scope):
        def job():
            for _ in range(ROUNDS):
                RatingJob.objects.filter(scope=scope).update(dirty_from=0)
                rating_jobs.ratings_recompute(scope=scope)
        return job

    def delete(game):
        def job():
            for n in range(ROUNDS):
                deals = list(Deal.objects.filter(game=game).order_by("number"))
                services.deal_delete(deal=deals[n % len(deals)])
        return job

    def record(game):
        def job():
            seated = list(game.seats.values_list("player_id", flat=True))
            for n in range(ROUNDS):
                services.deal_record(game=game, finishing_order=random.Random(n).sample(seated, 4))
        return job

    errors = run_at_once(*(recompute(s) for s in scopes), delete(games[0]), delete(games[1]),
                         record(games[2]), record(games[3]))

    assert errors == []
    counts = [Deal.objects.filter(game=g).count() for g in games]
    assert counts == [DEALS_EACH - ROUNDS] * 2 + [DEALS_EACH + ROUNDS] * 2
