"""/api/schema/?version=: drf-spectacular wrote any version asked for into the schema's
info.version ("1 (zz)") and its file name; the API has one version, and another is a 404
saying so, without repeating what was sent."""

import pytest

pytestmark = pytest.mark.django_db

ONE_VERSION = 'the API has one version, "1"'


@pytest.mark.parametrize("sent", ["zz", ""])
def test_an_unknown_version_is_refused_in_words(client, sent):
    answer = client.get(f"/api/schema/?format=json&version={sent}")

    assert answer.status_code == 404
    assert answer.json() == {"detail": ONE_VERSION}
    assert b"zz" not in answer.content


def test_the_docs_refuse_an_unknown_version_in_words(client):
    answer = client.get("/api/docs/?version=zz2")

    assert answer.status_code == 404
    page = answer.content.decode()
    assert "the API has one version, &quot;1&quot;" in page
    assert "zz2" not in page


def test_the_schema_is_the_one_version(client):
    answer = client.get("/api/schema/?format=json")

    assert answer.status_code == 200
    assert answer.json()["info"]["version"] == "1"
    assert answer["Content-Disposition"] == 'inline; filename="President League API.json"'
    named = client.get("/api/schema/?format=json&version=1")
    assert named.status_code == 200
    assert named.json()["paths"] == answer.json()["paths"]


def test_the_docs_are_served_without_a_version_and_with_the_one(client):
    assert client.get("/api/docs/").status_code == 200
    assert client.get("/api/docs/?version=1").status_code == 200
