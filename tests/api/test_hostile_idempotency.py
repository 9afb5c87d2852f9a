"""Idempotency-Key under a hostile or careless client: the same key for another request is
refused, whatever shape the body comes in."""

import re
from urllib.parse import urlencode

import pytest
from django.urls import resolve
from rest_framework.test import APIClient

from league.models import Deal
from tests.api.test_deals import snapshot
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


@pytest.mark.parametrize("method, path", [
    ("post", "/api/v1/games/{game}/time-called/"),
    ("post", "/api/v1/games/{game}/seat-change-preview/"),
    ("put", "/api/v1/deals/{deal}/"),
    ("delete", "/api/v1/deals/{deal}/"),
    ("post", "/api/v1/tokens/rotate/"),
    ("post", "/api/v1/bots/"),
    ("post", "/api/v1/ladder-games/"),
])
def test_a_key_sent_to_a_write_that_does_not_take_one_is_refused_naming_it(
        game, organiser_client, method, path):
    """The key was ignored there: a client retrying with it believed the retry safe (a second
    challenge game, a second token rotation). Nothing is done."""
    deal = game.deal_set.get()
    before = snapshot(game)

    answer = getattr(organiser_client, method)(
        path.format(game=game.pk, deal=deal.pk), {}, format="json",
        HTTP_IDEMPOTENCY_KEY="retry-1")

    assert answer.status_code == 400, answer.content
    assert answer.json() == {"Idempotency-Key": [
        "not taken here: this operation is not done once per key; the operations that take "
        "one are listed in docs/api.md (Retries)"]}
    assert snapshot(game) == before


def test_a_read_with_a_key_is_answered():
    """A client that sends a key with every request still reads."""
    assert APIClient().get("/api/v1/clubs/", HTTP_IDEMPOTENCY_KEY="k").status_code == 200


def test_the_operations_that_take_a_key_are_those_the_schema_says_take_one(client):
    """Each write documenting the Idempotency-Key header takes it, and no other."""
    paths = client.get("/api/schema/?format=json").json()["paths"]
    documented, taken = set(), set()
    for path, operations in paths.items():
        view = resolve(re.sub(r"\{\w+\}", "1", path)).func
        for method, operation in operations.items():
            if method not in ("post", "put", "patch", "delete"):
                continue
            action = view.actions[method]
            if any(p["name"] == "Idempotency-Key" for p in operation.get("parameters", [])):
                documented.add((path, method))
            if action in view.cls.idempotent_actions:
                taken.add((path, method))

    assert documented == taken
    assert ("/api/v1/deals/", "post") in taken
