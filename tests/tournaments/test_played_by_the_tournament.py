"""A bot tournament's games are the tournament's: it plays and stores them (game_store_played),
so no deal of theirs is recorded, undone, corrected or deleted by hand, none is reopened,
continued, ended or cancelled, and nobody joins or leaves one; the entry page says so, and the
game's page offers none of it. Found by a walk-through: an organiser reopened and undid a
tournament game on the entry page, and the tournament's page and replays no longer agreed with
its season's standings."""

import pytest
from django.urls import reverse

from league import services
from league.errors import LeagueError
from league.models import AuditEntry, Deal, Game
from tests.league.factories import PlayerFactory, UserFactory
from tests.tournaments.helpers import small_tournament
from tests.tournaments.test_replays import stored_game

pytestmark = pytest.mark.django_db


@pytest.fixture
def played():
    """A finished tournament game, its club's organiser signed in."""
    tournament = small_tournament(scoring={"system": "fixed-rounds", "deals": 2})
    game = stored_game(tournament).game
    organiser = UserFactory(username="org")
    game.season.club.organisers.add(organiser)
    return game, organiser


def _snapshot(game):
    return (Game.objects.filter(season=game.season).count(),
            list(Deal.objects.filter(game=game).values_list("pk", "number")),
            list(game.seats.values_list("player_id", "points", "is_winner")),
            Game.objects.get(pk=game.pk).status)


def test_no_service_changes_a_tournament_game_by_hand(played):
    game, organiser = played
    deal = game.deal_set.order_by("number").first()
    seated = [s.player for s in game.seats.select_related("player").order_by("number")]
    newcomer = PlayerFactory(clubs=[game.season.club])
    before = _snapshot(game)
    audited = AuditEntry.objects.count()

    for change in (
        lambda: services.game_reopen(game=game, by=organiser),
        lambda: services.game_same_table(game=game, by=organiser),
        lambda: services.deal_record(game=game, finishing_order=[p.pk for p in seated]),
        lambda: services.deal_edit(deal=deal, finishing_order=[p.pk for p in seated[::-1]]),
        lambda: services.deal_delete(deal=deal, by=organiser),
        lambda: services.deal_undo(game=game, deal_id=deal.pk, by=organiser),
        lambda: services.game_time_called(game=game, by=organiser),
        lambda: services.game_cancel(game=game, by=organiser),
        lambda: services.seat_change_apply(game=game, joining=[newcomer], by=organiser),
        lambda: services.game_create(season=game.season, players=seated, by=organiser),
    ):
        with pytest.raises(LeagueError, match="bot tournament Cup"):
            change()

    assert _snapshot(game) == before and AuditEntry.objects.count() == audited


def test_the_entry_page_refuses_a_tournament_game_and_its_page_offers_nothing(client, played):
    game, organiser = played
    client.force_login(organiser)

    entry = client.get(reverse("league:game_enter", args=[game.pk]))

    assert entry.status_code == 400
    said = " ".join(entry.content.decode().split())
    assert f"Game {game.number} is a game of the bot tournament Cup" in said
    assert reverse("gameplay:tournament", args=[game.season.tournament.pk]) in said
    page = client.get(reverse("league:game_detail", args=[game.pk])).content.decode()
    assert reverse("league:game_enter", args=[game.pk]) not in page
    assert "Call time" not in page


def test_the_season_page_names_its_tournament_and_offers_no_club_night(
        client, played, django_assert_num_queries):
    """Found by a walk-through: a tournament's season page ("Tournament: Cup") did not say whose
    games they were, and offered its organiser "Run a club night", "Tonight's tables" and
    "enter a deal", none of which a tournament's season has."""
    game, organiser = played
    season, tournament = game.season, game.season.tournament
    game.status = Game.OPEN  # even an open game of the tournament is not entered by hand
    game.save(update_fields=["status"])
    url = reverse("league:season_detail", args=[season.pk])
    link = f'<a href="{tournament.get_absolute_url()}">Cup</a>'

    for reader in (organiser, None):
        client.logout()
        if reader:
            client.force_login(reader)
        said = " ".join(client.get(url).content.decode().split())
        assert f"These are the games of the bot tournament {link}." in said
        for offered in (reverse("league:night", args=[season.pk]),
                        reverse("league:tonight", args=[season.pk]),
                        reverse("league:game_enter", args=[game.pk]),
                        "Run a club night", "Tonight&#x27;s tables", "enter a deal"):
            assert offered not in said
    with django_assert_num_queries(1):  # from the cache: the season row alone, as before
        client.get(url)


def test_a_club_season_page_names_no_tournament(client):
    from tests.league.factories import make_game

    season = make_game().season
    said = client.get(reverse("league:season_detail", args=[season.pk])).content.decode()

    assert "bot tournament" not in said
    assert reverse("league:tonight", args=[season.pk]) in said
