""""New game, same table" seats the players of a finished game again. One of them may have sat
down meanwhile at another open table of the club (tonight's next round, another season): the
new game seated them at two tables. It is now refused, naming who sits where, as every other
seating write is (services.seating_locked, then the check)."""

import pytest
from django.db import connection
from django.urls import reverse

from league import services
from league.errors import Conflict
from league.models import Game
from tests.api.conftest import at_once
from tests.league.factories import (
    PlayerFactory,
    UserFactory,
    make_game,
    make_season,
    seated_ids,
)

pytestmark = pytest.mark.django_db


def finished_game():
    """A game of four that has ended (time called after one deal)."""
    game = make_game()
    services.deal_record(game=game, finishing_order=seated_ids(game))
    return services.game_time_called(game=game)


def elsewhere(game, season=None, sitting=1):
    """An open game of the club seating the first ``sitting`` players of ``game`` and new
    ones, in ``season`` (the game's own by default)."""
    season = season or game.season
    players = [s.player for s in game.seats.order_by("number")][:sitting]
    players += [PlayerFactory(clubs=[season.club]) for _ in range(4 - len(players))]
    return services.game_create(season=season, players=players)


def test_a_player_seated_at_another_table_of_the_season_is_named_and_nothing_starts():
    game = finished_game()
    other = elsewhere(game)
    name = other.seats.get(number=0).player.name

    with pytest.raises(Conflict, match=rf"^{name} is still playing at round 2, table 1 "
                                       rf"\(game {other.number}\): call time on it or enter "
                                       "their leaving there first; no game was started$"):
        services.game_same_table(game=game)
    assert list(game.season.games.values_list("number", flat=True)) == [1, 2]


def test_players_seated_in_another_season_of_the_club_are_named():
    game = finished_game()
    autumn = make_season(club=game.season.club, name="Autumn")
    other = elsewhere(game, season=autumn, sitting=2)
    first, second = other.seats.order_by("number")[:2]

    with pytest.raises(Conflict, match=rf"{first.player} and {second.player} are still playing "
                                       r"at round 1, table 1 \(game 1\) of Autumn"):
        services.game_same_table(game=game)
    assert Game.objects.filter(continues=game).count() == 0


def test_once_they_left_the_other_table_the_new_game_starts():
    game = finished_game()
    other = elsewhere(game)
    services.deal_record(game=other, finishing_order=seated_ids(other))
    services.game_time_called(game=other)

    following = services.game_same_table(game=game)

    assert following.continues == game
    assert seated_ids(following) == seated_ids(game)


def test_on_the_entry_page_the_refusal_names_them(client):
    game = finished_game()
    other = elsewhere(game)
    name = other.seats.get(number=0).player.name
    organiser = UserFactory()
    game.season.club.organisers.add(organiser)
    client.force_login(organiser)

    page = client.post(reverse("league:same_table", args=[game.pk]), {})

    assert page.status_code == 400
    assert f"{name} is still playing at round 2, table 1 (game {other.number})" in page.text
    assert game.season.games.count() == 2


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_same_table_and_a_game_seating_one_of_them_sent_at_once_seat_them_once():
    """The organiser taps "New game, same table" while another seats one of that table at a
    game of another season (POST /api/v1/games/): each checked before the other wrote."""
    if connection.vendor != "postgresql":
        pytest.skip("SQLite runs one writer at a time; the race needs PostgreSQL")
    game = finished_game()
    autumn = make_season(club=game.season.club, name="Autumn")
    organiser = UserFactory(username="racer")
    game.season.club.organisers.add(organiser)
    taken = game.seats.get(number=0).player
    newcomers = [PlayerFactory(clubs=[game.season.club]).pk for _ in range(3)]

    answers = at_once(
        organiser,
        lambda client: client.post(reverse("league:same_table", args=[game.pk]), {}),
        lambda client: client.post("/api/v1/games/", {
            "season": autumn.pk, "players": [taken.pk, *newcomers]}, format="json"),
    )

    assert sorted(a.status_code for a in answers) in ([201, 400], [302, 409]), [
        (a.status_code, a.content[:300]) for a in answers]
    assert Game.objects.filter(status=Game.OPEN, seats__player=taken).count() == 1
