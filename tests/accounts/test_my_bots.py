"""Bot registration by its author, on the "My bots" pages and at /api/v1/bots/: authors see and
change only their own bots, a URL the network policy refuses is a form error with the policy's
words, and an author has at most OUTSIDE_BOT_MAX_PER_AUTHOR bots."""

import socket

import pytest

from outside_bots.models import OutsideBot
from tests.api.conftest import client_for
from tests.league.factories import UserFactory

pytestmark = pytest.mark.django_db

URL = "https://bots.example.org/play"


@pytest.fixture(autouse=True)
def allowed_hosts(settings):
    settings.OUTSIDE_BOT_ALLOWED_HOSTS = ["bots.example.org"]


@pytest.fixture
def author():
    return UserFactory(username="ada", is_staff=False)


@pytest.fixture
def other():
    return UserFactory(username="bob", is_staff=False)


def rows():
    return list(OutsideBot.objects.values_list("name", "url", "presets", "description", "owner"))


def register_page(client, **fields):
    data = {"name": "ada-bot", "url": URL, "presets": ["classic", "modern"],
            "description": "greedy but kind", **fields}
    return client.post("/accounts/bots/new/", data)


def test_an_author_registers_edits_and_removes_a_bot_on_the_pages(client, author):
    client.force_login(author)
    assert client.get("/accounts/profile/").content.decode().count('href="/accounts/bots/"') == 1

    assert register_page(client).status_code == 200  # its secret, once (test_ownership.py)
    bot = OutsideBot.objects.get()
    assert (bot.name, bot.url, bot.presets, bot.owner) == ("ada-bot", URL, ["classic", "modern"],
                                                           author)
    listing = client.get("/accounts/bots/").content.decode()
    assert "ada-bot" in listing and "classic, modern" in listing

    edited = client.post(f"/accounts/bots/{bot.pk}/", {
        "name": "ada-bot", "url": "https://bots.example.org/v2", "presets": ["friday"],
        "description": ""})
    assert edited.status_code == 302
    bot.refresh_from_db()
    assert (bot.url, bot.presets) == ("https://bots.example.org/v2", ["friday"])

    assert client.post(f"/accounts/bots/{bot.pk}/delete/").status_code == 302
    assert not OutsideBot.objects.exists()


def test_another_user_can_neither_see_nor_change_an_authors_bot(client, author, other):
    client.force_login(author)
    register_page(client)
    bot = OutsideBot.objects.get()
    before = rows()

    client.force_login(other)
    listing = client.get("/accounts/bots/").content.decode()
    assert f"/accounts/bots/{bot.pk}/" not in listing and "No bot yet." in listing
    theirs = client.get(f"/accounts/bots/{bot.pk}/")
    assert theirs.status_code == 404
    # in words, and the same as for a bot that is not there (not "No OutsideBot matches")
    said = " ".join(theirs.content.decode().split())
    assert f"You have no bot {bot.pk}" in said and "OutsideBot" not in said
    assert client.post(f"/accounts/bots/{bot.pk}/", {
        "name": "mine", "url": URL, "presets": ["classic"]}).status_code == 404
    assert client.post(f"/accounts/bots/{bot.pk}/delete/").status_code == 404

    api = client_for(other, token=True)
    assert api.get("/api/v1/bots/").json()["results"] == []
    assert api.get(f"/api/v1/bots/{bot.pk}/").status_code == 404
    assert api.patch(f"/api/v1/bots/{bot.pk}/", {"url": URL + "2"},
                     format="json").status_code == 404
    assert api.delete(f"/api/v1/bots/{bot.pk}/").status_code == 404
    assert rows() == before


def test_signed_out_visitors_are_sent_to_log_in_or_answered_401(client):
    assert client.get("/accounts/bots/")["Location"].startswith("/accounts/login/")
    assert client.post("/api/v1/bots/", {"name": "x", "url": URL},
                       format="json").status_code == 401
    assert not OutsideBot.objects.exists()


@pytest.mark.parametrize("url, words", [
    ("http://10.0.0.5:8000/play", "is a private address"),
    ("http://127.0.0.1:8000/play", "is a loopback address"),
    ("https://bots.example.org:22/play", "port 22 is not allowed"),
])
def test_a_url_the_network_policy_refuses_is_a_form_error_with_its_words(client, author, url,
                                                                          words):
    client.force_login(author)
    page = register_page(client, url=url)
    assert page.status_code == 400
    assert words in " ".join(page.context["form"].errors["url"])
    assert words in page.content.decode()

    answer = client_for(author, token=True).post(
        "/api/v1/bots/", {"name": "ada-bot", "url": url}, format="json")
    assert answer.status_code == 400
    assert words in " ".join(answer.json()["url"])
    assert not OutsideBot.objects.exists()


@pytest.fixture
def lab_name(monkeypatch):
    """The name "vm" resolves to a private address, as a machine's name does on a lab network
    (every other name resolves as the system says)."""
    real = socket.getaddrinfo

    def getaddrinfo(host, port, *args, **kwargs):
        if host == "vm":
            return real("10.1.2.3", port, *args, **kwargs)
        return real(host, port, *args, **kwargs)

    monkeypatch.setattr(socket, "getaddrinfo", getaddrinfo)


@pytest.mark.parametrize("url, words", [
    ("http://0x7f.1:8080/", "host '0x7f.1' is not in OUTSIDE_BOT_ALLOWED_HOSTS and resolves to "
                            "a loopback address"),
    ("http://2130706433:8080/", "host '2130706433' is not in OUTSIDE_BOT_ALLOWED_HOSTS and "
                                "resolves to a loopback address"),
    ("http://vm:8080/", "host 'vm' is not in OUTSIDE_BOT_ALLOWED_HOSTS and resolves to a "
                        "private address"),
])
def test_the_policys_reason_alone_for_urls_a_generic_url_check_calls_invalid(
        client, author, lab_name, url, words):
    client.force_login(author)
    page = register_page(client, url=url)
    assert page.status_code == 400
    assert page.context["form"].errors["url"] == [words]

    answer = client_for(author, token=True).post(
        "/api/v1/bots/", {"name": "ada-bot", "url": url}, format="json")
    assert answer.status_code == 400
    assert answer.json() == {"url": [words]}
    assert not OutsideBot.objects.exists()


def test_a_lab_host_in_the_allow_list_is_registered_without_a_dot_in_its_name(
        client, author, lab_name, settings):
    settings.OUTSIDE_BOT_ALLOWED_HOSTS = ["vm"]
    client.force_login(author)

    assert register_page(client, url="http://vm:8080/play").status_code == 200
    assert client_for(author, token=True).post(
        "/api/v1/bots/", {"name": "ada-api", "url": "http://vm:8080/other"},
        format="json").status_code == 201
    assert sorted(OutsideBot.objects.values_list("url", flat=True)) == [
        "http://vm:8080/other", "http://vm:8080/play"]


def test_a_page_url_without_a_scheme_is_taken_as_https(client, author):
    client.force_login(author)

    assert register_page(client, url="bots.example.org/play").status_code == 200
    assert OutsideBot.objects.get().url == URL


def test_an_author_registers_lists_changes_and_removes_a_bot_through_the_api(author):
    api = client_for(author, token=True)
    created = api.post("/api/v1/bots/", {"name": "ada-bot", "url": URL,
                                         "presets": ["modern"]}, format="json")
    assert created.status_code == 201, created.json()
    bot = created.json()
    assert (bot["name"], bot["presets"]) == ("ada-bot", ["modern"])
    assert OutsideBot.objects.get().owner == author

    assert [b["name"] for b in api.get("/api/v1/bots/").json()["results"]] == ["ada-bot"]
    changed = api.patch(f"/api/v1/bots/{bot['id']}/", {"presets": ["classic", "friday"]},
                        format="json")
    assert changed.status_code == 200 and changed.json()["presets"] == ["classic", "friday"]
    assert api.delete(f"/api/v1/bots/{bot['id']}/").status_code == 204
    assert not OutsideBot.objects.exists()


@pytest.mark.parametrize("presets, words", [
    ([], "empty"),
    (["no-such-rules"], "no-such-rules"),
    (["classic", "classic"], "named twice"),
])
def test_presets_are_checked_against_the_engines_presets(author, presets, words):
    answer = client_for(author, token=True).post(
        "/api/v1/bots/", {"name": "ada-bot", "url": URL, "presets": presets}, format="json")
    assert answer.status_code == 400
    assert words in str(answer.json()["presets"])
    assert not OutsideBot.objects.exists()


def test_an_author_has_at_most_the_limit_of_bots(client, author, other, settings):
    settings.OUTSIDE_BOT_MAX_PER_AUTHOR = 2
    api = client_for(author, token=True)
    for name in ("one", "two"):
        assert api.post("/api/v1/bots/", {"name": name, "url": f"{URL}/{name}"},
                        format="json").status_code == 201

    refused = api.post("/api/v1/bots/", {"name": "three", "url": f"{URL}/3"}, format="json")
    assert refused.status_code == 400
    assert "2 bots" in refused.json()["detail"]
    client.force_login(author)
    page = register_page(client, name="three", url=f"{URL}/3")
    assert page.status_code == 400 and "2 bots" in page.content.decode()
    assert OutsideBot.objects.filter(owner=author).count() == 2

    # The limit is per author.
    assert client_for(other, token=True).post(
        "/api/v1/bots/", {"name": "three", "url": f"{URL}/3"}, format="json").status_code == 201
