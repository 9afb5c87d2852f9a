"""A club night's organiser acting while its table phones act (each phone opened its table's
link; none is signed in), on PostgreSQL: real threads, each with its own connection. Each race
is run in a chosen order: one request holds its locks (or is stopped before its write) until
the other has reached the same rows, so the two always overlap. Nothing is doubled or lost,
every refusal says what happened in words, and the phone is told what to do next."""

import threading
import time

import pytest
from django.db import connection, transaction
from django.test import Client
from django.urls import reverse
from django.utils.html import escape
from django.utils.text import capfirst

from league import services
from league.models import Deal, Game, Seat, TableLink
from tests.api.conftest import at_once
from tests.league.factories import PlayerFactory
from tests.league.test_table_links import confirmed_round, order_of

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]


@pytest.fixture(autouse=True)
def on_postgres():
    if connection.vendor != "postgresql":
        pytest.skip("row locks are PostgreSQL's: run with DATABASE_URL=postgres://")


def waited_on(seconds=5.0) -> bool:
    """Whether another connection comes to wait for a lock this one holds (within
    ``seconds``)."""
    deadline = time.monotonic() + seconds
    with connection.cursor() as cursor:
        while time.monotonic() < deadline:
            # pg_locks, not pg_stat_activity, which a transaction reads once
            cursor.execute("SELECT count(*) FROM pg_locks WHERE NOT granted "
                           "AND pg_backend_pid() = ANY(pg_blocking_pids(pid))")
            if cursor.fetchone()[0]:
                return True
            time.sleep(0.01)
    return False


class Holding:
    """The first call of ``module.name`` (a lock taken) returns only once the other request,
    started then (``later``), waits for one of its locks: the first request's write and the
    other's overlap, the first one's committing first."""

    def __init__(self, monkeypatch, module, name):
        self.held = threading.Event()
        self.waited = []
        real = getattr(module, name)

        def holding(*args, **kwargs):
            result = real(*args, **kwargs)
            if not self.held.is_set():
                self.held.set()
                self.waited.append(waited_on())
            return result

        monkeypatch.setattr(module, name, holding)

    def later(self, send):
        def sent(client):
            assert self.held.wait(10), "the first request never took its lock"
            return send(client)
        return sent


class Paused:
    """The first call of ``module.name`` (a check before a write) waits until the other
    request (``later``), started then, has answered: the other's write comes between this
    one's check and its write."""

    def __init__(self, monkeypatch, module, name):
        self.reached, self.done = threading.Event(), threading.Event()
        real = getattr(module, name)

        def paused(*args, **kwargs):
            if not self.reached.is_set():
                self.reached.set()
                assert self.done.wait(10), "the other request never answered"
            return real(*args, **kwargs)

        monkeypatch.setattr(module, name, paused)

    def later(self, send):
        def sent(client):
            assert self.reached.wait(10), "the first request never reached its check"
            try:
                return send(client)
            finally:
                self.done.set()
        return sent


def night(tables=2, size=4):
    """A round confirmed, its organiser signed in on a client, and one phone per table that
    opened its table's link."""
    organiser, games = confirmed_round(tables=tables, size=size)
    desk = Client()
    desk.force_login(organiser)
    phones = []
    for game in games:
        phone = Client()
        phone.get(reverse("league:table_link_open", args=[game.table_links.get().token]))
        phones.append(phone)
    return organiser, games, desk, phones


def deal_sent(phone, game, number, order=None, token=None):
    """The phone's outbox sending deal ``number`` of ``game`` (the page's script, in JSON)."""
    order = order or order_of(game)
    data = {"number": number, "token": token or f"phone-{game.pk}-{number}",
            **{f"place_{i}": pk for i, pk in enumerate(order, 1)}}
    return phone.post(reverse("league:deal_record", args=[game.pk]), data,
                      HTTP_ACCEPT="application/json")


def played_one(game, number, by):
    services.deal_record(game=game, number=number, finishing_order=order_of(game), by=by)


def played(game, deals, by):
    for number in range(1, deals + 1):
        played_one(game, number, by)


class Undone(Exception):
    pass


def no_server_fault(answers):
    assert all(a.status_code < 500 for a in answers), [a.status_code for a in answers]


# The organiser calls time on a table (or ends the night) while its phone confirms a deal.


def test_time_called_while_the_phone_records_a_deal_counts_that_deal(monkeypatch):
    organiser, (game, _), desk, (phone, _) = night()
    played(game, 1, organiser)
    hold = Holding(monkeypatch, services, "_locked_for_deals")
    answers = at_once(None, lambda _: deal_sent(phone, game, 2), hold.later(
        lambda _: desk.post(reverse("league:game_time_called", args=[game.pk]))))
    no_server_fault(answers)
    assert hold.waited == [True]
    assert sorted(a.status_code for a in answers) == [201, 302]
    game.refresh_from_db()
    assert (game.status, game.deal_set.count()) == (Game.FINISHED, 2)
    assert game.time_called_at is not None


def test_the_night_ended_while_a_phone_sends_its_first_deal_calls_time_on_that_table(
        monkeypatch):
    """The phone's first deal is being written as the organiser ends the night: the night
    reads the table as one with no deal, to cancel, and must not then refuse the whole end
    (409 "call time on it instead"); the table ends with its deal, the others too."""
    organiser, (game, other), desk, (phone, _) = night()
    played(other, 2, organiser)
    season = game.season
    hold = Holding(monkeypatch, services, "_locked_for_deals")
    answers = at_once(None, lambda _: deal_sent(phone, game, 1), hold.later(
        lambda _: desk.post(reverse("league:night_end", args=[season.pk]))))
    no_server_fault(answers)
    assert hold.waited == [True]
    ended = next(a for a in answers if a.request["PATH_INFO"].endswith("/end/"))
    assert ended.status_code == 302, ended.content.decode()
    for table in (game, other):
        table.refresh_from_db()
        assert (table.status, table.time_called_at is not None) == (Game.FINISHED, True)
    assert game.deal_set.count() == 1


def test_the_night_ended_while_a_later_tables_phone_records_a_deal_ends_both(monkeypatch):
    """The night's end calls time on table 1 (its season's results change), then comes to
    table 2, whose phone is writing a deal, which changes the season's results too: neither
    may hold what the other waits for (no deadlock, a 503), both are done."""
    organiser, (first, game), desk, (_, phone) = night()
    played(first, 1, organiser)
    played(game, 1, organiser)
    hold = Holding(monkeypatch, services, "_locked_for_deals")
    answers = at_once(None, lambda _: deal_sent(phone, game, 2), hold.later(
        lambda _: desk.post(reverse("league:night_end", args=[game.season.pk]))))
    no_server_fault(answers)
    assert hold.waited == [True]
    assert sorted(a.status_code for a in answers) == [201, 302]
    for table, deals in ((first, 1), (game, 2)):
        table.refresh_from_db()
        assert (table.status, table.time_called_at is not None) == (Game.FINISHED, True)
        assert table.deal_set.count() == deals


def test_the_night_ended_while_a_phone_records_a_tables_last_deal_ends_the_others(
        monkeypatch):
    """A table's phone records the deal that ends its game as the organiser ends the night:
    that table ended by its own rule, the night still ends the others (not refused because
    one table "has already ended")."""
    organiser, (game, other), desk, (phone, _) = night()
    played(other, 1, organiser)
    deals = 0
    while True:  # deals until the next one would end the game
        try:
            with transaction.atomic():
                played_one(game, deals + 1, organiser)
                if Game.objects.get(pk=game.pk).status == Game.FINISHED:
                    raise Undone
        except Undone:
            break
        deals += 1
    game.refresh_from_db()
    assert game.status == Game.OPEN
    hold = Holding(monkeypatch, services, "_locked_for_deals")
    answers = at_once(None, lambda _: deal_sent(phone, game, deals + 1), hold.later(
        lambda _: desk.post(reverse("league:night_end", args=[game.season.pk]))))
    no_server_fault(answers)
    assert hold.waited == [True]
    game.refresh_from_db()
    other.refresh_from_db()
    assert (game.status, game.time_called_at) == (Game.FINISHED, None), "ended by its deals"
    assert game.deal_set.count() == deals + 1
    ended = next(a for a in answers if a.request["PATH_INFO"].endswith("/end/"))
    assert ended.status_code == 302, ended.content.decode()
    assert (other.status, other.time_called_at is not None) == (Game.FINISHED, True)


def answer_to(answers, ending):
    return next(a for a in answers if a.request["PATH_INFO"].endswith(ending))


# The organiser cancels a round while a table's phone sends its first deal.


def test_a_round_cancelled_as_a_phone_records_its_first_deal_is_refused_whole(monkeypatch):
    organiser, (game, other), desk, (phone, _) = night()
    hold = Holding(monkeypatch, services, "_locked_for_deals")
    answers = at_once(None, lambda _: deal_sent(phone, game, 1), hold.later(
        lambda _: desk.post(reverse("league:night_cancel_round", args=[game.season.pk, 1]))))
    no_server_fault(answers)
    assert hold.waited == [True]
    assert answer_to(answers, "/deal/").status_code == 201
    cancel = answer_to(answers, "/cancel/")
    assert cancel.status_code == 409
    assert (f"Nothing was changed: game {game.number} has 1 deal: a game that was played cannot "
            "be cancelled (call time on it instead).") in cancel.content.decode()
    assert set(Game.objects.values_list("status", flat=True)) == {Game.OPEN}, "all or nothing"
    assert game.deal_set.count() == 1


def test_a_first_deal_sent_as_its_round_is_cancelled_is_refused_saying_so(monkeypatch):
    _, (game, other), desk, (phone, _) = night()
    hold = Holding(monkeypatch, services, "game_locked")
    answers = at_once(None, hold.later(lambda _: deal_sent(phone, game, 1)), lambda _: desk.post(
        reverse("league:night_cancel_round", args=[game.season.pk, 1])))
    no_server_fault(answers)
    assert hold.waited == [True]
    assert answer_to(answers, "/cancel/").status_code == 302
    sent = answer_to(answers, "/deal/")
    next_step = "if its players sit at another table now, scan that table's code"
    assert (sent.status_code, sent.json()) == (400, {"error": (
        f"game {game.number} was cancelled: nothing can be entered in it; {next_step}")})
    assert not Deal.objects.exists()
    # its page, as the phone opens it again, says the same
    page = phone.get(reverse("league:game_enter", args=[game.pk])).content.decode()
    assert f"Game {game.number} was cancelled" in page
    assert escape(capfirst(next_step) + ".") in page


# The organiser undoes or deletes a deal while the phone enters the next one.


def test_an_undo_as_the_phone_records_the_next_deal_says_what_came_after(monkeypatch):
    organiser, (game, _), desk, (phone, _) = night()
    played(game, 2, organiser)
    second = game.deal_set.get(number=2)
    hold = Holding(monkeypatch, services, "_locked_for_deals")
    answers = at_once(None, lambda _: deal_sent(phone, game, 3), hold.later(lambda _: desk.post(
        reverse("league:deal_undo", args=[game.pk]), {"deal": second.pk}, follow=True)))
    no_server_fault(answers)
    assert hold.waited == [True]
    assert answer_to(answers, "/deal/").status_code == 201
    undo = answer_to(answers, "/enter/")
    assert "Deal 2 is no longer the last one: deal 3 was recorded after it" in undo.content.decode()
    assert "from a table link" in undo.content.decode()
    assert list(game.deal_set.values_list("number", flat=True).order_by("number")) == [1, 2, 3]


def test_the_next_deal_sent_as_the_organiser_undoes_the_last_is_a_conflict(monkeypatch):
    organiser, (game, _), desk, (phone, _) = night()
    played(game, 2, organiser)
    second = game.deal_set.get(number=2)
    hold = Holding(monkeypatch, services, "_locked_for_deals")
    answers = at_once(None, hold.later(lambda _: deal_sent(phone, game, 3)), lambda _: desk.post(
        reverse("league:deal_undo", args=[game.pk]), {"deal": second.pk}))
    no_server_fault(answers)
    assert hold.waited == [True]
    sent = answer_to(answers, "/deal/")
    assert sent.status_code == 409 and sent.json()["conflict"] is True
    assert sent.json()["error"].startswith("deal 3 cannot be recorded: the next deal is deal 2")
    assert list(game.deal_set.values_list("number", flat=True)) == [1]


def test_a_deal_deleted_as_the_phone_records_the_next_moves_it_up(monkeypatch):
    organiser, (game, _), desk, (phone, _) = night()
    played(game, 2, organiser)
    first = game.deal_set.get(number=1)
    hold = Holding(monkeypatch, services, "_locked_for_deals")
    answers = at_once(None, lambda _: deal_sent(phone, game, 3), hold.later(lambda _: desk.post(
        reverse("league:deal_delete", args=[game.pk]), {"deal": first.pk, "token": "del"})))
    no_server_fault(answers)
    assert hold.waited == [True]
    assert answer_to(answers, "/deal/").status_code == 201  # answers come as they finish
    assert answer_to(answers, "/delete/").status_code == 302
    numbers = list(game.deal_set.order_by("number").values_list("number", "source"))
    assert numbers == [(1, Deal.OTHER), (2, Deal.TABLE_LINK)]


def test_the_next_deal_sent_as_an_earlier_one_is_deleted_is_a_conflict_naming_it(monkeypatch):
    organiser, (game, _), desk, (phone, _) = night()
    played(game, 2, organiser)
    first = game.deal_set.get(number=1)
    hold = Holding(monkeypatch, services, "_locked_for_deals")
    answers = at_once(None, hold.later(lambda _: deal_sent(phone, game, 3)), lambda _: desk.post(
        reverse("league:deal_delete", args=[game.pk]), {"deal": first.pk, "token": "del"}))
    no_server_fault(answers)
    assert hold.waited == [True]
    sent = answer_to(answers, "/deal/")
    assert sent.status_code == 409, sent.content
    assert "deleted" in sent.json()["error"]
    assert game.deal_set.count() == 1


# The organiser starts the next round (seating players) while a table phone enters a seat change
# taking one of those players.


def latecomers(game, names=("Nia", "Quin", "Rae", "Sol")):
    return [PlayerFactory(name=name, clubs=[game.season.club]) for name in names]


def confirm_sent(desk, season, players):
    return desk.post(reverse("league:night_confirm", args=[season.pk]), {
        "table": ",".join(str(p.pk) for p in players), "dealer": players[0].pk,
        "token": "round", "while_in_play": "1"})


def test_a_round_started_as_a_phone_seats_one_of_its_people_is_refused_naming_her_table(
        monkeypatch):
    organiser, (game, other), desk, (phone, _) = night()
    played(game, 1, organiser)
    nia, *others = people = latecomers(game)
    hold = Holding(monkeypatch, services, "seating_locked")
    answers = at_once(None, lambda _: phone.post(
        reverse("league:seat_change", args=[game.pk]), {"joining": [nia.pk]}), hold.later(
        lambda _: confirm_sent(desk, game.season, people)))
    no_server_fault(answers)
    assert hold.waited == [True]
    assert answer_to(answers, "/seats/").status_code == 302
    confirm = answer_to(answers, "/confirm/")
    assert confirm.status_code == 409
    assert (f"Nothing was created: Nia is still playing at round 1, table 1 (game "
            f"{game.number}): call time on it or enter their leaving there first.") in \
        confirm.content.decode()
    assert Game.objects.count() == 2
    assert list(Seat.objects.filter(player=nia).values_list("game", flat=True)) == [game.pk]


def test_a_seat_change_sent_as_a_round_seats_that_player_is_refused_naming_her_table(
        monkeypatch):
    organiser, (game, other), desk, (phone, _) = night()
    played(game, 1, organiser)
    nia, *others = people = latecomers(game)
    hold = Holding(monkeypatch, services, "seating_locked")
    answers = at_once(None, hold.later(lambda _: phone.post(
        reverse("league:seat_change", args=[game.pk]), {"joining": [nia.pk]})),
        lambda _: confirm_sent(desk, game.season, people))
    no_server_fault(answers)
    assert hold.waited == [True]
    assert answer_to(answers, "/confirm/").status_code == 302
    new = Game.objects.get(seats__player=nia)
    seat = answer_to(answers, "/seats/")
    assert seat.status_code == 400
    assert (f"Nia cannot join: playing at round 1, table 3 (game {new.number}), still open"
            in seat.content.decode())
    assert game.seats.count() == 4


# "New game, same table" while the organiser starts a round with those players.


@pytest.mark.parametrize("first", ["same table", "round"])
def test_new_game_same_table_and_a_round_of_its_players_at_once_seat_them_once(
        monkeypatch, first):
    organiser, (game, other), desk, (phone, _) = night()
    played(game, 1, organiser)
    services.game_time_called(game=game, by=organiser)
    people = [s.player for s in game.seats.order_by("number")]
    link = game.table_links.get()
    hold = Holding(monkeypatch, services, "seating_locked")

    def same(_):
        return desk.post(reverse("league:same_table", args=[game.pk]))

    def confirm(_):
        return confirm_sent(desk, game.season, people)

    answers = at_once(None, *((same, hold.later(confirm)) if first == "same table"
                              else (hold.later(same), confirm)))
    no_server_fault(answers)
    assert hold.waited == [True]
    assert sorted(a.status_code for a in answers) == [302, 400 if first == "round" else 409]
    assert Seat.objects.filter(player__in=people, game__status=Game.OPEN).count() == 4
    new = Game.objects.get(status=Game.OPEN, seats__player=people[0])
    refused = next(a for a in answers if a.status_code != 302).content.decode()
    where = "round 1, table 1" if first == "same table" else "round 2, table 1"
    assert f"still playing at {where} (game {new.number})" in refused
    # the table's link moves on with the table, not to a round's new table
    assert (TableLink.objects.get(pk=link.pk).game_id == new.pk) == (first == "same table")


def test_a_table_phone_asking_for_a_new_game_is_told_only_an_organiser_starts_it():
    """The phone has no such button ("An organiser starts the next game"); a post of it all
    the same is told so, not to scan the code again, which it has."""
    organiser, (game, _), desk, (phone, _) = night()
    played(game, 1, organiser)
    services.game_time_called(game=game, by=organiser)
    answer = phone.post(reverse("league:same_table", args=[game.pk]))
    assert answer.status_code == 403
    assert not Game.objects.filter(continues=game).exists()
    assert (f"A table link enters deals and seat changes only: ask an organiser of "
            f"{game.season.club}.") in answer.content.decode()
