"""Public pages: anyone reads standings and ratings, and sees when ratings are updating."""

import pytest
from django.urls import reverse

from league import rating_jobs, services
from league.models import RatingJob
from league.rules import rating_scope
from tests.league.factories import make_game, seated_ids

pytestmark = pytest.mark.django_db


def test_anyone_reads_a_seasons_standings_and_ratings(client, django_capture_on_commit_callbacks):
    game = make_game()
    with django_capture_on_commit_callbacks(execute=True):
        services.deal_record(game=game, finishing_order=seated_ids(game))
    first = game.seats.get(number=0).player.name

    page = client.get(reverse("league:season_detail", args=[game.season.pk]))

    assert page.status_code == 200
    assert first in page.text and "Standings" in page.text
    assert "Ratings are still updating" not in page.text
    assert game.season.name in client.get(reverse("league:club_list")).text


def test_the_season_page_says_when_ratings_are_still_updating(client):
    game = make_game()
    services.deal_record(game=game, finishing_order=seated_ids(game))  # on_commit never runs here
    assert RatingJob.stale_scopes(rating_scope(game.season))

    page = client.get(reverse("league:season_detail", args=[game.season.pk]))

    assert "Ratings are still updating" in page.text


def test_a_players_page_says_their_rating_is_updating_until_a_deleted_deal_is_replayed(
        client, django_capture_on_commit_callbacks):
    """An organiser deletes a deal entered by mistake. Until the recompute it sends has run, the
    player's rating and chart still count it (its rating history stays until then:
    league.models.RatingHistory): the player's page says the ratings are still updating, as
    the season page does, and no longer once the recompute ran."""
    game = make_game(season_kwargs={"scoring_limit": 50})
    with django_capture_on_commit_callbacks(execute=True):
        for _ in range(2):
            services.deal_record(game=game, finishing_order=seated_ids(game))
    player = game.seats.get(number=0).player
    address = reverse("league:player_detail", args=[player.pk])
    assert "Ratings are still updating" not in client.get(address).text

    services.deal_delete(deal=game.deal_set.get(number=2))  # on_commit never runs here

    page = client.get(address).text
    assert "after 2 deals" in page  # the deleted deal still counted, for now
    assert "Ratings are still updating" in page
    for scope in (rating_scope(game.season), rating_scope(None)):
        rating_jobs.ratings_recompute(scope=scope)
    page = client.get(address).text
    assert "after 1 deal." in page and "Ratings are still updating" not in page
