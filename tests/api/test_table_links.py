"""A table link in the API (league/api/table_links.py, issue #28): with its token, a script
records deals of the link's own game and nothing else; a phone's session that opened the link
is an anonymous visitor to the API; organisers revoke a link."""

import pytest
from django.urls import reverse
from rest_framework.test import APIClient

from league import services
from league.models import Deal, IdempotentRequest, TableLink
from tests.api.conftest import client_for
from tests.league.factories import PlayerFactory, UserFactory, make_season, seated_ids
from tests.league.test_table_links import confirmed_round

pytestmark = pytest.mark.django_db


@pytest.fixture
def games():
    return confirmed_round()[1]


@pytest.fixture
def organiser(games):
    return games[0].season.club.organisers.get()


def with_link(link) -> APIClient:
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"TableLink {link.token}")
    return client


def deal_of(game, number=1):
    return {"game": game.pk, "number": number, "finishing_order": seated_ids(game)}


def test_the_link_records_a_deal_of_its_game_said_to_come_from_it(games):
    game = games[0]
    link = game.table_links.get()
    answer = with_link(link).post("/api/v1/deals/", deal_of(game), format="json")
    assert answer.status_code == 201, answer.json()
    assert (answer.json()["source"], answer.json()["table_link"]) == ("link", link.pk)
    assert game.deal_set.get().table_link == link


def test_the_link_records_once_per_idempotency_key_under_its_own_name(games):
    game = games[0]
    client = with_link(game.table_links.get())
    answers = [client.post("/api/v1/deals/", deal_of(game), format="json",
                           headers={"Idempotency-Key": "k1"}) for _ in range(2)]
    assert [a.status_code for a in answers] == [201, 201]
    assert answers[1].headers["Idempotent-Replayed"] == "true"
    assert game.deal_set.count() == 1
    assert IdempotentRequest.objects.get().table_link == game.table_links.get()


def test_the_link_is_refused_for_another_games_deal(games):
    game, other = games
    answer = with_link(game.table_links.get()).post("/api/v1/deals/", deal_of(other),
                                                    format="json")
    assert answer.status_code == 403
    assert "its own game only" in answer.json()["detail"]
    assert not other.deal_set.exists()


def test_the_link_changes_nothing_else(games):
    game = games[0]
    link = game.table_links.get()
    deal = services.deal_record(game=game, finishing_order=seated_ids(game), table_link=link)
    client = with_link(link)
    writes = [
        client.put(f"/api/v1/deals/{deal.pk}/", {"finishing_order": seated_ids(game)[::-1]},
                   format="json"),
        client.delete(f"/api/v1/deals/{deal.pk}/"),
        client.post(f"/api/v1/games/{game.pk}/seat-changes/",
                    {"leaving": [seated_ids(game)[0]]}, format="json"),
        client.post(f"/api/v1/games/{game.pk}/time-called/"),
        client.post(f"/api/v1/games/{game.pk}/reopen/"),
        client.post(f"/api/v1/table-links/{link.pk}/revoke/"),
        client.post("/api/v1/games/", {"season": game.season_id, "dealer": 0,
                                       "players": seated_ids(game)}, format="json"),
    ]
    assert [w.status_code for w in writes] == [403, 403, 401, 401, 401, 401, 401]
    assert list(game.deal_set.values_list("pk", flat=True)) == [deal.pk]
    assert game.deal_set.get().places.first().player_id == seated_ids(game)[0]
    assert game.seats.filter(left_before__isnull=False).count() == 0
    assert TableLink.objects.get(pk=link.pk).revoked_at is None


def test_a_phones_session_with_the_link_is_anonymous_to_the_api(client, games):
    game = games[0]
    client.get(reverse("league:table_link_open", args=[game.table_links.get().token]))
    answer = client.post("/api/v1/deals/", deal_of(game), content_type="application/json")
    assert answer.status_code in (401, 403)
    assert not game.deal_set.exists()


@pytest.mark.parametrize("header", ["TableLink nope", "TableLink", "TableLink a b"])
def test_a_bad_table_link_header_is_refused(games, header):
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=header)
    answer = client.post("/api/v1/deals/", deal_of(games[0]), format="json")
    assert answer.status_code == 401
    assert not Deal.objects.exists()


def test_an_organiser_revokes_a_link_and_it_records_no_more(games, organiser):
    game = games[0]
    link = game.table_links.get()
    revoked = client_for(organiser).post(f"/api/v1/table-links/{link.pk}/revoke/")
    assert revoked.status_code == 200 and revoked.json()["revoked_at"] is not None
    answer = with_link(link).post("/api/v1/deals/", deal_of(game), format="json")
    assert answer.status_code == 401 and "revoked" in answer.json()["detail"]
    assert not game.deal_set.exists()


def test_time_called_stops_the_link_in_the_api(games, organiser):
    game = games[0]
    link = game.table_links.get()
    services.deal_record(game=game, finishing_order=seated_ids(game), table_link=link)
    services.game_time_called(game=game, by=organiser)
    answer = with_link(link).post("/api/v1/deals/", deal_of(game, 2), format="json")
    assert answer.status_code == 401 and "time was called" in answer.json()["detail"]


def test_only_the_clubs_organisers_see_or_revoke_a_link(games):
    link = games[0].table_links.get()
    stranger = client_for(UserFactory(username="stranger"))
    assert stranger.get(f"/api/v1/table-links/{link.pk}/").status_code == 403
    assert stranger.post(f"/api/v1/table-links/{link.pk}/revoke/").status_code == 403
    assert APIClient().get(f"/api/v1/table-links/{link.pk}/").status_code == 401
    assert TableLink.objects.get(pk=link.pk).revoked_at is None


def test_revoke_and_the_table_link_scheme_are_in_the_schema(client):
    schema = client.get("/api/schema/", headers={"Accept": "application/json"}).json()
    assert "post" in schema["paths"]["/api/v1/table-links/{id}/revoke/"]
    assert schema["components"]["securitySchemes"]["tableLink"]["in"] == "header"


def test_confirming_a_round_in_the_api_names_each_games_link_for_its_organiser(organiser):
    season = make_season()
    season.club.organisers.add(organiser)
    ids = [PlayerFactory(clubs=[season.club]).pk for _ in range(4)]
    client = client_for(organiser)
    confirmed = client.post(f"/api/v1/seasons/{season.pk}/night-confirm/",
                            {"tables": [{"players": ids, "dealer": 0}]}, format="json")
    (game,) = confirmed.json()["games"]
    link = TableLink.objects.get(game_id=game["id"])
    assert game["table_link"] == link.pk
    assert client.get(f"/api/v1/table-links/{link.pk}/").json()["token"] == link.token
