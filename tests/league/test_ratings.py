"""OpenSkill ratings per season and all-time, recomputed by coalesced Celery tasks."""

from unittest import mock

import pytest

from league import rating_jobs, services
from league.models import Rating, RatingHistory, RatingJob
from league.ratings import replay
from league.rules import rating_scope
from league.selectors import rating_history, ratings_updating, season_ratings
from tests.league.factories import make_game, make_season, seated_ids

pytestmark = pytest.mark.django_db


def expected_ratings(orders):
    """The ratings a from-scratch replay of these finishing orders gives."""
    _, state = replay(list(enumerate(orders, start=1)), {})
    return {p: (pytest.approx(mu), pytest.approx(sigma), n) for p, (mu, sigma, n) in state.items()}


def current(season):
    return {r.player_id: (r.mu, r.sigma, r.deals) for r in Rating.objects.filter(season=season)}


def test_each_deal_updates_the_season_and_all_time_ratings_on_commit(
        django_capture_on_commit_callbacks):
    season = make_season(scoring_limit=6)
    game = make_game(season=season)
    a, b, c, d = seated_ids(game)
    orders = [[a, b, c, d], [b, a, d, c], [a, c, b, d]]
    for order in orders:
        with django_capture_on_commit_callbacks(execute=True):
            services.deal_record(game=game, finishing_order=order)

    assert current(season) == expected_ratings(orders)
    assert current(None) == expected_ratings(orders)
    assert [r.player_id for r in season_ratings(season=season)][0] == a
    history = rating_history(player=game.seats.get(player_id=a).player, season=season)
    assert len(history) == 3 and history[0][1] > 25  # first out: mu rose from 25
    assert not ratings_updating(season=season)


def test_ten_quick_edits_enqueue_one_recomputation_per_scope_and_it_matches_a_fresh_replay(
        django_capture_on_commit_callbacks):
    season = make_season(scoring_limit=6)
    game = make_game(season=season)
    a, b, c, d = seated_ids(game)
    with django_capture_on_commit_callbacks(execute=True):
        first = services.deal_record(game=game, finishing_order=[a, b, c, d])
        services.deal_record(game=game, finishing_order=[b, a, c, d])
    runs_before = dict(RatingJob.objects.values_list("scope", "runs"))

    with mock.patch("league.tasks.ratings_recompute_task.apply_async") as send:
        with django_capture_on_commit_callbacks(execute=True):
            for i in range(10):
                order = [a, b, c, d] if i % 2 else [d, c, b, a]
                services.deal_edit(deal=first, finishing_order=order)

    assert sorted(call.args[0][0] for call in send.call_args_list) == sorted(
        [rating_scope(season), rating_scope(None)])
    assert ratings_updating(season=season)

    for scope in (rating_scope(season), rating_scope(None)):
        assert rating_jobs.ratings_recompute(scope=scope) == 2
        assert rating_jobs.ratings_recompute(scope=scope) == 0  # idempotent: nothing left to do
    runs_after = dict(RatingJob.objects.values_list("scope", "runs"))
    assert {k: runs_after[k] - runs_before[k] for k in runs_after} == {
        rating_scope(season): 1, rating_scope(None): 1}
    assert not ratings_updating(season=season)
    expected = expected_ratings([[a, b, c, d], [b, a, c, d]])  # the tenth edit stands
    assert current(season) == expected
    assert current(None) == expected
    assert RatingHistory.objects.filter(season=season).count() == 8


def test_deleting_a_deal_recomputes_ratings_without_it(django_capture_on_commit_callbacks):
    season = make_season(scoring_limit=6)
    game = make_game(season=season)
    a, b, c, d = seated_ids(game)
    with django_capture_on_commit_callbacks(execute=True):
        services.deal_record(game=game, finishing_order=[a, b, c, d])
        middle = services.deal_record(game=game, finishing_order=[d, c, b, a])
        services.deal_record(game=game, finishing_order=[c, a, b, d])
    with django_capture_on_commit_callbacks(execute=True):
        services.deal_delete(deal=middle)

    assert current(season) == expected_ratings([[a, b, c, d], [c, a, b, d]])
    assert not RatingHistory.objects.filter(deal_id=middle.pk).exists()


def test_season_ratings_are_separate_and_all_time_runs_across_seasons(
        django_capture_on_commit_callbacks):
    first = make_game(season=make_season(scoring_limit=6))
    players = [s.player for s in first.seats.order_by("number")]
    other_season = make_season(club=first.season.club, scoring_limit=6)
    second = make_game(season=other_season, players=players)
    ids = [p.pk for p in players]
    with django_capture_on_commit_callbacks(execute=True):
        services.deal_record(game=first, finishing_order=ids)
        services.deal_record(game=second, finishing_order=ids[::-1])

    assert current(first.season) == expected_ratings([ids])
    assert current(other_season) == expected_ratings([ids[::-1]])
    assert current(None) == expected_ratings([ids, ids[::-1]])


def test_a_lost_recomputation_can_be_requested_again(django_capture_on_commit_callbacks):
    season = make_season()
    game = make_game(season=season)
    order = seated_ids(game)
    with django_capture_on_commit_callbacks(execute=True):
        services.deal_record(game=game, finishing_order=order)
    Rating.objects.all().delete()
    RatingHistory.objects.all().delete()

    with django_capture_on_commit_callbacks(execute=True):
        rating_jobs.ratings_request(scope=rating_scope(season))

    assert current(season) == expected_ratings([order])


def test_the_reconciler_brings_every_stale_scope_up_to_date(settings):
    """A scope left stale with no task on its way (lost, or never sent while the broker was
    down, tests/league/test_broker_outage.py) is recomputed when celery beat runs the
    reconciler; scopes already up to date are left alone."""
    from config.celery_app import app
    from league import tasks

    game = make_game(season_kwargs={"scoring_limit": 6})
    order = seated_ids(game)
    services.deal_record(game=game, finishing_order=order)  # eager: rated at once
    RatingJob.objects.update(dirty_from=0)  # as if the task had never been sent
    Rating.objects.all().delete()
    up_to_date = RatingJob.objects.create(scope="season:0")

    assert tasks.ratings_reconcile_task() == 2

    assert not RatingJob.objects.filter(dirty_from__isnull=False).exists()
    assert RatingJob.objects.get(pk=up_to_date.pk).runs == 0
    assert current(None) == expected_ratings([order])
    assert current(game.season) == expected_ratings([order])
    beat = settings.CELERY_BEAT_SCHEDULE["ratings-reconcile"]
    assert beat["task"] == tasks.ratings_reconcile_task.name
    assert beat["task"] in app.tasks
