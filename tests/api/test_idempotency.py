"""Idempotency-Key on recording a deal: a re-sent request records once (docs/api.md)."""

import pytest

from league.models import Deal, IdempotentRequest
from tests.api.conftest import at_once, client_for, racing_table
from tests.league.factories import UserFactory, seated_ids


def record(client, game, key, order=None, number=2):
    return client.post("/api/v1/deals/", {"game": game.pk, "number": number,
                                          "finishing_order": order or seated_ids(game)},
                       format="json", HTTP_IDEMPOTENCY_KEY=key)


@pytest.mark.django_db
def test_a_double_submit_records_once_and_answers_the_same(game, organiser_client):
    first = record(organiser_client, game, "tap-1")
    again = record(organiser_client, game, "tap-1")

    assert first.status_code == again.status_code == 201
    assert again.json() == first.json()
    assert again.headers["Idempotent-Replayed"] == "true"
    assert "Idempotent-Replayed" not in first.headers
    assert game.deal_set.count() == 2


@pytest.mark.django_db
def test_a_new_key_records_a_new_deal(game, organiser_client):
    record(organiser_client, game, "tap-1")
    record(organiser_client, game, "tap-2", order=list(reversed(seated_ids(game))), number=3)

    assert game.deal_set.count() == 3


@pytest.mark.django_db
def test_the_same_key_with_another_body_is_refused_with_422(game, organiser_client):
    record(organiser_client, game, "tap-1")

    response = record(organiser_client, game, "tap-1", order=list(reversed(seated_ids(game))))

    assert response.status_code == 422
    assert "Idempotency-Key was already used with a different request" in \
        response.json()["detail"]
    assert game.deal_set.count() == 2


@pytest.mark.django_db
def test_keys_belong_to_their_user(game, organiser_client):
    colleague = UserFactory(username="colleague")
    game.season.club.organisers.add(colleague)

    record(organiser_client, game, "tap-1")
    response = record(client_for(colleague, token=True), game, "tap-1",
                      order=list(reversed(seated_ids(game))), number=3)

    assert response.status_code == 201
    assert "Idempotent-Replayed" not in response.headers
    assert game.deal_set.count() == 3


@pytest.mark.django_db
def test_a_refused_request_stores_nothing_and_may_be_retried(game, organiser_client):
    refused = record(organiser_client, game, "tap-1", order=seated_ids(game)[:3])
    assert refused.status_code == 400
    assert not IdempotentRequest.objects.exists()

    retried = record(organiser_client, game, "tap-1", order=seated_ids(game)[:3])

    assert retried.status_code == 400
    assert "Idempotent-Replayed" not in retried.headers


@pytest.mark.django_db
def test_an_overlong_key_names_the_header(game, organiser_client):
    response = record(organiser_client, game, "k" * 256)

    assert response.status_code == 400
    assert "Idempotency-Key" in response.json()
    assert game.deal_set.count() == 1


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_concurrent_duplicates_store_one_deal():
    """Two requests with one key at the same moment: one deal, both get its answer."""
    game, organiser = racing_table()
    send = lambda client: record(client, game, "race", number=1)  # noqa: E731
    answers = at_once(organiser, send, send)

    assert [a.status_code for a in answers] == [201, 201]
    assert answers[0].json() == answers[1].json()
    assert Deal.objects.filter(game=game).count() == 1
    assert IdempotentRequest.objects.filter(key="race").count() == 1


@pytest.mark.django_db
def test_the_page_and_the_api_claim_keys_on_one_table_with_one_rule(game, organiser,
                                                                     organiser_client):
    """A deal's form token (the page) and an Idempotency-Key (the API) go through one helper
    (league.idempotency): the page's claim, sent again as an API key with another request, is
    refused as a reused key, and a refused write leaves the key free for a retry."""
    from django.test import Client
    from django.urls import reverse

    page = Client()
    page.force_login(organiser)
    order = seated_ids(game)
    form = {"token": "t1", "number": 2,
            **{f"place_{i}": p for i, p in enumerate(order, start=1)}}
    page.post(reverse("league:deal_record", args=[game.pk]), form)
    assert IdempotentRequest.objects.get(user=organiser).key == "page-deal:t1"

    reused = record(organiser_client, game, "page-deal:t1")
    assert reused.status_code == 422 and game.deal_set.count() == 2

    refused = record(organiser_client, game, "retry-me", order=order[:2], number=3)
    assert refused.status_code == 400
    assert not IdempotentRequest.objects.filter(key="retry-me").exists()
    assert record(organiser_client, game, "retry-me", number=3).status_code == 201
    assert game.deal_set.count() == 3
