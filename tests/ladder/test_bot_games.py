"""A played bot game has one home (issue #27): a ladder game and a tournament game are both
stored through ``bot_games.services.game_store``, in the same shape, and their faults are read
the same way whichever of the two played them."""

import pytest
from django.urls import reverse

from bot_games import selectors as bot_games
from bot_games import services as bot_game_services
from gameplay.bots import make_bot
from gameplay.bots.base import FAULT_KINDS
from gameplay.engine import checker
from gameplay.engine.options import preset
from gameplay.runner.match import play_game
from gameplay.runner.validation import deals_seed
from ladder import selectors, services
from league.models import Place
from tests.ladder.conftest import register
from tests.tournaments.helpers import small_tournament
from tournaments import selectors as tournament_selectors
from tournaments import services as tournaments
from tournaments.models import TournamentGame

FAULT_FIELDS = ("seat", "deal", "number", "decision", "kind", "message", "answer")


@pytest.fixture
def commit(django_capture_on_commit_callbacks):
    def run(fn, *args, **kwargs):
        with django_capture_on_commit_callbacks(execute=True):
            return fn(*args, **kwargs)

    return run


def faulty_ladder_game(servers, author, commit):
    """A validation game whose outside bot answers junk: a fault at each of its decisions."""
    (server,) = servers(1)
    server.mode = "junk"
    bot = register(author, server)
    commit(services.bots_sync)
    entry = bot.ladder_entries.get()
    return selectors.game_get(entry.validation_game_id), entry


def faulty_tournament_game(commit):
    """A tournament game where Rita's bot, entered before its settings were bounded, makes a
    fault at each of its decisions (its seat plays safe)."""
    tournament = small_tournament(games_per_table=1)
    tournament.entrants.filter(player__name="Rita").update(bot="montecarlo:budget_ms=1e8")
    commit(tournaments.tournament_start, tournament=tournament)
    return TournamentGame.objects.filter(tournament=tournament,
                                         bot_game__faults__isnull=False).distinct().first()


def assert_a_whole_bot_game(bot_game, players: int, preset_name: str) -> None:
    """What every stored bot game holds, whoever played it: a checker-valid transcript with
    its scoring, each seat's bot, place in every deal, points and decisions, and each deal's
    par (issue #31)."""
    assert bot_game.preset == preset_name
    assert checker.check(bot_game.transcript)[0] == checker.VALID
    assert bot_game.scoring == bot_game.transcript["scoring"]
    seats = list(bot_game.seats.order_by("seat"))
    assert [s.seat for s in seats] == list(range(players))
    deals = len(bot_game.transcript["deals"])
    assert len(bot_game.par["deals"]) == deals
    for deal in range(deals):  # each deal's places are 1…n, one a seat
        assert sorted(s.positions[deal] for s in seats) == list(range(1, players + 1))
    assert all(s.bot and s.points is not None and s.decisions > 0 and s.decision_ms > 0
               for s in seats)


def fault_rows(faults):
    return [tuple(getattr(f, name) for name in FAULT_FIELDS) for f in faults]


@pytest.mark.django_db
def test_a_ladder_game_and_a_tournament_game_are_stored_in_the_same_home(
        ladder_settings, servers, author, commit):
    ladder_game, entry = faulty_ladder_game(servers, author, commit)
    tournament_game = faulty_tournament_game(commit)

    assert_a_whole_bot_game(ladder_game.bot_game, 4, "classic")
    assert_a_whole_bot_game(tournament_game.bot_game, 3, tournament_game.tournament.preset)
    # The ladder's own rows and the league's rows tell the same game as the bot game.
    ladder_seats = list(ladder_game.seats.order_by("seat"))
    assert [(s.seat, s.entry.name, s.bot_seat_id) for s in ladder_seats] == [
        (s.seat, s.bot, s.pk)
        for s in ladder_game.bot_game.seats.order_by("seat")]
    assert ladder_game.bot_game.seed == deals_seed(ladder_game.seed)
    # The ladder times each decision: its slowest is kept; a tournament seat keeps its total.
    assert all(0 < s.decision_ms_max <= s.decision_ms for s in ladder_game.bot_game.seats.all())
    assert not tournament_game.bot_game.seats.filter(decision_ms_max__isnull=False).exists()
    bot_seats = list(tournament_game.bot_game.seats.order_by("seat"))
    places = Place.objects.filter(deal__game=tournament_game.game).order_by("deal__number")
    for seat in bot_seats:
        assert seat.positions == [p.position for p in places if p.seat == seat.seat]
    assert {s.bot for s in bot_seats} <= set(
        tournament_game.tournament.entrants.values_list("bot", flat=True))


@pytest.mark.django_db
def test_faults_are_read_the_same_way_for_a_ladder_game_and_a_tournament_game(
        ladder_settings, servers, author, commit):
    ladder_game, entry = faulty_ladder_game(servers, author, commit)
    tournament_game = faulty_tournament_game(commit)

    ladder_faults = list(bot_games.game_faults(game_id=ladder_game.bot_game_id))
    tournament_faults = list(bot_games.game_faults(game_id=tournament_game.bot_game_id))
    assert {f.kind for f in ladder_faults} == {"malformed"}
    assert {f.kind for f in tournament_faults} == {"error"}
    # The entry's faults are those of its seat: the one game's, newest first (the latest
    # RECENT_FAULTS: its random opponents may give it more decisions than that).
    assert fault_rows(selectors.faults(entry=entry)) == fault_rows(
        list(reversed(ladder_faults))[:selectors.RECENT_FAULTS])
    # Faults found by the bot at their seat: the outside bot's ladder name, Rita's spec.
    assert fault_rows(bot_games.faults_of_bot(bot=entry.name)) == fault_rows(
        reversed(ladder_faults))  # newest first: the one game's faults, last made first
    ritas = bot_games.faults_of_bot(bot="montecarlo:budget_ms=1e8")  # in each game she played
    rita = tournament_game.tournament.entrants.get(bot="montecarlo:budget_ms=1e8")
    assert tournament_selectors.fault_counts(rita) == {
        **dict.fromkeys(FAULT_KINDS, 0), "total": ritas.count(), "error": ritas.count()}
    assert ritas.filter(game=tournament_game.bot_game).count() == len(tournament_faults)
    assert not bot_games.faults_of_bot(bot="random").exists()


@pytest.mark.django_db
def test_the_ladder_game_page_lists_its_bot_games_faults(ladder_settings, servers, author,
                                                         commit, client):
    ladder_game, entry = faulty_ladder_game(servers, author, commit)
    page = client.get(reverse("ladder:game", args=[ladder_game.pk])).content.decode()
    faults = list(bot_games.game_faults(game_id=ladder_game.bot_game_id))
    assert page.count("<li><a href=\"" + reverse("ladder:bot", args=[entry.pk])) == len(faults)


@pytest.mark.django_db(transaction=True)
def test_a_bot_game_is_stored_only_inside_its_callers_transaction():
    result = play_game([make_bot("random", seed=s) for s in range(3)], preset("classic"),
                       seed=7)
    with pytest.raises(RuntimeError, match="inside its caller's transaction"):
        bot_game_services.game_store(result, preset="classic", seed=7)
