"""Hostile or mistaken input to the API: a 4xx naming what is wrong, never a 500 (issue #16)."""

import json

import pytest
from rest_framework.test import APIClient

from league.models import Club
from plumbing.api.parsers import MAX_JSON_DEPTH
from tests.api.conftest import free_ids
from tests.api.test_deals import snapshot
from tests.league.factories import seated_ids

pytestmark = pytest.mark.django_db


def nested(depth):
    return "[" * depth + "]" * depth


@pytest.mark.parametrize("method, url", [
    ("post", "/api/v1/clubs/"),
    ("post", "/api/v1/deals/"),
    ("patch", "/api/v1/seasons/{season}/"),
    ("post", "/api/v1/tournaments/"),
])
def test_json_nested_100000_deep_is_refused_saying_so(game, organiser_client, method, url):
    before = snapshot(game)

    answer = getattr(organiser_client, method)(url.format(season=game.season_id),
                                               nested(100_000), content_type="application/json")

    assert answer.status_code == 400
    assert answer.json() == {"detail": f"JSON parse error - nested more than {MAX_JSON_DEPTH} "
                                       "levels deep"}
    assert snapshot(game) == before


def test_a_transcript_nested_past_the_limit_is_refused_before_any_check(game, organiser_client):
    deep = {"game": game.pk, "transcript": {"deals": json.loads(nested(MAX_JSON_DEPTH))}}

    answer = organiser_client.post("/api/v1/deals/", deep, format="json")

    assert answer.status_code == 400 and "nested more than" in answer.json()["detail"]


def test_a_number_of_thousands_of_digits_is_refused_in_our_words(game, organiser_client):
    """Found by a security walk-through: the refusal named the interpreter's setting."""
    answer = organiser_client.post("/api/v1/clubs/", '{"name": ' + "9" * 5000 + "}",
                                   content_type="application/json")

    assert answer.status_code == 400
    assert answer.json() == {"detail": "JSON parse error - a number of more than 4,300 digits"}


@pytest.mark.parametrize("number", ["1e999", "-1e999"])
@pytest.mark.parametrize("url, field", [("/api/v1/deals/", "game"), ("/api/v1/games/", "season"),
                                        ("/api/v1/seasons/", "club"), ("/api/v1/players/", "club")])
def test_a_number_out_of_range_is_refused_saying_so(game, organiser_client, url, field, number):
    before = snapshot(game)

    answer = organiser_client.post(url, f'{{"{field}": {number}}}',
                                   content_type="application/json")

    assert answer.status_code == 400
    assert answer.json() == {"detail": "JSON parse error - a number out of range"}
    assert snapshot(game) == before


def test_a_body_over_the_upload_limit_answers_413_saying_the_limit(game, organiser_client,
                                                                   settings):
    before = snapshot(game)
    body = json.dumps({"game": game.pk, "finishing_order": seated_ids(game),
                       "padding": "x" * 2_700_000})

    answer = organiser_client.post("/api/v1/deals/", body, content_type="application/json")

    assert answer.status_code == 413 and answer["Content-Type"] == "application/json"
    assert answer.json() == {"detail": f"the request body is {len(body):,} bytes "
                                       f"({len(body) / 2**20:.3g} MB); the limit is "
                                       "2,621,440 bytes (2.5 MB)"}
    assert snapshot(game) == before

    settings.DATA_UPLOAD_MAX_MEMORY_SIZE = 1000
    small = organiser_client.post("/api/v1/clubs/", {"name": "y" * 1001}, format="json")
    assert small.status_code == 413 and "the limit is 1,000 bytes" in small.json()["detail"]


def test_too_many_form_fields_answer_400_saying_the_limit(game, organiser_client, settings):
    settings.DATA_UPLOAD_MAX_NUMBER_FIELDS = 10
    fields = "&".join(f"f{i}=1" for i in range(11))

    answer = organiser_client.post("/api/v1/clubs/", fields,
                                   content_type="application/x-www-form-urlencoded")

    assert answer.status_code == 400
    assert answer.json() == {"detail": "the request has more than 10 form fields"}


JUNK = ["²", "٣", "-1", str(10**30), "", "1.5", "x" * 300, "\x00"]

# Every query parameter of the lists (league.api.filters, the views' filterset_fields).
LIST_PARAMETERS = {
    "clubs": ["name", "ordering", "page"],
    "players": ["name", "kind", "club", "ordering", "page"],
    "seasons": ["club", "preset", "scoring_system", "ordering", "page"],
    "games": ["season", "club", "status", "player", "ordering", "page"],
    "deals": ["game", "season", "ordering", "page"],
    "tournaments": ["club", "status", "page"],
}


@pytest.mark.postgres  # integers past a column's range and NULs differ by database
@pytest.mark.parametrize("value", JUNK, ids=repr)
def test_junk_in_a_list_parameter_is_refused_naming_it_or_ignored(game, value):
    anonymous = APIClient()
    for endpoint, parameters in LIST_PARAMETERS.items():
        for name in parameters:
            answer = anonymous.get(f"/api/v1/{endpoint}/", {name: value})
            where = f"{endpoint}?{name}={value!r}"
            if name == "page" and answer.status_code == 404:  # past the last page
                assert "there is no page" in answer.json()["detail"], where
            elif answer.status_code == 400:
                assert name in answer.json(), where
            else:
                assert answer.status_code == 200, where


@pytest.mark.postgres
@pytest.mark.parametrize("value", ["²", "٣", "-1", str(10**30), "x"], ids=repr)
def test_rating_history_refuses_a_season_that_is_not_an_id_naming_it(game, value):
    player = seated_ids(game)[0]

    answer = APIClient().get(f"/api/v1/players/{player}/rating-history/", {"season": value})

    assert answer.status_code == 400
    assert answer.json() == {"season": ["season is given by its id, a whole number"]}


@pytest.mark.parametrize("url, body, field", [
    ("/api/v1/deals/", {"game": "{game}", "number": "{next}", "finishing_order": [10**30, 1, 2, 3]},
     "finishing_order"),
    ("/api/v1/deals/", {"game": 10**30, "number": 1, "finishing_order": [1, 2, 3, 4]}, "game"),
    ("/api/v1/games/", {"season": 10**30, "players": [1, 2, 3, 4]}, "season"),
    ("/api/v1/games/", {"season": "{season}", "players": [10**30, 1, 2, 3]}, "players"),
    ("/api/v1/seasons/", {"club": 10**30, "name": "x", "preset": "classic"}, "club"),
    ("/api/v1/players/", {"club": 10**30, "name": "x"}, "club"),
], ids=lambda v: v if isinstance(v, str) else "")
def test_an_id_past_the_databases_integers_is_refused_naming_it(game, organiser_client, url,
                                                                body, field):
    """An id past SQLite's and PostgreSQL's integers is a 400 naming its field, not a 500."""
    before = snapshot(game)
    known = {"game": game.pk, "season": game.season_id, "next": game.deal_set.count() + 1}
    body = {k: (int(v.format(**known)) if isinstance(v, str) and v.startswith("{") else v)
            for k, v in body.items()}

    answer = organiser_client.post(url, body, format="json")

    assert answer.status_code == 400 and field in answer.json(), answer.json()
    assert snapshot(game) == before


@pytest.mark.parametrize("body, key", [
    ('{"game": {game}, "number": {next}, "finishing_order": {order}, '
     '"finishing_order": {reversed}}', "finishing_order"),
    ('{"game": {game}, "number": {next}, "transcript": {{"a": 1, "a": 2}}}', "a"),
])
def test_a_key_given_twice_in_one_object_is_refused_naming_it(game, organiser_client, body, key):
    """Which of the two was meant is ambiguous (Python's decoder kept the last one)."""
    before = snapshot(game)
    order = seated_ids(game)
    body = (body.replace("{game}", str(game.pk))
            .replace("{next}", str(game.deal_set.count() + 1))
            .replace("{order}", json.dumps(order)).replace("{reversed}", json.dumps(order[::-1]))
            .replace("{{", "{").replace("}}", "}"))

    answer = organiser_client.post("/api/v1/deals/", body, content_type="application/json")

    assert answer.status_code == 400
    assert answer.json() == {"detail": f"JSON parse error - the key {key!r} is given twice in "
                                       "one object"}
    assert snapshot(game) == before


@pytest.mark.parametrize("charset", ["nosuch", "latin-1", "utf-16", "bz2_codec"])
def test_a_json_body_in_a_charset_other_than_utf8_is_refused_naming_it(game, organiser_client,
                                                                       charset):
    """JSON is UTF-8 (RFC 8259); a charset Python does not know was read as UTF-8 unsaid."""
    answer = organiser_client.post("/api/v1/clubs/", '{"name": "Charset"}',
                                   content_type=f"application/json; charset={charset}")

    assert answer.status_code == 415
    assert answer.json() == {"detail": f"the body is read as UTF-8 (JSON's own encoding), "
                                       f"not charset={charset}"}
    assert not Club.objects.filter(name="Charset").exists()


@pytest.mark.parametrize("charset", ["utf-8", "UTF-8", "utf8"])
def test_a_json_body_may_say_it_is_utf8(game, organiser_client, charset):
    answer = organiser_client.post("/api/v1/clubs/", '{"name": "Café"}',
                                   content_type=f"application/json; charset={charset}")

    assert answer.status_code == 201 and answer.json()["name"] == "Café"


ARABIC_INDIC = str.maketrans("0123456789", "٠١٢٣٤٥٦٧٨٩")


@pytest.mark.parametrize("shape", ["and a half", "in Arabic-Indic digits"])
@pytest.mark.parametrize("url, body, field", [
    ("/api/v1/deals/", {"game": "{game}", "number": "{next}", "finishing_order": "{order}"},
     "game"),
    ("/api/v1/games/", {"season": "{season}", "players": "{order}"}, "season"),
    ("/api/v1/players/", {"club": "{club}", "name": "Newcomer"}, "club"),
    ("/api/v1/players/{visitor}/join-club/", {"club": "{club}"}, "club"),
    ("/api/v1/seasons/", {"club": "{club}", "name": "Summer", "starts_on": "2025-06-01"},
     "club"),
    ("/api/v1/tournaments/", {"club": "{club}", "name": "Cup", "seats": 3,
                              "games_per_table": 1, "entrants": [
                                  {"name": n, "bot": "random"} for n in ("R1", "R2", "R3")]},
     "club"),
])
def test_an_id_that_is_not_a_whole_number_is_refused_naming_it(game, organiser_client, url,
                                                               body, field, shape):
    """``{"season": 1.5}`` was season 1, and ``"١"`` (an Arabic-Indic one) too: the
    database's integer conversion read them so. An id is a whole number in ASCII digits."""
    from tests.api.test_write_permissions import snapshot as every_row
    from tests.league.factories import PlayerFactory

    known = {"game": game.pk, "season": game.season_id, "club": game.season.club_id,
             "next": game.deal_set.count() + 1, "order": seated_ids(game),
             "visitor": PlayerFactory(name="Visitor").pk}
    body = {k: known[v[1:-1]] if isinstance(v, str) and v.startswith("{") else v
            for k, v in body.items()}
    body[field] = (body[field] + 0.5 if shape == "and a half"
                   else str(body[field]).translate(ARABIC_INDIC))
    before = every_row(), snapshot(game)

    answer = organiser_client.post(url.format(**known), body, format="json")

    assert answer.status_code == 400, answer.json()
    sent = json.dumps(body[field], ensure_ascii=False)  # as JSON writes it
    assert answer.json() == {field: [f"an id is a whole number, not {sent}"]}
    assert (every_row(), snapshot(game)) == before


@pytest.mark.parametrize("value, said", [(True, "true"), ({"id": 1}, '{"id": 1}')])
def test_an_id_of_another_json_type_is_refused_in_json_words(game, organiser_client, value,
                                                            said):
    """DRF said "Incorrect type. Expected pk value, received bool.": Python's words."""
    answer = organiser_client.post("/api/v1/players/", {"club": value, "name": "Newcomer"},
                                   format="json")

    assert answer.status_code == 400
    assert answer.json() == {"club": [f"an id is a whole number, not {said}"]}


def test_an_id_of_no_row_is_refused_naming_what_is_missing(game, organiser_client):
    """DRF said 'Invalid pk "999999" - object does not exist.'; the 404s say "there is no club
    999999"."""
    answer = organiser_client.post("/api/v1/games/", {"season": 999999,
                                                      "players": seated_ids(game)},
                                   format="json")

    assert answer.status_code == 400
    assert answer.json() == {"season": ["there is no season 999999"]}


@pytest.mark.parametrize("shape", [int, float, str])
def test_an_id_may_be_a_number_or_its_digits(game, organiser_client, shape):
    """1.0 is a whole number to JSON Schema's "integer"; forms send ids as digits."""
    answer = organiser_client.post("/api/v1/players/", {"club": shape(game.season.club_id),
                                                        "name": "Newcomer"}, format="json")

    assert answer.status_code == 201, answer.json()
    assert answer.json()["clubs"] == [game.season.club_id]


@pytest.mark.parametrize("content_type", ["application/x-www-form-urlencoded",
                                          "multipart/form-data"])
def test_a_form_field_given_twice_is_refused_naming_it_as_in_json(game, organiser_client,
                                                                  content_type):
    """``name=A&name=B`` made a club called B, as a JSON key given twice kept its last."""
    from tests.api.test_write_permissions import snapshot as every_row

    before = every_row()
    if content_type == "multipart/form-data":
        answer = organiser_client.post("/api/v1/clubs/", {"name": ["Ann's", "Bob's"]},
                                       format="multipart")
    else:
        answer = organiser_client.post("/api/v1/clubs/", "name=Ann%27s&name=Bob%27s",
                                       content_type=content_type)

    assert answer.status_code == 400
    assert answer.json() == {"name": ["name is given 2 times; it takes one value"]}
    assert every_row() == before


def test_a_form_list_takes_its_field_once_per_value(game, organiser_client):
    players = free_ids(game)
    form = "&".join([f"season={game.season_id}", *(f"players={p}" for p in players)])

    answer = organiser_client.post("/api/v1/games/", form,
                                   content_type="application/x-www-form-urlencoded")
    twice = organiser_client.post("/api/v1/games/", f"{form}&season={game.season_id}",
                                  content_type="application/x-www-form-urlencoded")

    assert answer.status_code == 201, answer.json()
    assert [s["player"] for s in answer.json()["seats"]] == players
    assert twice.status_code == 400
    assert twice.json() == {"season": ["season is given 2 times; it takes one value"]}


@pytest.mark.parametrize("url, field", [("/api/v1/seasons/", "options"),
                                        ("/api/v1/deals/", "transcript")])
@pytest.mark.parametrize("text, refusal", [
    ("[" * 100_000 + "]" * 100_000, f"nested more than {MAX_JSON_DEPTH} levels deep"),
    ('{"jokers": 1, "jokers": 2}', "the key 'jokers' is given twice in one object"),
    ('{"jokers": 1e999}', "a number out of range"),
], ids=["deep", "twice", "infinite"])
def test_json_in_a_form_field_is_read_as_a_json_body_is(game, organiser_client, url, field,
                                                        text, refusal):
    """Found by a security walk-through: a form's JSON field 100,000 brackets deep answered
    500 (RecursionError), where the same body as JSON is refused (plumbing.api.parsers)."""
    from urllib.parse import urlencode

    from tests.api.test_write_permissions import snapshot as every_row

    before = every_row(), snapshot(game)
    form = {"club": game.season.club_id, "name": "Deep", "starts_on": "2025-06-01",
            "game": game.pk, "number": game.deal_set.count() + 1, field: text}
    form = {k: v for k, v in form.items()
            if k == field or k in (("game", "number") if field == "transcript"
                                   else ("club", "name", "starts_on"))}

    answer = organiser_client.post(url, urlencode(form),
                                   content_type="application/x-www-form-urlencoded")

    assert answer.status_code == 400
    assert answer.json() == {field: [f"JSON parse error - {refusal}"]}
    assert (every_row(), snapshot(game)) == before
