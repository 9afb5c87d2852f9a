"""Two writes of one thing sent at the same instant, without an Idempotency-Key (a double tap,
two organisers): one is written, the other refused in words, never a 500 or written twice."""

import pytest
from django.db import IntegrityError
from rest_framework.test import APIClient

from league import services
from league.models import Club, Game, Season, Seat, SeatChange
from tests.api.conftest import at_once, client_for, free_ids, overlapping, racing_table
from tests.league.factories import (
    ClubFactory,
    PlayerFactory,
    UserFactory,
    make_game,
    make_season,
    seated_ids,
)
from tournaments.models import Tournament

pytestmark = pytest.mark.django_db


def test_a_name_taken_between_its_check_and_its_write_is_a_409_in_words(monkeypatch):
    """What a race does, step by step: the club's name is checked free, then the other request
    writes it, then this one's insert fails the database's unique name. It answered 500."""
    ClubFactory(name="Spades")
    monkeypatch.setattr(services, "club_name_check", lambda *, name, club=None: name)

    answer = client_for(UserFactory(), token=True).post("/api/v1/clubs/", {"name": "Spades"},
                                                        format="json")

    assert answer.status_code == 409, answer.content
    assert answer.json() == {"detail": "another request changed the same data at the same "
                                       "moment; nothing was changed: send it again"}
    assert Club.objects.filter(name="Spades").count() == 1


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("path, body", [
    ("/api/v1/clubs/", lambda game: {"name": "Hearts"}),
    ("/api/v1/seasons/", lambda game: {"club": game.season.club_id, "name": "Spring",
                                       "preset": "classic", "starts_on": "2026-03-01"}),
])
def test_two_creates_of_one_name_at_once_write_it_once(path, body):
    game, organiser = racing_table()
    organiser.is_staff = True
    organiser.save()

    answers = at_once(organiser, *(
        lambda client: client.post(path, body(game), format="json") for _ in range(6)))

    statuses = sorted(a.status_code for a in answers)
    assert statuses[0] == 201 and set(statuses[1:]) <= {400, 409}, statuses
    assert (Club.objects.filter(name="Hearts").count()
            + Season.objects.filter(name="Spring").count()) == 1


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("seasons", [1, 2])
def test_two_games_of_the_same_players_at_once_seat_them_once(seasons):
    """One person, one table, in any of the club's seasons: six games of the same four players
    sent at once were six open games (the check that they sit nowhere else ran before any of
    them was written); then a lock on each season let one game in each of two seasons through."""
    game, organiser = racing_table()
    other = game.season if seasons == 1 else make_season(club=game.season.club)
    players = free_ids(game)

    answers = at_once(organiser, *(
        lambda client, season=season: client.post(
            "/api/v1/games/", {"season": season.pk, "players": players}, format="json")
        for season in [game.season, other] * 3))

    assert sorted(a.status_code for a in answers) == [201] + [409] * 5, [
        a.content for a in answers]
    assert Seat.objects.filter(player_id=players[0], game__status=Game.OPEN).count() == 1
    refused = next(a for a in answers if a.status_code == 409)
    assert "still playing" in refused.json()["detail"]


def test_a_game_of_players_still_seated_is_refused_one_after_the_other(game, organiser_client):
    players = free_ids(game)
    body = {"season": game.season_id, "players": players}

    first = organiser_client.post("/api/v1/games/", body, format="json")
    second = organiser_client.post("/api/v1/games/", body, format="json")

    assert (first.status_code, second.status_code) == (201, 409)
    assert APIClient().get(f"/api/v1/games/?player={players[0]}").json()["count"] == 1


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("seasons", [1, 2])
def test_one_newcomer_sent_to_two_tables_at_once_sits_at_one(seasons, monkeypatch):
    """Two tables' seat changes taking the same newcomer at the same instant seated them at
    both (each checked the other table before either was written), in one season and then,
    with a lock on each season, at tables of two seasons. The checks are made to overlap."""
    overlapping(monkeypatch, services, "seated_elsewhere")
    game, organiser = racing_table()
    services.deal_record(game=game, finishing_order=seated_ids(game))
    other = make_game(season=game.season if seasons == 1 else make_season(club=game.season.club))
    services.deal_record(game=other, finishing_order=seated_ids(other))
    newcomer = PlayerFactory(clubs=[game.season.club])

    answers = at_once(organiser, *(
        lambda client, table=table: client.post(f"/api/v1/games/{table.pk}/seat-changes/",
                                                {"joining": [newcomer.pk]}, format="json")
        for table in (game, other)))

    assert sorted(a.status_code for a in answers) == [200, 400], [a.content for a in answers]
    assert SeatChange.objects.filter(player=newcomer).count() == 1


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_seasons_named_alike_in_any_case_sent_at_once_are_created_once():
    """A club's season names are compared in any case; four sent at once ("Spring",
    "spring", "SPRING", "sPring") made four seasons, each checked before any was written."""
    game, organiser = racing_table()
    club = game.season.club_id
    names = ["Spring", "spring", "SPRING", "sPring"]

    answers = at_once(organiser, *(
        lambda client, name=name: client.post("/api/v1/seasons/", {
            "club": club, "name": name, "preset": "classic", "starts_on": "2026-03-01"},
            format="json") for name in names))

    assert sorted(a.status_code for a in answers) == [201, 400, 400, 400]
    assert Season.objects.filter(club=club, name__iexact="spring").count() == 1


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_tournaments_named_alike_in_any_case_sent_at_once_are_created_once():
    """As seasons: "Cup", "cup", "CUP" and "cUp" sent at once made four tournaments."""
    game, organiser = racing_table()
    club = game.season.club_id
    names = ["Cup", "cup", "CUP", "cUp"]

    answers = at_once(organiser, *(
        lambda client, i=i, name=name: client.post("/api/v1/tournaments/", {
            "club": club, "name": name, "seats": 2,
            "entrants": [{"name": f"bot {i} a", "bot": "heuristic"},
                         {"name": f"bot {i} b", "bot": "heuristic"}]}, format="json")
        for i, name in enumerate(names)))

    assert sorted(a.status_code for a in answers) == [201, 400, 400, 400], [
        a.content for a in answers]
    assert Tournament.objects.filter(club=club, name__iexact="cup").count() == 1


def test_a_write_the_database_refuses_for_another_reason_stays_a_server_error(monkeypatch):
    """Only a unique (or foreign) key is a clash with another request; a club without a name
    reaching the database is a bug, and is not answered as if the client could send it
    again."""
    monkeypatch.setattr(services, "club_name_check", lambda *, name, club=None: None)
    client = client_for(UserFactory(), token=True)

    with pytest.raises(IntegrityError):
        client.post("/api/v1/clubs/", {"name": "Spades"}, format="json")
