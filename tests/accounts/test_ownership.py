"""A bot proves whose it is (issue #29 "Ownership"): its secret is made at registration and
shown to its author once, its author alone replaces it, every request to it is signed with it,
and each validation starts with a challenge only the secret's holder answers, so another
author's registration of a server fails its validation in words, on the site as in the kit.
The servers here are the real Python starter bot (starters/python/bot.py) on 127.0.0.1."""

import socket
from contextlib import ExitStack

import pytest

from gameplay.bots import signing
from gameplay.kit.cli import main
from gameplay.runner import validation
from ladder import services as ladder
from ladder.models import Entry
from outside_bots import services
from outside_bots.models import OutsideBot
from tests.api.conftest import client_for
from tests.kit.conftest import python_starter_http, running  # noqa: F401
from tests.ladder.conftest import author, ladder_settings, other  # noqa: F401
from tournaments import services as tournaments

pytestmark = pytest.mark.django_db

URL = "https://bots.example.org/play"


@pytest.fixture
def allowed(settings):
    settings.OUTSIDE_BOT_ALLOWED_HOSTS = ["bots.example.org"]


def test_the_secret_is_shown_once_to_its_author_on_the_pages(client, author, allowed):  # noqa: F811
    client.force_login(author)
    made = client.post("/accounts/bots/new/", {"name": "ada-bot", "url": URL,
                                               "presets": ["classic"]})
    bot = OutsideBot.objects.get()
    assert made.status_code == 200 and len(bot.secret) == 43
    assert bot.secret in made.content.decode() and "this once" in made.content.decode()
    # what to do with it, copied and pasted: the kit's check that the server holds it
    assert (f"PRESIDENT_SECRET='{bot.secret}' president validate {URL}"
            in made.content.decode())
    assert "no-store" in made["Cache-Control"]
    for page in ("/accounts/bots/", f"/accounts/bots/{bot.pk}/", "/ladder/mine/"):
        assert bot.secret not in client.get(page).content.decode(), page


def test_the_secret_is_in_the_api_answer_that_made_it_only(author, allowed):  # noqa: F811
    api = client_for(author)
    made = api.post("/api/v1/bots/", {"name": "ada-bot", "url": URL}, format="json").json()
    bot = OutsideBot.objects.get()
    assert made["secret"] == bot.secret
    assert "secret" not in api.get(f"/api/v1/bots/{bot.pk}/").json()
    assert "secret" not in api.get("/api/v1/bots/").json()["results"][0]
    refused = api.post("/api/v1/bots/", {"name": "b2", "url": URL + "2", "secret": "mine"},
                       format="json")
    assert refused.status_code == 400 and "not taken" in refused.json()["secret"][0]


def test_only_its_author_replaces_the_secret(client, author, other, allowed):  # noqa: F811
    bot = services.outside_bot_create(name="ada-bot", url=URL, owner=author)
    first = bot.secret

    client.force_login(other)
    assert client.post(f"/accounts/bots/{bot.pk}/secret/").status_code == 404
    assert client_for(other).post(f"/api/v1/bots/{bot.pk}/secret/").status_code == 404
    bot.refresh_from_db()
    assert bot.secret == first

    client.force_login(author)
    assert client.get(f"/accounts/bots/{bot.pk}/secret/").status_code == 405
    page = client.post(f"/accounts/bots/{bot.pk}/secret/")
    bot.refresh_from_db()
    assert page.status_code == 200 and bot.secret != first and bot.secret in page.content.decode()
    second = bot.secret
    answer = client_for(author).post(f"/api/v1/bots/{bot.pk}/secret/")
    bot.refresh_from_db()
    assert answer.status_code == 200 and answer.json()["secret"] == bot.secret != second


def test_my_bots_says_plainly_that_a_bot_registered_before_secrets_needs_one(
        client, author, allowed):  # noqa: F811
    old = services.outside_bot_create(name="old-bot", url=URL, owner=author)
    new = services.outside_bot_create(name="new-bot", url=URL + "2", owner=author)
    OutsideBot.objects.filter(pk=old.pk).update(secret_given=False)  # as migration 0005 finds it
    client.force_login(author)
    rotate = f'action="/accounts/bots/{old.pk}/secret/"'

    listing = client.get("/accounts/bots/").content.decode()
    assert "old-bot needs a secret before it can be validated." in listing
    assert rotate in listing and "Replace the secret of old-bot" in listing
    assert "new-bot needs" not in listing and f"/accounts/bots/{new.pk}/secret/" not in listing
    edit = client.get(f"/accounts/bots/{old.pk}/").content.decode()
    assert "It needs a secret before it can be validated" in edit

    shown = client.post(f"/accounts/bots/{old.pk}/secret/")
    old.refresh_from_db()
    assert old.secret_given and old.secret in shown.content.decode()
    listing = client.get("/accounts/bots/").content.decode()
    assert "needs a secret" not in listing and rotate not in listing


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def starter(running, port, secret):  # noqa: F811
    return running([*python_starter_http()[:-1], str(port)], secret=secret)


def test_another_authors_registration_of_a_server_fails_its_challenge(
        running, ladder_settings, author, other, django_capture_on_commit_callbacks):  # noqa: F811
    port = free_port()
    ladder_settings.OUTSIDE_BOT_ALLOWED_HOSTS = [f"127.0.0.1:{port}"]
    ada = services.outside_bot_create(name="lowball", url=f"http://127.0.0.1:{port}/",
                                      owner=author)
    starter(running, port, ada.secret)
    # Another spelling of the same server (the URL is taken as is): the server answers any path.
    bob = services.outside_bot_create(name="copycat", url=f"http://127.0.0.1:{port}/copy",
                                      owner=other)
    with django_capture_on_commit_callbacks(execute=True):
        ladder.bots_sync()

    mine, theirs = (Entry.objects.get(outside_bot=b) for b in (ada, bob))
    assert mine.status == Entry.ACTIVE
    assert theirs.status == Entry.PAUSED
    assert theirs.reason.startswith("its validation game could not be played: copycat failed "
                                    "its challenge: the ownership challenge was not answered "
                                    "(error: HTTP status 401)")
    assert theirs.validation_game.status == "failed"
    assert theirs.validation_game.bot_game is None  # no game was played with the server


def test_the_kit_refuses_a_server_that_does_not_hold_the_secret(running, capsys):  # noqa: F811
    port = free_port()
    starter(running, port, "the-real-authors-secret")
    url = f"http://127.0.0.1:{port}/"
    assert main(["validate", url, "--secret", "another-authors-secret", "--deals", "1"]) == 1
    assert "classic: failed: the ownership challenge was not answered (error: HTTP status " \
           "401)" in capsys.readouterr().out
    assert main(["validate", url, "--secret", "the-real-authors-secret", "--deals", "1"]) == 0
    assert "classic: passed: no fault" in capsys.readouterr().out


def test_a_server_that_checks_no_signature_cannot_prove_the_secret(running, capsys):  # noqa: F811
    port = free_port()
    starter(running, port, None)  # answers every request, signed or not
    assert main(["validate", f"http://127.0.0.1:{port}/", "--secret", "s3cret",
                 "--deals", "1"]) == 1
    assert "failed: the ownership challenge was not answered (error: HTTP status 400)" in \
        capsys.readouterr().out


def test_a_replaced_secret_proves_nothing_any_more(running, ladder_settings, author):  # noqa: F811
    port = free_port()
    ladder_settings.OUTSIDE_BOT_ALLOWED_HOSTS = [f"127.0.0.1:{port}"]
    bot = services.outside_bot_create(name="ada-bot", url=f"http://127.0.0.1:{port}/",
                                      owner=author)
    starter(running, port, bot.secret)
    assert validation.challenge(bot.http_bot()) is None

    bot = services.outside_bot_secret_rotate(bot=bot)
    refusal = validation.challenge(bot.http_bot())
    # the server still holds the old secret: the site's requests, signed with the new one,
    # are refused, and it cannot prove the new one
    assert refusal == "the ownership challenge was not answered (error: HTTP status 401)"


def test_a_wrong_proof_fails_the_challenge():
    class Liar:
        secret, timeout = "s3cret", 1.0

        def exchange_json(self, request):
            return {"proof": signing.proof("another", request["nonce"])}

    assert "does not hold this bot's secret" in validation.challenge(Liar())


def test_tournament_and_ladder_seats_sign_with_the_bots_secret(author, allowed):  # noqa: F811
    bot = services.outside_bot_create(name="ada-bot", url=URL, owner=author)
    seat = tournaments._entrant_bot("outside:ada-bot", seed=0,
                                    outside=tournaments._outside_bots(["outside:ada-bot"]),
                                    game_over=ExitStack())
    assert (seat.url, seat.secret) == (URL, bot.secret)


def test_an_administrator_gets_a_new_secret_for_a_bot_they_registered(client, allowed):
    from django.contrib.auth import get_user_model

    bot = services.outside_bot_create(name="house-bot", url=URL)  # no author
    first = bot.secret
    client.force_login(get_user_model().objects.create_superuser("root", password="pw"))
    page = client.post("/admin/outside_bots/outsidebot/", {
        "action": "replace_secrets", "_selected_action": [bot.pk]})
    bot.refresh_from_db()
    assert page.status_code == 200 and bot.secret != first
    assert bot.secret in page.content.decode() and "no-store" in page["Cache-Control"]
    assert bot.secret not in client.get(
        f"/admin/outside_bots/outsidebot/{bot.pk}/change/").content.decode()


@pytest.mark.parametrize("starter", ["python", "javascript"])
def test_each_http_starter_proves_its_secret_and_no_other(running, starter):  # noqa: F811
    from gameplay.bots.outside import HttpBot
    from tests.kit.conftest import STARTERS, node_or_skip

    argv = (python_starter_http() if starter == "python" else
            [node_or_skip(), str(STARTERS / "javascript" / "bot.js"), "--http", "0"])
    url = running(argv, secret="the-authors-secret").url
    allowed = {url.removeprefix("http://").rstrip("/")}
    assert validation.challenge(HttpBot(url, allowed=allowed, secret="the-authors-secret")) \
        is None
    assert validation.challenge(HttpBot(url, allowed=allowed, secret="someone-else")) == \
        "the ownership challenge was not answered (error: HTTP status 401)"
