"""A club night through the league (league.nights) and the API: plan the seating against the
season so far, confirm a round's tables as games."""

import pytest

from league import nights, rounds, services
from league.errors import Conflict, LeagueError
from league.models import Game
from tests.api.conftest import client_for
from tests.league.factories import (
    ClubFactory,
    PlayerFactory,
    UserFactory,
    make_game,
    make_season,
    seated_ids,
)

pytestmark = pytest.mark.django_db


def club_players(season, count):
    return [PlayerFactory(name=f"P{i}", clubs=[season.club]) for i in range(count)]


def test_plan_seats_everyone_present_once_per_round_at_the_preferred_sizes():
    season = make_season()
    present = club_players(season, 13)
    plan = nights.night_plan(season=season, present=present, rounds=3, preferred=(4, 5))
    assert [r.number for r in plan.rounds] == [0, 1, 2]
    for played in plan.rounds:
        seated = [p for table in played.tables for p in table.seats]
        assert sorted(p.pk for p in seated) == sorted(p.pk for p in present)
        assert sorted(len(table.seats) for table in played.tables) == [4, 4, 5]
        assert all(table.dealer in table.seats for table in played.tables)
    assert (plan.sizes.smallest, plan.sizes.largest) == (2, 12)


def test_plan_keeps_to_the_sizes_the_preset_allows():
    season = make_season(options={"blind": True})  # blind is played by exactly two
    plan = nights.night_plan(season=season, present=club_players(season, 6), rounds=2)
    assert (plan.sizes.smallest, plan.sizes.largest) == (2, 2)
    assert all(len(t.seats) == 2 for r in plan.rounds for t in r.tables)


def test_season_rounds_group_consecutive_games_with_no_one_twice():
    season = make_season()
    a = make_game(season=season, dealer=1)
    b = make_game(season=season)  # other players: the same round
    c = make_game(season=season, players=[s.player for s in a.seats.order_by("number")[:2]]
                  + [s.player for s in b.seats.order_by("number")[:2]])
    played = rounds.season_rounds(season)
    assert [[list(t.seats) for t in r.tables] for r in played] == [
        [seated_ids(a), seated_ids(b)], [seated_ids(c)]]
    assert played[0].tables[0].dealer == seated_ids(a)[1]


def test_plan_splits_two_players_who_met_in_every_earlier_game():
    season = make_season()
    a, b, *others = club_players(season, 8)
    for i in range(3):  # three rounds of one table each: a and b, and two others each time
        make_game(season=season, players=[a, b, others[2 * i], others[2 * i + 1]])
    # A seed that seats them together in a season with no history...
    seed = _seed_seating_together(make_season(club=season.club), [a, b, *others])
    # ...splits them in this season, where they met in every game.
    plan = nights.night_plan(season=season, present=[a, b, *others], rounds=1,
                             preferred=(4, 4), seed=seed)
    (played,) = plan.rounds
    assert played.number == 3  # after the season's three rounds
    assert not any(a in t.seats and b in t.seats for t in played.tables)


def _seed_seating_together(season, present):
    for seed in range(50):
        plan = nights.night_plan(season=season, present=present, rounds=1, preferred=(4, 4),
                                 seed=seed)
        if any(present[0] in t.seats and present[1] in t.seats for t in plan.rounds[0].tables):
            return seed
    raise AssertionError("no seed seats the two together")


def test_confirm_creates_the_round_with_its_seat_order_and_first_dealer():
    season = make_season()
    plan = nights.night_plan(season=season, present=club_players(season, 9), rounds=1)
    tables = [(list(t.seats), t.seats.index(t.dealer)) for t in plan.rounds[0].tables]
    games = nights.night_confirm(season=season, tables=tables)
    assert [g.number for g in games] == list(range(1, len(tables) + 1))
    for game, (players, dealer) in zip(games, tables, strict=True):
        assert seated_ids(game) == [p.pk for p in players]
        assert game.dealer == dealer
    assert len(rounds.season_rounds(season)) == 1  # one round, as confirmed


def test_refusals_name_what_is_wrong_and_change_nothing():
    season = make_season()
    tom, ann, bob, cid = club_players(season, 4)
    stranger = PlayerFactory(name="Stranger", clubs=[ClubFactory()])
    with pytest.raises(LeagueError, match="not players of .*: Stranger"):
        nights.night_plan(season=season, present=[tom, ann, bob, stranger], rounds=1)
    with pytest.raises(LeagueError, match="listed twice: P0"):
        nights.night_plan(season=season, present=[tom, ann, tom], rounds=1)
    with pytest.raises(LeagueError, match="cannot be split"):
        nights.night_plan(season=season, present=[tom], rounds=1)
    with pytest.raises(LeagueError, match="listed twice: P0"):
        nights.night_confirm(season=season, tables=[([tom, ann], 0), ([bob, tom], 0)])
    with pytest.raises(LeagueError, match="cannot play"):  # a table of one, after a good one
        nights.night_confirm(season=season, tables=[([tom, ann, bob], 0), ([cid], 0)])
    assert not Game.objects.filter(season=season).exists()


def test_confirm_refuses_someone_still_seated_at_an_open_table_naming_where():
    """One person, one table: a round that seats someone still at an open table of the club
    is refused naming where, even when the organiser said to start it while the round before
    is in play, and nothing is created; a table of another season of the club (the same room)
    counts too, named with its season."""
    season = make_season()
    gus, others = PlayerFactory(name="Gus", clubs=[season.club]), club_players(season, 6)
    (first,) = nights.night_confirm(season=season, tables=[([gus, *others[:3]], 0)])
    with pytest.raises(Conflict, match=r"^Gus is still playing at round 1, table 1 \(game 1\): "
                                       "call time on it or enter their leaving there first$"):
        nights.night_confirm(season=season, tables=[([gus, *others[3:6]], 0)],
                             while_in_play=True)
    other = make_season(club=season.club, name="Winter")
    with pytest.raises(Conflict, match=r"^Gus is still playing at round 1, table 1 \(game 1\) "
                                       "of Season 1: call time"):
        nights.night_confirm(season=other, tables=[([gus, *others[3:6]], 0)])
    assert Game.objects.count() == 1

    services.deal_record(game=first, finishing_order=seated_ids(first))
    services.seat_change_apply(game=first, leaving=[gus])  # Gus goes to the new table
    (second,) = nights.night_confirm(season=season, tables=[([gus, *others[3:6]], 0)],
                                     while_in_play=True)
    assert seated_ids(second)[0] == gus.pk


def test_who_still_plays_is_told_once_per_table():
    """Issue (a plan of eight still seated): "P0 is still playing at round 1, table 1 …; P1 is
    still playing at round 1, table 1 …" named each place once per person."""
    season = make_season()
    people = club_players(season, 8)
    first, second = nights.night_confirm(season=season, tables=[(people[:4], 0),
                                                                (people[4:], 0)])
    services.deal_record(game=second, finishing_order=seated_ids(second))
    still = nights.still_playing(season, [people[5], people[0], people[1]])
    assert [(s.game, s.where, [p.name for p in s.players], s.deals) for s in still] == [
        (first, "round 1, table 1 (game 1)", ["P0", "P1"], 0),
        (second, "round 1, table 2 (game 2)", ["P5"], 1)]
    with pytest.raises(Conflict, match=r"^P0 and P1 are still playing at round 1, table 1 "
                                       r"\(game 1\); P5 is still playing at round 1, table 2 "
                                       r"\(game 2\): call time on them or enter their leaving "
                                       "there first$"):
        nights.night_confirm(season=season, tables=[([people[5], people[0], people[1]], 0)],
                             while_in_play=True)


def test_new_tables_are_more_of_the_round_in_play_unless_they_seat_its_players():
    """Rounds are read from the games: a table of latecomers started while round 1 plays is
    round 1's third table; a table with someone who played round 1 is round 2."""
    season = make_season()
    people = club_players(season, 12)
    tonight = rounds.night_of()
    assert rounds.new_tables_at(season, tonight, people[:4]) == (1, 1)
    first, _ = nights.night_confirm(season=season, tables=[(people[:4], 0), (people[4:8], 0)])
    assert rounds.new_tables_at(season, tonight, people[8:]) == (1, 3)
    services.deal_record(game=first, finishing_order=seated_ids(first))
    services.game_time_called(game=first)
    assert rounds.new_tables_at(season, tonight, people[:4]) == (2, 1)
    assert rounds.new_tables_at(season, tonight, [*people[9:], people[0]]) == (2, 1)
    with pytest.raises(nights.RoundInPlay, match=r"round 1 is still in play: table 2 \(game 2\); "
                                                 "confirm again to start the next round anyway"):
        nights.night_confirm(season=season, tables=[(people[:4], 0)])
    with pytest.raises(nights.RoundInPlay, match=r"round 1 is still in play: table 2 \(game 2\); "
                                                 "confirm again to start more tables of it "
                                                 "anyway"):
        nights.night_confirm(season=season, tables=[(people[8:], 0)])
    nights.night_confirm(season=season, tables=[(people[8:], 0)], while_in_play=True)
    assert [[t for _, t in tables] for tables in rounds.night_rounds(season, tonight)] == [
        [1, 2, 3]]


def _still_playing_when_round_2_began(season, people, table_two_ends):
    """Round 1 at three tables: table 1 (P0-P3) and table 3 (P8-P11) end, table 2 (P4-P7)
    plays on and P7 leaves it; round 2 is started anyway with table 1's people but P3, and
    table 2 ends (or not) as ``table_two_ends`` says."""
    one, two, three = nights.night_confirm(
        season=season, tables=[(people[:4], 0), (people[4:8], 0), (people[8:12], 0)])
    services.deal_record(game=two, finishing_order=seated_ids(two))
    services.seat_change_apply(game=two, leaving=[people[7]])
    for game in (one, three):
        services.deal_record(game=game, finishing_order=seated_ids(game))
        services.game_time_called(game=game)
    if table_two_ends == "new game, same table before round 2":
        services.game_same_table(game=services.game_time_called(game=two))
    nights.night_confirm(season=season, tables=[(people[:3], 0)], while_in_play=True)
    if table_two_ends == "time called after round 2 began":
        services.game_time_called(game=two)
    if table_two_ends == "its last deal after round 2 began":
        services.deal_record(game=two, finishing_order=seated_ids(two)[:3])
        two.refresh_from_db()
        assert two.status == Game.FINISHED and two.time_called_at is None


@pytest.mark.parametrize("table_two_ends", [
    "still open", "new game, same table before round 2", "time called after round 2 began",
    "its last deal after round 2 began"])
def test_the_next_round_ticks_a_table_still_playing_when_the_last_round_began(table_two_ends):
    """Review: round 2 started anyway while a round-1 table played on (its people cannot be
    seated in round 2); planning round 3 ticked only round 2's people, so the organiser had to
    find that table's people again. Those who went home after round 1 stay unticked: P3 (not
    seated in round 2), table 3 (ended before round 2 began), P7 (left table 2)."""
    season = make_season(scoring_system="fixed-rounds", scoring_deals=2)
    people = club_players(season, 12)
    _still_playing_when_round_2_began(season, people, table_two_ends)
    assert len(rounds.night_rounds(season, rounds.night_of())) == 2
    assert nights.night_ticks(season, rounds.night_of()).present == [
        p.pk for p in people[:3] + people[4:7]]


def test_a_table_ended_before_the_last_round_began_is_not_ticked_again():
    """Every round-1 table ended before round 2 began: only round 2's people are ticked."""
    season = make_season()
    people = club_players(season, 8)
    games = nights.night_confirm(season=season, tables=[(people[:4], 0), (people[4:], 0)])
    for game in games:
        services.deal_record(game=game, finishing_order=seated_ids(game))
        services.game_time_called(game=game)
    nights.night_confirm(season=season, tables=[(people[1:6], 0)])
    assert nights.night_ticks(season, rounds.night_of()).present == [p.pk for p in people[1:6]]


# The API


@pytest.fixture
def night(db):
    season = make_season()
    organiser = UserFactory(username="night-organiser")
    season.club.organisers.add(organiser)
    return season, club_players(season, 9), client_for(organiser, token=True)


def test_api_plans_and_confirms_a_round(night):
    season, players, client = night
    answer = client.post(f"/api/v1/seasons/{season.pk}/night-plan/",
                         {"present": [p.pk for p in players], "rounds": 2,
                          "preferred": [4, 5], "seed": 3}, format="json")
    assert answer.status_code == 200, answer.json()
    body = answer.json()
    assert (body["smallest"], body["largest"]) == (2, 12)
    assert set(body["score"]) >= {"repeats", "back_to_back"}
    first = body["rounds"][0]["tables"]
    assert sorted(len(t["seats"]) for t in first) == [4, 5]
    assert {s["player_name"] for t in first for s in t["seats"]} == {p.name for p in players}

    tables = [{"players": [s["player"] for s in t["seats"]], "dealer": t["dealer"]}
              for t in first]
    answer = client.post(f"/api/v1/seasons/{season.pk}/night-confirm/", {"tables": tables},
                         format="json")
    assert answer.status_code == 201, answer.json()
    games = answer.json()["games"]
    assert [g["players"] for g in games] == [t["players"] for t in tables]
    assert [g["dealer"] for g in games] == [t["dealer"] for t in tables]
    for g in games:
        assert seated_ids(Game.objects.get(pk=g["id"], number=g["number"])) == g["players"]


def test_api_confirm_with_a_retried_idempotency_key_creates_the_round_once(night):
    season, players, client = night
    body = {"tables": [{"players": [p.pk for p in players[:4]], "dealer": 2},
                       {"players": [p.pk for p in players[4:]], "dealer": 0}]}
    answers = [client.post(f"/api/v1/seasons/{season.pk}/night-confirm/", body, format="json",
                           HTTP_IDEMPOTENCY_KEY="night-1-round-1") for _ in range(2)]
    assert [a.status_code for a in answers] == [201, 201]
    assert answers[0].json() == answers[1].json()
    assert list(Game.objects.filter(season=season).values_list("number", "dealer")) == [
        (1, 2), (2, 0)]


@pytest.mark.parametrize("body, message", [
    ({"present": "UNKNOWN", "rounds": 1}, "no player with id 999999"),
    ({"present": "TWICE", "rounds": 1}, "listed twice"),
    ({"present": "STRANGER", "rounds": 1}, "not players of"),
    ({"present": "ALL", "rounds": 1, "preferred": [6, 20]}, "preferred table size"),
])
def test_api_plan_refuses_bad_input_with_400(night, body, message):
    season, players, client = night
    stranger = PlayerFactory(name="Stranger")
    body["present"] = {"UNKNOWN": [players[0].pk, 999999],
                       "TWICE": [players[0].pk, players[0].pk],
                       "STRANGER": [players[0].pk, stranger.pk],
                       "ALL": [p.pk for p in players]}[body["present"]]
    answer = client.post(f"/api/v1/seasons/{season.pk}/night-plan/", body, format="json")
    assert answer.status_code == 400
    assert message in str(answer.json())


def test_api_confirm_refuses_a_size_the_preset_cannot_play(night):
    season, players, client = night
    season.options = {"blind": True}
    season.save()
    answer = client.post(f"/api/v1/seasons/{season.pk}/night-confirm/",
                         {"tables": [{"players": [p.pk for p in players[:3]]}]}, format="json")
    assert answer.status_code == 400
    assert "blind is played by exactly 2 players" in answer.json()["detail"]
    assert not Game.objects.exists()


def test_api_night_is_for_the_clubs_organisers_only(night):
    season, players, _ = night
    other = UserFactory(username="other-organiser")
    ClubFactory().organisers.add(other)
    ids = [p.pk for p in players]
    for client, refused in [(client_for(other, token=True), 403), (client_for(None), 401)]:
        for path, body in [("night-plan", {"present": ids, "rounds": 1}),
                           ("night-confirm", {"tables": [{"players": ids[:4]}]})]:
            answer = client.post(f"/api/v1/seasons/{season.pk}/{path}/", body, format="json")
            assert answer.status_code == refused, (path, answer.json())
    assert not Game.objects.exists()


def test_schema_has_both_night_operations(client):
    paths = client.get("/api/schema/?format=json").json()["paths"]
    assert "post" in paths["/api/v1/seasons/{id}/night-plan/"]
    assert "post" in paths["/api/v1/seasons/{id}/night-confirm/"]
