"""Clubs, players, seasons, games and seat changes written through the API, each by its
service: what it answers, what it stores, and the refusals that name the field or come from
the league as they are."""

import pytest

from league import selectors, services
from league.models import AuditEntry, Club, Game, Player, Season, Seat, SeatChange
from tests.api.conftest import client_for, free_ids
from tests.league.factories import (
    ClubFactory,
    PlayerFactory,
    UserFactory,
    make_game,
    make_season,
    seated_ids,
)

pytestmark = pytest.mark.django_db


@pytest.fixture
def club(game):
    return game.season.club


# Clubs


def test_a_staff_user_opens_a_club_and_becomes_its_organiser():
    founder = UserFactory(username="founder")

    response = client_for(founder, token=True).post("/api/v1/clubs/", {"name": "  Harbour "},
                                                    format="json")

    assert response.status_code == 201, response.json()
    assert response.json()["name"] == "Harbour"
    assert response.json()["organisers"] == ["founder"]
    club = Club.objects.get(name="Harbour")
    assert list(club.organisers.all()) == [founder]
    assert AuditEntry.objects.get(club=club).action == "club created"


def test_a_club_name_taken_in_any_case_is_the_leagues_refusal(club, organiser_client):
    response = organiser_client.post("/api/v1/clubs/", {"name": club.name.upper()},
                                     format="json")

    assert response.status_code == 400
    assert response.json() == {"name": [f"there is already a club called "
                                        f"{club.name.upper()!r}"]}
    assert Club.objects.count() == 1


@pytest.mark.parametrize("body", [{}, {"name": ""}, {"name": "x" * 101}])
def test_a_missing_or_overlong_club_name_names_the_field(organiser_client, body):
    response = organiser_client.post("/api/v1/clubs/", body, format="json")

    assert response.status_code == 400
    assert list(response.json()) == ["name"]


def test_an_organiser_renames_their_club(club, organiser_client):
    ClubFactory(name="Taken")

    renamed = organiser_client.patch(f"/api/v1/clubs/{club.pk}/", {"name": "Riverside"},
                                     format="json")
    clash = organiser_client.patch(f"/api/v1/clubs/{club.pk}/", {"name": "taken"},
                                   format="json")

    assert renamed.status_code == 200 and renamed.json()["name"] == "Riverside"
    assert clash.status_code == 400 and clash.json() == {
        "name": ["there is already a club called 'taken'"]}
    assert Club.objects.get(pk=club.pk).name == "Riverside"


# Players


def test_an_organiser_adds_a_player_to_their_club(club, organiser_client):
    response = organiser_client.post("/api/v1/players/", {"name": "Bea", "club": club.pk},
                                     format="json")

    assert response.status_code == 201, response.json()
    assert response.json() == {"id": response.json()["id"], "name": "Bea", "kind": "person",
                               "clubs": [club.pk]}
    assert AuditEntry.objects.filter(action="player created", club=club).count() == 1


@pytest.mark.parametrize(("body", "field"), [
    ({"name": "Bea"}, "club"),
    ({"name": "Bea", "club": 999_999}, "club"),
    ({"name": "Bea", "kind": "ghost"}, "kind"),
    ({"club": None}, "name"),
])
def test_a_bad_player_names_the_field(club, organiser_client, body, field):
    body = {"club": club.pk, **body} if field != "club" else body

    response = organiser_client.post("/api/v1/players/", body, format="json")

    assert response.status_code == 400
    assert field in response.json(), response.json()
    assert not Player.objects.filter(name="Bea").exists()


def test_a_player_name_taken_is_the_leagues_refusal(game, club, organiser_client):
    taken = Player.objects.get(pk=seated_ids(game)[0]).name

    response = organiser_client.post("/api/v1/players/", {"name": taken, "club": club.pk},
                                     format="json")

    assert response.status_code == 400
    assert response.json() == {"name": [f"{club} already has a player called {taken!r}"]}


def test_an_organiser_renames_a_player_and_the_cached_standings_show_it(game, organiser_client):
    player_id = seated_ids(game)[0]
    selectors.season_standings(season=game.season)  # cached under the current version

    response = organiser_client.patch(f"/api/v1/players/{player_id}/",
                                      {"name": "Renamed", "kind": "bot"}, format="json")

    assert response.status_code == 200, response.json()
    assert (response.json()["name"], response.json()["kind"]) == ("Renamed", "bot")
    rows = selectors.season_standings(season=game.season)
    assert "Renamed" in [r["name"] for r in rows]


def test_an_organiser_of_all_of_a_players_clubs_may_rename_them(game):
    player = Player.objects.get(pk=seated_ids(game)[0])
    away = ClubFactory(name="Away")
    away_organiser = UserFactory(username="away-organiser")
    away.organisers.add(away_organiser)
    game.season.club.organisers.add(away_organiser)
    player.clubs.add(away)

    response = client_for(away_organiser, token=True).patch(
        f"/api/v1/players/{player.pk}/", {"name": "Travelling"}, format="json")

    assert response.status_code == 200
    assert Player.objects.get(pk=player.pk).name == "Travelling"


def test_a_player_of_another_club_joins_this_one_once(club, organiser, organiser_client):
    away = ClubFactory(name="Away")
    away.organisers.add(organiser)  # who brings a player in organises one of their clubs
    visitor = PlayerFactory(name="Visitor", clubs=[away])

    joined = organiser_client.post(f"/api/v1/players/{visitor.pk}/join-club/",
                                   {"club": club.pk}, format="json")
    again = organiser_client.post(f"/api/v1/players/{visitor.pk}/join-club/",
                                  {"club": club.pk}, format="json")

    assert joined.status_code == 200 and club.pk in joined.json()["clubs"]
    assert again.status_code == 400 and again.json() == {
        "detail": f"Visitor already plays in {club}"}


# Seasons


def test_an_organiser_creates_a_season(club, organiser_client):
    response = organiser_client.post("/api/v1/seasons/", {
        "club": club.pk, "name": "Summer", "starts_on": "2025-06-01", "preset": "modern",
        "options": {"jokers": 2}, "scoring_system": "penalty", "scoring_limit": 20},
        format="json")

    assert response.status_code == 201, response.json()
    season = Season.objects.get(pk=response.json()["id"])
    assert (season.club, season.preset, season.options, season.scoring) == (
        club, "modern", {"jokers": 2}, {"system": "penalty", "limit": 20})
    assert response.json()["ends_on"] is None


@pytest.mark.parametrize(("body", "answer"), [
    ({"preset": "poker"}, {"preset": ['"poker" is not a valid choice.']}),
    ({"starts_on": "June"}, "starts_on"),
    ({"scoring_limit": 40_000}, "scoring_limit"),
    ({"options": {"wings": True}}, "options"),
    ({"options": {"decks": 9}}, {"options": {"decks": [
        "season options: option 'decks' must be from 1 to 3, not 9"]}}),
    ({"options": ["jokers"]}, {"options": [
        "season options must be an object of option names and values"]}),
    ({"ends_on": "2025-05-01"}, {"ends_on": ["a season cannot end before it starts"]}),
])
def test_a_bad_season_names_the_field_or_is_the_leagues_refusal(club, organiser_client, body,
                                                                answer):
    before = Season.objects.count()

    response = organiser_client.post("/api/v1/seasons/", {
        "club": club.pk, "name": "Summer", "starts_on": "2025-06-01", **body}, format="json")

    assert response.status_code == 400
    if isinstance(answer, str):
        assert list(response.json()) == [answer]
    elif "detail" in answer:
        assert response.json()["detail"].startswith(answer["detail"])
    else:
        assert response.json() == answer
    assert Season.objects.count() == before


def test_a_seasons_refusals_are_answered_together_each_keyed_by_its_field(
        club, organiser_client):
    make_season(club=club, name="Autumn")
    other = make_season(club=club, name="Winter")
    before = Season.objects.count()
    body = {"name": "AUTUMN", "options": {"jokers": 4}, "scoring_limit": 101}

    created = organiser_client.post("/api/v1/seasons/", {
        "club": club.pk, "starts_on": "2025-06-01", **body}, format="json")
    updated = organiser_client.patch(f"/api/v1/seasons/{other.pk}/", body, format="json")

    for response in (created, updated):
        assert response.status_code == 400
        assert response.json() == {
            "name": [f"{club} already has a season called 'Autumn' (names are compared in "
                     "any case)"],
            "options": {"jokers": ["Jokers: one deck holds at most 2 jokers, not 4; choose 0 "
                                   "to 2, or play with 2 decks"]},
            "scoring_limit": ["season scoring: scoring limit must be at most 100, not 101"]}
    assert Season.objects.count() == before
    assert Season.objects.get(pk=other.pk).name == "Winter"


@pytest.mark.parametrize(("body", "field", "words"), [
    ({"scoring_limit": 101}, "scoring_limit", "scoring limit must be at most 100, not 101"),
    ({"scoring_limit": 0}, "scoring_limit", "scoring limit must be a positive whole number"),
    ({"scoring_system": "first-to-eleven", "scoring_target": 0}, "scoring_target",
     "scoring target must be a positive whole number"),
    ({"scoring_system": "fixed-rounds"}, "scoring_deals", "fixed-rounds needs a number of deals"),
    ({"scoring_deals": 101}, "scoring_deals", "scoring deals must be at most 100"),
])
def test_the_engines_refusal_of_a_seasons_scoring_is_keyed_by_its_field(
        club, organiser_client, body, field, words):
    """The engine says which scoring field it refuses (its words are not read): a 400 keyed by
    that field, as a shape the serializer refuses is; nothing is stored."""
    season = make_season(club=club, name="Autumn")
    before = Season.objects.count()

    created = organiser_client.post("/api/v1/seasons/", {
        "club": club.pk, "name": "Summer", "starts_on": "2025-06-01", **body}, format="json")
    updated = organiser_client.patch(f"/api/v1/seasons/{season.pk}/", body, format="json")

    for response in (created, updated):
        assert response.status_code == 400
        assert list(response.json()) == [field], response.json()
        assert words in " ".join(response.json()[field])
    assert Season.objects.count() == before
    assert Season.objects.get(pk=season.pk).scoring == {"system": "penalty"}


def test_a_seasons_rules_are_fixed_once_a_deal_is_recorded(game, organiser_client):
    url = f"/api/v1/seasons/{game.season_id}/"

    renamed = organiser_client.patch(url, {"name": "Spring", "ends_on": "2025-12-31"},
                                     format="json")
    refused = organiser_client.patch(url, {"scoring_limit": 10}, format="json")

    assert renamed.status_code == 200 and renamed.json()["name"] == "Spring"
    assert renamed.json()["ends_on"] == "2025-12-31"
    assert refused.status_code == 400
    assert refused.json() == {"detail": "the rules and scoring of a season with recorded "
                                        "deals cannot change"}
    assert Season.objects.get(pk=game.season_id).scoring == {"system": "penalty", "limit": 50}


# Games


def test_an_organiser_creates_a_game_with_players_in_seat_order(game, organiser_client):
    order = list(reversed(free_ids(game)))

    response = organiser_client.post("/api/v1/games/", {"season": game.season_id,
                                                        "players": order, "dealer": 2},
                                     format="json")

    assert response.status_code == 201, response.json()
    body = response.json()
    assert (body["number"], body["dealer"], body["status"]) == (2, 2, "open")
    assert [s["player"] for s in body["seats"]] == order
    assert body["deals"] == []


@pytest.mark.parametrize(("players", "answer"), [
    ([1, "x"], "players"),
    ("everyone", "players"),
    ([999_999], {"players": ["no player with id 999999"]}),
])
def test_bad_players_name_the_field(game, organiser_client, players, answer):
    response = organiser_client.post("/api/v1/games/", {"season": game.season_id,
                                                        "players": players}, format="json")

    assert response.status_code == 400
    assert (list(response.json()) == [answer] if isinstance(answer, str)
            else response.json() == answer)
    assert Game.objects.count() == 1


def test_a_table_the_league_refuses_is_shown_as_it_is(game, organiser_client):
    stranger = PlayerFactory(name="Stranger")
    free = free_ids(game)
    twice = free[:3] + free[:1]

    outsider = organiser_client.post("/api/v1/games/", {
        "season": game.season_id, "players": [*free[:3], stranger.pk]}, format="json")
    repeated = organiser_client.post("/api/v1/games/", {"season": game.season_id,
                                                        "players": twice}, format="json")
    dealer = organiser_client.post("/api/v1/games/", {"season": game.season_id,
                                                      "players": free, "dealer": 4},
                                   format="json")

    assert outsider.json() == {"detail": f"not players of {game.season.club}: Stranger"}
    assert repeated.json() == {"detail": "a player cannot sit at the table twice"}
    assert dealer.json() == {"detail": "the dealer must be one of seats 0 to 3"}
    assert Game.objects.count() == 1


def test_no_one_is_seated_while_still_at_an_open_table(game, organiser_client):
    """One person sits at one table: the night's confirm and the admin refuse it, and so does
    the API (its own words, nothing created)."""
    newcomers = [PlayerFactory(clubs=[game.season.club]).pk for _ in range(3)]

    response = organiser_client.post("/api/v1/games/", {
        "season": game.season_id, "players": [*newcomers, seated_ids(game)[0]]}, format="json")

    assert response.status_code == 409
    assert "still playing at" in response.json()["detail"]
    assert Game.objects.count() == 1


def test_a_game_created_twice_with_one_key_is_created_once(game, organiser_client):
    body = {"season": game.season_id, "players": free_ids(game)}

    first = organiser_client.post("/api/v1/games/", body, format="json",
                                  HTTP_IDEMPOTENCY_KEY="new-table")
    again = organiser_client.post("/api/v1/games/", body, format="json",
                                  HTTP_IDEMPOTENCY_KEY="new-table")

    assert first.status_code == again.status_code == 201
    assert again.json() == first.json() and again.headers["Idempotent-Replayed"] == "true"
    assert Game.objects.count() == 2


# Seat changes between deals


@pytest.fixture
def newcomer(club):
    return PlayerFactory(name="Newcomer", clubs=[club])


def test_the_preview_shows_the_shifted_roles_and_changes_nothing(game, newcomer,
                                                                organiser_client):
    order = seated_ids(game)  # deal 1's finishing order: the first seat was President
    names = dict(Player.objects.values_list("pk", "name"))
    seats_before = list(Seat.objects.values_list("id", "left_before"))

    response = organiser_client.post(f"/api/v1/games/{game.pk}/seat-change-preview/",
                                     {"leaving": [order[0]], "joining": [newcomer.pk]},
                                     format="json")

    assert response.status_code == 200, response.json()
    body = response.json()
    # RULES.md, last section: the President leaves and the three left close ranks (President,
    # Citizen, Scum); the newcomer enters as a Citizen just above the bottom.
    assert body["ranking"] == [
        {"player": order[1], "player_name": names[order[1]], "role": "president"},
        {"player": order[2], "player_name": names[order[2]], "role": "citizen"},
        {"player": newcomer.pk, "player_name": "Newcomer", "role": "citizen"},
        {"player": order[3], "player_name": names[order[3]], "role": "scum"}]
    # classic has no exchange of cards
    assert (body["game"], body["before_deal"], body["exchange_in_preset"],
            body["exchanges"]) == (game.pk, 2, False, [])
    assert not SeatChange.objects.exists()
    assert list(Seat.objects.values_list("id", "left_before")) == seats_before


def test_the_preview_shows_who_exchanges_with_whom_when_the_preset_exchanges():
    game = make_game(season_kwargs={"preset": "friday"})
    order = seated_ids(game)
    services.deal_record(game=game, finishing_order=order)
    organiser = UserFactory(username="friday-organiser")
    game.season.club.organisers.add(organiser)
    newcomer = PlayerFactory(name="Newcomer", clubs=[game.season.club])
    names = dict(Player.objects.values_list("pk", "name"))

    body = client_for(organiser, token=True).post(
        f"/api/v1/games/{game.pk}/seat-change-preview/",
        {"leaving": [order[0]], "joining": [newcomer.pk]}, format="json").json()

    # RULES.md: the Scum gives the President two cards and the President gives two back; no
    # Vice-Scum or Vice President at a ranking of President, Citizen, Citizen, Scum.
    assert [r["role"] for r in body["ranking"]] == ["president", "citizen", "citizen", "scum"]
    assert body["exchange_in_preset"] is True
    assert body["exchanges"] == [
        {"giver": order[3], "giver_name": names[order[3]], "receiver": order[1],
         "receiver_name": names[order[1]], "cards": 2},
        {"giver": order[1], "giver_name": names[order[1]], "receiver": order[3],
         "receiver_name": names[order[3]], "cards": 2}]


def test_applying_the_seat_change_gives_what_the_preview_showed(game, newcomer,
                                                                organiser_client):
    body = {"leaving": seated_ids(game)[:1], "joining": [newcomer.pk]}
    preview = organiser_client.post(f"/api/v1/games/{game.pk}/seat-change-preview/", body,
                                    format="json")

    applied = organiser_client.post(f"/api/v1/games/{game.pk}/seat-changes/", body,
                                    format="json")

    assert applied.status_code == 200, applied.json()
    assert applied.json() == preview.json()
    assert set(SeatChange.objects.values_list("kind", "player_id", "before_deal")) == {
        ("leave", seated_ids(game)[0], 2), ("join", newcomer.pk, 2)}
    assert [p for p, _ in selectors.game_next_ranking(game=game)] == [
        r["player"] for r in applied.json()["ranking"]]
    deal = services.deal_record(game=game, finishing_order=[newcomer.pk,
                                                            *seated_ids(game)[1:4]])
    assert deal.places.count() == 4


def test_a_seat_change_re_sent_with_its_key_is_applied_once(game, newcomer, organiser_client):
    body = {"joining": [newcomer.pk]}

    first = organiser_client.post(f"/api/v1/games/{game.pk}/seat-changes/", body,
                                  format="json", HTTP_IDEMPOTENCY_KEY="join-1")
    again = organiser_client.post(f"/api/v1/games/{game.pk}/seat-changes/", body,
                                  format="json", HTTP_IDEMPOTENCY_KEY="join-1")

    assert first.status_code == again.status_code == 200
    assert again.json() == first.json()
    assert SeatChange.objects.count() == 1


@pytest.mark.parametrize(("body", "answer"), [
    ({}, {"detail": "choose a player who leaves or joins"}),
    ({"joining": "Newcomer"}, "joining"),
    ({"leaving": [999_999]}, "leaving"),
])
def test_a_bad_seat_change_names_the_field_or_is_the_leagues_refusal(game, organiser_client,
                                                                     body, answer):
    for path in ("seat-change-preview", "seat-changes"):
        response = organiser_client.post(f"/api/v1/games/{game.pk}/{path}/", body,
                                         format="json")

        assert response.status_code == 400
        assert (list(response.json()) == [answer] if isinstance(answer, str)
                else response.json() == answer)
    assert not SeatChange.objects.exists()


def test_a_player_already_seated_cannot_join(game, organiser_client):
    seated = Player.objects.get(pk=seated_ids(game)[1])

    response = organiser_client.post(f"/api/v1/games/{game.pk}/seat-changes/",
                                     {"joining": [seated.pk]}, format="json")

    assert response.status_code == 400
    assert response.json() == {"detail": f"{seated} cannot join: already at the table"}


@pytest.mark.parametrize("player", ["999999", "someone"])
def test_joining_a_club_as_no_such_player_is_404(club, organiser_client, player):
    response = organiser_client.post(f"/api/v1/players/{player}/join-club/", {"club": club.pk},
                                     format="json")

    assert response.status_code == 404
    assert "detail" in response.json()
