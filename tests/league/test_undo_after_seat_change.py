"""Undoing a deal after players left or joined following it (issue #16): never a 500."""

import pytest
from django.urls import reverse

from league import services
from league.errors import LeagueError
from league.models import Deal, SeatChange
from tests.api.conftest import client_for
from tests.league.factories import PlayerFactory, UserFactory, make_game, seated_ids

pytestmark = pytest.mark.django_db


def game_with_a_seat_change():
    """Five players, deal 1 recorded, then e leaves and f joins before deal 2."""
    game = make_game(players=5, season_kwargs={"preset": "friday", "scoring_limit": 20})
    a, b, c, d, e = seated_ids(game)
    services.deal_record(game=game, finishing_order=[a, b, c, d, e])
    newcomer = PlayerFactory(clubs=[game.season.club])
    services.seat_change_apply(game=game, leaving=[game.seats.get(player_id=e).player],
                               joining=[newcomer])
    organiser = UserFactory()
    game.season.club.organisers.add(organiser)
    return game, organiser, newcomer


def test_undoing_the_last_deal_on_the_page_also_undoes_the_seat_change_after_it():
    game, organiser, newcomer = game_with_a_seat_change()
    a, b, c, d, e = seated_ids(game)[:5]
    client = client_for(organiser)
    deal = game.deal_set.get()

    page = client.post(reverse("league:deal_undo", args=[game.pk]), {"deal": deal.pk},
                       follow=True)

    assert page.status_code == 200
    e_name = game.seats.get(player_id=e).player.name
    assert (f"Deal 1 undone, and the seat change after it ({e_name} leaves, {newcomer} joins)"
            in page.text)
    assert not Deal.objects.filter(game=game).exists()
    assert not SeatChange.objects.filter(game=game).exists()
    # the table is the one the game was created with again
    assert list(game.seats.order_by("number").values_list("player_id", "left_before")) == [
        (a, None), (b, None), (c, None), (d, None), (e, None)]
    services.deal_record(game=game, finishing_order=[e, d, c, b, a])


def test_deleting_the_last_deal_through_the_api_undoes_the_seat_change_after_it():
    game, organiser, newcomer = game_with_a_seat_change()
    deal = game.deal_set.get()

    response = client_for(organiser, token=True).delete(f"/api/v1/deals/{deal.pk}/")

    assert response.status_code == 204
    assert not game.seats.filter(player=newcomer).exists()
    assert not SeatChange.objects.filter(game=game).exists()


def test_deleting_the_only_deal_a_player_played_is_refused_with_a_reason():
    game, organiser, newcomer = game_with_a_seat_change()
    a, b, c, d, e = seated_ids(game)[:5]
    services.deal_record(game=game, finishing_order=[a, b, c, d, newcomer.pk])
    first = game.deal_set.get(number=1)

    response = client_for(organiser, token=True).delete(f"/api/v1/deals/{first.pk}/")

    assert response.status_code == 400
    assert "delete the later deals first" in response.json()["detail"]
    assert game.deal_set.count() == 2
    with pytest.raises(LeagueError, match="no deal played"):
        services.deal_delete(deal=first)


def test_undoing_a_later_last_deal_undoes_only_the_leave_of_who_played_just_that_deal():
    game, organiser, newcomer = game_with_a_seat_change()
    a, b, c, d, e = seated_ids(game)[:5]
    last = services.deal_record(game=game, finishing_order=[a, b, c, d, newcomer.pk])
    services.seat_change_apply(game=game, leaving=[newcomer, game.seats.get(player_id=a).player])

    services.deal_delete(deal=last)

    # a's leave moves up to follow deal 1; the newcomer, who played only deal 2, sits again
    assert list(SeatChange.objects.filter(game=game).order_by("id")
                .values_list("player_id", "kind", "before_deal")) == [
        (e, "leave", 2), (newcomer.pk, "join", 2), (a, "leave", 2)]
    assert game.seats.get(player=newcomer).left_before is None
    services.deal_record(game=game, finishing_order=[b, c, d, newcomer.pk])
