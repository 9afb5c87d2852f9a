"""Bot tournaments (issue #6): create, start, play and store games, cancel and resume.

Each function that changes state is one transaction, except ``tournament_play_batch``, which
plays a batch of games and stores each in its own transaction (``tournament_game_store``) so a
crash loses at most the game being played. A game is identified by (tournament, round, table,
number); its seeds derive from that key and the tournament's seed, so a re-run plays the
identical game, and the unique constraint on the key stores it at most once. Scheduled
games are recorded in batches (TournamentBatch) in the same transaction, and a periodic
reconciler sends again what the broker never took or a worker dropped (issue #16).
"""

import logging
import tempfile
from collections.abc import Sequence
from contextlib import ExitStack
from dataclasses import dataclass
from datetime import datetime, timedelta
from functools import partial

import django.dispatch
from celery.exceptions import SoftTimeLimitExceeded
from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import IntegrityError, InterfaceError, OperationalError, transaction
from django.db.models import Count, Q
from django.utils import timezone

from bot_games import services as bot_games
from gameplay.bots import Bot, BotFault, is_url, make_bot
from gameplay.bots.sandbox import SandboxUnavailable
from gameplay.engine.errors import PresidentError
from gameplay.engine.options import preset
from gameplay.engine.scoring import Scoring
from gameplay.runner import pairing
from gameplay.runner.figures import seed_of
from gameplay.runner.match import GameResult, deal_block, play_game
from league import services as league
from league.errors import LeagueError
from league.models import Club, Player, Season
from outside_bots.models import OUTSIDE, OutsideBot, outside_bot_url
from outside_bots.services import hosted_route, no_sandbox
from plumbing import queue
from plumbing.queue import BROKER_ERRORS
from tournaments.errors import TournamentError
from tournaments.models import (
    Entrant,
    Tournament,
    TournamentBatch,
    TournamentGame,
    UnplayedGame,
)
from tournaments.selectors import enters, resume_refusal, tournament_ratings

# Sent after each stored game, with ``tournament_id``: the CLI's progress bar listens to it
# when tasks run in its own process (no broker configured).
game_stored = django.dispatch.Signal()

# The tasks (tournaments.tasks), sent by name; the names they had when the app was gameplay/,
# so tasks waiting in a queue across the moves still run.
START_TASK = "gameplay.tasks.tournament_start_task"
PLAY_BATCH_TASK = "gameplay.tasks.tournament_play_batch_task"
RECONCILE_TASK = "gameplay.tasks.tournaments_reconcile_task"
# A batch's task is sent with the id tournament-batch-<id>: the reconciler asks the broker and
# the workers for it.
BATCHES = queue.Work(PLAY_BATCH_TASK, "tournament-batch")

logger = logging.getLogger(__name__)

Key = tuple[int, int, int]  # (round, table, game number)
# The most batches one reconciler run asks the broker about.
LOST_CHECKED = 1000


# Creating a tournament


def _check_bot(spec: str, by=None) -> str:
    """A built-in bot spec, or ``outside:<name>`` of a registered, enabled outside bot that
    ``by`` may enter (_entered_outside_bot). A raw URL is refused: only administrators and
    bots' authors choose which URLs the site calls (OutsideBot)."""
    spec = (spec or "").strip()
    if not spec:
        raise TournamentError("an entrant needs a bot spec, e.g. \"heuristic\"")
    if spec.startswith(OUTSIDE):
        _entered_outside_bot(spec.removeprefix(OUTSIDE), by)
        return spec
    if is_url(spec):
        raise TournamentError(f"bot {spec!r}: an outside bot is entered by its registered name, "
                              f"{OUTSIDE}NAME; an administrator registers its URL")
    try:
        bot = make_bot(spec, seed=0)
    except (ValueError, TypeError) as e:
        raise TournamentError(f"bot {spec!r}: {e}") from e
    bot.close()
    return spec


def _entered_outside_bot(name: str, by=None) -> OutsideBot:
    """The bot, locked until the entry commits (a rename or delete waits, then sees the entry).
    An author's bot is entered by its author or an administrator (``by`` None: the site's own
    commands) alone: an entry locks its name and its removal, and has the site call its URL."""
    # (not joined to its owner: PostgreSQL locks no row on the nullable side of a join)
    bot = OutsideBot.objects.select_for_update().filter(name=name).first()
    if bot is None:
        raise TournamentError(f"no outside bot is registered as {name!r}")
    if not OutsideBot.objects.filter(enters(by), pk=bot.pk).exists():
        raise TournamentError(f"outside bot {name} is {bot.owner.get_username()}'s: only its "
                              "author or an administrator enters it in a tournament")
    if not bot.enabled:
        raise TournamentError(f"outside bot {name!r} is disabled")
    try:
        outside_bot_url(bot.url)
    except ValidationError as e:
        raise TournamentError(f"outside bot {name!r}: {' '.join(e.messages)}") from e
    return bot


def _scoring(scoring: dict) -> Scoring:
    try:
        return Scoring.from_dict(scoring)
    except PresidentError as e:
        # a field of the scoring object: "scoring.limit"
        raise TournamentError(f"tournament scoring: {e.message}",
                              field=f"scoring.{e.field}" if e.field else "scoring") from e


def _tables_of_round(tournament: Tournament, round_number: int,
                     ratings: dict[int, float] | None = None) -> list[list[int]]:
    """The round's tables as lists of entrant indices (0… in entry order)."""
    n = tournament.entrants.count() if tournament.pk else 0
    try:
        if tournament.format == Tournament.ROUND_ROBIN:
            tables = pairing.round_robin(range(n), tournament.seats)
        else:
            ratings = ratings if ratings is not None else dict.fromkeys(range(n), 0.0)
            tables = pairing.rating_round(ratings, tournament.seats, round_number)
    except pairing.PairingError as e:
        raise TournamentError(str(e)) from e
    return [list(t.entrants) for t in tables]


def _check(tournament: Tournament, entrants: int) -> tuple[int, list[TournamentError]]:
    """A tournament's number of games and the refusals of what cannot be played, each field
    judged on its own; the count (and the table size the rules play) only when what it
    needs is not refused (its number is then 0)."""
    refusals = []
    if tournament.format not in (Tournament.ROUND_ROBIN, Tournament.RATING):
        refusals.append(TournamentError(f"unknown format {tournament.format!r}; formats are "
                                        f"{Tournament.ROUND_ROBIN} and {Tournament.RATING}",
                                        field="format"))
    try:
        _rules_check(tournament)
    except TournamentError as e:
        refusals.append(e)
    try:
        _scoring(tournament.scoring)
    except TournamentError as e:
        refusals.append(e)
    for name in ("games_per_table", "rounds", "batch_size"):
        if getattr(tournament, name) < 1:
            refusals.append(TournamentError(f"{name.replace('_', ' ')} must be at least 1",
                                            field=name))
    if any(not (r.field or "").startswith("scoring") for r in refusals):  # the count's
        return 0, refusals
    try:
        games = tournament_games(format=tournament.format, seats=tournament.seats,
                                 entrants=entrants, games_per_table=tournament.games_per_table,
                                 rounds=tournament.rounds)
    except TournamentError as e:
        return 0, [*refusals, e]
    if games > settings.TOURNAMENT_MAX_GAMES:
        refusals.append(TournamentError(
            f"the tournament would play {games:,} games; a tournament plays at most "
            f"{settings.TOURNAMENT_MAX_GAMES:,} (TOURNAMENT_MAX_GAMES): fewer games per table, "
            "rounds or entrants", field="games_per_table"))
    return games, refusals


def _rules_check(tournament: Tournament) -> None:
    """Refuse options the preset does not take, or tables its rules cannot play."""
    if not isinstance(tournament.options, dict):
        raise TournamentError("options must be an object of option names and values",
                              field="options")
    try:
        options = preset(tournament.preset, **tournament.options)
    except PresidentError as e:
        raise TournamentError(f"tournament options: {e.message}",
                              field="options" if e.options else "preset") from e
    try:
        options.validate(tournament.seats)
    except PresidentError as e:
        raise TournamentError(f"tables of {tournament.seats} cannot play {tournament.preset}: "
                              f"{e.message}", field="seats") from e


def tournament_games(*, format: str, seats: int, entrants: int, games_per_table: int,
                     rounds: int) -> int:
    """The number of games a tournament of ``entrants`` bots plays (its cost, as the
    organiser's page shows it before creating); TournamentError if they cannot be seated."""
    if entrants < seats:
        raise TournamentError(f"{entrants} entrants cannot fill a table of {seats}",
                              field="seats")
    try:
        if format == Tournament.ROUND_ROBIN:
            return len(pairing.round_robin(range(entrants), seats)) * games_per_table
        tables = len(pairing.rating_round(dict.fromkeys(range(entrants), 0.0), seats, 0))
    except pairing.PairingError as e:  # too few seats, or a round robin of too many tables
        raise TournamentError(str(e), field="seats" if seats < 2 else "format") from e
    return tables * games_per_table * rounds


@transaction.atomic
def tournament_create(*, club: Club, name: str, entrants: Sequence[tuple[str, str]],
                      preset: str = "classic", options: dict | None = None,
                      scoring: dict | None = None, format: str = Tournament.ROUND_ROBIN,
                      seats: int = 4, games_per_table: int = 4, rounds: int = 1,
                      duplicate: bool = False, seed: int = 0, batch_size: int = 10,
                      starts_at: datetime | None = None, by=None) -> Tournament:
    """A tournament of ``entrants`` ((player name, bot spec) pairs) in ``club``, with its own
    season there; bot players that do not exist yet are created in the club."""
    refusals = []  # every refusal of what was sent, said together
    name = (name or "").strip()
    if not name:
        refusals.append(TournamentError("a tournament needs a name", field="name"))
    elif Tournament.objects.filter(club=club, name__iexact=name).exists():
        refusals.append(TournamentError(f"{club} already has a tournament called {name!r}",
                                        field="name"))
    scoring = dict(scoring) if scoring else {"system": "fixed-rounds", "deals": 1}
    tournament = Tournament(club=club, name=name, preset=preset, options=options or {},
                            scoring=scoring, format=format, seats=seats,
                            games_per_table=games_per_table, rounds=rounds, duplicate=duplicate,
                            seed=seed, batch_size=batch_size, starts_at=starts_at)
    names = [n.strip() for n, _ in entrants]
    folded = [n.casefold() for n in names]  # player names are unique in any case
    twice = sorted({n for n in names if folded.count(n.casefold()) > 1})
    if twice:
        refusals.append(TournamentError(
            f"entered twice: {', '.join(twice)}", field="name",
            entrants=[i for i, n in enumerate(folded) if folded.count(n) > 1]))
    specs = []
    for i, (_, spec) in enumerate(entrants):
        try:
            specs.append(_check_bot(spec, by))
        except TournamentError as e:
            refusals.append(TournamentError(e.message, field="bot", entrants=(i,)))
    tournament.total_games, refused = _check(tournament, len(entrants))
    refusals += refused
    if refusals:
        raise TournamentError.together(refusals)
    rules = _scoring(scoring)
    try:
        season = league.season_create(
            club=club, name=f"Tournament: {name}", starts_on=timezone.localdate(),
            preset=preset, options=options or {}, scoring=rules.to_dict(), by=by)
    except LeagueError as e:  # its name, "Tournament: NAME" (the rest is checked above)
        raise TournamentError(e.message, field="name") from e
    tournament.season = season
    tournament.save()
    for number, (player_name, spec) in enumerate(zip(names, specs, strict=True), 1):
        try:
            player = _bot_player(player_name, club, by)
        except LeagueError as e:  # the league's refusal of the name says not whose it is
            said = e.message if isinstance(e, TournamentError) else \
                f"entrant {number} ({player_name!r}): {e.message}"
            refusals.append(TournamentError(said, field="name", entrants=(number - 1,)))
            continue
        Entrant.objects.create(tournament=tournament, player=player, bot=spec)
    if refusals:  # the transaction undoes the players and rows made
        raise TournamentError.together(refusals)
    league.audit_record(by=by, club=club, action="tournament created", target=tournament,
                        details={"entrants": dict(zip(names, specs, strict=True)),
                                 "format": format, "seats": seats,
                                 "games": tournament.total_games})
    return tournament


def _bot_player(name: str, club: Club, by) -> Player:
    """The club's bot of that name (names are unique within a club), created if it has none."""
    player = club.players.filter(name__iexact=name).first()
    if player is None:
        return league.player_create(name=name, kind=Player.BOT, clubs=[club], by=by)
    if player.kind != Player.BOT:
        raise TournamentError(f"{player} is a person, not a bot: only bots enter tournaments")
    return player


# Scheduling: the batches of games to play are rows committed with the change that schedules
# them (TournamentBatch); their tasks are sent after the commit. What the broker did not take
# (it was down) or a worker dropped (killed, stuck) is sent again by tournaments_reconcile,
# which celery beat runs every TOURNAMENT_RECONCILE_SECONDS.


def _keys_of_round(tournament: Tournament, round_number: int) -> list[Key]:
    tables = tournament.tables[round_number]
    return [(round_number, t, g) for t in range(len(tables))
            for g in range(tournament.games_per_table)]


def _done(tournament: Tournament) -> set[Key]:
    """The keys of the games stored or left unplayed."""
    return {*TournamentGame.objects.filter(tournament=tournament).values_list(
        "round", "table", "number"), *UnplayedGame.objects.filter(
        tournament=tournament).values_list("round", "table", "number")}


def _missing(tournament: Tournament) -> list[Key]:
    done = _done(tournament)
    return [k for r in range(len(tournament.tables)) for k in _keys_of_round(tournament, r)
            if k not in done]


def _schedule(tournament: Tournament, keys: list[Key]) -> None:
    """Record the batches of ``keys``; their tasks are sent after commit."""
    size = tournament.batch_size
    TournamentBatch.objects.bulk_create(
        [TournamentBatch(tournament=tournament, keys=keys[i:i + size])
         for i in range(0, len(keys), size)], batch_size=2000)
    BATCHES.after_commit(tournament_batches_send, tournament_id=tournament.pk)


def _open_batches():
    return TournamentBatch.objects.filter(done_at=None, tournament__status=Tournament.RUNNING)


def tournament_batches_send(*, tournament_id: int | None = None) -> int:
    """Send the tasks of the running tournaments' batches not sent yet (of one tournament, if
    given), keeping at most TOURNAMENT_QUEUED_BATCHES waiting in the queue, so one call stays
    short whatever the size; everything at once when tasks run in this process. A broker
    error is logged and the rest waits for the next reconcile: it never undoes a commit.
    Returns the number sent."""
    eager = settings.CELERY_TASK_ALWAYS_EAGER
    to_send = _open_batches().filter(sent_at=None).order_by("id")
    if tournament_id is not None:
        to_send = to_send.filter(tournament_id=tournament_id)
    sent = 0
    while True:
        room = settings.TOURNAMENT_QUEUED_BATCHES
        if not eager:
            room -= _open_batches().filter(sent_at__isnull=False, beat_at=None).count()
        batches = list(to_send.values_list("pk", "tournament_id", "keys",
                                           "tournament__starts_at")[:max(room, 0)])
        plays = _plays({batch[1] for batch in batches})
        done = BATCHES.send([_batch_task(*batch, plays=plays[batch[1]]) for batch in batches],
                            sent=_batches_sent)
        sent += len(done)
        if not eager or not batches or len(done) < len(batches):
            return sent


@dataclass(frozen=True)
class Plays:
    """A tournament's tables (entrant indices by round and table) and what each entrant
    plays: a built-in's spec or its outside bot's URL (hosted:<id> for a hosted one)."""

    tables: list
    bots: list[str]


def _plays(tournament_ids: set[int]) -> dict[int, Plays]:
    """The Plays of each tournament, in three queries."""
    tables = dict(Tournament.objects.filter(pk__in=tournament_ids).values_list("pk", "tables"))
    specs = list(Entrant.objects.filter(tournament_id__in=tournament_ids)
                 .order_by("tournament_id", "id").values_list("tournament_id", "bot"))
    outside = _outside_bots(spec for _, spec in specs)
    bots = {pk: [] for pk in tournament_ids}
    for pk, spec in specs:
        bots[pk].append(outside[spec].url if spec in outside else spec)
    return {pk: Plays(tables[pk], bots[pk]) for pk in tournament_ids}


def _batch_task(pk: int, tournament_id: int, keys: list, starts_at, *,
                plays: Plays) -> tuple:
    """A batch's key, task arguments and options: a tournament still to start waits for it,
    and a batch seating a hosted bot goes where hosted bots are played."""
    eta = starts_at if starts_at and starts_at > timezone.now() else None
    route = hosted_route(plays.bots[e] for r, t, _ in keys for e in plays.tables[r][t])
    return pk, (tournament_id, keys), {"kwargs": {"batch_id": pk}, "eta": eta, **route}


def _batches_sent(pks: list[int]) -> None:
    # Marked once sent (a batch sent twice is played once).
    TournamentBatch.objects.filter(pk__in=pks, sent_at=None).update(sent_at=timezone.now())


def tournament_batch_beat(*, batch_id: int | None) -> None:
    """A worker playing the batch is alive (its heartbeat, every TASK_HEARTBEAT_SECONDS, from
    the task's own thread): a batch given back or done meanwhile is left as it is."""
    TournamentBatch.objects.filter(pk=batch_id, done_at=None, beat_at__isnull=False).update(
        beat_at=timezone.now())


def tournament_batch_release(*, batch_id: int | None) -> None:
    """Give a batch back, to be sent again (its stored games are skipped then)."""
    TournamentBatch.objects.filter(pk=batch_id, done_at=None).update(sent_at=None, beat_at=None)


def tournaments_reconcile() -> dict[str, int]:
    """Recover running tournaments, without anyone acting: a batch a worker took and gave no
    heartbeat for TOURNAMENT_STALL_SECONDS (the worker was killed or lost its database) and
    one sent and never taken that the broker lost are sent again; a tournament with no batch
    left is scheduled its missing games or advanced; then what is not sent is sent. Running
    a game twice stores it once."""
    now = timezone.now()
    stalled = _open_batches().filter(
        beat_at__lt=now - timedelta(seconds=settings.TOURNAMENT_STALL_SECONDS)
    ).update(sent_at=None, beat_at=None)
    lost = _lost_batches(now)
    idle = (Tournament.objects.filter(status=Tournament.RUNNING)
            .annotate(open=Count("batches", filter=Q(batches__done_at=None))).filter(open=0)
            .values_list("pk", flat=True))
    for pk in idle:
        _catch_up(pk)
    return {"stalled": stalled, "lost": lost, "sent": tournament_batches_send()}


def _lost_batches(now) -> int:
    """Mark to send again the batches sent and never taken that neither a queue nor a worker
    holds TASK_SENT_GRACE_SECONDS after they were sent (a message lost with a worker or with
    Redis's data), and, whatever the broker says, those untaken for TOURNAMENT_QUEUED_SECONDS.
    Returns how many."""
    untaken = _open_batches().filter(beat_at=None, sent_at__isnull=False)
    queued_since = now - timedelta(seconds=settings.TOURNAMENT_QUEUED_SECONDS)
    lost = set(untaken.filter(sent_at__lt=queued_since).exclude(
        tournament__starts_at__gt=queued_since).values_list("pk", flat=True))
    sent_before = now - timedelta(seconds=settings.TASK_SENT_GRACE_SECONDS)
    # A tournament still to start is left to the last resort: its batches wait for their ETA
    # on a worker, which may be too busy to answer.
    lost |= BATCHES.lost(untaken.filter(sent_at__lt=sent_before).exclude(
        tournament__starts_at__gt=sent_before).order_by("sent_at").values_list(
        "pk", flat=True)[:LOST_CHECKED])
    # Still untaken now: one a worker took meanwhile has its heartbeat.
    return untaken.filter(pk__in=lost, sent_at__lt=sent_before).update(sent_at=None)


@transaction.atomic
def _catch_up(tournament_id: int) -> None:
    tournament = Tournament.objects.select_for_update(no_key=True).get(pk=tournament_id)
    if tournament.status != Tournament.RUNNING or \
            tournament.batches.filter(done_at=None).exists():
        return
    missing = _missing(tournament)
    if missing:
        _schedule(tournament, missing)
    else:
        tournament_advance(tournament=tournament)


def _locked(tournament: Tournament) -> Tournament:
    return Tournament.objects.select_for_update(no_key=True).get(pk=tournament.pk)


@transaction.atomic
def tournament_start(*, tournament: Tournament, by=None) -> Tournament:
    """Pair the first round and schedule its games in batches (played from ``starts_at`` if
    later); the batches are sent after commit, a broker that is down delays them only."""
    tournament = _locked(tournament)
    if tournament.status != Tournament.SCHEDULED:
        raise TournamentError(f"{tournament} is {tournament.status}: only a scheduled "
                              "tournament can start")
    tournament.tables = [_tables_of_round(tournament, 0)]
    tournament.status = Tournament.RUNNING
    tournament.save(update_fields=["tables", "status"])
    league.audit_record(by=by, club=tournament.club, action="tournament started",
                        target=tournament, details={"starts_at": str(tournament.starts_at)})
    _schedule(tournament, _keys_of_round(tournament, 0))
    return tournament


@transaction.atomic
def tournament_cancel(*, tournament: Tournament, by=None) -> Tournament:
    """Stop scheduling: batches still queued or running stop before their next game."""
    tournament = _locked(tournament)
    if tournament.status in (Tournament.FINISHED, Tournament.CANCELLED):
        raise TournamentError(f"{tournament} is already {tournament.status}")
    tournament.status = Tournament.CANCELLED
    tournament.save(update_fields=["status"])
    league.audit_record(by=by, club=tournament.club, action="tournament cancelled",
                        target=tournament)
    return tournament


@transaction.atomic
def tournament_resume(*, tournament: Tournament, by=None) -> Tournament:
    """Go on with a cancelled (or stalled running) tournament: enqueue only missing games."""
    tournament = _locked(tournament)
    refusal = resume_refusal(tournament=tournament)
    if refusal is not None:
        raise TournamentError(refusal)
    tournament.status = Tournament.RUNNING
    tournament.save(update_fields=["status"])
    missing = _missing(tournament)
    league.audit_record(by=by, club=tournament.club, action="tournament resumed",
                        target=tournament, details={"missing_games": len(missing)})
    tournament.batches.filter(done_at=None).delete()
    if missing:
        _schedule(tournament, missing)
    else:
        transaction.on_commit(partial(_advance_after_commit, tournament.pk))
    return tournament


def _advance_after_commit(tournament_id: int) -> None:
    tournament_advance(tournament=Tournament.objects.get(pk=tournament_id))


@transaction.atomic
def tournament_advance(*, tournament: Tournament) -> Tournament:
    """When every scheduled game is stored: pair the next rating round, or finish."""
    tournament = _locked(tournament)
    if tournament.status != Tournament.RUNNING or _missing(tournament):
        return tournament
    if tournament.format == Tournament.RATING and len(tournament.tables) < tournament.rounds:
        next_round = len(tournament.tables)
        ratings = tournament_ratings(tournament=tournament)
        tournament.tables = [*tournament.tables,
                             _tables_of_round(tournament, next_round, ratings)]
        tournament.save(update_fields=["tables"])
        _schedule(tournament, _keys_of_round(tournament, next_round))
        return tournament
    tournament.status = Tournament.FINISHED
    tournament.finished_at = timezone.now()
    tournament.save(update_fields=["status", "finished_at"])
    return tournament


# Playing and storing games


class GameRefused(Exception):
    """This worker may not play the game (a hosted entrant, no sandbox here): the reason."""


def tournament_game_play(*, tournament: Tournament, key: Key) -> tuple[list[int], GameResult]:
    """Play one game: returns the entrant indices by seat and the result. Deterministic in
    the tournament's seed and the key; in duplicate mode the games of a table go in blocks of
    one per seat that share their shuffles while the seats rotate. GameRefused, nothing
    played, when it seats a hosted bot and this worker has no sandbox."""
    round_number, table, number = key
    seated = list(pairing.seating(tournament.tables[round_number][table], number))
    specs = dict(enumerate(tournament.entrants.order_by("id").values_list("bot", flat=True)))
    outside = _outside_bots(specs[e] for e in seated)
    refusal = no_sandbox(bot.url for bot in outside.values())
    if refusal:
        raise GameRefused(refusal)
    with ExitStack() as game_over:  # hosted bots stopped, their code removed, after the game
        bots = [_entrant_bot(specs[e], seed=seed_of("bot", tournament.seed, *key, e),
                             outside=outside, game_over=game_over)
                for e in seated]
        options = preset(tournament.preset, **tournament.options)
        result = play_game(bots, options, seed=_deal_seed(tournament, key, len(seated)),
                           scoring=Scoring.from_dict(tournament.scoring),
                           names=[specs[e] for e in seated])
    return seated, result


def _deal_seed(tournament: Tournament, key: Key, players: int) -> int:
    """The seed a game's deals are shuffled from; in duplicate mode the games of a table go in
    blocks of one per seat that share their shuffles while the seats rotate."""
    round_number, table, number = key
    block = deal_block(number, players, tournament.duplicate)
    return seed_of("deal", tournament.seed, round_number, table, block)


def _outside_bots(specs) -> dict[str, OutsideBot]:
    """The registered, enabled outside bots among ``specs``, by spec."""
    names = {s.removeprefix(OUTSIDE) for s in specs if s.startswith(OUTSIDE)}
    if not names:
        return {}
    return {OUTSIDE + bot.name: bot for bot in OutsideBot.objects.filter(
        name__in=names, enabled=True).only("name", "url", "secret")}


class UnavailableBot(Bot):
    """The seat of an outside bot disabled or removed after it was entered, or whose host is
    no longer allowed: nothing is called, each play is a fault and the seat plays safe."""

    def __init__(self, name: str, reason: str):
        self.name = name
        self.reason = reason

    def play(self, obs, legal):
        raise BotFault("error", self.reason)


def _entrant_bot(spec: str, *, seed: int, outside: dict[str, OutsideBot],
                 game_over: ExitStack) -> Bot:
    if not spec.startswith(OUTSIDE):
        try:
            return make_bot(spec, seed=seed)
        except (ValueError, TypeError) as e:  # entered before its settings were bounded
            return UnavailableBot(spec, f"{spec}: {e}")
    registered = outside.get(spec)
    if registered is None:
        return UnavailableBot(spec, f"{spec} is disabled or no longer registered")
    try:
        if not registered.hosted:
            return registered.http_bot()  # every request signed with its secret
        bot = registered.engine_bot(game_over.enter_context(tempfile.TemporaryDirectory()))
        game_over.callback(bot.close)
        return bot
    except SandboxUnavailable as e:
        return UnavailableBot(spec, f"{spec}: this worker cannot run hosted bots ({e})")
    except ValueError as e:
        return UnavailableBot(spec, f"{spec}: {e}")


def tournament_game_store(*, tournament: Tournament, key: Key, seated: Sequence[int],
                          result: GameResult) -> TournamentGame | None:
    """Store a played game and its league Game, Seats and Deals in one transaction; None when
    the game is already stored (a task run twice stores nothing twice)."""
    round_number, table, number = key
    par = bot_games.game_par(result)  # the slow part, before any lock is taken
    try:
        with transaction.atomic():
            # The season's row lock orders concurrent stores of one tournament; after it, the
            # existence check sees every committed game.
            Season.objects.select_for_update(no_key=True).get(pk=tournament.season_id)
            if TournamentGame.objects.filter(tournament=tournament, round=round_number,
                                             table=table, number=number).exists():
                return None
            players = list(tournament.entrants.order_by("id").values_list("player_id", flat=True))
            # Stored as the engine played and scored it: the runner's transcript is valid by
            # construction (every move went through the engine's rules), so it is not checked
            # again, and the totals and winners are the engine's ScoreSheet's.
            game = league.game_store_played(
                season=tournament.season, players=[Player(pk=players[e]) for e in seated],
                dealer=0, finishing_orders=result.finishing_orders, totals=result.scores,
                winners=result.winners, over=result.over)
            played = bot_games.game_store(
                result, preset=tournament.preset, options=tournament.options,
                seed=_deal_seed(tournament, key, len(seated)), par=par)
            stored = TournamentGame.objects.create(
                tournament=tournament, round=round_number, table=table, number=number,
                game=game, bot_game=played)
    except IntegrityError:
        if TournamentGame.objects.filter(tournament=tournament, round=round_number,
                                         table=table, number=number).exists():
            return None
        raise
    transaction.on_commit(partial(game_stored.send, sender=TournamentGame,
                                  tournament_id=tournament.pk))
    return stored


def tournament_play_batch(*, tournament_id: int, keys: Sequence[Sequence[int]],
                          batch_id: int | None = None) -> int:
    """Play and store the batch's games that are not stored yet, stopping if the tournament
    is no longer running; then advance it. The batch's row gets a heartbeat after each game
    (a batch whose heartbeat stops is sent again) and is marked done at the end. Returns the
    number of games stored."""
    tournament = Tournament.objects.select_related("season").get(pk=tournament_id)
    batch = TournamentBatch.objects.filter(pk=batch_id)  # nothing when there is no row
    batch.update(beat_at=timezone.now())
    keys = [tuple(k) for k in keys]
    done = _done(tournament)
    count = 0
    for key in keys:
        if key in done:
            continue
        if not Tournament.objects.filter(pk=tournament_id, status=Tournament.RUNNING).exists():
            return count
        try:
            seated, result = tournament_game_play(tournament=tournament, key=key)
            count += tournament_game_store(tournament=tournament, key=key, seated=seated,
                                           result=result) is not None
        except NOT_BUGS:
            raise  # the task retries an outage and gives the batch back at its time limit
        except GameRefused as refusal:  # as the ladder does: not played, no bot's fault
            logger.warning("tournament %s: game %s refused: %s", tournament.pk, key, refusal)
            _game_unplayed(tournament, key, str(refusal))
        except Exception as error:  # noqa: BLE001 - a bug ends its one game, not the batch
            logger.error("tournament %s: game %s not played, an error in our code",
                         tournament.pk, key, exc_info=error)
            _game_unplayed(tournament, key, (
                f"not played: an error in the site's own code, not any bot's fault "
                f"({type(error).__name__}: {error}); the administrators are told"))
        batch.update(beat_at=timezone.now())
    batch.update(done_at=timezone.now())
    tournament_advance(tournament=tournament)
    return count


# What a game's play or store raises that is no bug in it: an outage, the task's time limit.
NOT_BUGS = (OperationalError, InterfaceError, *BROKER_ERRORS, SoftTimeLimitExceeded)


def _game_unplayed(tournament: Tournament, key: Key, reason: str) -> None:
    """A game this worker could not play or store (an error in our own code, or a hosted
    entrant and no sandbox here): recorded unplayed with the reason, so the batch and the
    tournament go on."""
    round_number, table, number = key
    UnplayedGame.objects.get_or_create(
        tournament=tournament, round=round_number, table=table, number=number,
        defaults={"reason": reason[:500]})


def outside_bot_entries(*, bot: OutsideBot):
    """The tournament entries that name the bot: while there are any, it keeps its name."""
    return Entrant.objects.filter(bot=OUTSIDE + bot.name)


def entered_in_tournaments(bot: OutsideBot) -> str | None:
    """Where the bot is entered, for outside_bots.services (tournaments.apps adds it)."""
    return "in tournaments" if outside_bot_entries(bot=bot).exists() else None
