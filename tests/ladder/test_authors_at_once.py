"""One author's two tabs acting on one ladder bot at the same instant, on PostgreSQL (tests/api/
conftest.py ``at_once``): one of each change is made, the other refused in words, never a 500,
and never two validation games or two new versions; and another author acting on the bot by
its id is refused every write, nothing changed."""

import json
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest
from django.db import connection

from gameplay.bots import signing
from ladder import services
from ladder.models import Entry, Game, Version
from outside_bots import services as outside_bots
from outside_bots.models import OutsideBot
from tests.api.conftest import at_once, client_for, overlapping
from tests.bots.test_outside import decide
from tests.ladder.conftest import author, faults_of, ladder_settings, other  # noqa: F401
from tests.ladder.test_pages import text

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]

URL = "https://bots.example.org/play"


@pytest.fixture
def entry(ladder_settings, author, monkeypatch):  # noqa: F811
    """An author's active bot on the classic ladder; no game is sent to the workers."""
    if connection.vendor != "postgresql":
        pytest.skip("SQLite runs one writer at a time; the race needs PostgreSQL")
    ladder_settings.OUTSIDE_BOT_ALLOWED_HOSTS = ["bots.example.org"]
    monkeypatch.setattr(services, "games_send", lambda **kwargs: 0)
    bot = outside_bots.outside_bot_create(name="ada-bot", url=URL, owner=author)
    services.bots_sync()
    Entry.objects.filter(outside_bot=bot).update(status=Entry.ACTIVE)
    return Entry.objects.get(outside_bot=bot)


def posts(path, n=2):
    return [lambda client: client.post(path, format="json") for _ in range(n)]


def validation_games(entry):
    return Game.objects.filter(kind=Game.VALIDATION, seats__entry=entry).count()


def test_two_pauses_at_once_pause_it_once(entry, author):  # noqa: F811
    answers = at_once(author, *posts(f"/api/v1/ladder/{entry.pk}/pause/"))

    assert sorted(a.status_code for a in answers) == [200, 400], [a.content for a in answers]
    refused = next(a for a in answers if a.status_code == 400)
    assert "only an active or validating bot pauses" in refused.json()["detail"]
    assert Entry.objects.get(pk=entry.pk).status == Entry.PAUSED


def test_two_resumes_at_once_play_one_validation_game(entry, author):  # noqa: F811
    services.entry_pause(entry=entry)
    before = validation_games(entry)

    answers = at_once(author, *posts(f"/api/v1/ladder/{entry.pk}/resume/"))

    assert sorted(a.status_code for a in answers) == [200, 400], [a.content for a in answers]
    refused = next(a for a in answers if a.status_code == 400)
    assert "only a paused bot resumes" in refused.json()["detail"]
    assert validation_games(entry) == before + 1
    assert Entry.objects.get(pk=entry.pk).status == Entry.VALIDATING


def test_two_new_versions_at_once_start_one(entry, author):  # noqa: F811
    answers = at_once(author, *posts(f"/api/v1/ladder/{entry.pk}/new-version/"))

    assert sorted(a.status_code for a in answers) == [200, 400], [a.content for a in answers]
    refused = next(a for a in answers if a.status_code == 400)
    assert "is being validated" in refused.json()["detail"]
    assert list(Version.objects.filter(entry=entry).values_list("number", flat=True)) == [2]
    assert Entry.objects.get(pk=entry.pk).version == 2


def test_pause_resume_new_version_rename_and_remove_at_once_never_answer_500(entry, author):  # noqa: F811
    bot = entry.outside_bot
    answers = at_once(author, *(
        lambda c: c.post(f"/api/v1/ladder/{entry.pk}/pause/"),
        lambda c: c.post(f"/api/v1/ladder/{entry.pk}/resume/"),
        lambda c: c.post(f"/api/v1/ladder/{entry.pk}/new-version/"),
        lambda c: c.patch(f"/api/v1/bots/{bot.pk}/", {"name": "ada-bot-2"}, format="json"),
        lambda c: c.delete(f"/api/v1/bots/{bot.pk}/"),
    ))

    assert all(a.status_code < 500 for a in answers), [a.content for a in answers]
    assert not OutsideBot.objects.filter(pk=bot.pk).exists()
    services.bots_sync()
    assert Entry.objects.get(pk=entry.pk).status == Entry.RETIRED


def test_another_author_is_refused_every_write_to_the_bot_by_its_id(entry, other):  # noqa: F811
    bot = entry.outside_bot
    before = (OutsideBot.objects.filter(pk=bot.pk).values().get(),
              Entry.objects.filter(pk=entry.pk).values().get(), Game.objects.count())
    api = client_for(other)
    answers = {
        "pause": api.post(f"/api/v1/ladder/{entry.pk}/pause/"),
        "resume": api.post(f"/api/v1/ladder/{entry.pk}/resume/"),
        "new version": api.post(f"/api/v1/ladder/{entry.pk}/new-version/"),
        "challenge": api.post("/api/v1/ladder-games/", {"entry": entry.pk, "opponents": [
            Entry.objects.get(preset="classic", reference=True, name="random").pk]},
            format="json"),
        "rename": api.patch(f"/api/v1/bots/{bot.pk}/", {"name": "bobs-bot"}, format="json"),
        "secret": api.post(f"/api/v1/bots/{bot.pk}/secret/"),
        "remove": api.delete(f"/api/v1/bots/{bot.pk}/"),
    }
    page = client_for(other)
    answers |= {
        "page edit": page.post(f"/accounts/bots/{bot.pk}/", {"name": "bobs-bot", "url": URL,
                                                             "presets": ["classic"]}),
        "page secret": page.post(f"/accounts/bots/{bot.pk}/secret/"),
        "page remove": page.post(f"/accounts/bots/{bot.pk}/delete/"),
        "page pause": page.post(f"/ladder/bots/{entry.pk}/pause/"),
        "page resume": page.post(f"/ladder/bots/{entry.pk}/resume/"),
        "page new version": page.post(f"/ladder/bots/{entry.pk}/new-version/"),
        "page challenge": page.post(f"/ladder/bots/{entry.pk}/challenge/", {"opponents": [
            Entry.objects.get(preset="classic", reference=True, name="random").pk]}),
    }

    for what, answer in answers.items():
        assert answer.status_code in (403, 404), (what, answer.status_code)
        said = answer.content.decode()
        assert "ada-bot" in said or "not found" in said.lower() or "no " in said.lower(), (
            what, said[:300])
    assert before == (OutsideBot.objects.filter(pk=bot.pk).values().get(),
                      Entry.objects.filter(pk=entry.pk).values().get(), Game.objects.count())


class HoldingServer:
    """An author's bot server that holds one secret, as the kit's does: it refuses (401) a
    request not signed with it, and answers the challenge with it. After ``rotate_after``
    decisions its author replaces the bot's secret on the site (``bot_id``: the bot's) and
    gives the new one to the server ``gap`` requests later."""

    def __init__(self, rotate_after: int, gap: int = 0):
        self.held, self.bot_id, self.left, self.gap = "", None, rotate_after, gap
        self.new = None
        self.refused = 0
        server = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self):  # noqa: N802
                body = self.rfile.read(int(self.headers["Content-Length"]))
                if server.new is not None:
                    server.gap -= 1
                    if server.gap < 0:  # redeployed with it
                        server.held, server.new = server.new, None
                try:
                    signing.verify(server.held, body, self.headers.get(signing.HEADER))
                except signing.BadSignature:
                    server.refused += 1
                    self.send_error(401)
                    return
                request = json.loads(body)
                answer = ({"proof": signing.proof(server.held, request["nonce"])}
                          if request["decision"] == "challenge" else decide(request))
                if request["decision"] != "challenge":
                    server.left -= 1
                    if server.left == 0:  # the author's other tab: a new secret, given to it
                        try:
                            server.new = outside_bots.outside_bot_secret_rotate(
                                bot=OutsideBot.objects.get(pk=server.bot_id)).secret
                        finally:
                            connection.close()
                data = json.dumps(answer).encode()
                self.send_response(200)
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

            def log_message(self, *args):
                pass

        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.httpd.server_address[1]}/bot"
        threading.Thread(target=self.httpd.serve_forever, daemon=True).start()

    def close(self):
        self.httpd.shutdown()
        self.httpd.server_close()


@pytest.mark.parametrize("gap", [0, 5])
def test_a_secret_replaced_during_a_validation_game_does_not_fault_the_bot(
        ladder_settings, author, monkeypatch, gap):  # noqa: F811
    """Its author replaced the secret mid-game and gave the new one to the server at once (gap
    0): the game went on signing with the old one, every later decision was refused (401), and
    the bot was paused for faults the site's own change made. Given to the server a few
    requests later (gap 5), those refused meanwhile are no fault of the bot's either: the
    change was made during the game, which could not wait for it."""
    if connection.vendor != "postgresql":
        pytest.skip("the server's thread writes the new secret: PostgreSQL")
    monkeypatch.setattr(services, "games_send", lambda **kwargs: 0)
    server = HoldingServer(rotate_after=3, gap=gap)
    try:
        ladder_settings.OUTSIDE_BOT_ALLOWED_HOSTS = [server.url.split("/")[2]]
        bot = outside_bots.outside_bot_create(name="ada-bot", url=server.url, owner=author)
        server.held, server.bot_id = bot.secret, bot.pk
        services.bots_sync()
        entry = Entry.objects.get(outside_bot=bot)

        assert services.game_run(game_id=entry.validation_game_id)
    finally:
        server.close()

    entry.refresh_from_db()
    assert server.left < 0 and server.refused == gap, server.refused
    assert (entry.status, entry.reason) == (Entry.ACTIVE, "")
    assert not faults_of(entry).exists()


@pytest.mark.parametrize("action, refusal", [
    ("pause", "only an active or validating bot pauses"),
    ("resume", "only a paused bot resumes"),
])
def test_the_tab_refused_after_the_other_changed_the_bot_shows_it_as_it_is_now(
        entry, author, monkeypatch, action, refusal):  # noqa: F811
    """Two tabs pausing at once (or resuming): the refused one said the bot was paused over a
    page showing it active, its Pause button still there (resuming: validating, over a page
    saying a paused bot plays no games), as its view had read the bot before the other tab's
    change."""
    if action == "resume":
        services.entry_pause(entry=entry)
    overlapping(monkeypatch, services, f"entry_{action}")  # both views read it first
    answers = at_once(author, *posts(f"/ladder/bots/{entry.pk}/{action}/"))

    assert sorted(a.status_code for a in answers) == [302, 400], [a.status_code for a in answers]
    refused = text(next(a for a in answers if a.status_code == 400))
    assert refusal in refused
    paused = action == "pause"
    assert ("A paused bot plays no games" in refused) == paused, refused[-1500:]
    assert ("Pause: no new games" in refused) == (not paused), refused[-1500:]
