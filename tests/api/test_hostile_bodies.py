"""A hostile client's bodies and ids: each refused naming the field, nothing written."""

import pytest

from league.models import Game
from tests.api.conftest import free_ids
from tests.api.test_deals import snapshot
from tests.league.factories import seated_ids

pytestmark = pytest.mark.django_db

# Python's int() reads each of these as a number: Arabic-Indic and fullwidth digits, digits
# with an underscore or spaces around them; DRF's IntegerField took them all ("١" as 1).
NOT_ASCII_DIGITS = ["١", "５", "1_0", " 1", "1 ", "1.000"]


@pytest.mark.parametrize("sent", NOT_ASCII_DIGITS, ids=repr)
def test_a_number_that_is_not_plain_digits_is_refused_in_a_list_of_players(
        game, organiser_client, sent):
    players = free_ids(game)

    answer = organiser_client.post("/api/v1/games/", {
        "season": game.season_id, "players": [sent, *players[1:]]}, format="json")

    assert answer.status_code == 400, answer.content
    assert answer.json() == {"players": {"0": [f'a whole number, not "{sent}"']}}
    assert Game.objects.count() == 1


@pytest.mark.parametrize("field", ["number", "finishing_order"])
@pytest.mark.parametrize("sent", ["٢", "1_0"], ids=repr)
def test_a_deals_numbers_are_plain_digits(game, organiser_client, field, sent):
    before = snapshot(game)
    body = {"game": game.pk, "number": 2, "finishing_order": seated_ids(game)}
    body[field] = sent if field == "number" else [sent, *body[field][1:]]

    answer = organiser_client.post("/api/v1/deals/", body, format="json")

    assert answer.status_code == 400, answer.content
    said = [f'a whole number, not "{sent}"']
    assert answer.json() == {field: said if field == "number" else {"0": said}}
    assert snapshot(game) == before


@pytest.mark.parametrize("sent", [2, 2.0, "2"], ids=repr)
def test_a_whole_number_comes_as_json_writes_it_or_as_a_forms_digits(game, organiser_client,
                                                                       sent):
    body = {"game": game.pk, "number": sent, "finishing_order": seated_ids(game)}

    answer = organiser_client.post("/api/v1/deals/", body, format="json")

    assert answer.status_code == 201, answer.content
    assert answer.json()["number"] == 2


@pytest.mark.parametrize("sent", [True, 1.5, "-0x1", None], ids=repr)
def test_other_json_in_a_whole_number_is_refused_as_json_writes_it(game, organiser_client,
                                                                     sent):
    answer = organiser_client.post("/api/v1/games/", {
        "season": game.season_id, "players": free_ids(game), "dealer": sent}, format="json")

    assert answer.status_code == 400, answer.content
    assert list(answer.json()) == ["dealer"]


@pytest.mark.parametrize("path", ["/api/v1/games/", "/healthz", "/clubs/"])
@pytest.mark.parametrize("length", ["abc", "-1", "1e3"])
def test_a_content_length_that_is_not_a_number_is_refused_in_words(game, path, length):
    """Found by a hostile-input walk: the metrics' middleware read it with int() and answered
    500 on every route (gunicorn refuses such a header itself; runserver and other servers
    pass it on)."""
    from django.test import Client

    answer = Client(raise_request_exception=False).generic(
        "POST", path, b"{}", content_type="application/json", CONTENT_LENGTH=length)

    assert answer.status_code == 400
    assert "the Content-Length header is not a number of bytes" in answer.content.decode()
    assert Game.objects.count() == 1
