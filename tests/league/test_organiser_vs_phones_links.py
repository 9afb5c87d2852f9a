"""A table's link stopped by its organiser (time called, the link revoked) while its phone
sends a deal, on PostgreSQL: the deal is answered as one sent after the link stopped is."""

import pytest
from django.urls import reverse

from league import services, table_links
from tests.api.conftest import at_once
from tests.league.test_organiser_vs_phones import (
    Holding,
    Paused,
    deal_sent,
    night,
    no_server_fault,
    on_postgres,  # noqa: F401 (a fixture)
    played,
)

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]


def test_a_deal_sent_as_time_is_called_is_held_for_the_organiser_as_before_it(monkeypatch):
    """Time called between the phone's page check and its write: the deal is answered as a
    deal sent after time was called is (403, the outbox holds it, sent again if the organiser
    reopens the game), not refused for good (400) as a deal the server judged."""
    organiser, (game, _), desk, (phone, _) = night()
    played(game, 1, organiser)
    pause = Paused(monkeypatch, services, "_locked_for_deals")
    answers = at_once(None, lambda _: deal_sent(phone, game, 2), pause.later(
        lambda _: desk.post(reverse("league:game_time_called", args=[game.pk]))))
    no_server_fault(answers)
    sent = next(a for a in answers if a.request["PATH_INFO"].endswith("/deal/"))
    assert sent.status_code == 403, sent.content
    assert sent.json()["error"] == (f"Time was called on game {game.number}: its table link "
                                    "no longer enters deals. Ask the organiser.")
    assert game.deal_set.count() == 1
    # the same words as the deal sent after it, in the ordinary way
    after = deal_sent(phone, game, 2)
    assert (after.status_code, after.json()) == (403, sent.json())


def test_a_deal_sent_as_the_link_is_revoked_is_held_as_after_it(monkeypatch):
    """The organiser revokes the table's link between the phone's page check and its write:
    held (403, the phone told to ask the organiser), as a deal sent after the revocation."""
    organiser, (game, _), desk, (phone, _) = night()
    played(game, 1, organiser)
    link = game.table_links.get()
    pause = Paused(monkeypatch, services, "_locked_for_deals")
    answers = at_once(None, lambda _: deal_sent(phone, game, 2), pause.later(
        lambda _: desk.post(reverse("league:table_link_revoke", args=[link.pk]))))
    no_server_fault(answers)
    sent = next(a for a in answers if a.request["PATH_INFO"].endswith("/deal/"))
    assert sent.status_code == 403, sent.content
    assert sent.json()["error"] == ("This table link was revoked by an organiser. Ask the "
                                    "organiser.")
    assert game.deal_set.count() == 1
    after = deal_sent(phone, game, 2)
    assert (after.status_code, after.json()) == (403, sent.json())


def test_a_deal_kept_on_the_link_revoked_meanwhile_is_refused_on_a_page_in_words(monkeypatch):
    """The same without the page's script (the form posted): the refusal page, with the deals
    the phone keeps and the way to the game's totals."""
    organiser, (game, _), desk, (phone, _) = night()
    played(game, 1, organiser)
    link = game.table_links.get()
    pause = Paused(monkeypatch, services, "_locked_for_deals")
    order = list(game.seats.order_by("number").values_list("player_id", flat=True))
    data = {"number": 2, "token": "form", **{f"place_{i}": pk for i, pk in enumerate(order, 1)}}
    answers = at_once(None, lambda _: phone.post(
        reverse("league:deal_record", args=[game.pk]), data), pause.later(
        lambda _: desk.post(reverse("league:table_link_revoke", args=[link.pk]))))
    no_server_fault(answers)
    sent = next(a for a in answers if a.request["PATH_INFO"].endswith("/deal/"))
    assert sent.status_code == 403
    page = sent.content.decode()
    assert "This table link was revoked by an organiser. Ask the organiser." in page
    assert reverse("league:game_detail", args=[game.pk]) in page
    assert game.deal_set.count() == 1


def test_a_link_revoked_as_its_phone_records_a_deal_takes_no_deal_after_it(monkeypatch):
    """The phone's deal checked the link before the organiser revoked it: the revocation
    waits for that deal, which is stored before it, not after (a link revoked takes no deal
    from then on)."""
    organiser, (game, _), desk, (phone, _) = night()
    played(game, 1, organiser)
    link = game.table_links.get()
    hold = Holding(monkeypatch, table_links, "link_checked")
    answers = at_once(None, lambda _: deal_sent(phone, game, 2), hold.later(
        lambda _: desk.post(reverse("league:table_link_revoke", args=[link.pk]))))
    no_server_fault(answers)
    assert sorted(a.status_code for a in answers) == [201, 302]
    assert hold.waited == [True]
    link.refresh_from_db()
    assert game.deal_set.get(number=2).recorded_at < link.revoked_at


# A seat change (someone leaving before the next deal) is answered as a deal is: the phone
# posted it once its page had let it through, and the organiser stopped the link before the
# service locked the game.


def seat_change_sent(phone, game, player, as_json=False):
    """The phone confirming that ``player`` leaves (the seat change's form, or in JSON)."""
    return phone.post(reverse("league:seat_change", args=[game.pk]), {"leaving": [player]},
                      **({"HTTP_ACCEPT": "application/json"} if as_json else {}))


STOPPED = {
    "time called": ("league:game_time_called", "Time was called on game {number}: its table "
                                               "link no longer enters deals. Ask the organiser."),
    "link revoked": ("league:table_link_revoke", "This table link was revoked by an "
                                                 "organiser. Ask the organiser."),
}


@pytest.mark.parametrize("stop", STOPPED)
def test_a_seat_change_sent_as_the_link_stops_is_refused_as_after_it(monkeypatch, stop):
    """Time called, or the link revoked, between the phone's page check and its seat change's
    write: the refusal page a seat change sent after it gets (403, the words of a stopped link,
    the way to the game's totals, the deals kept on the phone), as a deal gets; not the entry
    page again with a 400 and the service's reason, as if the table could still change."""
    organiser, (game, _), desk, (phone, _) = night()
    played(game, 1, organiser)
    link = game.table_links.get()
    leaver = game.seats.order_by("number").first().player_id
    view, words = STOPPED[stop]
    stopping = reverse(view, args=[link.pk if stop == "link revoked" else game.pk])
    pause = Paused(monkeypatch, services, "game_locked")
    answers = at_once(None, lambda _: seat_change_sent(phone, game, leaver),
                      pause.later(lambda _: desk.post(stopping)))
    no_server_fault(answers)
    sent = next(a for a in answers if a.request["PATH_INFO"].endswith("/seats/"))
    assert sent.status_code == 403, sent.content
    page = sent.content.decode()
    assert words.format(number=game.number) in page
    assert reverse("league:game_detail", args=[game.pk]) in page  # the way to the totals
    assert 'id="outbox"' in page  # the deals kept on this phone stay in sight
    assert game.seats.get(player_id=leaver).left_before is None
    assert not game.seat_changes.exists()
    # the same page as the seat change sent after it, in the ordinary way
    after = seat_change_sent(phone, game, leaver)
    assert (after.status_code, after.content) == (403, sent.content)


def test_a_seat_change_sent_in_json_as_time_is_called_is_answered_as_a_deal_is(monkeypatch):
    """Asked in JSON (as the outbox asks), the same answer as a deal's: 403 and the words."""
    organiser, (game, _), desk, (phone, _) = night()
    played(game, 1, organiser)
    leaver = game.seats.order_by("number").first().player_id
    pause = Paused(monkeypatch, services, "game_locked")
    answers = at_once(None, lambda _: seat_change_sent(phone, game, leaver, as_json=True),
                      pause.later(lambda _: desk.post(
                          reverse("league:game_time_called", args=[game.pk]))))
    no_server_fault(answers)
    sent = next(a for a in answers if a.request["PATH_INFO"].endswith("/seats/"))
    assert (sent.status_code, sent.json()) == (403, {"error": (
        f"Time was called on game {game.number}: its table link no longer enters deals. Ask "
        "the organiser.")})
    assert (sent.status_code, sent.json()) == (
        deal_sent(phone, game, 2).status_code, deal_sent(phone, game, 2).json())
    assert not game.seat_changes.exists()
