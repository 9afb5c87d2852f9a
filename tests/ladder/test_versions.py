"""Versions of a ladder bot (issue #29): a new URL, or its author's "new version", starts the
entry's next version. Its mu goes on with sigma reset, its games and rating points say which
version played, the table shows the current version's figures and the chart marks the change.
Bots that never played a rated game are listed apart from the ranking, and the table refreshes
live through league/live.js."""

import json
import random
import re

import pytest
from django.contrib.staticfiles import finders
from django.urls import reverse
from django.utils import dateformat, timezone

from ladder import services
from ladder.models import Entry, Game, RatingPoint, Seat, Version
from league.ratings import MODEL
from outside_bots import services as outside_bots
from tests.api.conftest import client_for
from tests.ladder.conftest import register
from tests.ladder.test_pages import row_of, text
from tests.ladder.test_services import commit, entry_of, play_rated  # noqa: F401

pytestmark = pytest.mark.django_db


def rated_until(entry, games, commit):  # noqa: F811
    """Schedule rated games until ``entry`` has played ``games`` of its current version."""
    rng = random.Random(7)
    for _ in range(50):
        entry.refresh_from_db()
        if entry.games >= games:
            return entry
        commit(services.games_schedule, rng=rng)
    raise AssertionError(f"{entry} played {entry.games} games, not {games}")


def chart_of(response) -> dict:
    found = re.search(r'<script id="ladder-rating-data" type="application/json">(.*?)</script>',
                      response.content.decode(), re.S)
    return json.loads(found.group(1))


def test_a_new_url_starts_version_2_whose_games_and_figures_are_its_own(
        client, ladder_settings, servers, author, commit):  # noqa: F811
    bot = play_rated(ladder_settings, servers, author, commit, games=6)[0]
    before = entry_of(bot)
    assert before.version == 1 and before.games > 0
    old_points = RatingPoint.objects.filter(entry=before).count()
    (moved,) = servers(1)
    moved.secrets.append(bot.secret)  # the author's bot, moved: it holds its secret

    outside_bots.outside_bot_update(bot=bot, url=moved.url)
    commit(services.bots_sync)

    entry = entry_of(bot)
    assert (entry.version, entry.status) == (2, Entry.ACTIVE)  # its validation game passed
    version = Version.objects.get(entry=entry)
    # The URL is kept for the record, never shown: an author's server is theirs to tell.
    assert (version.number, version.url, version.reason) == (2, moved.url, "a new URL")
    # Its rating goes on from version 1's mu, unsure again; its figures start afresh.
    assert (entry.mu, entry.sigma) == (before.mu, MODEL.sigma)
    assert entry.rated_deals == before.rated_deals
    assert (entry.games, entry.deals, entry.faults, entry.decisions, entry.decision_times) == (
        0, 0, 0, 0, [])

    entry = rated_until(entry, 2, commit)

    rated = Seat.objects.filter(entry=entry, game__kind=Game.RATED, game__status=Game.DONE)
    first = rated.filter(game__stored_at__lt=version.started_at)
    second = rated.filter(game__stored_at__gte=version.started_at)
    assert set(first.values_list("version", flat=True)) == {1}
    assert set(second.values_list("version", flat=True)) == {2}
    positions = [p for s in second for p in s.positions]
    assert (entry.games, entry.deals) == (second.count(), len(positions))
    assert entry.firsts == positions.count(1) and entry.positions == sum(positions)
    assert entry.decisions == sum(s.decisions for s in second)
    assert entry.rated_deals == before.rated_deals + len(positions)
    points = list(RatingPoint.objects.filter(entry=entry).order_by("id"))
    assert [p.version for p in points] == [1] * old_points + [2] * entry.games
    assert [p.deals for p in points] == sorted({p.deals for p in points})  # every version's

    table = client.get(reverse("ladder:table"), {"preset": "classic"})
    cells = row_of(table, f"{entry.name} v2")
    assert cells[4] == str(second.count())  # games: version 2's
    page = client.get(reverse("ladder:bot", args=[entry.pk]))
    since = dateformat.format(timezone.localtime(version.started_at), "j M Y H:i")
    assert f"Version 2, since {since} (a new URL)" in text(page)
    assert moved.url not in page.content.decode()
    shown = client.get(f"/api/v1/ladder/{entry.pk}/").json()
    assert shown["versions"][0]["reason"] == "a new URL" and moved.url not in str(shown)
    chart = chart_of(page)
    assert chart["versions"] == [p.version for p in points]
    assert chart["marks"] == [{"index": old_points, "version": 2,
                               "label": "version 2: a new URL"}]
    games = re.findall(r'<td class="nowrap"><a href="/ladder/games/(\d+)/">.*?</a></td>'
                       r'<td>(\w+)</td>\s*<td class="num">(.*?)</td>', page.content.decode())
    by_game = {int(pk): shown for pk, kind, shown in games if kind == "rated"}
    assert {by_game[s.game_id] for s in second} == {"2"}
    assert {by_game[s.game_id] for s in first if s.game_id in by_game} == {"1"}
    played = text(client.get(reverse("ladder:game", args=[second.first().game_id])))
    assert f"{entry.name} v2" in played


def test_only_its_author_starts_a_new_version(client, ladder_settings, servers, author, other,
                                              commit):  # noqa: F811
    (server,) = servers(1)
    bot = register(author, server)
    commit(services.bots_sync)
    entry = entry_of(bot)
    page_url = reverse("ladder:new_version", args=[entry.pk])
    api_url = f"/api/v1/ladder/{entry.pk}/new-version/"
    reference = Entry.objects.get(preset="classic", name="heuristic")

    refused = client.post(page_url)
    assert refused.status_code == 403 and "Sign in as the author of ada-bot" in text(refused)
    client.force_login(other)
    assert "New version" not in text(client.get(reverse("ladder:bot", args=[entry.pk])))
    refused = client.post(page_url)
    assert refused.status_code == 403 and "Only the author of ada-bot" in text(refused)
    assert client.get(page_url).status_code == 405
    assert client.post(reverse("ladder:new_version", args=[999999])).status_code == 404
    assert client_for(None).post(api_url).status_code in (401, 403)
    assert client_for(other).post(api_url).status_code == 403
    assert client_for(author).post(f"/api/v1/ladder/{reference.pk}/new-version/"
                                   ).status_code == 403
    assert client_for(author).post("/api/v1/ladder/999999/new-version/").status_code == 404
    assert Entry.objects.get(pk=entry.pk).version == 1 and not Version.objects.exists()

    client.force_login(author)
    assert "New version" in text(client.get(reverse("ladder:bot", args=[entry.pk])))
    answer = commit(client.post, page_url, follow=True)
    assert "ada-bot starts a new version" in text(answer)
    entry.refresh_from_db()
    assert (entry.version, entry.status) == (2, Entry.ACTIVE)  # validated again, passed
    assert Version.objects.get(entry=entry, number=2).reason == "its author's new version"

    answer = client_for(author).post(api_url)
    assert answer.status_code == 200
    assert (answer.json()["version"], answer.json()["status"]) == (3, "validating")
    detail = client_for(author).get(f"/api/v1/ladder/{entry.pk}/").json()
    assert [v["number"] for v in detail["versions"]] == [2, 3]

    # A bot paused for its faults waits its cooldown: a new version does not skip it.
    ladder_settings.LADDER_RESUME_COOLDOWN_SECONDS = 600
    Entry.objects.filter(pk=entry.pk).update(
        status=Entry.PAUSED, resume_after=timezone.now() + services.resume_cooldown(1))
    early = client_for(author).post(api_url)
    assert early.status_code == 400 and "may start a new version when it may resume" in (
        early.json()["detail"])
    assert Entry.objects.get(pk=entry.pk).version == 3


def test_bots_that_never_played_a_rated_game_are_listed_apart(client):
    played = Entry.objects.create(preset="classic", name="played", reference=True, spec="random",
                                  status=Entry.ACTIVE, mu=10.0, sigma=5.0, ordinal=-5.0, games=2,
                                  deals=8, rated_deals=8)
    fresh = Entry.objects.create(preset="classic", name="fresh", status=Entry.ACTIVE)
    waiting = Entry.objects.create(preset="classic", name="waiting", status=Entry.PAUSED)
    assert fresh.ordinal > played.ordinal  # a never-played bot's rating would rank it first

    answer = client.get(reverse("ladder:table"), {"preset": "classic"})

    page = answer.content.decode()
    ranking = page[page.index('<table id="ladder"'):page.index("</table>")]
    apart = page[page.index('<ul id="not-yet-rated"'):page.index("</ul>", page.index(
        '<ul id="not-yet-rated"'))]
    assert "played" in ranking and "fresh" not in ranking and "waiting" not in ranking
    assert row_of(answer, "played")[0] == "1"
    assert "Not yet rated" in text(answer)
    assert apart.index("fresh") < apart.index("waiting")
    assert "waiting for its first game" in apart and "paused" in apart

    rows = client_for(None).get("/api/v1/ladder/", {"preset": "classic"}).json()["results"]
    assert [(r["name"], r["rated"]) for r in rows] == [
        ("played", True), ("fresh", False), ("waiting", False)]
    assert waiting.pk == rows[2]["id"]


def test_the_table_refreshes_live_from_its_json(client):
    Entry.objects.create(preset="classic", name="played", reference=True, spec="random",
                         status=Entry.ACTIVE, ordinal=1.0, games=2, deals=8, rated_deals=8)
    news_url = reverse("ladder:table_json")

    page = client.get(reverse("ladder:table"), {"preset": "classic"}).content.decode()

    assert re.search(r'<script src="/static/league/live\.js" defer>', page)
    assert finders.find("league/live.js")
    assert f'data-live data-url="{news_url}?preset=classic"' in page
    news = client.get(news_url, {"preset": "classic"})
    assert news.status_code == 200 and news.json()["preset"] == "classic"
    assert '<table id="ladder"' in news.json()["html"] and "played" in news.json()["html"]
    assert client.get(news_url, {"preset": "classic"}).json()["version"] == news.json()[
        "version"]
    Entry.objects.filter(name="played").update(games=3)
    changed = client.get(news_url, {"preset": "classic"}).json()
    assert changed["version"] != news.json()["version"]
    bad = client.get(news_url, {"preset": "nope"})
    assert bad.status_code == 400 and "There is no preset 'nope'" in bad.json()["error"]


def test_a_bots_page_refreshes_its_status_and_figures_live(client):
    entry = Entry.objects.create(preset="classic", name="played", reference=True, spec="random",
                                 status=Entry.ACTIVE, games=2, deals=8, rated_deals=8)
    news_url = reverse("ladder:bot_json", args=[entry.pk])

    page = client.get(reverse("ladder:bot", args=[entry.pk])).content.decode()

    assert f'data-live data-url="{news_url}"' in page
    assert '<script src="/static/league/live.js" defer>' in page
    news = client.get(news_url).json()
    assert (news["entry"], news["done"]) == (entry.pk, False)
    assert 'id="status-h">Status: playing' in news["html"] and 'id="games">2<' in news["html"]
    Entry.objects.filter(pk=entry.pk).update(games=3, status=Entry.RETIRED)
    later = client.get(news_url).json()
    assert later["version"] != news["version"] and later["done"] is True
    assert 'id="games">3<' in later["html"]
    missing = client.get(reverse("ladder:bot_json", args=[999999]))
    assert missing.status_code == 404 and "There is no bot 999999" in missing.json()["error"]


def test_a_bot_being_validated_starts_no_new_version_until_its_game_is_over(
        ladder_settings, author):
    """Found by a security walk-through: each new version sends a validation game to the
    workers at once, so an author posting new-version in a loop queued a game a request (600 a
    minute under the API's throttle) past the ladder's games in flight, and a version each."""
    ladder_settings.OUTSIDE_BOT_ALLOWED_HOSTS = ["bots.example.org"]
    bot = outside_bots.outside_bot_create(name="ada-bot", url="https://bots.example.org/ada",
                                          owner=author, by=author)
    services.bots_sync()  # validating: its game would be sent on commit, never reached here
    entry = Entry.objects.get(outside_bot=bot)
    assert entry.status == Entry.VALIDATING
    before = (Game.objects.count(), Version.objects.count())

    answers = [client_for(author, token=True).post(f"/api/v1/ladder/{entry.pk}/new-version/")
               for _ in range(3)]

    assert {a.status_code for a in answers} == {400}
    assert answers[0].json() == {"detail": (
        f"ada-bot is being validated (game {entry.validation_game_id}): a new version starts "
        "once that game is over")}
    assert (Game.objects.count(), Version.objects.count()) == before
    assert Entry.objects.get(pk=entry.pk).version == 1
