"""Season rules the engine cannot play at any table are refused when the season is created or
changed, naming the option (issue #16), not accepted and then refused for every game."""

import datetime

import pytest

from league import services
from league.errors import LeagueError
from league.models import Season
from tests.api.conftest import client_for
from tests.league.factories import ClubFactory, UserFactory, make_season

pytestmark = pytest.mark.django_db


@pytest.fixture
def organiser():
    user = UserFactory(username="org")
    club = ClubFactory(name="Home")
    club.organisers.add(user)
    return club, client_for(user, token=True)


@pytest.mark.parametrize(("options", "named"), [
    ({"jokers": 10**30}, "jokers"),
    ({"jokers": -1}, "jokers"),
    ({"decks": 10**30}, "decks"),
    ({"decks": 0}, "decks"),
])
def test_options_no_table_can_play_are_refused_on_create_and_update(organiser, options, named):
    club, client = organiser

    created = client.post("/api/v1/seasons/", {"club": club.pk, "name": "Wild",
                                               "starts_on": "2025-03-01", "options": options},
                          format="json")
    season = make_season(club=club)
    updated = client.patch(f"/api/v1/seasons/{season.pk}/", {"options": options}, format="json")

    for response in (created, updated):
        assert response.status_code == 400
        [said] = response.json()["options"][named]
        assert said.startswith(f"season options: option {named!r} must be from")
    assert not Season.objects.filter(name="Wild").exists()
    assert Season.objects.get(pk=season.pk).options == {}


def test_options_playable_at_some_table_are_kept():
    season = make_season(options={"blind": True})  # two players only, but playable
    assert season.options == {"blind": True}


@pytest.mark.parametrize("field", ["scoring_limit", "scoring_target", "scoring_deals"])
def test_a_scoring_number_beyond_what_a_season_stores_is_refused_by_name(field):
    system = {"scoring_target": "first-to-eleven", "scoring_deals": "fixed-rounds"}.get(
        field, "penalty")

    with pytest.raises(LeagueError, match=f"{field.removeprefix('scoring_')} must be at most"):
        services.season_create(club=ClubFactory(), name="Long", starts_on=datetime.date(2025, 1, 1),
                               scoring={"system": system, field.removeprefix("scoring_"): 10**9})
