"""Input the API does not take is refused, never ignored: a query parameter an operation does
not document, and a body field it does not take or only shows (read-only), answer 400 naming
them and change nothing. Walked over every operation of the schema, so a new operation is
covered by the same mechanism (plumbing/api/inputs.py)."""

import pytest
from rest_framework.test import APIClient

from league import services, table_links
from league.models import Club, Deal, Player, TableLink
from outside_bots import services as outside_bots
from outside_bots.models import OutsideBot
from tests.api.conftest import client_for
from tests.league.factories import UserFactory, make_game, seated_ids

pytestmark = pytest.mark.django_db


@pytest.fixture
def rows(settings):
    """One row of each kind a write names by id, and an administrator who organises them all
    and is the outside bot's author."""
    settings.OUTSIDE_BOT_ALLOWED_HOSTS = ["bots.example.org"]
    game = make_game(season_kwargs={"scoring_limit": 50})
    deal = services.deal_record(game=game, finishing_order=seated_ids(game))
    admin = UserFactory(username="root", is_superuser=True)
    game.season.club.organisers.add(admin)
    bot = outside_bots.outside_bot_create(name="far-bot", url="https://bots.example.org/play",
                                         owner=admin, by=admin)
    ids = {"clubs": game.season.club_id, "players": seated_ids(game)[0],
           "seasons": game.season_id, "games": game.pk, "deals": deal.pk,
           "outside-bots": bot.pk, "bots": bot.pk, "tournaments": 1, "ladder": 1,
           "ladder-games": 1, "tokens": None,
           "table-links": table_links.links_create(games=[game], by=admin)[0].pk}
    return client_for(admin, token=True), ids


def operations(client, ids):
    """(method, path with its id filled in, the operation) for every operation."""
    schema = client.get("/api/schema/", {"format": "json"}).json()
    for template, methods in schema["paths"].items():
        resource = template.removeprefix("/api/v1/").split("/")[0]
        path = template.replace("{id}", str(ids[resource]))
        for method, operation in methods.items():
            yield method, path, operation


def state():
    return (list(Club.objects.values_list()), list(Player.objects.values_list()),
            list(Deal.objects.values_list("id", "number", "game")),
            list(OutsideBot.objects.values_list()), list(TableLink.objects.values_list()))


def test_every_operation_refuses_a_query_parameter_it_does_not_take_naming_it(rows):
    client, ids = rows
    before = state()
    answered = {}
    for method, path, _ in operations(client, ids):
        answer = getattr(client, method)(f"{path}?whose=ada&zzz=1", {}, format="json")
        answered[method, path] = (answer.status_code,
                                  sorted(answer.json()) if answer.status_code == 400 else None)

    assert {key: value for key, value in answered.items()
            if value != (400, ["whose", "zzz"])} == {}
    assert state() == before


def test_every_documented_query_parameter_is_taken(rows):
    client, ids = rows
    for method, path, operation in operations(client, ids):
        if method != "get":
            continue
        for parameter in operation.get("parameters", []):
            if parameter["in"] != "query":
                continue
            name = parameter["name"]
            answer = client.get(path, {name: "1"})
            assert answer.status_code != 400 or "not taken" not in str(
                answer.json().get(name)), (path, name, answer.json())


def test_every_body_refuses_a_field_it_does_not_take_naming_it(rows):
    client, ids = rows
    before = state()
    answered = {}
    for method, path, operation in operations(client, ids):
        if "requestBody" not in operation:
            continue
        answer = getattr(client, method)(path, {"zzz": 1}, format="json")
        answered[method, path] = (answer.status_code, answer.json().get("zzz"))

    assert len(answered) >= 15
    assert {key: value for key, value in answered.items()
            if value[0] != 400 or "not taken" not in str(value[1])} == {}
    assert state() == before


def test_a_read_only_field_in_a_patch_is_refused_not_ignored(rows):
    client, ids = rows
    before = state()

    answer = client.patch(f"/api/v1/bots/{ids['bots']}/", {"enabled": False, "description": "x"},
                          format="json")

    assert answer.status_code == 400
    assert answer.json() == {"enabled": ["enabled is read-only here: it cannot be set"]}
    assert state() == before


def test_list_filters_that_are_not_there_are_refused(rows):
    client, _ = rows

    bots = client.get("/api/v1/bots/", {"owner": "bob"})
    ladder = APIClient().get("/api/v1/ladder/", {"enabled": "true"})

    assert bots.status_code == ladder.status_code == 400
    assert "not taken" in bots.json()["owner"][0]
    assert "preset" in ladder.json()["enabled"][0]  # says what it does take


def test_the_schema_says_each_request_body_takes_its_fields_alone(rows):
    client, _ = rows
    shapes = client.get("/api/schema/", {"format": "json"}).json()["components"]["schemas"]

    requests = {name: shape for name, shape in shapes.items() if name.endswith("Request")}

    assert len(requests) >= 15
    assert {name for name, shape in requests.items()
            if shape.get("additionalProperties") is not False} == set()
