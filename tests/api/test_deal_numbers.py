"""The API's side of one deal per number (issue #26, item 1): `number` in
`POST /api/v1/deals/`, a number already recorded answered 409 in words, nothing changed."""

import pytest

from league import services
from league.models import Deal
from tests.api.conftest import at_once, client_for, racing_table
from tests.league.factories import seated_ids
from tests.league.test_one_deal_per_number import names, snapshot

pytestmark = pytest.mark.django_db


def post_deal(client, game, order, number, key=None):
    headers = {"HTTP_IDEMPOTENCY_KEY": key} if key else {}
    return client.post("/api/v1/deals/", {"game": game.pk, "finishing_order": order,
                                          "number": number}, format="json", **headers)


def test_the_api_answers_409_for_a_deal_recorded_on_the_page_and_changes_nothing(
        game, organiser, organiser_client):
    order = seated_ids(game)  # the game has deal 1 already
    services.deal_record(game=game, finishing_order=order, number=2, source=Deal.PAGE,
                         by=organiser)
    before = snapshot(game)

    answer = post_deal(organiser_client, game, list(reversed(order)), 2, key="second-phone")

    assert answer.status_code == 409
    detail = answer.json()["detail"]
    assert detail.startswith("deal 2 was already recorded at ")
    assert f"from the entry page by {organiser.username} (finishing order: " \
           f"{names(game, order)})" in detail
    assert snapshot(game) == before


def test_the_api_needs_the_number_and_records_it_once_per_key(game, organiser_client):
    order = seated_ids(game)  # the game has deal 1 already

    unnamed = organiser_client.post("/api/v1/deals/", {"game": game.pk,
                                                       "finishing_order": order}, format="json")
    first = post_deal(organiser_client, game, order, 2, key="k1")
    replayed = post_deal(organiser_client, game, order, 2, key="k1")
    other_phone = post_deal(organiser_client, game, order, 2, key="k2")

    assert unnamed.status_code == 400 and "number" in unnamed.json()
    assert first.status_code == 201 and first.json()["source"] == "api"
    assert replayed.status_code == 201 and replayed.json() == first.json()
    assert other_phone.status_code == 409 and "from the API" in other_phone.json()["detail"]
    assert game.deal_set.count() == 2


def test_the_schema_documents_the_number_and_the_409():
    schema = client_for().get("/api/schema/", {"format": "json"}).json()
    record = schema["components"]["schemas"]["DealRecordRequest"]
    assert "number" in record["required"] and "409" in record["properties"]["number"][
        "description"]
    assert "409" in schema["paths"]["/api/v1/deals/"]["post"]["responses"]


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_two_phones_sending_the_same_deal_at_once_store_it_once():
    """Two keys (two phones), one deal number, at the same moment: one 201, one 409."""
    game, organiser = racing_table()
    answers = at_once(organiser, *(
        lambda client, key=key: post_deal(client, game, seated_ids(game), 1, key=key)
        for key in ("phone-1", "phone-2")))

    assert sorted(a.status_code for a in answers) == [201, 409]
    assert Deal.objects.filter(game=game).count() == 1
