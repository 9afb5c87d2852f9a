"""A game that has ended keeps its deals and its winner until an organiser reopens it (issue
#26, item 2): undo and corrections are refused, changing nothing; reopening says whose result
changes, then undo, corrections and entry work again."""

import pytest

from league import services
from league.errors import Conflict, LeagueError
from league.models import AuditEntry, Deal, Game, Place, Seat
from tests.api.conftest import client_for
from tests.league.factories import UserFactory, make_game, seated_ids

pytestmark = pytest.mark.django_db


@pytest.fixture
def called():
    """Penalty to 6, time called after deals (a, b, c, d) and (b, a, c, d): a and b share
    the win on 1 point each."""
    game = make_game(season_kwargs={"scoring_limit": 6})
    a, b, c, d = seated_ids(game)
    services.deal_record(game=game, finishing_order=[a, b, c, d])
    services.deal_record(game=game, finishing_order=[b, a, c, d])
    services.game_time_called(game=game)
    return game


def snapshot(game):
    return (list(Deal.objects.filter(game=game).values_list("id", "number")),
            list(Place.objects.filter(deal__game=game).values_list("deal_id", "player_id")),
            list(Seat.objects.filter(game=game).values_list("player_id", "points", "is_winner")),
            list(Game.objects.filter(pk=game.pk).values_list("status", "time_called_at")),
            AuditEntry.objects.count())


def winners(game):
    return sorted(game.seats.filter(is_winner=True).values_list("player_id", flat=True))


def test_undo_and_corrections_of_a_called_game_are_refused_and_change_nothing(called):
    a, b, c, d = seated_ids(called)
    last = called.deal_set.get(number=2)
    before = snapshot(called)

    refusals = [
        lambda: services.deal_undo(game=called, deal_id=last.pk),
        lambda: services.deal_delete(deal=last),
        lambda: services.deal_edit(deal=last, finishing_order=[a, b, c, d]),
        lambda: services.deal_edit_preview(deal=last, finishing_order=[a, b, c, d]),
    ]
    for refused in refusals:
        with pytest.raises(Conflict, match="game 1 has ended \\(time was called\\): an "
                                           "organiser must reopen it before"):
            refused()

    assert snapshot(called) == before


def test_a_game_its_deals_decided_refuses_undo_too():
    game = make_game(season_kwargs={"scoring_limit": 4})
    order = seated_ids(game)
    services.deal_record(game=game, finishing_order=order)
    last = services.deal_record(game=game, finishing_order=order)  # the last reaches 4

    with pytest.raises(Conflict, match="\\(its deals decided it\\)"):
        services.deal_undo(game=game, deal_id=last.pk)
    assert game.deal_set.count() == 2


def test_reopening_previews_whose_result_changes_then_undo_and_entry_work(called):
    a, b, c, d = seated_ids(called)
    organiser = UserFactory()

    preview = services.game_reopen_preview(game=called)

    assert sorted(p.pk for p in preview.winners_before) == [a, b]
    assert preview.winners_after == [] and preview.time_called
    assert Game.objects.get(pk=called.pk).status == Game.FINISHED  # the preview changes nothing

    services.game_reopen(game=called, by=organiser)
    called.refresh_from_db()
    assert called.status == Game.OPEN and called.time_called_at is None and winners(called) == []
    entry = AuditEntry.objects.get(action="game reopened")
    assert entry.actor == organiser and len(entry.details["winners before"]) == 2
    assert entry.details["winners after"] == []

    number, _ = services.deal_undo(game=called, deal_id=called.deal_set.get(number=2).pk)
    again = services.deal_record(game=called, finishing_order=[a, b, c, d], number=2)

    assert number == 2 and again.number == 2
    services.game_time_called(game=called)
    assert winners(called) == [a]  # a: 0 + 1, b: 1 + 1


def test_a_decided_game_reopened_can_be_corrected_until_it_ends_again():
    game = make_game(season_kwargs={"scoring_limit": 4})
    a, b, c, d = seated_ids(game)
    services.deal_record(game=game, finishing_order=[a, b, c, d])
    last = services.deal_record(game=game, finishing_order=[a, b, c, d])  # d has 4: ended

    preview = services.game_reopen_preview(game=game)
    services.game_reopen(game=game)

    assert [p.pk for p in preview.winners_after] == [p.pk for p in preview.winners_before]
    services.deal_edit(deal=last, finishing_order=[d, b, c, a])  # everyone on 2: open again
    game.refresh_from_db()
    assert game.status == Game.OPEN and game.reopened_at is None
    services.deal_record(game=game, finishing_order=[b, a, d, c], number=3)  # c reaches 4
    with pytest.raises(Conflict, match="must reopen it"):
        services.deal_undo(game=game, deal_id=game.deal_set.get(number=3).pk)


def test_an_open_game_is_not_reopened(called):
    services.game_reopen(game=called)

    with pytest.raises(LeagueError, match="has not ended: there is nothing to reopen"):
        services.game_reopen(game=called)


# The API


def test_the_api_refuses_corrections_of_an_ended_game_with_409_until_reopened(called):
    organiser = UserFactory(username="night-organiser")
    called.season.club.organisers.add(organiser)
    api = client_for(organiser, token=True)
    a, b, c, d = seated_ids(called)
    last = called.deal_set.get(number=2)
    before = snapshot(called)

    edit = api.put(f"/api/v1/deals/{last.pk}/", {"finishing_order": [a, b, c, d]},
                   format="json")
    delete = api.delete(f"/api/v1/deals/{last.pk}/")
    outsider = client_for(UserFactory(), token=True).post(f"/api/v1/games/{called.pk}/reopen/")

    assert edit.status_code == delete.status_code == 409
    assert "must reopen it" in edit.json()["detail"]
    assert outsider.status_code == 403
    assert snapshot(called) == before

    reopened = api.post(f"/api/v1/games/{called.pk}/reopen/")
    deleted = api.delete(f"/api/v1/deals/{last.pk}/")

    assert reopened.status_code == 200 and reopened.json()["status"] == "open"
    assert deleted.status_code == 204 and called.deal_set.count() == 1
