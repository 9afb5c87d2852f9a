"""The ladder's API: everyone reads the table, a bot's page and its games; only a bot's author
resumes it or starts a challenge with it; bad input is a 4xx naming what is wrong and changes
nothing."""

import random

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from ladder import services
from ladder.models import Entry, Game
from outside_bots import services as outside_bots
from tests.api.conftest import client_for
from tests.ladder.conftest import register

pytestmark = pytest.mark.django_db


@pytest.fixture
def ladder(ladder_settings, servers, author, other, django_capture_on_commit_callbacks):
    """Ada's two bots and Bob's one, validated, after a few rated games (one of Bob's answers
    junk, so it has faults)."""
    ladder_settings.LADDER_PAUSE_FAULTS = 100_000
    first, second, third = servers(3)
    bots = [register(author, first, "ada-1"), register(author, second, "ada-2"),
            register(other, third, "bob-1")]
    with django_capture_on_commit_callbacks(execute=True):
        services.bots_sync()
    third.mode = "junk"
    rng = random.Random(2)
    while Game.objects.filter(kind=Game.RATED, status=Game.DONE).count() < 6:
        with django_capture_on_commit_callbacks(execute=True):
            services.games_schedule(rng=rng)
    return {bot.name: Entry.objects.get(outside_bot=bot) for bot in bots}


def test_anyone_reads_the_ladder_table_best_first(ladder):
    answer = client_for().get("/api/v1/ladder/", {"preset": "classic"})

    assert answer.status_code == 200
    rows = answer.json()["results"]
    assert answer.json()["count"] == len(rows) == 6  # three authors' bots, three references
    assert [r["ordinal"] for r in rows] == sorted((r["ordinal"] for r in rows), reverse=True)
    ada = next(r for r in rows if r["name"] == "ada-1")
    entry = ladder["ada-1"]
    assert ada["owner"] == "ada" and ada["status"] == "active" and not ada["reference"]
    assert (ada["games"], ada["deals"], ada["mu"]) == (entry.games, entry.deals, entry.mu)
    assert ada["first_out_rate"] == entry.firsts / entry.deals
    low, high = ada["interval"]
    assert low < ada["mu"] < high
    bob = next(r for r in rows if r["name"] == "bob-1")
    assert bob["faults"] > 0 and set(bob["fault_kinds"]) == {"malformed"}
    references = [r for r in rows if r["reference"]]
    assert {r["owner"] for r in references} == {""}
    assert client_for().get("/api/v1/ladder/", {"preset": "friday"}).json()["count"] == 0


def test_the_table_is_read_from_the_entries_alone_however_many_games_landed(
        ladder, django_capture_on_commit_callbacks):
    def table_queries():
        with CaptureQueriesContext(connection) as queries:
            answer = client_for().get("/api/v1/ladder/", {"preset": "classic"})
        assert answer.status_code == 200
        return [q["sql"] for q in queries.captured_queries]

    before = table_queries()
    rng = random.Random(9)
    games = Game.objects.filter(status=Game.DONE).count()
    while Game.objects.filter(status=Game.DONE).count() < games + 4:
        with django_capture_on_commit_callbacks(execute=True):
            services.games_schedule(rng=rng)
    after = table_queries()

    assert len(after) == len(before)
    ladder_tables = [sql for sql in after if "ladder_" in sql]
    assert ladder_tables and all("ladder_seat" not in sql and "ladder_game" not in sql
                                 and "ladder_ratingpoint" not in sql for sql in ladder_tables)


def test_an_unknown_preset_is_refused_by_name():  # refused before any bot is read
    answer = client_for().get("/api/v1/ladder/", {"preset": "poker"})

    assert answer.status_code == 400
    assert "unknown preset 'poker'" in answer.json()["preset"]


def test_a_bots_page_has_its_rating_history_games_and_faults(ladder):
    entry = ladder["bob-1"]

    answer = client_for().get(f"/api/v1/ladder/{entry.pk}/")

    assert answer.status_code == 200
    page = answer.json()
    assert len(page["history"]) == entry.games
    assert page["history"][-1]["mu"] == entry.mu
    assert [g["id"] for g in page["recent_games"]] == sorted(
        (g["id"] for g in page["recent_games"]), reverse=True)
    kinds = {g["kind"] for g in page["recent_games"]}
    assert kinds == {"rated", "validation"}
    assert page["recent_faults"] and all(f["kind"] == "malformed" and f["answer"] == "not json {"
                                         for f in page["recent_faults"])
    validation = page["validation_game"]
    assert validation["kind"] == "validation" and validation["faults"] == []
    assert "transcript" not in validation
    assert client_for().get("/api/v1/ladder/999999/").status_code == 404


def test_a_games_page_has_its_transcript_seats_and_faults(ladder):
    entry = ladder["bob-1"]
    listing = client_for().get("/api/v1/ladder-games/", {"entry": entry.pk, "kind": "rated"})
    assert listing.status_code == 200
    games = listing.json()["results"]
    assert games and all(entry.pk in [s["entry"] for s in g["seats"]] for g in games)
    assert all(g["kind"] == "rated" for g in games)

    game = client_for().get(f"/api/v1/ladder-games/{games[0]['id']}/").json()

    assert game["transcript"]["deals"]
    faults = [f for f in game["faults"] if f["entry"] == entry.pk]
    assert faults and faults[0]["decision"] and faults[0]["message"]
    assert client_for().get("/api/v1/ladder-games/", {"entry": "x"}).status_code == 400
    assert client_for().get("/api/v1/ladder-games/", {"kind": "x"}).status_code == 400


def pause(entry):
    Entry.objects.filter(pk=entry.pk).update(status=Entry.PAUSED, reason="paused: faults")


@pytest.mark.postgres  # row locks across an outer join: PostgreSQL refuses some SQLite allows
def test_only_the_author_resumes_a_paused_bot(ladder, author, other):
    entry = ladder["ada-1"]
    pause(entry)
    url = f"/api/v1/ladder/{entry.pk}/resume/"

    assert client_for().post(url).status_code == 401
    refused = client_for(other, token=True).post(url)
    assert refused.status_code == 403 and "author of ada-1" in refused.json()["detail"]
    assert Entry.objects.get(pk=entry.pk).status == Entry.PAUSED

    answer = client_for(author, token=True).post(url)

    assert answer.status_code == 200 and answer.json()["status"] == "validating"
    entry.refresh_from_db()
    assert entry.validation_game.status == Game.SCHEDULED  # sent to the workers on commit
    again = client_for(author, token=True).post(url)
    assert again.status_code == 400 and "only a paused bot resumes" in again.json()["detail"]
    reference = Entry.objects.get(preset="classic", name="heuristic")
    assert client_for(author).post(f"/api/v1/ladder/{reference.pk}/resume/").status_code == 403
    assert client_for(author).post("/api/v1/ladder/999999/resume/").status_code == 404


def test_only_the_author_challenges_with_a_bot(ladder, ladder_settings, author, other):
    ladder_settings.LADDER_CHALLENGES_PER_DAY = 1
    mine, theirs = ladder["ada-1"], ladder["bob-1"]
    heuristic = Entry.objects.get(preset="classic", name="heuristic")
    body = {"entry": mine.pk, "opponents": [theirs.pk, heuristic.pk]}
    games = Game.objects.count()

    assert client_for().post("/api/v1/ladder-games/", body, format="json").status_code == 401
    refused = client_for(other, token=True).post("/api/v1/ladder-games/", body, format="json")
    assert refused.status_code == 403
    huge = 99999999999999999999999  # found by hand: past SQLite's integers, it answered 500
    for bad, field in [({"entry": mine.pk, "opponents": [999999]}, "opponents"),
                       ({"entry": 999999, "opponents": [heuristic.pk]}, "entry"),
                       ({"entry": mine.pk, "opponents": [huge]}, "opponents"),
                       ({"entry": huge, "opponents": [heuristic.pk]}, "entry"),
                       ({"entry": mine.pk, "opponents": [-1]}, "opponents"),
                       ({"entry": mine.pk, "opponents": []}, "opponents"),
                       ({"entry": mine.pk}, "opponents")]:
        answer = client_for(author).post("/api/v1/ladder-games/", bad, format="json")
        assert answer.status_code == 400 and field in answer.json(), (bad, answer.json())
    twice = client_for(author).post("/api/v1/ladder-games/",
                                    {"entry": mine.pk, "opponents": [mine.pk]}, format="json")
    assert twice.status_code == 400 and "named twice" in twice.json()["detail"]
    assert Game.objects.count() == games

    answer = client_for(author, token=True).post("/api/v1/ladder-games/", body, format="json")

    assert answer.status_code == 201
    game = answer.json()
    assert game["kind"] == "challenge" and game["status"] == "scheduled"
    assert sorted(s["entry"] for s in game["seats"]) == sorted([mine.pk, theirs.pk, heuristic.pk])
    over = client_for(author).post("/api/v1/ladder-games/", body, format="json")
    assert over.status_code == 400 and "LADDER_CHALLENGES_PER_DAY" in over.json()["detail"]
    assert Game.objects.count() == games + 1


def test_a_paused_bot_is_not_challenged(ladder, author, other):
    """docs/ladder.md "Pausing": a paused bot gets no new games, a challenge's neither, whoever
    starts it; its page offers no paused opponent."""
    mine, theirs = ladder["ada-1"], ladder["bob-1"]
    client_for(other, token=True).post(f"/api/v1/ladder/{theirs.pk}/pause/")
    assert Entry.objects.get(pk=theirs.pk).status == Entry.PAUSED
    games = Game.objects.count()

    refused = client_for(author).post("/api/v1/ladder-games/",
                                      {"entry": mine.pk, "opponents": [theirs.pk]}, format="json")

    assert refused.status_code == 400, refused.json()
    assert "bob-1 is paused" in refused.json()["detail"]
    assert Game.objects.count() == games
    page = Client()
    page.force_login(author)
    offered = page.get(reverse("ladder:bot", args=[mine.pk])).context["opponents"]
    assert offered and str(theirs.pk) not in {o["pk"] for o in offered}


@pytest.mark.parametrize("value", ["70540504729549358971748352", "-1", "7x", "²"])
def test_a_games_entry_filter_that_is_not_an_id_is_refused_by_name(value):
    """Found by schemathesis: an id too large for the database answered 500 (its query fails
    whether or not the ladder has games, so none are played here)."""
    answer = client_for(None).get("/api/v1/ladder-games/", {"entry": value})
    assert answer.status_code == 400
    assert "entry" in answer.json()


def test_a_removed_bots_record_stays_its_authors(ladder, author,
                                                django_capture_on_commit_callbacks):
    """docs/ladder.md: a removed bot's record stays with its author: the table, the API, its
    page and the author's dashboard still name them."""
    entry = ladder["ada-1"]
    outside_bots.outside_bot_delete(bot=entry.outside_bot)
    with django_capture_on_commit_callbacks(execute=True):
        services.bots_sync()
    assert Entry.objects.get(pk=entry.pk).status == Entry.RETIRED

    rows = client_for().get("/api/v1/ladder/", {"status": "retired", "owner": "ada"}).json()
    assert [(r["name"], r["owner"]) for r in rows["results"]] == [("ada-1", "ada")]
    assert client_for().get(f"/api/v1/ladder/{entry.pk}/").json()["owner"] == "ada"
    page = Client()
    bot_page = page.get(reverse("ladder:bot", args=[entry.pk])).content.decode()
    assert "An outside bot by ada" in bot_page
    page.force_login(author)
    dashboard = page.get(reverse("ladder:mine")).content.decode()
    assert reverse("ladder:bot", args=[entry.pk]) in dashboard and "retired" in dashboard


@pytest.mark.parametrize("size", ["abc", "0", "-5", "501", "1000000", "²", "1.5"])
def test_a_page_size_out_of_bounds_is_refused_naming_the_bounds(size):
    """Found by a security walk-through: ?page_size=1000000 answered 500 rows and
    ?page_size=abc 100, as if the parameter had not been sent."""
    answer = client_for().get("/api/v1/ladder/", {"preset": "classic", "page_size": size})

    assert answer.status_code == 400
    assert answer.json() == {"page_size": [f"a whole number from 1 to 500, not {size!r}"]}


def test_a_page_size_within_bounds_is_taken():
    Entry.objects.bulk_create(Entry(preset="classic", name=f"bot-{i}", status=Entry.ACTIVE)
                              for i in range(3))

    answer = client_for().get("/api/v1/ladder/", {"preset": "classic", "page_size": "2"})

    assert answer.status_code == 200
    assert len(answer.json()["results"]) == 2 and answer.json()["count"] == 3
