"""``hosted:<id>`` is the site's own name for an uploaded bot's version, never an address an
author gives: given as a URL it is refused as not http(s), not with a word about a
registration "at the same moment" (which the database's constraint gave)."""

import html

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile

from outside_bots.models import OutsideBot
from tests.api.conftest import client_for
from tests.league.factories import UserFactory

pytestmark = pytest.mark.django_db

NOT_HTTP = "an outside bot's URL must be http(s)://host/"


@pytest.fixture
def author():
    return UserFactory(username="ada", is_staff=False)


@pytest.fixture
def hosted(author):
    other = UserFactory(username="bob", is_staff=False)
    answer = client_for(other).post(
        "/api/v1/bots/", {"name": "bobs-bot", "runtime": "python",
                          "code": _file(b"print('hi')\n")}, format="multipart")
    assert answer.status_code == 201, answer.json()
    return OutsideBot.objects.get(name="bobs-bot")


def _file(data: bytes):
    return SimpleUploadedFile("bot.py", data)


@pytest.mark.parametrize("url", ["hosted:abc", "own"])
def test_a_hosted_version_is_no_url_at_registration(author, hosted, url):
    url = hosted.url if url == "own" else url
    answer = client_for(author).post("/api/v1/bots/", {"name": "ada-bot", "url": url},
                                     format="json")
    assert answer.status_code == 400
    assert NOT_HTTP in str(answer.json()), answer.json()
    assert not OutsideBot.objects.filter(owner=author).exists()


def test_a_hosted_version_is_no_url_on_the_page_nor_in_a_change(client, author, settings):
    settings.OUTSIDE_BOT_ALLOWED_HOSTS = ["bots.example.org"]
    client.force_login(author)
    page = client.post("/accounts/bots/new/", {"name": "ada-bot", "url": "hosted:abc",
                                                "presets": ["classic"]})
    assert page.status_code == 400 and NOT_HTTP in html.unescape(page.content.decode())

    made = client_for(author).post("/api/v1/bots/", {"name": "ada-bot",
                                                      "url": "https://bots.example.org/"},
                                   format="json")
    assert made.status_code == 201
    changed = client_for(author).patch(f"/api/v1/bots/{made.json()['id']}/",
                                       {"url": "hosted:abc"}, format="json")
    assert changed.status_code == 400 and NOT_HTTP in str(changed.json()), changed.json()
    assert OutsideBot.objects.get(owner=author).url == "https://bots.example.org/"


@pytest.mark.parametrize(("url", "written"), [("https://bots.example.org/bot/é", "%C3%A9"),
                                               ("https://bots.example.org/?name=ü", "%C3%BC")])
def test_a_url_whose_path_is_not_ascii_is_refused_saying_how_to_write_it(author, settings,
                                                                         url, written):
    """It was taken, then never called: HTTP sends its path in ASCII, and each validation
    failed 'its challenge: 'ascii' codec can't encode character …', asking for a new secret."""
    settings.OUTSIDE_BOT_ALLOWED_HOSTS = ["bots.example.org"]
    answer = client_for(author).post("/api/v1/bots/", {"name": "ada-bot", "url": url},
                                     format="json")
    assert answer.status_code == 400
    assert written in " ".join(answer.json()["url"]), answer.json()
    assert not OutsideBot.objects.exists()
