"""Every entry names the deal number it records (issue #26, item 1): the same deal entered on
two phones is stored once, and the second is told when, from where, by whom and with what
finishing order the first was recorded; nothing changes."""

import pytest
from django.utils import timezone

from league import services
from league.errors import Conflict
from league.models import AuditEntry, Deal, IdempotentRequest, Place, Seat
from tests.league.factories import UserFactory, make_game, seated_ids

pytestmark = pytest.mark.django_db


def snapshot(game):
    return (list(Deal.objects.filter(game=game).values_list("id", "number")),
            list(Place.objects.filter(deal__game=game).values_list("deal_id", "player_id")),
            list(Seat.objects.filter(game=game).values_list("player_id", "points", "deals")),
            AuditEntry.objects.count(), IdempotentRequest.objects.count())


def names(game, order):
    by_id = dict(game.seats.values_list("player_id", "player__name"))
    return ", ".join(by_id[p] for p in order)


def test_a_deal_number_already_recorded_is_refused_saying_when_where_who_and_what():
    game = make_game()
    order = seated_ids(game)
    alice = UserFactory(username="alice")
    first = services.deal_record(game=game, finishing_order=order, number=1,
                                 source=Deal.PAGE, by=alice)
    before = snapshot(game)

    with pytest.raises(Conflict) as refused:
        services.deal_record(game=game, finishing_order=list(reversed(order)), number=1,
                             source=Deal.OUTBOX, by=UserFactory(username="bob"))

    words = refused.value.message
    at = timezone.localtime(first.recorded_at)
    assert words.startswith(f"deal 1 was already recorded at {at:%H:%M} from the entry page "
                            "by alice")
    assert f"(finishing order: {names(game, order)})" in words
    assert words.endswith("nothing was recorded, the next deal is deal 2")
    assert snapshot(game) == before


def test_the_next_number_is_recorded_and_a_number_ahead_is_refused():
    game = make_game()
    order = seated_ids(game)

    # Deal 1 may have been undone meanwhile, or never stored: a phone kept deals 1 and 2
    # offline and deal 1 was refused when sent (not "deleted?" alone, as it said).
    with pytest.raises(Conflict, match=r"^deal 2 cannot be recorded: the next deal is deal 1, "
                                       r"not recorded yet \(undone meanwhile, or refused when "
                                       r"it was sent\?\); nothing was recorded$"):
        services.deal_record(game=game, finishing_order=order, number=2)
    deal = services.deal_record(game=game, finishing_order=order, number=1, source=Deal.API)

    assert (deal.number, deal.source) == (1, Deal.API)
    assert list(game.deal_set.values_list("number", flat=True)) == [1]


def test_a_number_of_a_game_that_has_ended_since_says_so():
    game = make_game(season_kwargs={"scoring_limit": 4})
    a, b, c, d = seated_ids(game)
    services.deal_record(game=game, finishing_order=[a, b, c, d], number=1)
    services.deal_record(game=game, finishing_order=[a, b, c, d], number=2)  # d has 4: ended

    with pytest.raises(Conflict, match="deal 2 was already recorded .*the game has ended$"):
        services.deal_record(game=game, finishing_order=[d, c, b, a], number=2)


def test_the_preview_of_a_deal_already_recorded_is_refused_the_same_way():
    game = make_game()
    order = seated_ids(game)
    services.deal_record(game=game, finishing_order=order, number=1)

    with pytest.raises(Conflict, match="deal 1 was already recorded"):
        services.finishing_order_check(game=game, finishing_order=order, number=1)
    assert services.finishing_order_check(game=game, finishing_order=order, number=2) == order


def test_undo_and_a_seat_change_keep_the_numbers_in_step():
    game = make_game(players=5, season_kwargs={"scoring_limit": 50})
    order = seated_ids(game)
    services.deal_record(game=game, finishing_order=order, number=1)
    second = services.deal_record(game=game, finishing_order=order, number=2)

    services.deal_undo(game=game, deal_id=second.pk)
    again = services.deal_record(game=game, finishing_order=order[::-1], number=2)
    leaving = game.seats.get(player_id=order[0]).player
    services.seat_change_apply(game=game, leaving=[leaving])
    with pytest.raises(Conflict, match="deal 2 was already recorded"):
        services.deal_record(game=game, finishing_order=order[1:], number=2)
    third = services.deal_record(game=game, finishing_order=order[1:], number=3)

    assert (again.number, third.number) == (2, 3)
