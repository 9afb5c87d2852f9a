"""A bot's URL is stored and compared in one spelling (gameplay.bots.policy.normal_url), and a
server is registered once: issue #29's impersonation of the bot at http://127.0.0.1:18210/ by a
second account (without the slash, with user:pw@, with a %0d%0a path) is refused or comes to
the same URL, which is taken."""

import pytest

from gameplay.bots.policy import Refused, normal_url
from outside_bots.models import OutsideBot
from tests.api.conftest import client_for
from tests.league.factories import UserFactory

pytestmark = pytest.mark.django_db

LOWBALL = "http://127.0.0.1:18210/"


@pytest.mark.parametrize("given,normal", [
    ("http://127.0.0.1:18210", LOWBALL),
    ("http://127.0.0.1:18210/", LOWBALL),
    ("HTTP://127.0.0.1:18210/", LOWBALL),
    ("http://Bots.Example.ORG./play", "http://bots.example.org/play"),
    ("http://bots.example.org:80/play", "http://bots.example.org/play"),
    ("https://bots.example.org:443", "https://bots.example.org/"),
    ("https://bots.example.org:8443/play/", "https://bots.example.org:8443/play/"),
    ("https://bots.example.org/play?v=2#here", "https://bots.example.org/play?v=2"),
    ("http://[::1]:8000", "http://[::1]:8000/"),
])
def test_a_url_is_spelt_one_way(given, normal):
    assert normal_url(given) == normal


@pytest.mark.parametrize("given,words", [
    ("http://user:pw@127.0.0.1:18210/", "user name or password"),
    ("http://user@127.0.0.1:18210/", "user name or password"),
    ("http://127.0.0.1:18210/%0d%0aX-Evil:%201", "control characters"),
    ("http://127.0.0.1:18210/%0A", "control characters"),
    ("http://127.0.0.1:18210/a\r\nX: 1", "control characters"),
    ("http://127.0.0.1:18210/a b", "control characters"),
    ("ftp://127.0.0.1:18210/", "must be http(s)"),
])
def test_a_url_with_user_info_or_control_characters_is_refused(given, words):
    with pytest.raises(Refused, match=words.replace("(", r"\(").replace(")", r"\)")):
        normal_url(given)


@pytest.fixture
def lowball(settings):
    settings.OUTSIDE_BOT_ALLOWED_HOSTS = ["127.0.0.1:18210"]
    ada = UserFactory(username="ada", is_staff=False)
    answer = client_for(ada).post("/api/v1/bots/", {"name": "lowball", "url": LOWBALL},
                                  format="json")
    assert answer.status_code == 201, answer.json()
    return OutsideBot.objects.get()


@pytest.mark.parametrize("url,field,words", [
    ("http://127.0.0.1:18210", "url", "is registered already"),
    ("HTTP://127.0.0.1:18210/", "url", "is registered already"),
    ("http://user:pw@127.0.0.1:18210/", "url", "user name or password"),
    ("http://127.0.0.1:18210/%0d%0a", "url", "control characters"),
])
def test_a_second_account_cannot_register_the_first_ones_server_again(lowball, url, field,
                                                                       words):
    bob = UserFactory(username="bob", is_staff=False)
    answer = client_for(bob).post("/api/v1/bots/", {"name": "bobs-copy", "url": url},
                                  format="json")
    assert answer.status_code == 400
    assert list(answer.json()) == [field] and words in answer.json()[field][0]
    assert list(OutsideBot.objects.values_list("name", "url", "owner__username")) == [
        ("lowball", LOWBALL, "ada")]


def test_the_stored_url_is_the_normal_one(settings):
    settings.OUTSIDE_BOT_ALLOWED_HOSTS = ["bots.example.org"]
    ada = UserFactory(username="ada", is_staff=False)
    answer = client_for(ada).post("/api/v1/bots/", {
        "name": "ada-bot", "url": "HTTPS://Bots.Example.org:443"}, format="json")
    assert answer.status_code == 201
    assert answer.json()["url"] == "https://bots.example.org/"
    assert OutsideBot.objects.get().url == "https://bots.example.org/"


def test_an_author_cannot_move_a_bot_onto_a_url_another_bot_has(lowball, settings):
    settings.OUTSIDE_BOT_ALLOWED_HOSTS = ["127.0.0.1:18210", "bots.example.org"]
    bob = UserFactory(username="bob", is_staff=False)
    client = client_for(bob)
    made = client.post("/api/v1/bots/", {"name": "bob-bot", "url": "https://bots.example.org/"},
                       format="json").json()
    answer = client.patch(f"/api/v1/bots/{made['id']}/", {"url": "http://127.0.0.1:18210"},
                          format="json")
    assert answer.status_code == 400 and "is registered already" in answer.json()["url"][0]
    assert OutsideBot.objects.get(name="bob-bot").url == "https://bots.example.org/"


def test_the_database_refuses_a_second_enabled_bot_at_one_url(lowball):
    from django.db import IntegrityError, transaction

    with pytest.raises(IntegrityError), transaction.atomic():
        OutsideBot.objects.create(name="racer", name_key="racer", url=LOWBALL)
