"""Cancel and close through the API and the admin (issue #28): the same services as the night
page; a game with deals answers 409; the operations are in the schema."""

import pytest
from django.urls import reverse

from league import nights, services
from league.models import Game
from tests.api.conftest import at_once, client_for, racing_table
from tests.league.factories import PlayerFactory, UserFactory, make_season, seated_ids

pytestmark = pytest.mark.django_db


@pytest.fixture
def night():
    season = make_season(scoring_limit=20)
    organiser = UserFactory(username="night-organiser")
    season.club.organisers.add(organiser)
    people = [PlayerFactory(name=f"P{i}", clubs=[season.club]) for i in range(8)]
    games = nights.night_confirm(season=season, tables=[(people[:4], 0), (people[4:], 0)])
    return season, games, organiser


def test_api_cancels_a_game_and_refuses_one_with_deals(night):
    season, (one, two), organiser = night
    api = client_for(organiser, token=True)
    services.deal_record(game=one, finishing_order=seated_ids(one))
    refused = api.post(f"/api/v1/games/{one.pk}/cancel/")
    assert refused.status_code == 409
    assert "game 1 has 1 deal" in refused.json()["detail"]
    answer = api.post(f"/api/v1/games/{two.pk}/cancel/")
    assert answer.status_code == 200 and answer.json()["status"] == "cancelled"
    stranger = client_for(UserFactory(username="stranger"), token=True)
    assert stranger.post(f"/api/v1/games/{one.pk}/cancel/").status_code == 403


def test_api_cancels_a_round_and_ends_the_night(night):
    season, (one, two), organiser = night
    api = client_for(organiser, token=True)
    assert api.post(f"/api/v1/seasons/{season.pk}/night-cancel-round/", {"round": 2},
                    format="json").status_code == 400
    seated = api.post(f"/api/v1/seasons/{season.pk}/night-confirm/", {"tables": [
        {"players": seated_ids(one), "dealer": 0}], "round": 2, "while_in_play": True},
        format="json")
    assert seated.status_code == 409
    assert "P3 are still playing at round 1, table 1 (game 1)" in seated.json()["detail"]
    newcomers = [PlayerFactory(clubs=[season.club]).pk for _ in range(4)]
    in_play = api.post(f"/api/v1/seasons/{season.pk}/night-confirm/", {"tables": [
        {"players": newcomers, "dealer": 0}], "round": 2}, format="json")
    assert in_play.status_code == 409
    assert "round 1 is still in play" in in_play.json()["detail"]
    cancelled = api.post(f"/api/v1/seasons/{season.pk}/night-cancel-round/", {"round": 1},
                         format="json")
    assert [g["number"] for g in cancelled.json()] == [1, 2]
    players = [seat.player for seat in one.seats.order_by("number")]
    (again,) = nights.night_confirm(season=season, tables=[(players, 0)])
    services.deal_record(game=again, finishing_order=seated_ids(again))
    ended = api.post(f"/api/v1/seasons/{season.pk}/night-end/")
    assert ended.status_code == 200
    assert [(t["round"], t["table"], t["cancelled"], len(t["winners"]) > 0)
            for t in ended.json()] == [(1, 1, False, True)]
    assert Game.objects.get(pk=again.pk).status == Game.FINISHED


def test_schema_has_cancel_and_end_of_night(client):
    paths = client.get("/api/schema/?format=json").json()["paths"]
    for path in ("/api/v1/games/{id}/cancel/", "/api/v1/seasons/{id}/night-cancel-round/",
                 "/api/v1/seasons/{id}/night-end/"):
        assert "post" in paths[path], path


def test_the_admin_cancels_selected_games_through_the_service(client, night):
    season, (one, two), organiser = night
    services.deal_record(game=one, finishing_order=seated_ids(one))
    client.force_login(organiser)
    answer = client.post(reverse("admin:league_game_changelist"), {
        "action": "cancel_games", "_selected_action": [one.pk, two.pk]}, follow=True)
    assert "game 1 has 1 deal" in answer.text and "game 2: cancelled" in answer.text
    assert dict(Game.objects.values_list("number", "status")) == {
        1: Game.OPEN, 2: Game.CANCELLED}


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_two_confirms_of_the_same_round_at_once_create_it_once():
    """Two organisers' phones confirm round 1 at the same moment: one 201, one 409."""
    game, organiser = racing_table()
    Game.objects.filter(pk=game.pk).delete()  # only its season and players are wanted
    players = list(game.season.club.players.order_by("pk"))
    body = {"tables": [{"players": [p.pk for p in players], "dealer": 0}], "round": 1}
    answers = at_once(organiser, *(
        lambda client: client.post(f"/api/v1/seasons/{game.season.pk}/night-confirm/", body,
                                   format="json") for _ in range(2)))
    assert sorted(a.status_code for a in answers) == [201, 409]
    assert Game.objects.filter(season=game.season).count() == 1
