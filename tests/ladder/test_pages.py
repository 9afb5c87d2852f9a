"""The ladder's pages: the table shows the entries' aggregates as the stored games add them up;
a bot's page shows its faults and its chart's data; only its author sees and uses "resume" and
"start a challenge game" (others get a 403 in words); bad input is a 4xx that changes nothing."""

import html
import json
import re
from decimal import ROUND_HALF_UP, Decimal

import pytest
from django.urls import reverse

from ladder import selectors, services
from ladder.models import Entry, Game, RatingPoint, Seat
from tests.ladder.conftest import faults_of, register
from tests.ladder.test_api import ladder, pause  # noqa: F401  (the fixture: a played ladder)

pytestmark = pytest.mark.django_db


def text(response) -> str:
    """The page's words, tags dropped and spaces squeezed (none before punctuation)."""
    words = re.sub(r"\s+", " ", html.unescape(re.sub(r"<[^>]+>", " ", response.content.decode())))
    return re.sub(r" ([,.:;)])", r"\1", words)


def percent(part, whole) -> str:
    """As the page rounds it (floatformat: half up)."""
    value = Decimal(100 * part) / Decimal(whole)
    return f"{value.quantize(Decimal(1), rounding=ROUND_HALF_UP)}%"


def row_of(response, name) -> list[str]:
    """The cells of the ladder table's row of bot ``name``."""
    page = response.content.decode()
    for row in re.findall(r"<tr[^>]*>(.*?)</tr>", page, re.S):
        cells = [re.sub(r"\s+", " ", re.sub(r"<[^>]+>", "", c)).strip()
                 for c in re.findall(r"<t[hd][^>]*>(.*?)</t[hd]>", row, re.S)]
        if len(cells) > 1 and re.split(r" (built-in|by \S+)$", cells[1])[0] == name:
            return cells
    raise AssertionError(f"no row for {name}")


def test_the_table_shows_the_aggregates_of_the_stored_games(client, ladder):  # noqa: F811
    answer = client.get(reverse("ladder:table"), {"preset": "classic"})

    assert answer.status_code == 200
    for name, entry in ladder.items():
        seats = Seat.objects.filter(entry=entry, game__kind=Game.RATED, game__status=Game.DONE)
        positions = [p for s in seats for p in s.positions]
        players = {s.game_id: s.game.seats.count() for s in seats}
        lasts = sum(s.positions.count(players[s.game_id]) for s in seats)
        faults = faults_of(entry).filter(game__ladder_game__kind=Game.RATED).count()
        cells = row_of(answer, name)
        place, bot, rating, interval, games, first, last, shown_faults = cells[:8]
        assert bot == f"{name} by {entry.outside_bot.owner.username}"
        assert games == str(seats.count())
        assert first == percent(positions.count(1), len(positions))
        assert last == percent(lasts, len(positions))
        assert shown_faults == str(faults)
        assert rating == f"{entry.ordinal:.2f}"
        assert interval.startswith(f"{entry.mu:.1f} ± ")
    assert row_of(answer, "bob-1")[7] != "0"  # it answered junk
    assert row_of(answer, "heuristic")[1] == "heuristic built-in"
    places = [int(row_of(answer, e.name)[0]) for e in selectors.ladder_table(preset="classic")]
    assert places == list(range(1, len(places) + 1))
    assert "μ − 3σ" in text(answer)  # the line saying what the rating is


def test_the_table_reads_entries_not_games(client, ladder, django_assert_max_num_queries):  # noqa: F811
    with django_assert_max_num_queries(6):  # session-free: presets, count, the page of rows
        assert client.get(reverse("ladder:table")).status_code == 200


def test_a_bots_pages_and_games_read_their_seats_in_a_few_queries(
        client, ladder, django_assert_max_num_queries):  # noqa: F811
    """Each seat's figures come from its bot game's seat and its faults' count, read with
    the seats: the queries do not grow with the games and seats shown (here 7 games of
    bob-1's, 3 or 4 seats each)."""
    entry = ladder["bob-1"]
    game = Game.objects.filter(seats__entry=entry, bot_game__faults__seat__isnull=False).first()
    assert Seat.objects.filter(game__seats__entry=entry).count() > 20
    for url, most in [(reverse("ladder:bot", args=[entry.pk]), 10),
                      (reverse("ladder:game", args=[game.pk]), 4),
                      (f"/api/v1/ladder/{entry.pk}/", 10),
                      (f"/api/v1/ladder-games/?entry={entry.pk}", 3),
                      (f"/api/v1/ladder-games/{game.pk}/", 3)]:
        with django_assert_max_num_queries(most):
            assert client.get(url).status_code == 200


def test_the_table_says_which_preset_is_unknown(client, ladder):  # noqa: F811
    answer = client.get(reverse("ladder:table"), {"preset": "poker"})

    assert answer.status_code == 400
    assert "There is no preset 'poker'" in text(answer) and "classic" in text(answer)
    empty = client.get(reverse("ladder:table"), {"preset": "friday"})
    assert empty.status_code == 200 and "No bot on the friday ladder yet" in text(empty)
    # said as a paragraph, not in a cell of the sideways-scrolling table, where a phone at
    # 360 px showed only its first words
    assert 'id="ladder"' not in empty.content.decode()


def test_a_bots_page_shows_its_faults_and_chart_data(client, ladder):  # noqa: F811
    entry = ladder["bob-1"]
    answer = client.get(reverse("ladder:bot", args=[entry.pk]))

    assert answer.status_code == 200
    page = text(answer)
    chart = json.loads(re.search(r'<script id="ladder-rating-data" type="application/json">'
                                 r"(.*?)</script>", answer.content.decode(), re.S).group(1))
    points = list(RatingPoint.objects.filter(entry=entry).order_by("id"))
    assert len(chart["ordinal"]) == len(points) == entry.games
    assert chart["labels"] == [p.deals for p in points]
    assert chart["ordinal"][-1] == round(entry.ordinal, 3)
    assert all(lo < mu < hi for lo, mu, hi in zip(chart["low"], chart["mu"], chart["high"],
                                                  strict=True))
    assert "ladder/ladder.js" in answer.content.decode()
    assert 'id="history"' in answer.content.decode()  # the chart's figures as a table
    fault = faults_of(entry).order_by("-id").first()
    shown = min(faults_of(entry).count(), selectors.RECENT_FAULTS)
    assert f"malformed {entry.fault_kinds['malformed']} {shown}" in page  # by kind
    assert "Malformed" in page  # the latest, under their kind
    assert f"request {fault.number} ( {fault.decision}): {fault.message}" in page
    assert "its answer began: not json {" in page
    assert f"validation game: game {entry.validation_game_id}, no fault: passed" in page
    for game in Game.objects.filter(seats__entry=entry).order_by("-id")[:5]:
        assert reverse("ladder:game", args=[game.pk]) in answer.content.decode()
    assert "Start a challenge game" not in page and "Resume" not in page  # not the author


def test_a_bots_page_says_its_validation_game_had_faults(
        client, ladder_settings, servers, author, django_capture_on_commit_callbacks):
    (server,) = servers(1)
    server.mode = "junk"
    bot = register(author, server)
    with django_capture_on_commit_callbacks(execute=True):
        services.bots_sync()
    entry = Entry.objects.get(outside_bot=bot)
    faults = faults_of(entry).filter(game__ladder_game=entry.validation_game_id).count()
    assert entry.status == Entry.PAUSED and faults > 1

    bot_page = text(client.get(reverse("ladder:bot", args=[entry.pk])))
    news = client.get(reverse("ladder:bot_json", args=[entry.pk])).json()["html"]
    news = re.sub(r" ([,.:;)])", r"\1", " ".join(re.sub(r"<[^>]+>", " ", news).split()))
    for page in (bot_page, html.unescape(news)):
        assert (f"validation game: game {entry.validation_game_id}, {faults} faults: "
                "not passed") in page
        assert "passed" not in page.replace("not passed", "").replace("last passed", "")


def test_only_the_author_sees_the_forms(client, ladder, author, other):  # noqa: F811
    entry = ladder["ada-1"]
    pause(entry)
    url = reverse("ladder:bot", args=[entry.pk])

    client.force_login(other)
    assert "Resume" not in text(client.get(url))
    client.force_login(author)
    page = text(client.get(url))

    assert "Resume: play a validation game again" in page and "paused: faults" in page
    # a paused bot gets no new games (docs/ladder.md "Pausing"), challenges included
    assert "Start the challenge game" not in page and "resume it to start one" in page
    active = text(client.get(reverse("ladder:bot", args=[ladder["ada-2"].pk])))
    assert "Start the challenge game" in active and "Resume" not in active
    assert "bob-1" in active  # an opponent to tick


def test_only_the_author_resumes(client, ladder, author, other):  # noqa: F811
    entry = ladder["ada-1"]
    pause(entry)
    url = reverse("ladder:resume", args=[entry.pk])

    anonymous = client.post(url)
    assert anonymous.status_code == 403 and "Sign in as the author of ada-1" in text(anonymous)
    client.force_login(other)
    refused = client.post(url)
    assert refused.status_code == 403 and "Only the author of ada-1" in text(refused)
    assert Entry.objects.get(pk=entry.pk).status == Entry.PAUSED

    client.force_login(author)
    answer = client.post(url, follow=True)

    assert answer.redirect_chain[-1][0] == reverse("ladder:bot", args=[entry.pk])
    assert "plays a validation game again" in text(answer)
    assert Entry.objects.get(pk=entry.pk).status == Entry.VALIDATING
    again = client.post(url)
    assert again.status_code == 400 and "only a paused bot resumes" in text(again)
    opened = client.get(url)
    assert opened.status_code == 405 and "open the bot's page instead" in text(opened)
    reference = Entry.objects.get(preset="classic", name="heuristic")
    built_in = client.post(reverse("ladder:resume", args=[reference.pk]))
    assert built_in.status_code == 403 and "built-in reference bot" in text(built_in)
    missing = client.post(reverse("ladder:resume", args=[999999]))
    assert missing.status_code == 404 and "There is no bot 999999 on the ladder" in text(missing)


def test_only_the_author_challenges(client, ladder, ladder_settings, author, other):  # noqa: F811
    ladder_settings.LADDER_CHALLENGES_PER_DAY = 1
    mine, theirs = ladder["ada-1"], ladder["bob-1"]
    heuristic = Entry.objects.get(preset="classic", name="heuristic")
    url = reverse("ladder:challenge", args=[mine.pk])
    body = {"opponents": [theirs.pk, heuristic.pk]}
    games = Game.objects.count()

    assert client.post(url, body).status_code == 403
    client.force_login(other)
    refused = client.post(url, body)
    assert refused.status_code == 403 and "Only the author of ada-1" in text(refused)
    client.force_login(author)
    for bad, words in [({}, "Tick at least one opponent"),
                       ({"opponents": [999999]}, "999999 is not a bot on this ladder"),
                       ({"opponents": ["x"]}, "x is not a bot"),
                       # a 500 on SQLite before (OverflowError), found by the hostile walk
                       ({"opponents": ["99999999999999999999"]},
                        "99999999999999999999 is not a bot's number"),
                       ({"opponents": ["²"]}, "² is not a bot's number"),
                       ({"opponents": [mine.pk]}, f"{mine.pk} is not a bot on this ladder")]:
        answer = client.post(url, bad)
        assert answer.status_code == 400 and words in text(answer), (bad, text(answer))
    assert Game.objects.count() == games

    answer = client.post(url, body)

    game = Game.objects.get(kind=Game.CHALLENGE)
    assert answer.status_code == 302 and answer["Location"] == reverse("ladder:game",
                                                                       args=[game.pk])
    assert sorted(game.seats.values_list("entry_id", flat=True)) == sorted(
        [mine.pk, theirs.pk, heuristic.pk])
    over = client.post(url, body)
    assert over.status_code == 400 and "LADDER_CHALLENGES_PER_DAY" in text(over)
    assert Game.objects.count() == games + 1


def test_a_games_page_has_its_orders_replay_and_transcript(client, ladder):  # noqa: F811
    entry = ladder["bob-1"]
    game = Game.objects.filter(kind=Game.RATED, status=Game.DONE, seats__entry=entry,
                               bot_game__faults__isnull=False).distinct().first()
    seats = list(game.seats.select_related("entry").order_by("seat"))

    answer = client.get(reverse("ladder:game", args=[game.pk]))

    assert answer.status_code == 200
    page = text(answer)
    for deal in range(game.deals):
        order = sorted(seats, key=lambda s: s.positions[deal])
        assert f"Deal {deal + 1}: " + " → ".join(s.entry.name for s in order) in page
    assert 'id="replay-data"' in answer.content.decode()
    assert "its answer began: not json {" in page
    download = client.get(reverse("ladder:transcript", args=[game.pk]))
    assert download.status_code == 200 and "attachment" in download["Content-Disposition"]
    assert json.loads(download.content) == game.bot_game.transcript
    waiting = Game.objects.create(kind=Game.RATED, preset="classic", seed=1, deals=2)
    missing = client.get(reverse("ladder:transcript", args=[waiting.pk]))
    assert missing.status_code == 404 and "no transcript yet" in text(missing)
    assert "Waiting for a worker" in text(client.get(reverse("ladder:game", args=[waiting.pk])))
    missing = client.get(reverse("ladder:game", args=[999999]))
    assert missing.status_code == 404 and "There is no ladder game 999999" in text(missing)


def test_the_dashboard_lists_the_authors_bots(client, ladder, author, other):  # noqa: F811
    assert client.get(reverse("ladder:mine")).status_code == 302  # to sign in
    client.force_login(author)

    answer = client.get(reverse("ladder:mine"))

    page = text(answer)
    assert "ada-1" in page and "ada-2" in page and "bob-1" not in page
    assert "passed, no fault" in page
    ada = ladder["ada-1"]
    assert reverse("ladder:bot", args=[ada.pk]) in answer.content.decode()
    assert reverse("ladder:game", args=[ada.validation_game_id]) in answer.content.decode()
    client.force_login(other)
    bob = text(client.get(reverse("ladder:mine")))
    assert "bob-1" in bob and "malformed" in bob and "ada-1" not in bob
