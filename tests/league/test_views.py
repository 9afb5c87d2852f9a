"""Public pages: anyone reads standings and ratings, and sees when ratings are updating."""

import pytest
from django.urls import reverse

from league import services
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
