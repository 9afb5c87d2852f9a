"""A bot's own logs on the ladder (issue #29, "Logs"): stored with the game, shown beside the
decision they came with to the bot's author (and staff) only, always as text; an error page's
start kept in the fault; the replay marks each decision's time and the safe moves played for a
faulting seat, and a fault links to its replay step."""

import re

import pytest
from django.urls import reverse

from bot_games import selectors as bot_games
from bot_games.models import BotSeat
from ladder import selectors, services
from ladder.web.views import FAULTS_PER_KIND, GAME_FAULTS_OPEN
from league import replays
from tests.ladder.conftest import register
from tests.ladder.test_bot_games import commit  # noqa: F401 (the fixture)
from tests.ladder.test_pages import text
from tests.league.factories import UserFactory

pytestmark = pytest.mark.django_db

SCRIPT = "<script>alert('pwned')</script>"


def play_validation(servers, author, commit, mode="good", name="ada-bot"):  # noqa: F811
    """A validation game of ada-bot (or ``name``), whose every answer logs a <script>, its
    decision and its number: its server (the requests, in order), the game and the bot's
    seat in it."""
    (server,) = servers(1)
    server.mode = mode
    server.log = lambda request: f"{SCRIPT} {request['decision']} {len(server.requests)}"
    bot = register(author, server, name)
    commit(services.bots_sync)
    entry = bot.ladder_entries.get()
    game = selectors.game_get(entry.validation_game_id)
    seat = game.seats.get(entry=entry).seat
    return server, game, seat


def replay_of(game):
    return replays.transcript_steps(game.bot_game.transcript,
                                    names=[s.entry.name for s in game.seats.order_by("seat")])


def assert_at_its_step(step: dict, seat: int, decision: str) -> None:
    """A play decision is its seat's move at its step; one before play (an exchange, the
    leader) is the deal's lead, its exchanges done."""
    if decision == "play":
        assert (step["seat"], step["action"]) in {(seat, a) for a in ("play", "pass", "blind")}
    else:
        assert step["action"] == "lead"


def test_each_log_is_stored_at_its_decisions_replay_step(
        ladder_settings, servers, author, commit):  # noqa: F811
    server, game, seat = play_validation(servers, author, commit)
    stored = BotSeat.objects.get(game=game.bot_game, seat=seat)
    steps = replay_of(game)["steps"]

    assert len(stored.timeline) == stored.decisions == len(server.requests)
    assert [log["text"] for log in stored.logs] == [
        f"{SCRIPT} {r['decision']} {n}" for n, r in enumerate(server.requests, 1)]
    assert [log["step"] for log in stored.logs] == [p["step"] for p in stored.timeline]
    for point, request in zip(stored.timeline, server.requests, strict=True):
        assert_at_its_step(steps[point["step"] - 1], seat, request["decision"])
        assert point["ms"] > 0 and "safe" not in point
    plays = [p["step"] for p, r in zip(stored.timeline, server.requests, strict=True)
             if r["decision"] == "play"]
    assert plays == sorted(set(plays))  # one move each, in the order played
    # the built-in bots' seats: timed, no logs
    others = BotSeat.objects.filter(game=game.bot_game).exclude(seat=seat)
    assert all(s.timeline and not s.logs for s in others)


def test_logs_are_shown_to_their_author_only_as_text(
        ladder_settings, servers, author, other, commit, client):  # noqa: F811
    server, game, seat = play_validation(servers, author, commit)
    url = reverse("ladder:game", args=[game.pk])

    client.force_login(author)
    mine = client.get(url)
    page = mine.content.decode()
    assert "Your bot's logs" in page
    # folded: a log a decision stood 6,000 px of the page above the replay
    assert f"<details><summary>{len(server.requests)} logs, in order</summary>" in page
    assert SCRIPT not in page  # escaped wherever it is shown
    assert "&lt;script&gt;alert(&#x27;pwned&#x27;)&lt;/script&gt; play" in page
    assert page.count('<pre class="log">&lt;script&gt;') >= 2 * len(server.requests) - 1
    marks = [m for s in mine.context["steps"]["steps"] for m in s.get("decided", [])
             if m["seat"] == seat]
    assert sum(len(m["logs"]) for m in marks) == len(server.requests)

    staff = UserFactory(username="root", is_staff=True)
    client.force_login(staff)
    assert "alert(" in client.get(url).content.decode()

    client.force_login(other)
    theirs = client.get(url)
    client.logout()
    anonymous = client.get(url)
    for answer in (theirs, anonymous):
        body = answer.content.decode()
        assert answer.status_code == 200 and 'id="replay-data"' in body
        assert "alert(" not in body and "pwned" not in body and "Your bot's logs" not in body
        # the decisions' times stay public
        assert any(s.get("decided") for s in answer.context["steps"]["steps"])


def test_the_replay_marks_each_decisions_time_and_the_safe_moves(
        ladder_settings, servers, author, commit, client):  # noqa: F811
    server, game, seat = play_validation(servers, author, commit, mode="junk")
    stored = BotSeat.objects.get(game=game.bot_game, seat=seat)
    steps = replay_of(game)
    bot_games.replay_marked(steps, game_id=game.bot_game_id, log_seats=set())

    for point in stored.timeline:
        (mark,) = [m for m in steps["steps"][point["step"] - 1]["decided"] if m["seat"] == seat]
        assert mark["safe"] is True and mark["ms"] >= point["ms"] > 0 and mark["logs"] == []
    builtin = BotSeat.objects.filter(game=game.bot_game).exclude(seat=seat).first()
    marks = [m for s in steps["steps"] for m in s.get("decided", []) if m["seat"] == builtin.seat]
    assert marks and not any(m["safe"] for m in marks)
    assert round(sum(m["ms"] for m in marks)) == round(sum(p["ms"] for p in builtin.timeline))

    page = text(client.get(reverse("ladder:game", args=[game.pk])))
    assert "ada-bot: " in page and "safe move played for it" in page


def test_a_fault_links_to_its_step_in_the_replay(
        ladder_settings, servers, author, commit, client):  # noqa: F811
    server, game, seat = play_validation(servers, author, commit, mode="junk")
    faults = list(bot_games.game_faults(game_id=game.bot_game_id))
    steps = replay_of(game)["steps"]

    assert len(faults) == len(server.requests)
    stored = BotSeat.objects.get(game=game.bot_game, seat=seat)
    for fault, request in zip(faults, server.requests, strict=True):
        assert fault.step == stored.timeline[fault.number - 1]["step"]
        assert fault.decision == request["decision"]
        assert steps[fault.step - 1]["deal"] == fault.deal + 1
        assert_at_its_step(steps[fault.step - 1], seat, fault.decision)

    page = client.get(reverse("ladder:game", args=[game.pk])).content.decode()
    fault = next(f for f in faults if f.decision == "play")
    link = (f'request {fault.number} (<code>play</code>, <a class="to-step" '
            f'href="#step-{fault.step}">step {fault.step} of the replay</a>)')
    assert link in page
    # the anchor is the replay's own step (its list without JavaScript)
    item = re.search(rf'<li id="step-{fault.step}"><span aria-hidden="true">([^<]*)',
                     page).group(1)
    assert item.startswith(f"Deal {fault.deal + 1} · ada-bot ")
    # the bot's page and its author's dashboard link each fault to its step too
    entry = game.seats.get(seat=seat).entry
    game_url = reverse("ladder:game", args=[game.pk])
    bot_page = client.get(reverse("ladder:bot", args=[entry.pk])).content.decode()
    latest = faults[-FAULTS_PER_KIND:]  # all of one kind, malformed: its latest are listed
    assert all(f'href="{game_url}#step-{f.step}"' in bot_page for f in latest)
    client.force_login(author)
    dashboard = client.get(reverse("ladder:mine")).content.decode()
    assert f'href="{game_url}#step-{faults[-1].step}"' in dashboard


def test_an_error_page_is_kept_in_the_fault_for_its_author(
        ladder_settings, servers, author, other, commit, client):  # noqa: F811
    server, game, seat = play_validation(servers, author, commit, mode="traceback")
    faults = list(bot_games.game_faults(game_id=game.bot_game_id))
    assert faults and all(f.body.startswith("Traceback (most recent call last):\n<b>boom</b>")
                          and len(f.body) == 2000 for f in faults)
    url = reverse("ladder:game", args=[game.pk])

    client.force_login(author)
    page = client.get(url).content.decode()
    assert "&lt;b&gt;boom&lt;/b&gt;" in page and "<b>boom</b>" not in page
    # the same error page at every request is shown once (a walk-through found 102 copies
    # above the replay), and past GAME_FAULTS_OPEN faults the rest are folded
    assert len(faults) > GAME_FAULTS_OPEN
    assert page.count('<pre class="answer body">') == 1
    assert page.count("its error page began as the one above") == len(faults) - 1
    folded = page.split("<details><summary>")[1]
    assert folded.startswith(f"{len(faults) - GAME_FAULTS_OPEN} more faults</summary>")
    client.force_login(other)
    assert "boom" not in client.get(url).content.decode()


def test_a_faulty_answers_log_stays_its_authors(
        ladder_settings, servers, author, other, commit, client):  # noqa: F811
    """An illegal answer's start is shown with its fault to everyone, and its "log" is the
    author's alone (docs/bots.md "Who sees them"): the fault keeps the answer without it."""
    server, game, seat = play_validation(servers, author, commit, mode="illegal")
    faults = list(bot_games.game_faults(game_id=game.bot_game_id))
    assert faults and all(f.kind == "illegal" for f in faults)
    assert all('"choice": 999' in f.answer and '"log": "…"' in f.answer
               and "pwned" not in f.answer for f in faults)
    entry = game.seats.get(seat=seat).entry

    client.logout()
    for url in (reverse("ladder:game", args=[game.pk]), reverse("ladder:bot", args=[entry.pk]),
                f"/api/v1/ladder/{entry.pk}/", f"/api/v1/ladder-games/{game.pk}/"):
        answer = client.get(url)
        assert answer.status_code == 200 and "pwned" not in answer.content.decode(), url
    client.force_login(author)
    assert "pwned" in client.get(reverse("ladder:game", args=[game.pk])).content.decode()
