"""Where bots see par (issue #31 "Par", "Where bots see it"): the worker that plays a tournament
or ladder game stores each deal's par with it (``BotGame.par``: per deal and seat the par, the
luck, the points and the luck-adjusted points), and the tournament's standings and the ladder
show each bot's luck-adjusted mean points per deal with its 95% interval beside the raw mean.
The issue's definitions: "Luck is a seat's par minus the table's mean par (zero-sum over the
table); a seat's luck-adjusted result is its result minus its luck." Par off
(``PAR_PLAYOUTS`` 0) stores nothing and the pages say "no par"."""

import math
import statistics

import pytest
from django.urls import reverse

from bot_games import services as bot_games
from bot_games.models import BotGame
from gameplay.bots import make_bot
from gameplay.engine.options import preset
from gameplay.engine.scoring import Scoring, deal_points
from gameplay.runner.match import play_game
from league.models import Seat as LeagueSeat
from tests.ladder.test_pages import text
from tests.tournaments.helpers import small_tournament
from tournaments import services as tournaments
from tournaments.models import TournamentGame

SCORING = Scoring("fixed-rounds", deals=4)


def _played(name="presidents-deck"):
    bots = [make_bot(spec, seed=s) for s, spec in enumerate(
        ["heuristic", "greedy", "random", "heuristic"])]
    return play_game(bots, preset(name), seed=5, scoring=SCORING)


def expected(values: list[float]) -> tuple[float, list[float]]:
    """The mean of per-deal values and its normal 95% interval, computed here from the
    sample's standard deviation (not with gameplay.runner.figures)."""
    mean = statistics.fmean(values)
    half = 1.96 * statistics.stdev(values) / math.sqrt(len(values))
    return mean, [mean - half, mean + half]


def assert_figures(par: dict, points: list[float], adjusted: list[float]) -> None:
    assert par["deals"] == len(points) > 1
    for mean, ci, values in ((par["mean_points"], par["mean_points_ci"], points),
                             (par["adjusted_mean"], par["adjusted_ci"], adjusted)):
        expected_mean, interval = expected(values)
        assert mean == pytest.approx(expected_mean)
        assert ci == pytest.approx(interval, abs=1e-3)


@pytest.mark.parametrize("name", ["classic", "presidents-deck"])
def test_a_games_stored_par_has_zero_luck_per_deal_and_adjusted_is_points_less_luck(
        settings, name):
    settings.PAR_PLAYOUTS = 4
    result = _played(name)
    par = bot_games.game_par(result)

    assert len(par["deals"]) == len(result.finishing_orders) == 4
    for deal, order in zip(par["deals"], result.finishing_orders, strict=True):
        points = deal_points(SCORING, order)
        assert deal["points"] == [points[seat] for seat in range(4)]
        assert sum(deal["luck"]) == pytest.approx(0, abs=1e-3)  # zero-sum over the table
        for seat in range(4):  # adjusted = result - luck
            assert deal["adjusted"][seat] == pytest.approx(
                deal["points"][seat] - deal["luck"][seat], abs=1e-3)
        assert deal["playouts"] == 4 and len(deal["par"]) == 4
    assert any(abs(luck) > 0.01 for deal in par["deals"] for luck in deal["luck"])


def test_par_off_stores_nothing(settings):
    settings.PAR_PLAYOUTS = 0

    assert bot_games.game_par(_played()) is None


def _tournament(django_capture_on_commit_callbacks):
    tournament = small_tournament(games_per_table=2)
    with django_capture_on_commit_callbacks(execute=True):
        tournaments.tournament_start(tournament=tournament)
    return tournament


def _tournament_deals(tournament, player_id) -> tuple[list[float], list[float]]:
    """The player's points and adjusted points of every deal of the tournament, read from the
    stored games' par by its league seat."""
    points, adjusted = [], []
    for game in TournamentGame.objects.filter(tournament=tournament).select_related("bot_game"):
        seat = LeagueSeat.objects.filter(game_id=game.game_id, player_id=player_id).first()
        if seat is not None:
            points += [d["points"][seat.number] for d in game.bot_game.par["deals"]]
            adjusted += [d["adjusted"][seat.number] for d in game.bot_game.par["deals"]]
    return points, adjusted


@pytest.mark.django_db
def test_a_tournaments_standings_show_each_bots_adjusted_mean_with_its_interval(
        client, django_capture_on_commit_callbacks):
    tournament = _tournament(django_capture_on_commit_callbacks)
    assert not BotGame.objects.filter(par__isnull=True).exists()

    rows = client.get(reverse("gameplay:tournament_progress", args=[tournament.pk])).json()[
        "standings"]
    page = text(client.get(reverse("gameplay:tournament", args=[tournament.pk])))

    assert rows
    for row in rows:
        assert_figures(row["par"], *_tournament_deals(tournament, row["player_id"]))
        par = row["par"]
        shown = (f"{par['adjusted_mean']:.2f} [{par['adjusted_ci'][0]:.2f}, "
                 f"{par['adjusted_ci'][1]:.2f}]")
        assert shown in page
    assert "luck-adjusted" in page and reverse("league:par_help") in str(
        client.get(reverse("gameplay:tournament", args=[tournament.pk])).content)


@pytest.mark.django_db
def test_a_tournament_played_with_par_off_says_no_par(client, settings,
                                                      django_capture_on_commit_callbacks):
    settings.PAR_PLAYOUTS = 0
    tournament = _tournament(django_capture_on_commit_callbacks)

    assert BotGame.objects.exists() and not BotGame.objects.filter(par__isnull=False).exists()
    rows = client.get(reverse("gameplay:tournament_progress", args=[tournament.pk])).json()[
        "standings"]
    assert rows and all(r["par"]["deals"] == 0 and r["par"]["adjusted_mean"] is None
                        for r in rows)
    assert "no par" in text(client.get(reverse("gameplay:tournament",
                                               args=[tournament.pk])))


@pytest.mark.django_db
def test_the_par_help_has_the_bots_section_the_figures_link_to(client):
    page = client.get(reverse("league:par_help")).content.decode()

    assert 'id="bots"' in page and "luck-adjusted" in text(client.get(reverse("league:par_help")))
