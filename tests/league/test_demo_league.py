"""The demo league that `make run` shows (league/management/commands/demo_data.py)."""

import pytest
from django.core.management import call_command
from django.test import override_settings

from league.models import Club, Deal, Game, Rating, Season
from league.selectors import season_standings


@pytest.mark.django_db(transaction=True)
@override_settings(DEBUG=True)
def test_demo_data_creates_a_finished_season_once():
    call_command("demo_data")
    counts = (Club.objects.count(), Season.objects.count(), Game.objects.count(),
              Deal.objects.count(), Rating.objects.count())
    call_command("demo_data")

    assert (Club.objects.count(), Season.objects.count(), Game.objects.count(),
            Deal.objects.count(), Rating.objects.count()) == counts
    club = Club.objects.get(name="Demo Club")
    assert list(club.organisers.values_list("username", flat=True)) == ["organiser"]
    season = club.seasons.get()
    assert (season.preset, season.scoring) == ("classic", {"system": "penalty", "limit": 4})
    assert season.games.count() == 4
    assert not season.games.exclude(status=Game.FINISHED).exists()
    assert club.players.count() == 8
    assert len(season_standings(season=season)) == 8
    # ratings ran eagerly on commit: one per player for the season and all-time
    assert Rating.objects.filter(season=season).count() == 8
    assert Rating.objects.filter(season=None).count() == 8
