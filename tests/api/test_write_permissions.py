"""Who may do each write the API offers beyond deals: a club's organisers (and superusers) write
its data; an organiser of another club, a token without rights and an anonymous caller are
refused, and a refused request changes nothing."""

import pytest

from league.models import (
    AuditEntry,
    Club,
    Game,
    IdempotentRequest,
    Player,
    Season,
    Seat,
    SeatChange,
)
from outside_bots.models import OutsideBot
from tests.league.factories import PlayerFactory, seated_ids
from tournaments.models import Entrant, Tournament

pytestmark = pytest.mark.django_db

OUTSIDERS = ["organiser of another club (session)", "organiser of another club (token)",
             "token without rights", "anonymous"]


def snapshot():
    """Every row a write here could add or change."""
    return (list(Club.objects.values_list("id", "name")),
            list(Club.organisers.through.objects.values_list("club_id", "user_id")),
            list(Player.objects.values_list("id", "name", "kind")),
            list(Player.clubs.through.objects.values_list("player_id", "club_id")),
            list(Season.objects.values_list("id", "name", "preset", "starts_on")),
            list(Game.objects.values_list("id", "number", "dealer")),
            list(Seat.objects.values_list("id", "player_id", "joined_before", "left_before")),
            list(SeatChange.objects.values_list("id")),
            list(Tournament.objects.values_list("id", "name")),
            list(Entrant.objects.values_list("id")),
            list(OutsideBot.objects.values_list("id", "name", "url", "enabled")),
            AuditEntry.objects.count(), IdempotentRequest.objects.count())


@pytest.fixture(autouse=True)
def free_players(game):
    """Four players of the club at no open table, for a new game (one person, one table)."""
    return [PlayerFactory(name=f"Free {i}", clubs=[game.season.club]) for i in range(4)]


@pytest.fixture
def other_clubs_player(game):
    """A player of no club yet, whom any club's organiser may bring in (a player of another
    club only its organisers may: tests/api/test_player_takeover.py)."""
    return PlayerFactory(name="Visitor")


def _club(game):
    return game.season.club


WRITES = {
    "rename a club": lambda c, game, visitor: c.patch(
        f"/api/v1/clubs/{_club(game).pk}/", {"name": "Renamed"}, format="json"),
    "create a player": lambda c, game, visitor: c.post(
        "/api/v1/players/", {"name": "Newcomer", "club": _club(game).pk}, format="json"),
    "update a player": lambda c, game, visitor: c.patch(
        f"/api/v1/players/{seated_ids(game)[0]}/", {"name": "Renamed"}, format="json"),
    "a player joins a club": lambda c, game, visitor: c.post(
        f"/api/v1/players/{visitor.pk}/join-club/", {"club": _club(game).pk}, format="json"),
    "create a season": lambda c, game, visitor: c.post(
        "/api/v1/seasons/", {"club": _club(game).pk, "name": "Summer",
                             "starts_on": "2025-06-01"}, format="json"),
    "update a season": lambda c, game, visitor: c.patch(
        f"/api/v1/seasons/{game.season_id}/", {"name": "Renamed"}, format="json"),
    "create a game": lambda c, game, visitor: c.post(
        "/api/v1/games/", {"season": game.season_id, "players": list(
            Player.objects.filter(name__startswith="Free ").values_list("pk", flat=True))},
        format="json"),
    "preview a seat change": lambda c, game, visitor: c.post(
        f"/api/v1/games/{game.pk}/seat-change-preview/", {"leaving": seated_ids(game)[:1]},
        format="json"),
    "apply a seat change": lambda c, game, visitor: c.post(
        f"/api/v1/games/{game.pk}/seat-changes/", {"leaving": seated_ids(game)[:1]},
        format="json"),
    "create a tournament": lambda c, game, visitor: c.post(
        "/api/v1/tournaments/", {"club": _club(game).pk, "name": "Cup", "seats": 3,
                                 "games_per_table": 1,
                                 "entrants": [{"name": n, "bot": "random"}
                                              for n in ("R1", "R2", "R3")]},
        format="json"),
}
# What each write answers when it is done: 201 for what it creates.
SUCCESS = {write: 201 if write.startswith("create") else 200 for write in WRITES}


@pytest.mark.parametrize("write", WRITES)
@pytest.mark.parametrize("who", OUTSIDERS)
def test_outsiders_are_refused_every_write_and_nothing_changes(game, other_clubs_player,
                                                               outsider_clients, write, who):
    before = snapshot()

    response = WRITES[write](outsider_clients[who], game, other_clubs_player)

    assert response.status_code == (401 if who == "anonymous" else 403), response.json()
    assert "detail" in response.json()
    assert snapshot() == before


@pytest.mark.parametrize("write", WRITES)
def test_the_clubs_organiser_may_do_every_write(game, other_clubs_player, organiser_client,
                                                write):
    response = WRITES[write](organiser_client, game, other_clubs_player)

    assert response.status_code == SUCCESS[write], response.json()


@pytest.mark.parametrize("write", WRITES)
def test_a_superuser_may_do_every_write(game, other_clubs_player, write):
    from tests.api.conftest import client_for
    from tests.league.factories import UserFactory

    admin = client_for(UserFactory(username="admin", is_superuser=True), token=True)

    response = WRITES[write](admin, game, other_clubs_player)

    assert response.status_code == SUCCESS[write], response.json()


# Opening a club writes into no existing club: staff users (the admin's organisers) may.

@pytest.mark.parametrize(("who", "status"), [("token without rights", 403), ("anonymous", 401)])
def test_opening_a_club_is_refused_without_staff_status(outsider_clients, who, status):
    before = snapshot()

    response = outsider_clients[who].post("/api/v1/clubs/", {"name": "Mine"}, format="json")

    assert response.status_code == status
    assert "detail" in response.json()
    assert snapshot() == before


def test_an_organiser_of_another_club_may_open_a_club_of_their_own(outsider_clients):
    response = outsider_clients["organiser of another club (token)"].post(
        "/api/v1/clubs/", {"name": "Mine"}, format="json")

    assert response.status_code == 201
    assert response.json()["organisers"] == ["other-organiser"]


def test_a_session_write_needs_the_csrf_token(game, organiser):
    from rest_framework.test import APIClient

    client = APIClient(enforce_csrf_checks=True)
    client.force_login(organiser)
    before = snapshot()

    response = WRITES["create a game"](client, game, None)

    assert response.status_code == 403
    assert "CSRF" in response.json()["detail"]
    assert snapshot() == before
