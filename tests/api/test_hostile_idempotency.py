"""Idempotency-Key under a hostile or careless client: the same key for another request is
refused, whatever shape the body comes in."""

from urllib.parse import urlencode

import pytest

from league.models import Deal
from tests.league.factories import seated_ids

pytestmark = pytest.mark.django_db


def record_as_form(client, game, order):
    body = urlencode({"game": game.pk, "number": 2, "finishing_order": order}, doseq=True)
    return client.post("/api/v1/deals/", body, content_type="application/x-www-form-urlencoded",
                       HTTP_IDEMPOTENCY_KEY="tap-1")


def test_a_forms_key_sent_again_with_another_order_is_refused_not_replayed(
        game, organiser_client):
    """A form gives a list as one field per value, and the key's fingerprint read the form as
    a dict, which keeps the last: another finishing order with the same last player was the
    same request, and its key answered the first deal again (201, Idempotent-Replayed)."""
    order = seated_ids(game)
    first = record_as_form(organiser_client, game, order)

    again = record_as_form(organiser_client, game, [order[1], order[0], *order[2:]])

    assert first.status_code == 201, first.content
    assert again.status_code == 422, again.content
    assert "Idempotent-Replayed" not in again.headers
    assert list(Deal.objects.get(pk=first.json()["id"]).places.order_by("position")
                .values_list("player_id", flat=True)) == order


def test_a_form_sent_again_as_it_was_is_replayed(game, organiser_client):
    order = seated_ids(game)
    first = record_as_form(organiser_client, game, order)

    again = record_as_form(organiser_client, game, order)

    assert again.status_code == 201
    assert again.headers["Idempotent-Replayed"] == "true"
    assert again.json() == first.json()
