"""OpenSkill ratings per season and all-time, recomputed by coalesced Celery tasks."""

import random
from unittest import mock

import pytest

from league import rating_jobs, services
from league.errors import LeagueError
from league.models import Deal, Game, Rating, RatingHistory, RatingJob, RatingStale
from league.ratings import replay
from league.rules import rating_scope
from league.selectors import rating_history, ratings_updating, season_ratings
from tests.league.factories import ClubFactory, PlayerFactory, make_game, make_season, seated_ids

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


def test_ten_quick_edits_send_one_recompute_per_scope_replayed_once_as_a_fresh_replay(
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

    # The first edit sends its scopes' recompute; the others find it on its way (their
    # scopes already stale) and send nothing, so a busy night sends no flood of tasks.
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

    assert RatingJob.stale_scopes() == set()
    assert RatingJob.objects.get(pk=up_to_date.pk).runs == 0
    assert current(None) == expected_ratings([order])
    assert current(game.season) == expected_ratings([order])
    beat = settings.CELERY_BEAT_SCHEDULE["ratings-reconcile"]
    assert beat["task"] == tasks.ratings_reconcile_task.name
    assert beat["task"] in app.tasks


def replayed_from_scratch(season):
    """Every rating of a scope (a season, or all-time when None) as a from-scratch replay of
    the deals that exist gives them: player -> (mu, sigma, deals rated)."""
    deals = Deal.objects.all() if season is None else Deal.objects.filter(game__season=season)
    orders = [(deal.pk, [p.player_id for p in deal.places.order_by("position")])
              for deal in deals.order_by("pk")]
    _, state = replay(orders, {})
    return {p: (pytest.approx(mu), pytest.approx(sigma), n) for p, (mu, sigma, n) in state.items()}


def test_a_player_whose_only_deal_is_deleted_has_no_rating_left(
        django_capture_on_commit_callbacks):
    season = make_season()
    game = make_game(season=season)
    with django_capture_on_commit_callbacks(execute=True):
        only = services.deal_record(game=game, finishing_order=seated_ids(game))
    with django_capture_on_commit_callbacks(execute=True):
        services.deal_delete(deal=only)

    assert current(season) == {}
    assert current(None) == {}
    assert not RatingHistory.objects.exists()


def test_undoing_the_third_deal_leaves_two_rated_deals(django_capture_on_commit_callbacks):
    season = make_season(scoring_limit=6)
    game = make_game(season=season)
    a, b, c, d = seated_ids(game)
    orders = [[a, b, c, d], [b, a, d, c], [a, c, b, d]]
    with django_capture_on_commit_callbacks(execute=True):
        for order in orders:
            last = services.deal_record(game=game, finishing_order=order)
    with django_capture_on_commit_callbacks(execute=True):
        services.deal_undo(game=game, deal_id=last.pk)

    assert {n for *_, n in current(season).values()} == {2}
    assert current(season) == expected_ratings(orders[:2])
    assert current(None) == expected_ratings(orders[:2])


def test_the_full_rebuild_removes_a_rating_no_deal_backs(django_capture_on_commit_callbacks):
    """A rating left behind by an earlier defect (its player's only deal deleted) is gone
    after ratings_request, the documented rebuild of a scope from scratch."""
    season = make_season()
    game = make_game(season=season)
    order = seated_ids(game)
    with django_capture_on_commit_callbacks(execute=True):
        services.deal_record(game=game, finishing_order=order)
    stray = PlayerFactory(clubs=[season.club])
    for scope_season in (season, None):
        Rating.objects.create(player=stray, season=scope_season, mu=30, sigma=5, ordinal=15,
                              deals=1)

    with django_capture_on_commit_callbacks(execute=True):
        for scope_season in (season, None):
            rating_jobs.ratings_request(scope=rating_scope(scope_season))

    assert current(season) == replayed_from_scratch(season) == expected_ratings([order])
    assert current(None) == replayed_from_scratch(None)


class Writes:
    """Random writes to two seasons of one club, each as the site makes it (services), with
    the tasks the writes send run on commit as the worker would."""

    def __init__(self, rng, capture):
        self.rng = rng
        self.capture = capture
        club = ClubFactory()
        self.players = [PlayerFactory(clubs=[club]) for _ in range(7)]
        self.seasons = [make_season(club=club, scoring_limit=40) for _ in range(2)]

    def run(self, steps):
        for _ in range(steps):
            write = self.rng.choice([self.record] * 6 + [
                self.new_game, self.played, self.edit, self.delete, self.undo,
                self.seat_change, self.time_called, self.player_removed])
            with self.capture(execute=True):
                try:
                    write()
                except LeagueError:
                    pass  # refused as a whole: nothing changed

    def open_game(self):
        games = list(Game.objects.filter(status=Game.OPEN).order_by("pk"))
        return self.rng.choice(games) if games else self.new_game()

    def some_deal(self):
        deals = list(Deal.objects.order_by("pk"))
        return self.rng.choice(deals) if deals else None

    def new_game(self):
        table = self.rng.sample(self.players, self.rng.choice([3, 4, 5]))
        return services.game_create(season=self.rng.choice(self.seasons), players=table)

    def record(self):
        game = self.open_game()
        number = (game.deal_set.count() or 0) + 1
        seated = [s.player_id for s in game.seats.all() if s.plays_in(number)]
        self.rng.shuffle(seated)
        services.deal_record(game=game, finishing_order=seated)

    def played(self):
        table = self.rng.sample(self.players, 4)
        orders = [self.rng.sample(range(4), 4) for _ in range(self.rng.randint(1, 3))]
        services.game_store_played(season=self.rng.choice(self.seasons), players=table,
                                   dealer=0, finishing_orders=orders, totals=[0] * 4,
                                   winners=[], over=True)

    def edit(self):
        deal = self.some_deal()
        if deal is not None:
            order = [p.player_id for p in deal.places.all()]
            self.rng.shuffle(order)
            services.deal_edit(deal=deal, finishing_order=order)

    def delete(self):
        deal = self.some_deal()
        if deal is not None:
            services.deal_delete(deal=deal)

    def undo(self):
        game = self.open_game()
        last = game.deal_set.order_by("-number").first()
        if last is not None:
            services.deal_undo(game=game, deal_id=last.pk)

    def seat_change(self):
        game = self.open_game()
        number = game.deal_set.count() + 1
        seated = [s.player for s in game.seats.select_related("player") if s.plays_in(number)]
        others = [p for p in self.players if p.pk not in {s.player_id for s in game.seats.all()}]
        if self.rng.random() < 0.5 or not others:
            services.seat_change_apply(game=game, leaving=[self.rng.choice(seated)])
        else:
            services.seat_change_apply(game=game, joining=[self.rng.choice(others)])

    def time_called(self):
        services.game_time_called(game=self.open_game())

    def player_removed(self):
        player = self.rng.choice(self.players)
        club = self.seasons[0].club
        if player.clubs.filter(pk=club.pk).exists():
            services.player_leave_club(player=player, club=club)
        else:
            services.player_join_club(player=player, club=club)


@pytest.mark.parametrize("seed", range(6))
def test_after_any_writes_every_rating_equals_a_replay_from_scratch(
        seed, django_capture_on_commit_callbacks):
    writes = Writes(random.Random(seed), django_capture_on_commit_callbacks)
    for _ in range(4):
        writes.run(steps=8)
        for season in (*writes.seasons, None):
            assert current(season) == replayed_from_scratch(season), (seed, season)
            assert RatingHistory.objects.filter(season=season).count() == sum(
                n for *_, n in current(season).values())


def test_a_season_scope_with_no_season_left_is_dropped_with_its_stale_marks(
        django_capture_on_commit_callbacks):
    RatingStale.objects.create(scope="season:0", from_deal=1)  # its season was never there

    with django_capture_on_commit_callbacks(execute=True):
        assert rating_jobs.ratings_recompute(scope="season:0") == 0

    assert RatingJob.stale_scopes() == set()
    assert not RatingJob.objects.filter(scope="season:0").exists()
