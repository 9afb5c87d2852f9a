"""A player of several clubs is changed only by who organises every one of them, and joins a
club only from a club its organiser runs too (issue #16: takeover across clubs)."""

import pytest
from django.urls import reverse

from league import services
from league.errors import LeagueError
from league.models import AuditEntry, Player
from tests.api.conftest import client_for
from tests.league.factories import ClubFactory, PlayerFactory, UserFactory, make_game, make_season
from tournaments import services as tournaments

pytestmark = pytest.mark.django_db


@pytest.fixture
def clubs():
    """Club A with its player Ada and its bot Robo; club B with its own organiser."""
    a, b = ClubFactory(name="A"), ClubFactory(name="B")
    org_a, org_b = UserFactory(username="org-a"), UserFactory(username="org-b")
    a.organisers.add(org_a)
    b.organisers.add(org_b)
    ada = PlayerFactory(name="Ada", clubs=[a])
    robo = PlayerFactory(name="Robo", kind=Player.BOT, clubs=[a])
    return a, b, org_a, org_b, ada, robo


def test_an_organiser_of_another_club_cannot_pull_a_player_in_then_rename_it(clubs):
    a, b, org_a, org_b, ada, _ = clubs
    client = client_for(org_b, token=True)

    joined = client.post(f"/api/v1/players/{ada.pk}/join-club/", {"club": b.pk}, format="json")
    renamed = client.patch(f"/api/v1/players/{ada.pk}/", {"name": "Mallory", "kind": "bot"},
                           format="json")

    assert joined.status_code == 400
    assert "only an organiser of one of their clubs" in joined.json()["detail"]
    assert renamed.status_code == 403
    ada.refresh_from_db()
    assert (ada.name, ada.kind, list(ada.clubs.all())) == ("Ada", "person", [a])


def test_a_player_of_two_clubs_is_changed_only_by_who_organises_both(clubs):
    a, b, org_a, org_b, ada, _ = clubs
    both = UserFactory(username="org-ab")
    a.organisers.add(both)
    b.organisers.add(both)
    # an organiser of both clubs brings Ada into B
    joined = client_for(both, token=True).post(f"/api/v1/players/{ada.pk}/join-club/",
                                               {"club": b.pk}, format="json")
    assert joined.status_code == 200

    for user in (org_a, org_b):
        response = client_for(user, token=True).patch(f"/api/v1/players/{ada.pk}/",
                                                      {"name": "Eve"}, format="json")
        assert response.status_code == 403
        assert "every club" in response.json()["detail"]
    response = client_for(both, token=True).patch(f"/api/v1/players/{ada.pk}/",
                                                  {"name": "Ada L."}, format="json")
    assert response.status_code == 200 and response.json()["name"] == "Ada L."


def test_a_player_of_no_club_may_be_brought_in(clubs):
    _, b, _, org_b, _, _ = clubs
    loner = PlayerFactory(name="Loner")

    response = client_for(org_b, token=True).post(f"/api/v1/players/{loner.pk}/join-club/",
                                                  {"club": b.pk}, format="json")

    assert response.status_code == 200
    assert list(loner.clubs.all()) == [b]


def test_a_tournament_entrant_named_like_another_clubs_bot_is_the_clubs_own_bot(clubs):
    a, b, _, org_b, _, robo = clubs

    cup = tournaments.tournament_create(
        club=b, name="Cup", seats=3, games_per_table=1, by=org_b,
        entrants=[("Robo", "random"), ("Rita", "random"), ("Hugo", "heuristic")])

    assert list(robo.clubs.all()) == [a]  # another club's bot is never pulled in
    entrant = cup.entrants.get(player__name="Robo").player
    assert entrant.pk != robo.pk and list(entrant.clubs.all()) == [b]


def test_the_admin_shows_a_shared_players_name_and_kind_read_only(client, clubs):
    a, b, org_a, _, ada, _ = clubs
    ada.clubs.add(b)
    org_a.is_staff = True
    org_a.save()
    client.force_login(org_a)
    url = reverse("admin:league_player_change", args=[ada.pk])

    client.post(url, {"name": "Eve", "kind": "bot", "clubs": [a.pk]})

    ada.refresh_from_db()
    assert (ada.name, ada.kind) == ("Ada", "person")
    assert set(ada.clubs.all()) == {a, b}


@pytest.fixture
def ada_left_a(clubs):
    """Ada played a game in club A, then was taken off A's list: she is of no club now."""
    a, _, org_a, _, ada, _ = clubs
    make_game(season=make_season(club=a), players=[ada, *PlayerFactory.create_batch(3, clubs=[a])])
    services.player_leave_club(player=ada, club=a, by=org_a)
    return ada


def test_a_player_who_left_a_club_cannot_be_claimed_by_another(clubs, ada_left_a):
    _, b, _, org_b, ada, _ = clubs
    client = client_for(org_b, token=True)

    joined = client.post(f"/api/v1/players/{ada.pk}/join-club/", {"club": b.pk}, format="json")
    renamed = client.patch(f"/api/v1/players/{ada.pk}/", {"name": "Mallory"}, format="json")

    assert joined.status_code == 400
    assert "plays or played in clubs you do not organise (A)" in joined.json()["detail"]
    assert renamed.status_code == 403
    with pytest.raises(LeagueError, match="only an organiser of one of their clubs"):
        services.player_join_club(player=ada, club=b, by=org_b)
    with pytest.raises(LeagueError, match=r"plays or played in A: only an organiser of every"):
        services.player_update(player=ada, name="Mallory", by=org_b)
    ada.refresh_from_db()
    assert (ada.name, list(ada.clubs.all())) == ("Ada", [])


def test_a_player_who_left_a_club_stays_that_clubs_to_rename_and_bring_back(clubs, ada_left_a):
    a, _, org_a, _, ada, _ = clubs
    client = client_for(org_a, token=True)

    renamed = client.patch(f"/api/v1/players/{ada.pk}/", {"name": "Ada L."}, format="json")
    joined = client.post(f"/api/v1/players/{ada.pk}/join-club/", {"club": a.pk}, format="json")

    assert renamed.status_code == 200 and renamed.json()["name"] == "Ada L."
    assert AuditEntry.objects.filter(club=a, action="player changed").exists()
    assert joined.status_code == 200
    assert list(ada.clubs.all()) == [a]
