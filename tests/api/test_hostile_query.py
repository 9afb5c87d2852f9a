"""A hostile client's query strings: each refused naming the parameter, never read in part or
answered with a 500."""

import pytest
from rest_framework.test import APIClient

from league.models import Game
from tests.league.factories import make_game, seated_ids

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("query", [
    "/api/v1/games/?status=finished&status=open",
    "/api/v1/clubs/?name=a&name=b",
    "/api/v1/games/?player=1&player=2",
    "/api/v1/clubs/?page=1&page=2",
    "/api/v1/ladder/?preset=classic&preset=lowball",
    "/api/v1/ladder-games/?kind=rated&kind=challenge",
])
def test_a_query_parameter_given_twice_is_refused_naming_it(query):
    """Which was meant? The lists read the last and said nothing (``status=finished&status=open``
    listed the open games)."""
    name = query.split("?")[1].split("=")[0]

    answer = APIClient().get(query)

    assert answer.status_code == 400, answer.content
    assert answer.json() == {name: [f"{name} is given 2 times; it takes one value"]}


def test_one_value_of_each_parameter_is_still_taken():
    Game.objects.filter(pk=make_game().pk).update(status=Game.FINISHED)
    make_game()  # open

    answer = APIClient().get("/api/v1/games/?status=finished&page=1")

    assert answer.status_code == 200
    assert answer.json()["count"] == 1


# Parameters a view reads itself (its ``query_parameters``); the filters' own fields refuse a
# NUL already. PostgreSQL refuses one in text: the ladder's ?owner= answered 500 there.
@pytest.mark.postgres
@pytest.mark.parametrize("query", [
    "/api/v1/ladder/?owner=%00",
    "/api/v1/ladder/?owner=ada%00",
    "/api/v1/ladder-games/?kind=%00",
    "/api/v1/ladder/?preset=%00classic",
])
def test_a_nul_character_in_a_query_parameter_is_refused_naming_it(query):
    name = query.split("?")[1].split("=")[0]

    answer = APIClient().get(query)

    assert answer.status_code == 400, answer.content
    assert answer.json() == {name: [f"{name} cannot hold a NUL character (\\x00)"]}


def test_rating_history_of_a_season_that_is_not_there_names_the_season(game):
    """It said "there is no player 1" of a player who is there."""
    player = seated_ids(game)[0]

    answer = APIClient().get(f"/api/v1/players/{player}/rating-history/?season=999999")

    assert answer.status_code == 404
    assert answer.json() == {"detail": "there is no season 999999"}
