"""The ladder's services against real outside bot servers on 127.0.0.1 (tasks run in this
process: no broker): validation, pausing and resuming, storing a game once, ratings per deal
and aggregates that agree with the stored games."""

import random
from collections import Counter
from datetime import timedelta

import pytest
from django.utils import timezone

from bot_games.models import BotFault
from gameplay.engine import checker
from ladder import selectors, services
from ladder.errors import LadderError
from ladder.models import Entry, Game, RatingPoint, Seat
from league.ratings import MODEL, replay
from outside_bots import services as outside_bots
from outside_bots.errors import OutsideBotError
from tests.ladder.conftest import faults_of, register
from tests.league.factories import UserFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def commit(django_capture_on_commit_callbacks):
    """``commit(fn, ...)`` runs a service and then what it left for after commit (sending a
    game's task, which runs here at once), as a real commit would."""

    def run(fn, *args, **kwargs):
        with django_capture_on_commit_callbacks(execute=True):
            return fn(*args, **kwargs)

    return run


def entry_of(bot, preset="classic") -> Entry:
    return Entry.objects.get(outside_bot=bot, preset=preset)


def test_a_clean_validation_game_makes_a_new_bot_active(ladder_settings, servers, author,
                                                        commit):
    (server,) = servers(1)
    bot = register(author, server, presets=["classic", "modern"])

    report = commit(services.bots_sync)

    assert report == {"joined": 2, "retired": 0}
    for preset in ("classic", "modern"):
        entry = entry_of(bot, preset)
        assert (entry.status, entry.reason, entry.url) == (Entry.ACTIVE, "", server.url)
        game = entry.validation_game
        assert (game.kind, game.status, game.preset) == (Game.VALIDATION, Game.DONE, preset)
        seated = sorted(game.seats.values_list("entry__name", flat=True))
        assert seated == sorted(["ada-bot", "random", "greedy", "heuristic"])
        assert not game.bot_game.faults.exists()
        assert checker.check(game.bot_game.transcript)[0] == 0  # the replay page can replay it
        assert len(game.bot_game.transcript["deals"]) == ladder_settings.LADDER_DEALS_PER_GAME
        # Validation games are unrated.
        assert (entry.games, entry.deals, entry.mu) == (0, 0, MODEL.mu)
    assert len(server.requests) > 0
    assert commit(services.bots_sync) == {"joined": 0, "retired": 0}  # nothing changed


def test_a_validation_game_with_faults_pauses_the_bot_and_shows_them(ladder_settings, servers,
                                                                     author, commit):
    (server,) = servers(1)
    server.mode = "junk"
    bot = register(author, server)

    commit(services.bots_sync)

    entry = entry_of(bot)
    assert entry.status == Entry.PAUSED
    assert "validation game" in entry.reason and "malformed" in entry.reason
    game = selectors.validation_game(entry=entry)
    assert game.status == Game.DONE
    faults = list(game.bot_game.faults.all())
    assert faults and {f.seat for f in faults} == {game.seats.get(entry=entry).seat}
    assert {f.kind for f in faults} == {"malformed"}
    assert all(f.answer == "not json {" and f.message for f in faults)
    assert f"had {len(faults)} fault(s)" in entry.reason
    # A paused bot is given no rated game.
    commit(services.games_schedule)
    assert not Seat.objects.filter(entry=entry, game__kind=Game.RATED).exists()


def active_bots(count, ladder_settings, servers, author, commit):
    found = servers(count)
    bots = [register(author, server, name=f"bot-{i}") for i, server in enumerate(found)]
    commit(services.bots_sync)
    assert all(entry_of(bot).status == Entry.ACTIVE for bot in bots)
    return found, bots


@pytest.mark.postgres  # row locks across an outer join: PostgreSQL refuses some SQLite allows
def test_a_bot_whose_rated_games_fault_is_paused_and_resumes_after_validation(
        ladder_settings, servers, author, commit):
    (server,), (bot,) = active_bots(1, ladder_settings, servers, author, commit)
    entry = entry_of(bot)
    server.mode = "junk"

    rounds = 0
    while entry_of(bot).status == Entry.ACTIVE:
        assert commit(services.games_schedule), "an active bot gets games"
        rounds += 1
        assert rounds <= 10
    entry.refresh_from_db()
    # LADDER_PAUSE_FAULTS = 4 at a share of 0.05: its first game, every answer junk, pauses it.
    assert entry.status == Entry.PAUSED and entry.games == 1
    assert entry.probation_faults == entry.probation_decisions >= 4
    assert (f"{entry.probation_faults} of its {entry.probation_decisions} decisions in rated "
            "games since its last passed validation had faults") in entry.reason
    assert "malformed" in entry.reason

    with pytest.raises(LadderError, match="only a paused bot resumes"):
        services.entry_resume(entry=Entry.objects.get(name="random", preset="classic"))
    server.mode = "good"
    commit(services.entry_resume, entry=entry)

    entry.refresh_from_db()
    assert entry.status == Entry.ACTIVE and entry.reason == ""
    assert entry.validation_game.status == Game.DONE
    assert Game.objects.filter(kind=Game.VALIDATION, seats__entry=entry).count() == 2
    with pytest.raises(LadderError, match="is active"):
        services.entry_resume(entry=entry)


def test_a_failed_resume_stays_paused(ladder_settings, servers, author, commit):
    (server,) = servers(1)
    server.mode = "junk"
    bot = register(author, server)
    commit(services.bots_sync)
    entry = entry_of(bot)
    first = entry.validation_game_id

    commit(services.entry_resume, entry=entry)

    entry.refresh_from_db()
    assert entry.status == Entry.PAUSED and entry.validation_game_id != first


def test_a_game_is_stored_once_whatever_the_deliveries(ladder_settings, servers, author, commit):
    active_bots(2, ladder_settings, servers, author, commit)
    with pytest.MonkeyPatch.context() as patch:  # schedule without sending
        patch.setattr(services, "games_send", lambda **kwargs: 0)
        (game_id,) = commit(services.games_schedule, rng=random.Random(3))[:1]
    game = Game.objects.get(pk=game_id)
    played = services.game_play(game)
    before = list(Entry.objects.order_by("pk").values())

    assert services.game_store(game_id=game_id, played=played) is True
    after = list(Entry.objects.order_by("pk").values())
    assert services.game_store(game_id=game_id, played=played) is False
    assert services.game_run(game_id=game_id) is False  # a second delivery of its task

    assert list(Entry.objects.order_by("pk").values()) == after != before
    assert RatingPoint.objects.filter(game_id=game_id).count() == game.seats.count()
    assert Game.objects.get(pk=game_id).attempts == 0  # never taken: stored directly


def test_a_game_held_by_a_killed_worker_is_sent_again_once_its_heartbeat_stops(
        ladder_settings, servers, author, commit):
    """Issue #26: it waited LADDER_GAME_RESEND_SECONDS (600 s); a running game's worker beats
    every TASK_HEARTBEAT_SECONDS, so silence for LADDER_GAME_STALL_SECONDS means it died."""
    (server,) = servers(1)
    register(author, server)
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(services, "game_store", lambda **kwargs: True)  # the worker dies
        commit(services.bots_sync)
    game = Game.objects.get()
    assert game.status == Game.RUNNING
    beating = timezone.now() + timedelta(seconds=ladder_settings.LADDER_GAME_STALL_SECONDS - 1)
    silent = timezone.now() + timedelta(seconds=ladder_settings.LADDER_GAME_STALL_SECONDS + 1)

    services.game_beat(game_id=game.pk)  # what its worker's thread does while it plays
    assert Game.objects.get(pk=game.pk).sent_at > game.sent_at

    assert services.games_recover(now=beating) == {"failed": 0, "resent": 0}
    assert services.games_recover(now=silent) == {"failed": 0, "resent": 1}
    game.refresh_from_db()
    assert (game.status, game.sent_at) == (Game.SCHEDULED, None)


def test_a_game_a_worker_lost_is_sent_again_and_fails_after_its_attempts(
        ladder_settings, servers, author, commit):
    (server,) = servers(1)
    server.mode = "junk"
    register(author, server)
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(services, "game_store", lambda **kwargs: True)  # the worker dies
        commit(services.bots_sync)
    game = Game.objects.get()
    assert (game.status, game.attempts) == (Game.RUNNING, 1)
    later = timezone.now() + timedelta(seconds=ladder_settings.LADDER_GAME_RESEND_SECONDS + 1)

    assert services.games_recover(now=later) == {"failed": 0, "resent": 1}
    game.refresh_from_db()
    assert (game.status, game.sent_at) == (Game.SCHEDULED, None)

    Game.objects.filter(pk=game.pk).update(attempts=ladder_settings.LADDER_GAME_ATTEMPTS,
                                           status=Game.RUNNING, sent_at=timezone.now())
    assert services.games_recover(now=later) == {"failed": 1, "resent": 0}
    game.refresh_from_db()
    entry = Entry.objects.get(reference=False)
    assert game.status == Game.FAILED and "attempts" in game.reason
    assert entry.status == Entry.PAUSED and "could not be played" in entry.reason


def play_rated(ladder_settings, servers, author, commit, *, games, faulty=0):
    found, bots = active_bots(3, ladder_settings, servers, author, commit)
    for server in found[:faulty]:
        server.mode = "junk"
    ladder_settings.LADDER_PAUSE_FAULTS = 100_000  # the faulty bot keeps playing
    rng = random.Random(5)
    while Game.objects.filter(kind=Game.RATED, status=Game.DONE).count() < games:
        assert commit(services.games_schedule, rng=rng)
    return bots


def test_every_deal_of_every_rated_game_is_rated_in_order(ladder_settings, servers, author,
                                                          commit):
    play_rated(ladder_settings, servers, author, commit, games=12)

    rated = Game.objects.filter(kind=Game.RATED).order_by("stored_at", "pk")
    deals = []
    for game in rated:
        # Each deal's finishing order as the checker reads it from the stored transcript.
        status, verdict = checker.check(game.bot_game.transcript)
        assert status == checker.VALID and len(verdict["deals"]) == game.deals
        by_seat = dict(game.seats.values_list("seat", "entry_id"))
        deals += [(game.pk, [by_seat[s] for s in d["finishing_order"]])
                  for d in verdict["deals"]]
    _, state = replay(deals, {})

    entries = Entry.objects.filter(seats__game__kind=Game.RATED).distinct()
    assert entries.count() >= 4
    for entry in entries:
        mu, sigma, rated_deals = state[entry.pk]
        assert entry.mu == pytest.approx(mu) and entry.sigma == pytest.approx(sigma)
        assert entry.deals == rated_deals == sum(
            len(p) for p in Seat.objects.filter(entry=entry, game__kind=Game.RATED)
            .values_list("bot_seat__positions", flat=True))
        assert entry.ordinal == pytest.approx(mu - 3 * sigma)
        points = list(RatingPoint.objects.filter(entry=entry).order_by("id"))
        assert len(points) == entry.games
        assert (points[-1].mu, points[-1].sigma, points[-1].deals) == (entry.mu, entry.sigma,
                                                                       entry.deals)


def test_aggregates_agree_with_the_stored_games(ladder_settings, servers, author, commit):
    play_rated(ladder_settings, servers, author, commit, games=10, faulty=1)

    for entry in Entry.objects.filter(games__gt=0):
        seats = list(selectors.seats_played().filter(entry=entry, game__kind=Game.RATED)
                     .select_related("game"))
        sizes = {s.game_id: s.game.seats.count() for s in seats}
        positions = [(p, sizes[s.game_id]) for s in seats for p in s.positions]
        faults = faults_of(entry).filter(game__ladder_game__kind=Game.RATED)
        assert entry.games == len(seats)
        assert entry.deals == len(positions)
        assert entry.firsts == sum(p == 1 for p, _ in positions)
        assert entry.lasts == sum(p == n for p, n in positions)
        assert entry.positions == sum(p for p, _ in positions)
        assert entry.faults == faults.count() == sum(s.faults for s in seats)
        assert entry.fault_kinds == dict(Counter(faults.values_list("kind", flat=True)))
        assert entry.faulted_games == sum(s.faults > 0 for s in seats)
        assert entry.decisions == sum(s.decisions for s in seats)
        assert sum(entry.decision_times) == entry.decisions
        assert entry.decision_median_ms <= entry.decision_p95_ms
        assert entry.last_played_at == max(s.game.stored_at for s in seats)
    faulty = Entry.objects.get(name="bot-0")
    assert faulty.faults > 0 and faulty.fault_kinds.keys() == {"malformed"}
    assert Entry.objects.get(name="bot-1").faults == 0


def test_an_entry_follows_its_bot(ladder_settings, servers, author, commit):
    first, second = servers(2)
    bot = register(author, first, presets=["classic"])
    commit(services.bots_sync)
    play_rated_entry = entry_of(bot)
    assert play_rated_entry.status == Entry.ACTIVE

    second.secrets.append(bot.secret)  # the author's new server
    outside_bots.outside_bot_update(bot=bot, url=second.url, presets=["classic", "friday"])
    commit(services.bots_sync)
    classic, friday = entry_of(bot), entry_of(bot, "friday")
    assert (classic.status, classic.url) == (Entry.ACTIVE, second.url)
    assert classic.validation_game_id != play_rated_entry.validation_game_id  # again
    assert friday.status == Entry.ACTIVE

    outside_bots.outside_bot_update(bot=bot, presets=["friday"])
    outside_bots.outside_bot_update(bot=bot, name="ada-bot-2")
    commit(services.bots_sync)
    classic.refresh_from_db()
    friday.refresh_from_db()
    assert (classic.status, classic.reason) == (Entry.RETIRED, "its bot no longer plays classic")
    assert (friday.status, friday.name) == (Entry.ACTIVE, "ada-bot-2")

    outside_bots.outside_bot_update(bot=bot, enabled=False)
    commit(services.bots_sync)
    friday.refresh_from_db()
    assert (friday.status, friday.reason) == (Entry.RETIRED, "its bot is disabled")


def test_a_deactivated_authors_bots_leave_the_ladder_and_come_back_with_them(
        ladder_settings, servers, author, commit):
    # An administrator deactivates an account (a cheat, a spammer): its bots stop playing,
    # as its author can no longer sign in to see or pause them. They played on before.
    (server,), (bot,) = active_bots(1, ladder_settings, servers, author, commit)
    author.is_active = False
    author.save()
    commit(services.bots_sync)
    entry = entry_of(bot)
    assert (entry.status, entry.reason) == (Entry.RETIRED, "its author's account is closed")

    author.is_active = True
    author.save()
    commit(services.bots_sync)
    assert entry_of(bot).status != Entry.RETIRED


def test_a_challenge_is_unrated_and_bounded_per_author_a_day(ladder_settings, servers, author,
                                                            commit):
    ladder_settings.LADDER_CHALLENGES_PER_DAY = 2
    _, (mine, theirs) = active_bots(2, ladder_settings, servers, author, commit)
    me, them = entry_of(mine), entry_of(theirs)
    heuristic = Entry.objects.get(name="heuristic", preset="classic")
    before = list(Entry.objects.order_by("pk").values())

    game = commit(services.challenge_create, by=author, entry=me, opponents=[them, heuristic])

    game.refresh_from_db()
    assert (game.kind, game.status, game.requested_by) == (Game.CHALLENGE, Game.DONE, author)
    assert sorted(game.seats.values_list("entry_id", flat=True)) == sorted(
        [me.pk, them.pk, heuristic.pk])
    assert list(Entry.objects.order_by("pk").values()) == before  # unrated
    assert not RatingPoint.objects.exists()

    with pytest.raises(LadderError, match="named twice"):
        services.challenge_create(by=author, entry=me, opponents=[me])
    commit(services.challenge_create, by=author, entry=me, opponents=[heuristic])
    with pytest.raises(LadderError, match="2 challenge games in the last 24 hours"):
        services.challenge_create(by=author, entry=me, opponents=[heuristic])
    assert selectors.challenges_left(user=author) == 0


def test_a_lone_authors_bots_each_play_the_references(ladder_settings, servers, author, commit,
                                                       monkeypatch):
    # Never two of an author's bots at a table: they could play as a team.
    ladder_settings.OUTSIDE_BOT_MAX_PER_AUTHOR = 3
    active_bots(3, ladder_settings, servers, author, commit)
    monkeypatch.setattr(services, "games_send", lambda **kwargs: 0)  # games stay in flight

    (game,) = services.games_schedule(rng=random.Random(4))
    seated = Entry.objects.filter(seats__game=game)
    assert seated.count() == 4 and seated.filter(reference=False).count() == 1


def test_a_reference_given_an_author_in_the_database_still_plays_as_nobodys(
        ladder_settings, servers, author, commit, monkeypatch):
    """The matchmaker refuses a reference with an author (ladder.matchmaking.Bot); a row an
    administrator edited so must not stop the scheduler: the reference is still nobody's."""
    ladder_settings.OUTSIDE_BOT_MAX_PER_AUTHOR = 3
    active_bots(3, ladder_settings, servers, author, commit)
    monkeypatch.setattr(services, "games_send", lambda **kwargs: 0)  # games stay in flight
    Entry.objects.filter(reference=True).update(author=author)

    (game,) = services.games_schedule(rng=random.Random(4))

    seated = Entry.objects.filter(seats__game=game)
    assert seated.count() == 4 and seated.filter(reference=False).count() == 1


def test_the_scheduler_fills_the_free_slots_and_seats_a_bot_in_one_game_at_a_time(
        ladder_settings, servers, author, commit, monkeypatch):
    authors = [author, *(UserFactory(username=f"author-{n}", is_staff=False) for n in range(5))]
    for n, (someone, server) in enumerate(zip(authors, servers(6), strict=True)):
        register(someone, server, name=f"bot-{n}")
    commit(services.bots_sync)
    ladder_settings.LADDER_GAMES_IN_FLIGHT = 2
    monkeypatch.setattr(services, "games_send", lambda **kwargs: 0)  # games stay in flight
    rng = random.Random(4)

    first = services.games_schedule(rng=rng)
    assert len(first) == 2
    assert services.games_schedule(rng=rng) == []  # no free slot
    seated = list(Seat.objects.filter(game__in=first).values_list("entry_id", flat=True))
    assert len(seated) == len(set(seated))  # nobody at two tables
    assert all(Entry.objects.get(pk=pk).status == Entry.ACTIVE for pk in seated)
    assert sum(Entry.objects.get(pk=pk).reference for pk in seated) <= 2  # one a table
    assert len(Entry.objects.filter(pk__in=seated, author__isnull=False)
               .values("author").distinct()) == 6  # one bot of an author a table

    Game.objects.filter(pk=first[0]).update(status=Game.DONE)
    (third,) = services.games_schedule(rng=rng)
    busy = set(Seat.objects.filter(game=first[1]).values_list("entry_id", flat=True))
    assert busy.isdisjoint(Seat.objects.filter(game=third).values_list("entry_id", flat=True))
    # Matchmaking counted the games each bot started.
    started = Entry.objects.filter(seats__game__in=[*first, third]).distinct()
    assert all(e.started >= 0.99 and e.started_at is not None for e in started)


def test_a_bot_whose_url_has_an_upper_case_scheme_plays_like_any_other(ladder_settings, servers,
                                                                        author, commit):
    (server,) = servers(1)
    bot = outside_bots.outside_bot_create(
        name="ada-bot", url=server.url.replace("http://", "HTTP://"), owner=author)
    server.secrets.append(bot.secret)

    commit(services.bots_sync)

    entry = entry_of(bot)
    assert (entry.status, entry.validation_game.status) == (Entry.ACTIVE, Game.DONE)
    assert len(server.requests) > 0


def test_a_game_our_own_code_cannot_play_fails_at_once_and_frees_its_seats(
        ladder_settings, servers, author, commit, caplog):
    """A bug in a built-in component (here a reference whose spec no longer builds) ends
    that one game with its reason, logged as an error, and is not counted against the
    outside bot."""
    references = services.references_ensure("classic")
    Entry.objects.filter(pk=references["greedy"].pk).update(spec="greedy:depth=3")
    (server,) = servers(1)
    bot = register(author, server)

    with caplog.at_level("ERROR", logger="ladder"):
        commit(services.bots_sync)

    game = Game.objects.get()
    assert game.status == Game.FAILED and game.attempts == 1
    assert "error in the ladder's own code" in game.reason and "depth" in game.reason
    assert not Game.objects.filter(status__in=services.OPEN).exists()  # its seats are free
    assert any(r.levelname == "ERROR" and f"game {game.pk}" in r.getMessage()
               for r in caplog.records)
    entry = entry_of(bot)
    assert not BotFault.objects.exists() and entry.faults == 0
    assert entry.status == Entry.PAUSED and "not your bot's fault" in entry.reason


def play_one_rated_game(commit, rng=None):
    assert len(commit(services.games_schedule, rng=rng)) == 1


@pytest.mark.postgres
def test_a_fixed_bot_that_resumed_is_judged_by_its_games_since(ladder_settings, servers, author,
                                                               commit):
    """Issue #26: paused, fixed, resumed and validated, it was paused again after one clean
    rated game, by the faulty games from before its fix."""
    (server,), (bot,) = active_bots(1, ladder_settings, servers, author, commit)
    server.mode = "junk"
    while entry_of(bot).status == Entry.ACTIVE:
        play_one_rated_game(commit)
    server.mode = "good"
    commit(services.entry_resume, entry=entry_of(bot))
    assert entry_of(bot).status == Entry.ACTIVE

    for _ in range(3):
        play_one_rated_game(commit)

    entry = entry_of(bot)
    assert (entry.status, entry.probation_faults, entry.faulted_games) == (Entry.ACTIVE, 0, 1)
    assert entry.probation_decisions == entry.decisions - (
        entry.seats.filter(game__kind=Game.RATED).order_by("game_id").first().decisions)


@pytest.mark.parametrize("spelling", [str, str.upper], ids=["same", "upper case"])
def test_a_bot_removed_and_registered_again_by_its_author_keeps_its_record(
        ladder_settings, servers, author, commit, spelling):
    """Issue #26: 61 games and 1,088 faults became 1 game and 0 faults, with a new bot's
    priority, 25 s after a delete and a registration under the same name (a name is one in
    any case: outside_bots.models.name_key)."""
    ladder_settings.LADDER_PAUSE_FAULTS = 100_000
    (server,), (bot,) = active_bots(1, ladder_settings, servers, author, commit)
    server.mode = "junk"
    for _ in range(2):
        play_one_rated_game(commit)
    server.mode = "good"
    before = entry_of(bot)
    assert before.games == 2 and before.faults > 0

    outside_bots.outside_bot_delete(bot=bot)
    commit(services.bots_sync)
    again = outside_bots.outside_bot_create(name=spelling(bot.name), url=server.url,
                                            owner=author)
    server.secrets.append(again.secret)
    commit(services.bots_sync)

    entry = entry_of(again)
    assert entry.pk == before.pk and entry.status == Entry.ACTIVE
    assert entry.name == spelling(bot.name)
    assert (entry.games, entry.faults, entry.faulted_games, entry.fault_kinds, entry.mu,
            entry.started_at) == (before.games, before.faults, before.faulted_games,
                                  before.fault_kinds, before.mu, before.started_at)
    assert Entry.objects.filter(reference=False).count() == 1


def test_another_author_cannot_take_a_removed_bots_name(ladder_settings, servers, author, other,
                                                       commit):
    (server,), (bot,) = active_bots(1, ladder_settings, servers, author, commit)
    outside_bots.outside_bot_delete(bot=bot)
    commit(services.bots_sync)

    for spelling in ("bot-0", "BOT-0", "Bot-0"):  # one name in any case (name_key)
        with pytest.raises(OutsideBotError,
                           match=f"{spelling} is the name of a bot of another author"):
            outside_bots.outside_bot_create(name=spelling, url=server.url, owner=other)
    theirs = outside_bots.outside_bot_create(name="bob-bot", url=server.url, owner=other)
    with pytest.raises(OutsideBotError, match="another author"):
        outside_bots.outside_bot_update(bot=theirs, name="bot-0")
    assert Entry.objects.get(name="bot-0").status == Entry.RETIRED


def test_no_author_s_bots_take_more_than_a_fair_share_of_the_games_in_flight(
        ladder_settings, servers, author, other, commit, monkeypatch):
    """Issue #26: one free account's slow bots took the workers from everything else. Here
    three slots and three authors: the author of five bots gets one game at a time (before:
    two, all that its bots could fill)."""
    ladder_settings.OUTSIDE_BOT_MAX_PER_AUTHOR = 5
    (server,) = servers(1)
    carol = UserFactory(username="carol", is_staff=False)
    for n in range(5):
        register(author, server, name=f"ada-{n}", query=f"?{n}")
    register(other, server, name="bob-bot", query="?bob")
    register(carol, server, name="carol-bot", query="?carol")
    monkeypatch.setattr(services, "games_send", lambda **kwargs: 0)  # games stay in flight
    services.bots_sync()
    Game.objects.update(status=Game.DONE)  # validated (not the point here)
    Entry.objects.update(status=Entry.ACTIVE)
    ladder_settings.LADDER_GAMES_IN_FLIGHT = 3

    for seed in range(3):
        services.games_schedule(rng=random.Random(seed))

    open_games = Game.objects.filter(status__in=services.OPEN)
    assert open_games.exists()
    assert open_games.filter(seats__entry__author=author).distinct().count() == 1
