"""Tournament services on the database, tasks run in this process (no broker)."""

from collections import Counter

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from gameplay.engine.checker import check
from league.models import Deal, Game, Player
from league.services import player_create
from tests.tournaments.helpers import ENTRANTS, bot_club, small_tournament
from tournaments import selectors, services
from tournaments.errors import TournamentError
from tournaments.models import Tournament, TournamentGame

pytestmark = pytest.mark.django_db


def run(tournament, capture):
    with capture(execute=True):
        services.tournament_start(tournament=tournament)
    tournament.refresh_from_db()
    return tournament


def test_round_robin_plays_every_game_once_into_the_league(django_capture_on_commit_callbacks):
    tournament = run(small_tournament(), django_capture_on_commit_callbacks)

    # C(4, 3) tables of 3, 4 games each.
    assert tournament.total_games == 16
    assert tournament.status == Tournament.FINISHED
    keys = list(tournament.games.values_list("round", "table", "number"))
    assert sorted(keys) == [(0, t, g) for t in range(4) for g in range(4)]
    assert Game.objects.filter(season=tournament.season, status=Game.FINISHED).count() == 16
    assert Deal.objects.filter(game__season=tournament.season).count() == 16
    standings = selectors.tournament_standings(tournament=tournament)
    assert sorted(r["name"] for r in standings) == sorted(n for n, _ in ENTRANTS)
    # Each entrant plays at 3 of the 4 tables: 12 games, and each pair meets at 2 tables.
    assert [r["games"] for r in standings] == [12] * 4
    assert set(Player.objects.filter(entries__tournament=tournament)
               .values_list("kind", flat=True)) == {Player.BOT}


def test_seats_rotate_and_transcripts_are_checker_valid(django_capture_on_commit_callbacks):
    tournament = run(small_tournament(), django_capture_on_commit_callbacks)
    first_seat = Counter()
    for stored in tournament.games.filter(table=0).select_related("game"):
        status, verdict = check(stored.bot_game.transcript)
        assert verdict["valid"], verdict
        first_seat[stored.game.seats.get(number=0).player.name] += 1
    # Table 0 seats three entrants; over four games the first seat goes round.
    assert len(first_seat) == 3


def test_same_seed_same_games_other_seed_other_games(django_capture_on_commit_callbacks):
    a = run(small_tournament("A", seed=5), django_capture_on_commit_callbacks)
    b = run(small_tournament("B", seed=5), django_capture_on_commit_callbacks)
    c = run(small_tournament("C", seed=6), django_capture_on_commit_callbacks)

    results_a = selectors.tournament_results(tournament=a)
    assert results_a == selectors.tournament_results(tournament=b)
    assert results_a != selectors.tournament_results(tournament=c)
    assert selectors.tournament_standings(tournament=a) == \
        selectors.tournament_standings(tournament=b)


def test_a_batch_run_twice_stores_nothing_twice(django_capture_on_commit_callbacks):
    tournament = run(small_tournament(), django_capture_on_commit_callbacks)
    keys = list(tournament.games.values_list("round", "table", "number")[:5])

    assert services.tournament_play_batch(tournament_id=tournament.pk, keys=keys) == 0
    seated, result = services.tournament_game_play(tournament=tournament, key=keys[0])
    assert services.tournament_game_store(tournament=tournament, key=keys[0], seated=seated,
                                          result=result) is None
    assert tournament.games.count() == 16
    assert Game.objects.filter(season=tournament.season).count() == 16


def test_cancel_stops_scheduling_and_resume_plays_only_what_is_missing(
        django_capture_on_commit_callbacks):
    tournament = small_tournament()
    with django_capture_on_commit_callbacks(execute=False) as queued:
        services.tournament_start(tournament=tournament)
    tournament.refresh_from_db()
    # Play the first batch only, then cancel: the remaining batches find it cancelled.
    services.tournament_play_batch(tournament_id=tournament.pk,
                                   keys=[(0, 0, 0), (0, 0, 1), (0, 0, 2)])
    services.tournament_cancel(tournament=tournament)
    with django_capture_on_commit_callbacks(execute=True):
        for callback in queued:
            callback()
    assert tournament.games.count() == 3
    assert selectors.tournament_progress(tournament=tournament).status == Tournament.CANCELLED

    before = dict(tournament.games.values_list("number", "stored_at").filter(table=0))
    with django_capture_on_commit_callbacks(execute=True):
        services.tournament_resume(tournament=tournament)
    tournament.refresh_from_db()
    assert tournament.status == Tournament.FINISHED
    assert tournament.games.count() == 16
    after = dict(tournament.games.values_list("number", "stored_at").filter(table=0))
    assert {n: after[n] for n in before} == before  # the stored games were not replayed


def test_rating_rounds_pair_neighbours_by_rating(django_capture_on_commit_callbacks):
    entrants = ENTRANTS + [("Hugo", "heuristic"), ("Hera", "heuristic")]
    tournament = run(small_tournament(entrants=entrants, seats=3, format=Tournament.RATING,
                                      rounds=3, games_per_table=3),
                     django_capture_on_commit_callbacks)

    assert tournament.status == Tournament.FINISHED
    assert tournament.total_games == 3 * 2 * 3
    assert len(tournament.tables) == 3
    assert tournament.tables[0] == [[0, 1, 2], [3, 4, 5]]  # equal ratings: entry order
    # Later rounds: the top table holds the three best after the rounds before.
    tournament.tables = tournament.tables[:2]
    ratings = selectors.tournament_ratings(tournament=tournament)
    best = sorted(ratings, key=lambda e: -ratings[e])[:3]
    assert sorted(tournament.tables[-1][0]) != [0, 1, 2] or sorted(best) == [0, 1, 2]
    assert tournament.games.count() == 18


def test_duplicate_blocks_share_the_hands(django_capture_on_commit_callbacks):
    tournament = run(small_tournament(duplicate=True, games_per_table=6),
                     django_capture_on_commit_callbacks)
    hands = {n: t["deals"][0]["hands"] for n, t in
             tournament.games.filter(table=0).values_list("number", "bot_game__transcript")}
    assert hands[0] == hands[1] == hands[2]
    assert hands[3] == hands[4] == hands[5] != hands[0]


def test_longer_games_record_every_deal(django_capture_on_commit_callbacks):
    tournament = run(small_tournament(scoring={"system": "penalty", "limit": 3},
                                      games_per_table=1), django_capture_on_commit_callbacks)
    for stored in tournament.games.select_related("game"):
        assert stored.game.status == Game.FINISHED
        assert stored.game.deal_set.count() == len(stored.bot_game.transcript["deals"]) >= 2


def test_progress_counts_stored_games(django_capture_on_commit_callbacks):
    tournament = small_tournament()
    progress = selectors.tournament_progress(tournament=tournament)
    assert (progress.done, progress.total, progress.games_per_second) == (0, 16, None)
    tournament = run(tournament, django_capture_on_commit_callbacks)
    progress = selectors.tournament_progress(tournament=tournament)
    # finished: the rate it played at, and no time left to tell ("ETA 0 s" before)
    assert (progress.done, progress.fraction, progress.eta_seconds) == (16, 1.0, None)
    assert progress.games_per_second > 0


@pytest.mark.parametrize(("kwargs", "message"), [
    ({"entrants": [("A", "random"), ("B", "chess-engine"), ("C", "random")]},
     "bot 'chess-engine': unknown bot"),
    ({"entrants": [("A", "random"), ("B", "random")]}, "2 entrants cannot fill a table of 3"),
    ({"entrants": [("A", "random"), ("A", "greedy"), ("C", "random")]}, "entered twice: A"),
    ({"scoring": {"system": "golf"}}, "unknown scoring system 'golf'"),
    ({"seats": 1}, "tables of 1 cannot play classic"),
    ({"format": "swiss"}, "unknown format 'swiss'"),
    ({"games_per_table": 0}, "games per table must be at least 1"),
])
def test_bad_tournaments_are_refused_with_a_reason(kwargs, message):
    with pytest.raises(TournamentError, match=message):
        small_tournament(**kwargs)
    assert not Tournament.objects.exists()


def test_a_tournament_over_the_games_limit_is_refused_naming_it(settings):
    settings.TOURNAMENT_MAX_GAMES = 16
    assert small_tournament().total_games == 16  # 4 tables of 4 games: at the limit

    with pytest.raises(TournamentError, match=r"would play 20 games; a tournament plays at "
                                              r"most 16 \(TOURNAMENT_MAX_GAMES\)"):
        small_tournament("Bigger", games_per_table=5)
    with pytest.raises(TournamentError, match="would play 36 games"):
        small_tournament("Rated", format=Tournament.RATING, rounds=9, games_per_table=2)
    assert Tournament.objects.count() == 1


def test_a_person_cannot_enter():
    player_create(name="Ann", clubs=[bot_club()])
    with pytest.raises(TournamentError, match="Ann is a person"):
        small_tournament(entrants=[("Ann", "random"), *ENTRANTS])


def test_only_a_scheduled_tournament_starts_and_a_finished_one_cannot_resume(
        django_capture_on_commit_callbacks):
    tournament = run(small_tournament(), django_capture_on_commit_callbacks)
    with pytest.raises(TournamentError, match="only a scheduled tournament can start"):
        services.tournament_start(tournament=tournament)
    with pytest.raises(TournamentError, match="only a cancelled or running"):
        services.tournament_resume(tournament=tournament)


def test_run_tournament_command_refuses_bad_input():
    with pytest.raises(CommandError, match="2 entrants cannot fill a table of 4"):
        call_command("run_tournament", "--club", "Bots", "--name", "X",
                     "--entrant", "A=random", "--entrant", "B=random")
    with pytest.raises(CommandError, match="--entrant takes NAME=BOT"):
        call_command("run_tournament", "--club", "Bots", "--name", "X", "--entrant", "A")


@pytest.mark.django_db(transaction=True)
def test_run_tournament_command_runs_in_process_without_a_broker():
    from io import StringIO

    out = StringIO()
    call_command("run_tournament", "--club", "Bots", "--name", "Cli cup", "--seats", "3",
                 "--games-per-table", "2", *[f"--entrant={n}={b}" for n, b in ENTRANTS],
                 stdout=out)
    text = out.getvalue()
    assert "Cli cup: finished, 8/8 games" in text
    assert TournamentGame.objects.filter(tournament__name="Cli cup").count() == 8
    for name, _ in ENTRANTS:
        assert f". {name} " in text


def test_a_game_our_own_code_cannot_play_is_left_unplayed_with_its_reason_and_the_rest_go_on(
        django_capture_on_commit_callbacks, monkeypatch, caplog):
    """Issue #26: an exception in a batch task (here a bug in a built-in bot) must end that one
    game at once with its reason, not fail the batch again and again."""
    from gameplay.bots.heuristic import HeuristicBot

    def broken(self, obs, legal):
        raise RuntimeError("a bug in the heuristic bot")

    monkeypatch.setattr(HeuristicBot, "play", broken)
    entrants = [("Rita", "random"), ("Greg", "greedy"), ("Rob", "random"), ("Hal", "heuristic")]
    tournament = small_tournament(entrants=entrants)

    with caplog.at_level("ERROR", logger="tournaments"):
        tournament = run(tournament, django_capture_on_commit_callbacks)

    # Hal sits at 3 of the 4 tables: their 12 games are unplayed, the other table's 4 stored.
    assert tournament.status == Tournament.FINISHED
    assert tournament.games.count() == 4
    progress = selectors.tournament_progress(tournament=tournament)
    assert (progress.done, progress.unplayed) == (4, 12)
    assert "a bug in the heuristic bot" in progress.unplayed_reason
    assert "not any bot's fault" in progress.unplayed_reason
    assert any(r.levelname == "ERROR" for r in caplog.records)


def test_a_bot_players_name_the_league_refuses_is_said_with_its_entrant():
    """Found making the organisers' page: "a player's name cannot hold invisible ... characters"
    said not which of twenty entrants it was about."""
    entrants = [*ENTRANTS[:2], ("Hu\u200bgo", "heuristic")]
    with pytest.raises(TournamentError, match=r"^entrant 3 \('Hu\\u200bgo'\): a player's name "
                                              "cannot hold invisible"):
        small_tournament(entrants=entrants)
    assert not Tournament.objects.exists()


def test_every_independent_refusal_of_a_new_tournament_is_said_at_once():
    """An organiser who gets several fields wrong learns them all, each with its field."""
    club = bot_club()

    with pytest.raises(TournamentError) as refused:
        services.tournament_create(
            club=club, name="  ", entrants=[("Rita", "random"), ("Greg", "chess-engine"),
                                            ("Hugo", "heuristic")],
            scoring={"system": "penalty", "limit": 1000}, games_per_table=0, seats=3)

    where = {(r.field, r.entrants) for r in refused.value.refusals}
    assert where == {("name", ()), ("bot", (1,)), ("scoring.limit", ()),
                     ("games_per_table", ())}
    for refusal in refused.value.refusals:
        assert refusal.message in refused.value.message
    assert not Tournament.objects.exists() and not Player.objects.filter(name="Rita").exists()


def test_a_count_that_needs_a_playable_preset_is_not_said_with_the_presets_refusal():
    club = bot_club()

    with pytest.raises(TournamentError) as refused:
        services.tournament_create(club=club, name="Cup", entrants=ENTRANTS[:3], seats=5,
                                   options={"jokers": 10**30})

    assert [r.field for r in refused.value.refusals] == ["options"]
