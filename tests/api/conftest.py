import threading

import pytest
from django.db import connection
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from league import services
from tests.league.factories import ClubFactory, PlayerFactory, UserFactory, make_game, seated_ids


@pytest.fixture
def game(db):
    """An open game of four in a club, with one deal recorded; penalty scoring to 50 points,
    so tests may record several deals before it ends."""
    game = make_game(season_kwargs={"scoring_limit": 50})
    services.deal_record(game=game, finishing_order=seated_ids(game))
    return game


def free_ids(game, n: int = 4) -> list[int]:
    """Ids of ``n`` new players of the game's club, at no open table (one person sits at one
    table, so a new game cannot seat the game's own players while it is open)."""
    return [PlayerFactory(clubs=[game.season.club]).pk for _ in range(n)]


def client_for(user=None, *, token=False):
    client = APIClient()
    if user is not None and token:
        key = Token.objects.get_or_create(user=user)[0].key
        client.credentials(HTTP_AUTHORIZATION=f"Token {key}")
    elif user is not None:
        client.force_login(user)
    return client


def racing_table():
    """A fresh game and its organiser, for two requests raced at once (PostgreSQL alone)."""
    if connection.vendor != "postgresql":
        pytest.skip("SQLite runs one writer at a time; the race needs PostgreSQL")
    game = make_game()
    organiser = UserFactory(username="racer")
    game.season.club.organisers.add(organiser)
    return game, organiser


def at_once(user, *sends):
    """Each ``send(client)`` in a thread of its own, with its own client of ``user`` (None:
    nobody signed in, as a table's phone) and its own database connection, all released
    together; their answers as they came."""
    start = threading.Barrier(len(sends), timeout=30)  # one that fails first hangs no other
    answers = []

    def run(send):
        try:
            client = client_for(user)
            start.wait()
            answers.append(send(client))
        finally:
            connection.close()

    threads = [threading.Thread(target=run, args=(send,)) for send in sends]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return answers


def overlapping(monkeypatch, module, name: str, parties: int = 2) -> None:
    """Make ``module.name``, a check of a race, wait (up to a second) until ``parties`` threads
    make it, so their checks always overlap unless one waits for the other's write (a lock)."""
    all_checking = threading.Barrier(parties, timeout=1)
    check = getattr(module, name)

    def waiting(*args, **kwargs):
        try:
            all_checking.wait()
        except threading.BrokenBarrierError:  # the other waits for this one's write
            pass
        return check(*args, **kwargs)

    monkeypatch.setattr(module, name, waiting)


@pytest.fixture
def organiser(game):
    user = UserFactory(username="home-organiser")
    game.season.club.organisers.add(user)
    return user


@pytest.fixture
def organiser_client(organiser):
    return client_for(organiser, token=True)


@pytest.fixture
def outsider_clients(db):
    """Everyone who must be refused a write: an organiser of another club (by session and by
    token), a signed-in user with no club, and nobody signed in."""
    other = UserFactory(username="other-organiser")
    ClubFactory().organisers.add(other)
    nobody = UserFactory(username="no-rights", is_staff=False)
    return {
        "organiser of another club (session)": client_for(other),
        "organiser of another club (token)": client_for(other, token=True),
        "token without rights": client_for(nobody, token=True),
        "anonymous": APIClient(),
    }
