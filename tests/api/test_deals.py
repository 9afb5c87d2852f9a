"""Recording, correcting and deleting deals through the API, and who may do it."""

import pytest

from gameplay.engine.options import preset
from gameplay.engine.scoring import Scoring
from gameplay.engine.selfplay import play_random_game
from league.models import AuditEntry, Deal, Game, IdempotentRequest, Place, Seat
from tests.league.factories import seated_ids

pytestmark = pytest.mark.django_db


def one_deal_transcript(game, seed=3):
    t = play_random_game(preset(game.season.preset), game.seats.count(), seed=seed,
                         scoring=Scoring("penalty"))
    t.pop("scoring")
    t["deals"] = t["deals"][:1]
    return t


def snapshot(game):
    """Everything a write could change, to show a refused one changed nothing."""
    return (list(Deal.objects.filter(game=game).values_list("id", "number", "transcript")),
            list(Place.objects.filter(deal__game=game).values_list("deal_id", "player_id",
                                                                    "position")),
            list(Seat.objects.filter(game=game).values_list("player_id", "points", "deals")),
            Game.objects.get(pk=game.pk).status, AuditEntry.objects.count(),
            IdempotentRequest.objects.count())


def test_an_organiser_records_a_deal_and_the_game_is_rescored(game, organiser_client):
    order = list(reversed(seated_ids(game)))

    response = organiser_client.post("/api/v1/deals/", {"game": game.pk, "number": 2,
                                                        "finishing_order": order},
                                     format="json")

    assert response.status_code == 201, response.json()
    body = response.json()
    assert body["number"] == 2
    assert [p["player"] for p in body["places"]] == order
    assert body["places"][0]["role"] == "president"
    assert body["recorded_by"] == "home-organiser"
    first = Seat.objects.get(game=game, player_id=order[0])
    assert (first.deals, first.presidents) == (2, 1)
    assert AuditEntry.objects.filter(action="deal recorded").count() == 2


def test_a_deal_recorded_from_a_transcript_takes_its_finishing_order(game, organiser_client):
    transcript = one_deal_transcript(game)

    response = organiser_client.post("/api/v1/deals/", {"game": game.pk, "number": 2,
                                                        "transcript": transcript},
                                     format="json")

    assert response.status_code == 201, response.json()
    assert response.json()["transcript"] == transcript
    assert Deal.objects.get(pk=response.json()["id"]).places.count() == 4


def test_a_faulty_transcript_answers_with_its_deal_move_and_error(game, organiser_client):
    transcript = one_deal_transcript(game)
    first = transcript["deals"][0]["moves"][0]
    transcript["deals"][0]["moves"][0] = {**first, "seat": (first["seat"] + 1) % 4}
    before = snapshot(game)

    response = organiser_client.post("/api/v1/deals/", {"game": game.pk, "number": 2,
                                                        "transcript": transcript},
                                     format="json")

    assert response.status_code == 400
    fault = response.json()["transcript"]
    assert fault["deal"] == 0 and fault["move"] == 0
    assert "turn" in fault["error"]
    assert snapshot(game) == before


def test_a_transcript_that_is_not_an_object_names_the_field(game, organiser_client):
    response = organiser_client.post("/api/v1/deals/", {"game": game.pk, "number": 2,
                                                        "transcript": [1]}, format="json")

    assert response.status_code == 400
    assert response.json() == {"transcript": ["a transcript is a JSON object (TRANSCRIPT.md)"]}


@pytest.mark.parametrize("body, field", [
    ({}, "game"),
    ({"game": 999_999, "finishing_order": [1, 2, 3, 4]}, "game"),
    ({"game": "GAME", "finishing_order": [1, 2, 3, 4]}, "game"),
    ({"finishing_order": "first"}, "finishing_order"),
    ({"finishing_order": [1, "x"]}, "finishing_order"),
])
def test_bad_input_names_the_field_and_changes_nothing(game, organiser_client, body, field):
    body = {"game": game.pk, **body} if "game" not in body and field != "game" else body
    before = snapshot(game)

    response = organiser_client.post("/api/v1/deals/", body, format="json")

    assert response.status_code == 400
    assert field in response.json(), response.json()
    assert snapshot(game) == before


def test_neither_order_nor_transcript_is_the_services_refusal(game, organiser_client):
    response = organiser_client.post("/api/v1/deals/", {"game": game.pk, "number": 2},
                                     format="json")

    assert response.status_code == 400
    assert response.json() == {"detail": "give a finishing order or a transcript"}


def test_the_leagues_refusal_is_shown_as_it_is(game, organiser_client):
    before = snapshot(game)
    order = seated_ids(game)[:3]

    response = organiser_client.post("/api/v1/deals/", {"game": game.pk, "number": 2,
                                                        "finishing_order": order},
                                     format="json")

    assert response.status_code == 400
    assert response.json()["detail"].startswith(
        "the finishing order of deal 2 must list each of the 4 seated players once")
    assert snapshot(game) == before


def test_an_organiser_corrects_a_deal_and_the_game_is_rescored(game, organiser_client):
    deal = game.deal_set.get()
    order = list(reversed(seated_ids(game)))

    response = organiser_client.put(f"/api/v1/deals/{deal.pk}/", {"finishing_order": order},
                                    format="json")

    assert response.status_code == 200, response.json()
    assert [p["player"] for p in response.json()["places"]] == order
    assert Seat.objects.get(game=game, player_id=order[0]).presidents == 1
    assert Seat.objects.get(game=game, player_id=order[-1]).presidents == 0


def test_an_organiser_deletes_a_deal_and_later_deals_move_up(game, organiser_client):
    first = game.deal_set.get()
    organiser_client.post("/api/v1/deals/", {"game": game.pk, "number": 2,
                                             "finishing_order": seated_ids(game)},
                          format="json")

    response = organiser_client.delete(f"/api/v1/deals/{first.pk}/")

    assert response.status_code == 204
    assert list(game.deal_set.values_list("number", flat=True)) == [1]
    assert Seat.objects.get(game=game, player_id=seated_ids(game)[0]).deals == 1


def test_a_deal_after_the_game_has_ended_is_refused(game, organiser_client):
    Game.objects.filter(pk=game.pk).update(status=Game.FINISHED)

    response = organiser_client.post("/api/v1/deals/", {"game": game.pk, "number": 2,
                                                        "finishing_order": seated_ids(game)},
                                     format="json")

    assert response.status_code == 400
    assert "has ended" in response.json()["detail"]


# Who may write: every write operation, every kind of outsider.

WRITES = {
    "record": lambda c, game, deal: c.post(
        "/api/v1/deals/", {"game": game.pk, "number": 2,
                           "finishing_order": seated_ids(game)},
        format="json"),
    "correct": lambda c, game, deal: c.put(
        f"/api/v1/deals/{deal.pk}/", {"finishing_order": list(reversed(seated_ids(game)))},
        format="json"),
    "delete": lambda c, game, deal: c.delete(f"/api/v1/deals/{deal.pk}/"),
}
OUTSIDERS = ["organiser of another club (session)", "organiser of another club (token)",
             "token without rights", "anonymous"]


@pytest.mark.parametrize("write", WRITES)
@pytest.mark.parametrize("who", OUTSIDERS)
def test_outsiders_are_refused_every_write_and_nothing_changes(game, outsider_clients, write,
                                                               who):
    deal = game.deal_set.get()
    before = snapshot(game)

    response = WRITES[write](outsider_clients[who], game, deal)

    expected = 401 if who == "anonymous" else 403
    assert response.status_code == expected, response.json()
    assert "detail" in response.json()
    assert snapshot(game) == before


@pytest.mark.parametrize("write", WRITES)
def test_the_clubs_organiser_may_do_every_write(game, organiser_client, write):
    response = WRITES[write](organiser_client, game, game.deal_set.get())

    assert response.status_code == {"record": 201, "correct": 200, "delete": 204}[write]


def test_a_superuser_writes_in_any_club(game):
    from tests.api.conftest import client_for
    from tests.league.factories import UserFactory

    admin = UserFactory(username="admin", is_superuser=True)

    response = WRITES["record"](client_for(admin, token=True), game, None)

    assert response.status_code == 201


def test_a_session_write_needs_the_csrf_token(game, organiser):
    from rest_framework.test import APIClient

    client = APIClient(enforce_csrf_checks=True)
    client.force_login(organiser)
    before = snapshot(game)

    response = WRITES["record"](client, game, None)

    assert response.status_code == 403
    assert "CSRF" in response.json()["detail"]
    assert snapshot(game) == before
