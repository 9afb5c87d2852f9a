"""The ladder shows each bot's luck-adjusted mean points per deal with its 95% interval beside
the raw mean (issue #31 "Par", "Where bots see it"), from the par its games' worker stored; par
off (``PAR_PLAYOUTS`` 0) stores nothing and the table says "no par"."""

import pytest
from django.urls import reverse

from bot_games.models import BotGame
from ladder.models import Game, Seat
from tests.api.conftest import client_for
from tests.ladder.test_api import ladder  # noqa: F401  (the fixture: a played ladder)
from tests.ladder.test_pages import row_of
from tests.par.test_bot_par import assert_figures

pytestmark = pytest.mark.django_db


def _ladder_deals(entry) -> tuple[list[float], list[float]]:
    """The entry's points and adjusted points of every deal of its rated games, read from the
    stored games' par by its seat."""
    points, adjusted = [], []
    for seat in Seat.objects.filter(entry=entry, game__kind=Game.RATED,
                                    game__status=Game.DONE).select_related("game__bot_game"):
        deals = seat.game.bot_game.par["deals"]
        points += [d["points"][seat.seat] for d in deals]
        adjusted += [d["adjusted"][seat.seat] for d in deals]
    return points, adjusted


def test_the_ladder_shows_each_bots_adjusted_mean_with_its_interval(client, ladder):  # noqa: F811
    rows = client_for().get("/api/v1/ladder/", {"preset": "classic"}).json()["results"]
    table = client.get(reverse("ladder:table"), {"preset": "classic"})

    for name, entry in ladder.items():
        row = next(r for r in rows if r["name"] == name)
        assert_figures(row["par"], *_ladder_deals(entry))
        assert client_for().get(f"/api/v1/ladder/{entry.pk}/").json()["par"] == row["par"]
        par = row["par"]
        cells = row_of(table, name)
        assert cells[8] == (f"{par['mean_points']:.2f} [{par['mean_points_ci'][0]:.2f}, "
                            f"{par['mean_points_ci'][1]:.2f}]")
        assert cells[9] == (f"{par['adjusted_mean']:.2f} [{par['adjusted_ci'][0]:.2f}, "
                            f"{par['adjusted_ci'][1]:.2f}]")
        page = client.get(reverse("ladder:bot", args=[entry.pk])).content.decode()
        assert cells[9] in page and f"{reverse('league:par_help')}#bots" in page
    assert f"{reverse('league:par_help')}#bots" in table.content.decode()


@pytest.fixture
def par_off(settings):
    settings.PAR_PLAYOUTS = 0


def test_the_ladder_played_with_par_off_says_no_par(client, par_off, ladder):  # noqa: F811
    assert not BotGame.objects.filter(par__isnull=False).exists()
    table = client.get(reverse("ladder:table"), {"preset": "classic"})
    for name in ladder:
        assert row_of(table, name)[8:10] == ["no par", "no par"]


def test_the_table_orders_by_luck_adjusted_points_when_asked(client, ladder):  # noqa: F811
    rows = client_for().get("/api/v1/ladder/", {"preset": "classic", "order": "adjusted"}).json()[
        "results"]
    table = client.get(reverse("ladder:table"), {"preset": "classic", "order": "adjusted"})

    means = [r["par"]["adjusted_mean"] for r in rows]
    assert None not in means and len(set(means)) > 1
    assert means == sorted(means, reverse=True)
    assert [row_of(table, r["name"])[0] for r in rows] == [str(i + 1) for i in range(len(rows))]
    ordinals = [r["ordinal"] for r in client_for().get(
        "/api/v1/ladder/", {"preset": "classic"}).json()["results"]]
    assert ordinals == sorted(ordinals, reverse=True)  # the ranking stays the rating's


def test_an_unknown_order_is_refused_in_words(client):  # refused before any bot is read
    answer = client_for().get("/api/v1/ladder/", {"preset": "classic", "order": "luck"})
    page = client.get(reverse("ladder:table"), {"preset": "classic", "order": "luck"})

    assert answer.status_code == 400 and "unknown order 'luck'" in answer.json()["order"]
    assert page.status_code == 400 and "There is no order" in page.content.decode()
