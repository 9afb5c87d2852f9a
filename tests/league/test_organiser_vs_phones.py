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

from league import services
from league.models import Game
from tests.api.conftest import at_once
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
