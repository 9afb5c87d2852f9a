"""Player names are unique within a club, not across the site (issue #19, docs/league.md
"Player names"): by the services, the API, the admin, tournaments and the data migration."""

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

from league import services
from league.errors import LeagueError
from league.models import Player
from tests.api.conftest import client_for
from tests.league.factories import ClubFactory, UserFactory
from tournaments import services as tournaments
from tournaments.errors import TournamentError

pytestmark = pytest.mark.django_db


@pytest.fixture
def clubs():
    return ClubFactory(name="Northside"), ClubFactory(name="Southside")


def test_two_clubs_each_have_their_own_tom(clubs):
    north, south = clubs

    tom_north = services.player_create(name="Tom", clubs=[north])
    tom_south = services.player_create(name="tom", clubs=[south])

    assert tom_north.pk != tom_south.pk
    assert list(north.players.values_list("name", flat=True)) == ["Tom"]
    assert list(south.players.values_list("name", flat=True)) == ["tom"]


def test_a_name_taken_in_the_club_in_any_case_is_refused_and_nothing_is_written(clubs):
    north, _ = clubs
    services.player_create(name="Tom", clubs=[north])

    with pytest.raises(LeagueError) as refused:
        services.player_create(name="TOM", clubs=[north])

    assert refused.value.message == "Northside already has a player called 'Tom'"
    assert Player.objects.count() == 1


def test_a_rename_is_refused_when_one_of_the_players_clubs_has_the_name(clubs):
    north, south = clubs
    services.player_create(name="Tom", clubs=[south])
    ann = services.player_create(name="Ann", clubs=[north, south])
    services.player_create(name="Tom", clubs=[north])  # allowed: Ann is Northside's other name

    with pytest.raises(LeagueError, match="Northside already has a player called 'Tom'; "
                                          "Southside already has a player called 'Tom'"):
        services.player_update(player=ann, name="tom")

    ann.refresh_from_db()
    assert ann.name == "Ann"
    assert services.player_update(player=ann, name="ANN").name == "ANN"  # her own name, recased


def test_joining_a_club_where_the_name_is_taken_is_refused_naming_the_clash(clubs):
    north, south = clubs
    visitor = services.player_create(name="Tom", clubs=[north])
    services.player_create(name="TOM", clubs=[south])

    with pytest.raises(LeagueError) as refused:
        services.player_join_club(player=visitor, club=south)

    assert refused.value.message == (
        "Tom cannot join Southside: names are unique within a club and Southside already has a "
        "player called 'TOM'; rename one of them first")
    assert not visitor.clubs.filter(pk=south.pk).exists()


def test_a_person_who_plays_in_two_clubs_stays_one_player(clubs):
    north, south = clubs
    ann = services.player_create(name="Ann", clubs=[north])

    services.player_join_club(player=ann, club=south)

    assert Player.objects.filter(name="Ann").count() == 1
    assert set(ann.clubs.all()) == {north, south}


def test_the_api_adds_a_tom_to_each_club_and_refuses_a_second_in_one():
    north, south = ClubFactory(name="Northside"), ClubFactory(name="Southside")
    organiser = UserFactory(username="two-club-organiser")
    north.organisers.add(organiser)
    south.organisers.add(organiser)
    client = client_for(organiser, token=True)

    first = client.post("/api/v1/players/", {"name": "Tom", "club": north.pk}, format="json")
    second = client.post("/api/v1/players/", {"name": "Tom", "club": south.pk}, format="json")
    again = client.post("/api/v1/players/", {"name": "tom", "club": south.pk}, format="json")
    join = client.post(f"/api/v1/players/{first.json()['id']}/join-club/", {"club": south.pk},
                       format="json")

    assert first.status_code == 201 and second.status_code == 201
    assert first.json()["id"] != second.json()["id"]
    assert again.status_code == 400
    assert again.json() == {"name": ["Southside already has a player called 'Tom'"]}
    assert join.status_code == 400 and "cannot join Southside" in join.json()["detail"]
    assert client.get("/api/v1/players/", {"name": "tom"}).json()["count"] == 2


def test_the_admin_refuses_a_name_taken_in_the_club(clubs, client):
    north, south = clubs
    services.player_create(name="Tom", clubs=[north])
    client.force_login(UserFactory(username="admin", is_superuser=True))

    refused = client.post("/admin/league/player/add/",
                          {"name": "tom", "kind": "person", "clubs": [north.pk]})
    allowed = client.post("/admin/league/player/add/",
                          {"name": "tom", "kind": "person", "clubs": [south.pk]})

    assert refused.status_code == 200
    assert "Northside already has a player called" in refused.content.decode()
    assert allowed.status_code == 302
    assert Player.objects.filter(name__iexact="tom").count() == 2


def test_a_tournament_entrant_is_the_clubs_own_bot_of_that_name(clubs):
    north, south = clubs
    organiser = UserFactory(username="bots-organiser")
    north.organisers.add(organiser)
    south.organisers.add(organiser)
    norths = tournaments.tournament_create(club=north, name="Cup", by=organiser, seats=2,
                                           entrants=[("Robo", "random"), ("Zed", "random")])
    souths = tournaments.tournament_create(club=south, name="Cup", by=organiser, seats=2,
                                           entrants=[("robo", "random"), ("Zed", "random")])
    services.player_create(name="Tom", clubs=[south])

    assert {e.player.name for e in norths.entrants.all()} == {"Robo", "Zed"}
    north_bots = {e.player_id for e in norths.entrants.all()}
    assert north_bots.isdisjoint(e.player_id for e in souths.entrants.all())
    with pytest.raises(TournamentError, match="Tom is a person, not a bot"):
        tournaments.tournament_create(club=south, name="Cup 2", by=organiser, seats=2,
                                      entrants=[("TOM", "random"), ("Zed", "random")])


@pytest.mark.django_db(transaction=True)
def test_the_migration_renames_a_case_clash_within_a_club_and_keeps_the_rest():
    executor = MigrationExecutor(connection)
    before = [("league", "0003_season_results_version")]
    after = [("league", "0004_player_name_unique_in_club")]
    executor.migrate(before)
    old = executor.loader.project_state(before).apps
    Club, Player = old.get_model("league", "Club"), old.get_model("league", "Player")
    north, south = Club.objects.create(name="Northside"), Club.objects.create(name="Southside")
    tom = Player.objects.create(name="Tom")
    tom.clubs.set([north, south])
    lower = Player.objects.create(name="tom")  # the later one: renamed
    lower.clubs.set([north])
    taken = Player.objects.create(name="tom (2)")  # so the suffix moves on to (3)
    taken.clubs.set([north])
    elsewhere = Player.objects.create(name="ANN")
    elsewhere.clubs.set([south])
    Player.objects.create(name="ann").clubs.set([north])  # other club: kept

    executor = MigrationExecutor(connection)
    executor.migrate(after)
    new = executor.loader.project_state(after).apps.get_model("league", "Player")

    names = dict(new.objects.values_list("pk", "name"))
    assert names[tom.pk] == "Tom" and names[taken.pk] == "tom (2)"
    assert names[lower.pk] == "tom (3)"
    assert sorted(new.objects.filter(name__iexact="ann").values_list("name", flat=True)) == [
        "ANN", "ann"]
    MigrationExecutor(connection).migrate(executor.loader.graph.leaf_nodes())


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_two_requests_naming_a_player_of_one_club_at_once_leave_one_name():
    """The check runs under the club's row lock: of two at once, the second sees the first."""
    from tests.league.test_deadlocks import run_at_once

    if connection.vendor != "postgresql":
        pytest.skip("row locks are PostgreSQL's: run with DATABASE_URL=postgres://")
    north, south = ClubFactory(name="Northside"), ClubFactory(name="Southside")
    for round_number in range(10):
        name = f"Tom {round_number}"
        visitor = services.player_create(name=name.upper(), clubs=[south])
        errors = run_at_once(
            lambda name=name: services.player_create(name=name, clubs=[north]),
            lambda name=name: services.player_create(name=name.lower(), clubs=[north]),
            lambda visitor=visitor: services.player_join_club(player=visitor, club=north))

        assert north.players.filter(name__iexact=name).count() == 1
        assert len(errors) == 2 and all(isinstance(e, LeagueError) for e in errors)


@pytest.mark.parametrize("name", [
    "\u0410nna",  # Cyrillic capital A
    "\u0430nna",  # Cyrillic small a
    "Ann\u0430",
    "\uff21nna",  # fullwidth A (NFKC)
    "A\u0578\u0578a",  # Armenian vo, like n
    "ANNA",
])
def test_a_name_that_looks_like_another_players_in_the_club_is_refused(clubs, name):
    north, south = clubs
    services.player_create(name="Anna", clubs=[north])

    with pytest.raises(LeagueError, match="Northside already has a player called 'Anna'"):
        services.player_create(name=name, clubs=[north])
    bea = services.player_create(name="Bea", clubs=[north])
    with pytest.raises(LeagueError, match="Northside already has a player called 'Anna'"):
        services.player_update(player=bea, name=name)

    assert services.player_create(name=name, clubs=[south]).name == name  # another club's
    assert sorted(north.players.values_list("name", flat=True)) == ["Anna", "Bea"]


def test_names_that_only_share_letters_are_not_look_alikes(clubs):
    north, _ = clubs
    for name in ("Anna", "Anne", "Ana", "Hanna", "Jo", "Jö"):
        services.player_create(name=name, clubs=[north])
    assert north.players.count() == 6


def test_capitals_that_look_alike_clash_too(clubs):
    north, _ = clubs
    services.player_create(name="Hanna", clubs=[north])

    with pytest.raises(LeagueError, match="'Hanna', which looks the same as '\u041danna'"):
        services.player_create(name="\u041danna", clubs=[north])  # Cyrillic capital En


@pytest.mark.parametrize("selector", ["\ufe0e", "\ufe0f", "\U000e0100", "\u180b"])
def test_a_name_with_a_variation_selector_looks_like_the_name_without(clubs, selector):
    """Found by a security walk-through: "Tom" and "Tom" with a variation selector, which shows
    as nothing after a letter, were two players of one club."""
    north, _ = clubs
    services.player_create(name="Tom", clubs=[north])

    with pytest.raises(LeagueError) as refused:
        services.player_create(name=f"To{selector}m", clubs=[north])

    assert refused.value.message == ("Northside already has a player called 'Tom', which looks "
                                     f"the same as 'To{selector}m'")
    assert Player.objects.count() == 1


def test_a_capital_i_and_a_small_l_look_alike(clubs):
    """Found by a security walk-through: "Al" and "AI" (a capital i) were two players of one
    club, the same on a sans-serif standings page."""
    north, _ = clubs
    services.player_create(name="Al", clubs=[north])

    with pytest.raises(LeagueError, match="'Al', which looks the same as 'AI'"):
        services.player_create(name="AI", clubs=[north])
