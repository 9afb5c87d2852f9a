"""Probation (docs/ladder.md, "Pausing"): a bot's decisions in rated games since its last
passed validation, and how many faulted; a hiccup is not a broken bot, the service's own
lateness is not the bot's, and the wait to resume doubles with each pause."""

from datetime import timedelta

import pytest

from gameplay.bots import make_bot
from gameplay.bots.base import SeatStats
from gameplay.runner import validation
from ladder import services
from ladder.errors import LadderError
from ladder.models import Entry, Game, Seat
from tests.ladder.conftest import register
from tests.ladder.test_services import commit, entry_of, play_one_rated_game  # noqa: F401

pytestmark = pytest.mark.django_db


@pytest.fixture
def probation(ladder_settings):
    """The production settings' probation (config/settings/base.py)."""
    ladder_settings.LADDER_PAUSE_FAULTS = 10
    ladder_settings.LADDER_PAUSE_FAULT_SHARE = 0.05
    ladder_settings.LADDER_RESUME_COOLDOWN_SECONDS = 60
    ladder_settings.LADDER_RESUME_COOLDOWN_MAX_SECONDS = 3600
    return ladder_settings


def timeouts(count: int) -> list[dict]:
    return [{"decision": "play", "kind": "timeout", "deal": 0, "number": n + 1,
             "message": "no answer within 1000 ms", "answer": None} for n in range(count)]


def store_rated_game(entry: Entry, stats: SeatStats) -> None:
    """A rated game of ``entry`` against three references, its seat's record ``stats``."""
    references = services.references_ensure(entry.preset)
    seated = [entry, *(references[n] for n in ("random", "greedy", "heuristic"))]
    game = Game.objects.create(kind=Game.RATED, preset=entry.preset, seed=1, deals=2)
    Seat.objects.bulk_create(Seat(game=game, entry=e, seat=s, bot=e.spec or "http://x/")
                             for s, e in enumerate(seated))
    bots = [make_bot(spec, seed=s) for s, spec in enumerate(["random", "random", "greedy",
                                                             "heuristic"])]
    result = validation.play_ladder_game(bots, entry.preset, seed=1, deals=2,
                                         names=[e.name for e in seated])
    result.stats[0] = stats
    played = services.Played(result=result, times_ms=[[1.0] * s.decisions for s in result.stats])
    assert services.game_store(game_id=game.pk, played=played)


def active_entry(author, name="ada-bot") -> Entry:
    return Entry.objects.create(preset="classic", name=name, author=author,
                                status=Entry.ACTIVE, url="http://bot.example/")


def test_one_timeout_in_30_decisions_is_a_hiccup_306_are_a_broken_bot(probation, author):
    """Issue #29: one timeout in 30 decisions paused a bot exactly as 306 timeouts did."""
    hiccup, broken = active_entry(author, "hiccup"), active_entry(author, "broken")
    for _ in range(10):  # 300 decisions, 10 timeouts: 3%, under the 5% of its decisions
        store_rated_game(hiccup, SeatStats(decisions=30, faults=timeouts(1)))
    store_rated_game(broken, SeatStats(decisions=306, faults=timeouts(306)))

    hiccup.refresh_from_db()
    broken.refresh_from_db()
    assert (hiccup.status, hiccup.probation_decisions, hiccup.probation_faults) == (
        Entry.ACTIVE, 300, 10)
    assert broken.status == Entry.PAUSED and broken.games == 1
    assert ("paused: 306 of its 306 decisions in rated games since its last passed validation "
            "had faults (all its faults by kind: timeout 306)") in broken.reason


def test_a_faulty_share_pauses_once_it_is_no_longer_a_few(probation, author):
    entry = active_entry(author)
    store_rated_game(entry, SeatStats(decisions=60, faults=timeouts(9)))
    assert Entry.objects.get(pk=entry.pk).status == Entry.ACTIVE  # 9: fewer than 10
    store_rated_game(entry, SeatStats(decisions=60, faults=timeouts(1)))
    entry.refresh_from_db()
    assert entry.status == Entry.PAUSED and "10 of its 120 decisions" in entry.reason


def test_safe_moves_after_a_spent_bank_count_and_the_services_lateness_does_not(probation,
                                                                               author):
    spent, late = active_entry(author, "spent"), active_entry(author, "late")
    # Its bank ran out at its 2nd decision: 1 fault, then 76 decisions played for it.
    store_rated_game(spent, SeatStats(decisions=78, faults=timeouts(1), benched=76))
    # 40 decisions the service was late for (safe moves, no fault), 38 answered.
    store_rated_game(late, SeatStats(decisions=78, late=40))

    spent.refresh_from_db()
    late.refresh_from_db()
    assert spent.status == Entry.PAUSED and "77 of its 78 decisions" in spent.reason
    assert (late.status, late.probation_decisions, late.probation_faults) == (
        Entry.ACTIVE, 38, 0)


def test_the_wait_to_resume_doubles_with_each_pause_and_is_said_in_words(probation, servers,
                                                                        author, commit):  # noqa: F811
    (server,) = servers(1)
    server.mode = "junk"
    bot = register(author, server)
    commit(services.bots_sync)  # its validation game has faults: its first pause
    entry = entry_of(bot)
    assert entry.status == Entry.PAUSED and entry.pauses == 1
    paused_at = entry.resume_after - timedelta(minutes=1)

    with pytest.raises(LadderError, match=r"ada-bot may resume in 1 minute \(from \d\d:\d\d "
                                          r"UTC\): it was paused for faults 1 time, and each "
                                          "pause doubles the wait"):
        services.entry_resume(entry=entry, now=paused_at)
    with pytest.raises(LadderError, match="ada-bot may resume in 1 minute"):
        services.entry_resume(entry=entry, now=entry.resume_after - timedelta(seconds=1))
    assert entry_of(bot).status == Entry.PAUSED

    waits = []
    for _ in range(8):  # resumed after each wait, and still junk: paused again
        entry = entry_of(bot)
        commit(services.entry_resume, entry=entry, now=entry.resume_after)
        entry = entry_of(bot)
        waits.append(entry.resume_after - entry.validation_game.stored_at)
    assert entry.pauses == 9
    minutes = [round(w.total_seconds() / 60) for w in waits]
    assert minutes == [2, 4, 8, 16, 32, 60, 60, 60]  # capped at the hour
    assert services.resume_wait(entry, now=entry.resume_after - timedelta(hours=1)).startswith(
        "1 hour (from ")


@pytest.mark.postgres
def test_probation_after_a_fix_pause_fix_resume_stays_active(probation, servers, author,
                                                             commit):  # noqa: F811
    """Paused for its faults, fixed, resumed: its clean games since count, not those before."""
    (server,) = servers(1)
    bot = register(author, server)
    commit(services.bots_sync)
    assert entry_of(bot).status == Entry.ACTIVE
    server.mode = "junk"
    play_one_rated_game(commit)
    entry = entry_of(bot)
    assert entry.status == Entry.PAUSED and entry.probation_faults >= 10

    server.mode = "good"
    commit(services.entry_resume, entry=entry, now=entry.resume_after)
    entry = entry_of(bot)
    assert (entry.status, entry.probation_decisions, entry.probation_faults) == (
        Entry.ACTIVE, 0, 0)
    for _ in range(3):
        play_one_rated_game(commit)

    entry = entry_of(bot)
    assert entry.status == Entry.ACTIVE and entry.games == 4 and entry.probation_faults == 0
    assert entry.probation_decisions > 0 and entry.faulted_games == 1
