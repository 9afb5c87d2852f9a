"""Tournaments through the API: a club's organisers cancel, resume and start them."""

import pytest

from outside_bots import services as outside_bots
from tests.api.conftest import client_for
from tests.league.factories import ClubFactory, UserFactory
from tests.tournaments.helpers import small_tournament
from tournaments.models import Tournament

pytestmark = pytest.mark.django_db


@pytest.fixture
def tournament(db):
    return small_tournament()


@pytest.fixture
def tournament_organiser(tournament):
    user = UserFactory(username="cup-organiser")
    tournament.club.organisers.add(user)
    return client_for(user, token=True)


def test_anyone_reads_a_tournament_and_its_progress(tournament):
    from rest_framework.test import APIClient

    body = APIClient().get(f"/api/v1/tournaments/{tournament.pk}/progress/").json()

    assert body == {"status": "scheduled", "done": 0, "total": tournament.total_games,
                    "fraction": 0.0, "games_per_second": None, "eta_seconds": None,
                    "stalled": False, "unplayed": 0, "unplayed_reason": ""}


def test_an_organiser_cancels_and_the_league_refusal_shows_as_it_is(tournament,
                                                                    tournament_organiser):
    cancelled = tournament_organiser.post(f"/api/v1/tournaments/{tournament.pk}/cancel/")
    again = tournament_organiser.post(f"/api/v1/tournaments/{tournament.pk}/cancel/")
    resumed = tournament_organiser.post(f"/api/v1/tournaments/{tournament.pk}/resume/")

    assert cancelled.status_code == 200 and cancelled.json()["status"] == "cancelled"
    assert again.status_code == 400 and "already cancelled" in again.json()["detail"]
    assert resumed.status_code == 400 and "cancelled before it started" in \
        resumed.json()["detail"]


@pytest.mark.parametrize("operation", ["start", "cancel", "resume"])
def test_outsiders_may_not_start_cancel_or_resume(tournament, operation):
    other = UserFactory(username="other-organiser")
    ClubFactory().organisers.add(other)
    nobody = UserFactory(username="no-rights", is_staff=False)
    from rest_framework.test import APIClient

    for client, expected in ((client_for(other), 403), (client_for(other, token=True), 403),
                             (client_for(nobody, token=True), 403), (APIClient(), 401)):
        response = client.post(f"/api/v1/tournaments/{tournament.pk}/{operation}/")
        assert response.status_code == expected
        assert Tournament.objects.get(pk=tournament.pk).status == Tournament.SCHEDULED


# Creating a tournament


@pytest.fixture
def club_organiser(db):
    from tests.tournaments.helpers import bot_club

    user = UserFactory(username="bot-club-organiser")
    club = bot_club()
    club.organisers.add(user)
    return club, client_for(user, token=True)


def cup(club, **fields):
    return {"club": club.pk, "name": "API cup", "seats": 3, "games_per_table": 2,
            "entrants": [{"name": "Rita", "bot": "random"}, {"name": "Hugo", "bot": "heuristic"},
                         {"name": "Monty", "bot": "montecarlo:budget_ms=50"}], **fields}


def test_an_organiser_creates_a_tournament_with_its_entrants(club_organiser):
    club, client = club_organiser

    response = client.post("/api/v1/tournaments/", cup(club), format="json")

    assert response.status_code == 201, response.json()
    body = response.json()
    assert (body["status"], body["total_games"], body["seats"]) == ("scheduled", 2, 3)
    assert [(e["player_name"], e["bot"]) for e in body["entrants"]] == [
        ("Rita", "random"), ("Hugo", "heuristic"), ("Monty", "montecarlo:budget_ms=50")]
    tournament = Tournament.objects.get(pk=body["id"])
    assert tournament.season.name == "Tournament: API cup"
    started = client.post(f"/api/v1/tournaments/{tournament.pk}/start/")
    assert started.status_code == 200 and started.json()["status"] == "running"


@pytest.mark.django_db(transaction=True)  # the batches are sent at a real commit
def test_a_tournament_played_before_start_answers_says_finished(club_organiser):
    """With no broker the games are played before start answers (docs/api.md): the answer
    said "running" all the same (found by a docs walk-through)."""
    club, client = club_organiser
    made = client.post("/api/v1/tournaments/", cup(club), format="json").json()

    started = client.post(f"/api/v1/tournaments/{made['id']}/start/")

    assert started.status_code == 200 and started.json()["status"] == "finished"


@pytest.mark.parametrize(("fields", "field", "words"), [
    ({"name": "  "}, "name", "A tournament needs a name."),
    ({"name": None}, "name", "A tournament needs a name."),
    ({"name": "x" * 89}, "name",
     'A tournament\'s name is at most 88 characters (its season is called "Tournament: NAME").'),
    ({"games_per_table": 10_001}, "games_per_table", "At most 10,000 games per table."),
    ({"games_per_table": -1}, "games_per_table", "At least 1 game per table."),
    ({"seats": 40_000}, "seats", "Tables of at most 32,767 bots."),
    ({"rounds": 1_001}, "rounds", "At most 1,000 rounds."),
    ({"batch_size": 10_001}, "batch_size", "At most 10,000 games per task."),
    ({"seed": 2**63}, "seed", "A seed is a whole number from -9,223,372,036,854,775,808 to "
                              "9,223,372,036,854,775,807."),
])
def test_a_tournament_refused_by_its_fields_is_told_in_the_sites_words(
        club_organiser, fields, field, words):
    """The new tournament page shows these refusals as the API gives them: they were the
    framework's ("This field may not be blank.", "Ensure this value is less than or equal to
    10000.")."""
    club, client = club_organiser

    response = client.post("/api/v1/tournaments/", cup(club, **fields), format="json")

    assert response.status_code == 400
    assert response.json() == {field: [words]}


@pytest.mark.parametrize(("fields", "answer"), [
    ({"entrants": []}, "entrants"),
    ({"entrants": [{"name": "Rita"}]}, "entrants"),
    ({"scoring": [1, 2]}, "scoring"),
    ({"format": "swiss"}, "format"),
    ({"games_per_table": 10_001}, "games_per_table"),
    ({"name": "x" * 89}, "name"),  # its season, "Tournament: NAME", must fit in 100
    ({"entrants": [{"name": n, "bot": "chess-engine"} for n in "ABC"]},
     (("entrants", "2", "bot"), "bot 'chess-engine': unknown bot")),
    ({"entrants": [{"name": n, "bot": "http://127.0.0.1:9/bot"} for n in "ABC"]},
     (("entrants", "0", "bot"), "bot 'http://127.0.0.1:9/bot': an outside bot is entered by "
                                "its registered name, outside:NAME")),
    ({"seats": 5}, (("seats",), "3 entrants cannot fill a table of 5")),
    # numbers the engine cannot play (it would be every game refused, or a 500 on
    # PostgreSQL's small integer columns of the season)
    ({"scoring": {"system": "penalty", "limit": 10**9}},
     (("scoring", "limit"), "tournament scoring: scoring limit must be at most 100, "
                            "not 1000000000")),
    ({"scoring": {"system": "fixed-rounds", "deals": 30_000}},
     (("scoring", "deals"), "tournament scoring: scoring deals must be at most 100, not 30000")),
    ({"options": {"jokers": 10**30}},
     (("options",), "tournament options: option 'jokers' must be from 0 to 6")),
    ({"entrants": [{"name": n, "bot": "montecarlo:budget_ms=1e8"} for n in "ABC"]},
     (("entrants", "1", "bot"), "bot 'montecarlo:budget_ms=1e8': montecarlo budget_ms must be "
                                "from 1 to 2,000, not 100,000,000.0")),
    # Player names are unique in any case: "Rita" and "rita" would be one bot player.
    ({"entrants": [{"name": n, "bot": "random"} for n in ("Rita", "rita", "Hugo")]},
     (("entrants", "1", "name"), "entered twice: Rita, rita")),
])
@pytest.mark.postgres
def test_a_bad_tournament_names_the_field_or_is_the_leagues_refusal(club_organiser, fields,
                                                                   answer):
    """A shape the serializer refuses is named by it; the service's refusals are each keyed
    by the field they are about (an entrant's by its place in the list, from 0)."""
    club, client = club_organiser

    response = client.post("/api/v1/tournaments/", cup(club, **fields), format="json")

    assert response.status_code == 400
    if isinstance(answer, str):
        assert list(response.json()) == [answer], response.json()
    else:
        path, words = answer
        body = response.json()
        assert list(body) == [path[0]], body
        for key in path:
            body = body[key]
        assert body[0].startswith(words), body
    assert not Tournament.objects.exists()


def test_every_refusal_of_a_new_tournament_comes_back_at_once_keyed_by_its_field(
        club_organiser):
    club, client = club_organiser
    entrants = cup(club)["entrants"]
    entrants[1] = {"name": "Hugo", "bot": "chess-engine"}

    response = client.post("/api/v1/tournaments/", cup(
        club, entrants=entrants, games_per_table=0, options={"jokers": 10**30},
        scoring={"system": "penalty", "limit": 1000}), format="json")

    assert response.status_code == 400
    body = response.json()
    assert set(body) == {"entrants", "games_per_table", "options", "scoring"}, body
    assert list(body["entrants"]) == ["1"] and list(body["entrants"]["1"]) == ["bot"]
    assert body["entrants"]["1"]["bot"][0].startswith("bot 'chess-engine': unknown bot")
    assert body["games_per_table"] == ["games per table must be at least 1"]
    assert body["options"][0].startswith("tournament options: option 'jokers'")
    assert body["scoring"] == {
        "limit": ["tournament scoring: scoring limit must be at most 100, not 1000"]}
    assert not Tournament.objects.exists()


def test_a_registered_outside_bot_is_entered_by_name(club_organiser, settings):

    settings.OUTSIDE_BOT_ALLOWED_HOSTS = ["bots.example.org"]
    outside_bots.outside_bot_create(name="far-bot", url="https://bots.example.org/play")
    club, client = club_organiser
    entrants = [*cup(club)["entrants"][:2], {"name": "Far", "bot": "outside:far-bot"}]

    response = client.post("/api/v1/tournaments/", cup(club, entrants=entrants), format="json")

    assert response.status_code == 201, response.json()
    assert response.json()["entrants"][2]["bot"] == "outside:far-bot"
    assert "bots.example.org" not in str(response.json())


def test_a_199_million_game_tournament_is_refused_naming_the_limit(club_organiser):
    club, client = club_organiser
    entrants = [{"name": f"Bot {i}", "bot": "random"} for i in range(50)]

    # C(50, 3) = 19,600 tables of 10,000 games
    response = client.post("/api/v1/tournaments/", cup(club, entrants=entrants,
                                                       games_per_table=10_000), format="json")

    assert response.status_code == 400
    assert response.json() == {"games_per_table": [
        "the tournament would play 196,000,000 games; a tournament plays at most 200,000 "
        "(TOURNAMENT_MAX_GAMES): fewer games per table, rounds or entrants"]}
    assert not Tournament.objects.exists()
