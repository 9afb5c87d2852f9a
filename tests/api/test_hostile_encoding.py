"""Bodies that are not valid UTF-8: refused in words, nothing written.

Django decodes a form's fields with errors="replace" (and raw bytes in a urlencoded body as
latin-1), so ``name=Caf%E9`` was stored as "Caf\ufffd"; the JSON parser refused its bytes with
Python's codec error. league.web.middleware refuses them all before any view reads the body.
"""

import io
import zipfile

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from league.models import Club, Player
from outside_bots.models import OutsideBot
from tests.api.conftest import client_for
from tests.league.factories import ClubFactory, UserFactory

pytestmark = pytest.mark.django_db

NOT_UTF8 = {"detail": "the request body is not valid UTF-8"}
FORM = "application/x-www-form-urlencoded"


def multipart(*parts: bytes) -> bytes:
    return b"".join(b"--b\r\n" + part + b"\r\n" for part in parts) + b"--b--\r\n"


def field(name: str, value: bytes) -> bytes:
    return f'Content-Disposition: form-data; name="{name}"\r\n\r\n'.encode() + value


@pytest.fixture
def staff_client(game, organiser_client, organiser):
    organiser.is_staff = True  # opens clubs
    organiser.save()
    return organiser_client


@pytest.mark.parametrize("body, content_type", [
    (b'{"name": "Caf\xe9"}', "application/json"),
    (b'{"name": "Caf\xe9"}', "application/json; charset=utf-8"),
    (b'{"name": "\xed\xa0\x80"}', "application/json"),  # a surrogate's bytes, refused by UTF-8
    (b"name=Caf%E9", FORM),
    (b"name=Caf%C3", FORM),  # the first byte of two
    (b"name=Caf\xe9", FORM),  # raw bytes, read by Django as latin-1
    (multipart(field("name", b"Caf\xe9")), "multipart/form-data; boundary=b"),
], ids=["json", "json-charset", "json-surrogate", "form", "form-cut", "form-raw",
        "multipart"])
def test_an_api_write_that_is_not_utf8_is_refused(staff_client, body, content_type):
    before = set(Club.objects.values_list("name", flat=True))

    answer = staff_client.post("/api/v1/clubs/", body, content_type=content_type)

    assert answer.status_code == 400, answer.content
    assert answer.json() == NOT_UTF8
    assert set(Club.objects.values_list("name", flat=True)) == before


@pytest.mark.parametrize("body, content_type", [
    (b'{"name": "Caf\xe9"}', "application/json"),
    (b"name=Caf%E9", FORM),
])
def test_a_rename_that_is_not_utf8_is_refused(game, organiser_client, body, content_type):
    club = game.season.club
    name = club.name

    answer = organiser_client.patch(f"/api/v1/clubs/{club.pk}/", body, content_type=content_type)

    assert answer.status_code == 400, answer.content
    assert answer.json() == NOT_UTF8
    club.refresh_from_db()
    assert club.name == name


@pytest.mark.parametrize("body, content_type", [
    ('{"name": "Café ☕"}'.encode(), "application/json"),
    (b"name=Caf%C3%A9+%E2%98%95", FORM),
    ("name=Café ☕".encode(), FORM),
    (multipart(field("name", "Café ☕".encode())), "multipart/form-data; boundary=b"),
], ids=["json", "form", "form-raw", "multipart"])
def test_utf8_is_written(staff_client, body, content_type):
    answer = staff_client.post("/api/v1/clubs/", body, content_type=content_type)

    assert answer.status_code == 201, answer.content
    assert Club.objects.filter(name="Café ☕").exists()


def test_a_files_bytes_are_not_text(game):
    """Only a multipart body's fields are read as UTF-8: a hosted bot's zip is taken."""
    author = UserFactory(username="ada")
    packed = io.BytesIO()
    with zipfile.ZipFile(packed, "w") as archive:
        archive.writestr("bot.py", "import sys\n")
        archive.writestr("table.bin", bytes(range(256)))  # stored as it is: 0xff and all
    with pytest.raises(UnicodeDecodeError):
        packed.getvalue().decode()

    answer = client_for(author).post("/api/v1/bots/", {
        "name": "ada-bot", "runtime": "python",
        "code": SimpleUploadedFile("bot.zip", packed.getvalue())}, format="multipart")

    assert answer.status_code == 201, answer.content
    assert OutsideBot.objects.get().name == "ada-bot"


@pytest.mark.parametrize("body", [b"name=Ann%FF", b"name=Ann\xff"])
def test_a_page_form_that_is_not_utf8_is_refused(client, body):
    club = ClubFactory(name="Thursday Club")
    organiser = UserFactory(username="olga")
    club.organisers.add(organiser)
    client.force_login(organiser)

    answer = client.post(reverse("league:organise_player_add", args=[club.pk]), body,
                         content_type=FORM)

    assert answer.status_code == 400
    assert answer["Content-Type"].startswith("text/html")
    page = answer.content.decode()
    assert "the request body is not valid UTF-8" in page
    assert "send less" not in page
    assert not Player.objects.exists()
