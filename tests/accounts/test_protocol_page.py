"""The protocol on the site (issue #29): a page for bot authors, every message's JSON Schema at
a stable address (/bots/protocol/<name>.schema.json, the files of docs/protocol/), linked from
sign-up, "My bots", registration and the API docs, whose intro names bots and the ladder."""

import json
from pathlib import Path

import pytest

from tests.league.factories import UserFactory

pytestmark = pytest.mark.django_db

SCHEMAS = Path(__file__).resolve().parents[2] / "docs" / "protocol"
NAMES = sorted(p.name.removesuffix(".schema.json") for p in SCHEMAS.glob("*.schema.json"))


def test_every_message_has_a_schema_file_including_the_challenge():
    assert NAMES == ["answer", "challenge", "error", "observation", "proof", "request"]


@pytest.mark.parametrize("name", NAMES)
def test_each_schema_is_served_at_its_address_as_in_the_repository(client, name):
    answer = client.get(f"/bots/protocol/{name}.schema.json")
    assert answer.status_code == 200
    assert answer["Content-Type"] == "application/schema+json"
    assert answer["Access-Control-Allow-Origin"] == "*"
    body = b"".join(answer.streaming_content)
    assert json.loads(body) == json.loads((SCHEMAS / f"{name}.schema.json").read_text())


@pytest.mark.parametrize("path", ["/bots/protocol/nothing.schema.json",
                                  "/bots/protocol/..%2Fsettings.schema.json",
                                  "/bots/protocol/request.json"])
def test_no_other_file_is_served(client, path):
    assert client.get(path).status_code == 404


def test_the_page_has_the_protocol_the_kit_signing_and_each_schema(client):
    page = client.get("/bots/protocol/").content.decode()
    for words in ("The bot author's kit", "Outside bots: protocol", "X-President-Signature",
                  "challenge", "rank_order"):
        assert words in page, words
    for name in NAMES:
        assert f'href="/bots/protocol/{name}.schema.json"' in page, name
    assert "<script>" not in page and 'href="api.md"' not in page  # no dead repository links


def test_sign_up_my_bots_and_registration_link_to_it(client):
    assert 'href="/bots/protocol/"' in client.get("/accounts/signup/").content.decode()
    client.force_login(UserFactory(username="ada", is_staff=False))
    for path in ("/accounts/bots/", "/accounts/bots/new/"):
        assert 'href="/bots/protocol/"' in client.get(path).content.decode(), path


def test_the_api_docs_intro_names_bots_the_ladder_and_links_the_protocol(client):
    info = client.get("/api/schema/", HTTP_ACCEPT="application/json").json()["info"]
    for words in ("/api/v1/bots/", "ladder", "/api/v1/tokens/", "(/bots/protocol/)"):
        assert words in info["description"], words
    operation = client.get("/api/schema/", HTTP_ACCEPT="application/json").json()[
        "paths"]["/api/v1/bots/"]["post"]
    assert "(/bots/protocol/)" in operation["description"]
