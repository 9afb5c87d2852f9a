"""Recording, editing and deleting deals (issue #5; RULES.md "Scoring systems")."""

import pytest

from gameplay.engine.options import preset
from gameplay.engine.scoring import Scoring
from gameplay.engine.selfplay import play_random_game
from league import services
from league.errors import LeagueError
from league.models import AuditEntry, Deal, Game, Place, Player, Seat
from tests.league.factories import PlayerFactory, UserFactory, make_game, make_season, seated_ids

pytestmark = pytest.mark.django_db


def snapshot(game):
    """Everything a refused operation must leave as it was."""
    return (
        list(Deal.objects.filter(game=game).order_by("pk").values_list("pk", "number", "dealer")),
        list(Place.objects.filter(deal__game=game).order_by("pk")
             .values_list("deal_id", "player_id", "position", "role")),
        list(Seat.objects.filter(game=game).order_by("pk")
             .values_list("points", "deals", "is_winner", "left_before")),
        Game.objects.get(pk=game.pk).status,
        AuditEntry.objects.count(),
    )


def test_a_deal_records_places_roles_and_penalty_points():
    game = make_game()
    a, b, c, d = seated_ids(game)
    user = UserFactory()

    deal = services.deal_record(game=game, finishing_order=[c, a, d, b], by=user)

    places = list(deal.places.values_list("player_id", "position", "role", "seat"))
    assert places == [(c, 1, "president", 2), (a, 2, "vice-president", 0),
                      (d, 3, "vice-scum", 3), (b, 4, "scum", 1)]
    points = dict(game.seats.values_list("player_id", "points"))
    assert points == {c: 0, a: 1, d: 1, b: 2}
    assert deal.number == 1 and deal.dealer == 0
    entry = AuditEntry.objects.get(action="deal recorded")
    assert entry.actor == user and entry.club == game.season.club


def test_the_dealer_moves_one_seat_left_each_deal():
    game = make_game(dealer=2)
    order = seated_ids(game)

    dealers = [services.deal_record(game=game, finishing_order=order[i:] + order[:i]).dealer
               for i in range(3)]

    assert dealers == [2, 3, 0]


def test_a_dealer_who_left_passes_the_deal_to_the_next_seat_left():
    game = make_game(dealer=1, players=5)
    order = seated_ids(game)
    services.deal_record(game=game, finishing_order=order)
    services.seat_change_apply(game=game, leaving=[Player.objects.get(pk=order[1])])

    deal = services.deal_record(game=game, finishing_order=order[:1] + order[2:])

    assert deal.dealer == 2


@pytest.mark.parametrize("mistake, message", [
    ("missing", "missing: "),
    ("twice", "listed twice: "),
    ("stranger", "not at the table for this deal: "),
])
def test_a_finishing_order_must_be_a_permutation_of_the_seated_players(mistake, message):
    game = make_game()
    a, b, c, d = seated_ids(game)
    services.deal_record(game=game, finishing_order=[a, b, c, d])
    before = snapshot(game)
    order = {"missing": [a, b, c], "twice": [a, b, c, c],
             "stranger": [a, b, c, PlayerFactory().pk]}[mistake]

    with pytest.raises(LeagueError, match=message) as refused:
        services.deal_record(game=game, finishing_order=order)

    assert "must list each of the 4 seated players once" in refused.value.message
    assert snapshot(game) == before


def test_penalty_scoring_ends_the_game_at_the_limit_and_refuses_later_deals():
    game = make_game(season_kwargs={"scoring_limit": 4})
    a, b, c, d = seated_ids(game)
    services.deal_record(game=game, finishing_order=[a, b, c, d])  # d: 2
    services.deal_record(game=game, finishing_order=[a, b, c, d])  # d: 4, ends
    game.refresh_from_db()
    assert game.status == Game.FINISHED
    assert list(game.seats.filter(is_winner=True).values_list("player_id", flat=True)) == [a]
    before = snapshot(game)

    with pytest.raises(LeagueError, match="has ended: no more deals"):
        services.deal_record(game=game, finishing_order=[a, b, c, d])

    assert snapshot(game) == before


def test_first_to_eleven_goes_by_role_points_to_the_target():
    game = make_game(season_kwargs={"scoring_system": "first-to-eleven", "scoring_target": 4})
    a, b, c, d = seated_ids(game)
    services.deal_record(game=game, finishing_order=[b, a, c, d])  # b 2, a 1
    services.deal_record(game=game, finishing_order=[a, b, c, d])  # a 3, b 3
    game.refresh_from_db()
    assert game.status == Game.OPEN
    services.deal_record(game=game, finishing_order=[b, a, c, d])  # b 5, a 4: both reach 4

    game.refresh_from_db()
    assert game.status == Game.FINISHED
    assert dict(game.seats.values_list("player_id", "points"))[b] == 5
    assert list(game.seats.filter(is_winner=True).values_list("player_id", flat=True)) == [b]


def test_fixed_rounds_ends_after_its_deals_with_mean_position_as_tie_break():
    game = make_game(players=3,
                     season_kwargs={"scoring_system": "fixed-rounds", "scoring_deals": 2})
    a, b, c = seated_ids(game)
    services.deal_record(game=game, finishing_order=[a, b, c])
    services.deal_record(game=game, finishing_order=[b, c, a])

    game.refresh_from_db()
    assert game.status == Game.FINISHED
    # a and b both have 2 role points; b's mean position 1.5 beats a's 2.0
    assert list(game.seats.filter(is_winner=True).values_list("player_id", flat=True)) == [b]


def test_editing_a_past_deal_recomputes_the_scores_and_the_end():
    game = make_game(season_kwargs={"scoring_limit": 4})
    a, b, c, d = seated_ids(game)
    first = services.deal_record(game=game, finishing_order=[a, b, c, d])
    services.deal_record(game=game, finishing_order=[a, b, c, d])
    game.refresh_from_db()
    assert game.status == Game.FINISHED
    services.game_reopen(game=game)

    services.deal_edit(deal=first, finishing_order=[d, b, c, a], by=UserFactory())

    game.refresh_from_db()
    assert game.status == Game.OPEN
    assert dict(game.seats.values_list("player_id", "points")) == {a: 2, b: 2, c: 2, d: 2}
    assert list(first.places.values_list("player_id", flat=True)) == [d, b, c, a]
    entry = AuditEntry.objects.get(action="deal edited")
    assert entry.details["after"][0] == game.seats.get(player_id=d).player.name


def test_an_edit_that_would_end_the_game_before_later_deals_is_refused():
    game = make_game(season_kwargs={"scoring_limit": 4})
    a, b, c, d = seated_ids(game)
    first = services.deal_record(game=game, finishing_order=[a, b, c, d])
    services.deal_record(game=game, finishing_order=[a, b, c, d])  # d reaches 4: ended
    second = Deal.objects.get(game=game, number=2)
    services.game_reopen(game=game)
    services.deal_edit(deal=second, finishing_order=[d, b, c, a])  # open again: all on 2
    services.deal_record(game=game, finishing_order=[b, a, d, c])  # c 4: ended after deal 3
    services.game_reopen(game=game)
    before = snapshot(game)

    # a last in deal 1 as well: a has 2 + 2 = 4 after deal 2, so deal 3 would be past the end
    with pytest.raises(LeagueError, match="would end after deal 2") as refused:
        services.deal_edit(deal=first, finishing_order=[b, c, d, a])

    assert "delete the later deals first" in refused.value.message
    assert snapshot(game) == before


def test_deleting_a_past_deal_renumbers_the_later_ones_and_rescores():
    game = make_game(season_kwargs={"scoring_limit": 10})
    a, b, c, d = seated_ids(game)
    first = services.deal_record(game=game, finishing_order=[a, b, c, d])
    second = services.deal_record(game=game, finishing_order=[d, c, b, a])
    third = services.deal_record(game=game, finishing_order=[a, b, c, d])  # d 2+0+2

    services.deal_delete(deal=first)

    assert list(game.deal_set.order_by("number").values_list("pk", "number")) == [
        (second.pk, 1), (third.pk, 2)]
    assert dict(game.seats.values_list("player_id", "points")) == {a: 2, b: 2, c: 2, d: 2}
    assert AuditEntry.objects.filter(action="deal deleted").count() == 1


def test_deleting_the_deal_that_ended_a_reopened_game_opens_it():
    game = make_game(season_kwargs={"scoring_limit": 2})
    a, b, c, d = seated_ids(game)
    last = services.deal_record(game=game, finishing_order=[a, b, c, d])
    game.refresh_from_db()
    assert game.status == Game.FINISHED
    services.game_reopen(game=game)

    services.deal_delete(deal=last)

    game.refresh_from_db()
    assert game.status == Game.OPEN
    assert not game.seats.filter(is_winner=True).exists()


def transcript_for(game, seed=3):
    t = play_random_game(preset(game.season.preset), game.seats.count(), seed=seed,
                         scoring=Scoring("penalty"))
    t.pop("scoring")
    t["deals"] = t["deals"][:1]
    return t


def test_a_valid_transcript_gives_the_finishing_order():
    game = make_game()
    seats = seated_ids(game)
    transcript = transcript_for(game)
    from gameplay.engine.checker import check
    expected = [seats[s] for s in check(transcript)[1]["deals"][0]["finishing_order"]]

    deal = services.deal_record(game=game, transcript=transcript)

    assert list(deal.places.values_list("player_id", flat=True)) == expected
    assert deal.transcript == transcript


def test_a_transcript_that_breaks_the_rules_is_refused_with_the_engines_message():
    game = make_game()
    transcript = transcript_for(game)
    first_move = transcript["deals"][0]["moves"][0]
    transcript["deals"][0]["moves"][0] = {**first_move, "seat": (first_move["seat"] + 1) % 4}
    before = snapshot(game)

    with pytest.raises(LeagueError, match="the transcript is not valid .*turn"):
        services.deal_record(game=game, transcript=transcript)

    assert snapshot(game) == before


def test_a_finishing_order_that_contradicts_the_transcript_is_refused():
    game = make_game()
    transcript = transcript_for(game)
    services_order = seated_ids(game)
    from gameplay.engine.checker import check
    real = [services_order[s] for s in check(transcript)[1]["deals"][0]["finishing_order"]]

    with pytest.raises(LeagueError, match="does not match the transcript"):
        services.deal_record(game=game, transcript=transcript,
                             finishing_order=list(reversed(real)))

    assert not Deal.objects.filter(game=game).exists()


def test_a_transcript_for_another_table_size_is_refused():
    game = make_game(players=5)
    transcript = transcript_for(make_game(players=4))

    with pytest.raises(LeagueError, match="transcript has 4 players but 5 are at the table"):
        services.deal_record(game=game, transcript=transcript)


def test_a_game_needs_players_of_the_club_and_a_table_the_preset_can_play():
    game = make_game()
    season = game.season
    outsider = PlayerFactory()

    with pytest.raises(LeagueError, match=f"not players of {season.club}: {outsider.name}"):
        services.game_create(season=season, players=[outsider, *game.season.club.players.all()])
    with pytest.raises(LeagueError, match="players must be a whole number of at least 2"):
        services.game_create(season=season, players=[game.seats.first().player])
    assert season.games.count() == 1


def test_a_season_with_impossible_scoring_is_refused():
    from tests.league.factories import make_season

    with pytest.raises(LeagueError, match="season scoring: scoring 'penalty' takes no 'target'"):
        make_season(scoring_target=11)
    with pytest.raises(LeagueError, match="season options: unknown preset"):
        make_season(preset="poker")


def test_only_the_last_deal_can_be_undone_and_an_undo_sent_twice_deletes_one():
    """services.deal_undo: the entry page's undo names the deal it showed as the last."""
    game = make_game(season_kwargs={"scoring_limit": 50})
    first = services.deal_record(game=game, finishing_order=seated_ids(game))
    last = services.deal_record(game=game, finishing_order=seated_ids(game))
    before = snapshot(game)

    with pytest.raises(LeagueError, match="no longer the last one"):
        services.deal_undo(game=game, deal_id=first.pk)
    assert snapshot(game) == before

    assert services.deal_undo(game=game, deal_id=last.pk) == (2, [])
    with pytest.raises(LeagueError, match="no longer the last one"):
        services.deal_undo(game=game, deal_id=last.pk)
    assert list(game.deal_set.values_list("pk", flat=True)) == [first.pk]


def test_a_played_game_is_stored_as_given_in_one_go():
    season = make_season()
    players = [PlayerFactory(clubs=[season.club]) for _ in range(4)]

    game = services.game_store_played(season=season, players=players, dealer=3,
                                      finishing_orders=[[2, 0, 3, 1], [0, 1, 2, 3]],
                                      totals=[1, 3, 1, 2], winners=[], over=False)

    seats = list(game.seats.order_by("number").values_list(
        "player_id", "points", "deals", "position_sum", "presidents", "scums", "is_winner"))
    assert seats == [(players[0].pk, 1, 2, 3, 1, 0, False), (players[1].pk, 3, 2, 6, 0, 1, False),
                     (players[2].pk, 1, 2, 4, 1, 0, False), (players[3].pk, 2, 2, 7, 0, 1, False)]
    assert list(game.deal_set.order_by("number").values_list("number", "dealer")) == [(1, 3),
                                                                                       (2, 0)]
    assert game.status == Game.OPEN
    assert AuditEntry.objects.get(action="game played").details["deals"] == 2


@pytest.mark.parametrize("orders, totals, winners", [
    ([[0, 1, 2, 2]], [0, 1, 1, 2], []),
    ([[0, 1, 2]], [0, 1, 1, 2], []),
    ([], [0, 0, 0, 0], []),
    ([[0, 1, 2, 3]], [0, 1, 2], []),
    ([[0, 1, 2, 3]], [0, 1, 1, 2], [4]),
])
def test_a_played_game_that_does_not_fit_its_table_is_refused(orders, totals, winners):
    season = make_season()
    players = [PlayerFactory(clubs=[season.club]) for _ in range(4)]

    with pytest.raises(LeagueError):
        services.game_store_played(season=season, players=players, dealer=0,
                                   finishing_orders=orders, totals=totals, winners=winners,
                                   over=True)

    assert not Game.objects.filter(season=season).exists()
