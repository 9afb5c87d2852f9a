"""The ladder's one write path (issue #20, docs/ladder.md).

- **Entries**: ``bots_sync`` brings each enabled outside bot onto the ladder of every preset it
  plays; a new or changed bot (its URL) first plays a validation game against built-in bots
  (``LADDER_VALIDATION_OPPONENTS``) and becomes active only if it made no fault there. A bot
  whose decisions in rated games since then fault too often is paused (probation); its author
  may pause it too (``entry_pause``); ``entry_resume`` validates it again, once the wait after
  its pause is over (it doubles with each pause for faults).
- **Versions**: a new URL, or its author's ``entry_new_version``, starts an entry's next
  version (a Version row): its mu goes on with sigma reset, its figures start afresh, and each
  stored seat and rating point carries the version that played.
- **Scheduling**: ``games_schedule`` asks the matchmaker (``ladder.matchmaking``) for as many
  rated games as there are free slots (``LADDER_GAMES_IN_FLIGHT``); each game is a row, sent to
  the workers after commit (``games_send``), one task a game. ``games_recover`` sends again a
  game no worker stored in time and fails one taken too often.
- **Playing and storing**: ``game_run`` (the task's body) plays a game with the match runner,
  outside bots through HttpBot and its network policy only, then ``game_store`` stores it once:
  the game row is its natural key, locked first, then its entries in id order; a game already
  stored is left as it is. A rated game updates each entry's rating (OpenSkill per deal, each
  deal's finishing order one match), its aggregates and its rating history in that transaction.
- **Challenges**: ``challenge_create``, an unrated game of an author's bot against chosen
  opponents, at most ``LADDER_CHALLENGES_PER_DAY`` a day.
"""

import copy
import logging
import math
import random
import tempfile
import time
from collections import Counter
from contextlib import ExitStack
from dataclasses import dataclass
from datetime import timedelta

from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import IntegrityError, transaction
from django.db.models import Q
from django.db.models.functions import Length
from django.utils import timezone
from django.utils.timesince import timeuntil

from bot_games import services as bot_games
from bot_games.selectors import seat_par_sums
from gameplay.bots import is_url, make_bot
from gameplay.bots.base import Bot as EngineBot
from gameplay.bots.base import fault_text
from gameplay.bots.outside import HttpBot
from gameplay.bots.sandbox import SandboxedProgram
from gameplay.engine.errors import PresidentError
from gameplay.engine.options import preset as preset_options
from gameplay.runner import validation
from gameplay.runner.figures import ordinal, seed_of
from gameplay.runner.match import GameResult
from ladder import timing
from ladder.errors import LadderError
from ladder.matchmaking import Bot as Candidate
from ladder.matchmaking import Matchmaker, author_seats, fair_shares
from ladder.models import Entry, Game, RatingPoint, Seat, Version
from league.names import keys_alike, look_alike_keys
from league.ratings import MODEL, replay
from outside_bots.models import HOSTED, OutsideBot
from outside_bots.services import hosted_route, no_sandbox
from plumbing import queue
from tournaments.services import UnavailableBot

logger = logging.getLogger(__name__)

OPEN = (Game.SCHEDULED, Game.RUNNING)
SEND_AT_ONCE = 500  # games one games_send call sends at most
SYNC_AT_ONCE = 200  # entries one bots_sync call changes at most


def table_sizes(preset: str) -> tuple[int, ...]:
    """The ladder's table sizes (LADDER_TABLE_SIZES) that the preset's rules can seat."""
    options = preset_options(preset)
    sizes = []
    for size in settings.LADDER_TABLE_SIZES:
        try:
            options.validate(size)
        except PresidentError:
            continue
        sizes.append(size)
    return tuple(sorted(sizes))


# Entries


def references_ensure(preset: str) -> dict[str, Entry]:
    """The built-in bots of the preset's ladder by name, created when missing: the reference
    bots (LADDER_REFERENCES) and the validation opponents."""
    names = list(dict.fromkeys([*settings.LADDER_REFERENCES,
                                *settings.LADDER_VALIDATION_OPPONENTS]))
    found = {e.name: e for e in Entry.objects.filter(preset=preset, reference=True,
                                                     name__in=names)}
    for name in names:
        if name not in found:
            # Another tick creating it at once: get_or_create reads the one it made.
            found[name], _ = Entry.objects.get_or_create(
                preset=preset, reference=True, name=name,
                defaults={"spec": name, "status": Entry.ACTIVE})
    return found


def _locked_for_validation(preset: str, entry_id: int) -> tuple[Entry, list[Entry]]:
    """The entry and its validation opponents, row-locked together in id order: the order
    game_store and the scheduler lock entries in, so none of them can deadlock with another
    (the validation game's seats would otherwise wait on an opponent a store holds)."""
    references = references_ensure(preset)
    opponents = [references[name] for name in settings.LADDER_VALIDATION_OPPONENTS]
    locked = {e.pk: e for e in Entry.objects.select_for_update(of=("self",))
              .select_related("outside_bot")
              .filter(pk__in=[entry_id, *(o.pk for o in opponents)]).order_by("pk")}
    return locked[entry_id], [locked[o.pk] for o in opponents]


def _validation_start(entry: Entry, opponents: list[Entry], url: str, *,
                      new_version: str = "") -> Game:
    """Schedule the entry's validation game (rows locked by _locked_for_validation); a new
    URL, or ``new_version`` (why, in words), starts its next version first."""
    rng = random.Random()
    game = Game.objects.create(kind=Game.VALIDATION, preset=entry.preset,
                               seed=rng.getrandbits(63), deals=settings.LADDER_DEALS_PER_GAME)
    Seat.objects.bulk_create(Seat(game=game, entry=e, seat=s, bot=url if e == entry else e.spec)
                             for s, e in enumerate(validation.seated(entry, opponents, rng)))
    if entry.url and entry.url != url:
        new_version = new_version or ("new code uploaded" if url.startswith(HOSTED)
                                      else "a new URL")  # not where: theirs to tell
    if new_version:
        _version_start(entry, url, new_version)
    entry.status, entry.reason, entry.url, entry.validation_game = (
        Entry.VALIDATING, "", url, game)
    entry.save()
    GAMES.after_commit(games_send, ids=[game.pk])
    return game


# A version's figures, each as it starts: the table shows the current version's.
VERSION_FIGURES = {"games": 0, "deals": 0, "firsts": 0, "lasts": 0, "positions": 0,
                   "faults": 0, "fault_kinds": {}, "faulted_games": 0, "decisions": 0,
                   "decision_times": [], "decision_median_ms": None, "decision_p95_ms": None,
                   "par_deals": 0, "par_points": 0.0, "par_points_squares": 0.0, "adjusted": 0.0,
                   "adjusted_squares": 0.0}


def _version_start(entry: Entry, url: str, reason: str) -> None:
    """The entry's next version (saved by the caller): its mu stays, its uncertainty is a new
    bot's, it counts as new to the matchmaker, and its figures start afresh."""
    entry.version += 1
    Version.objects.create(entry=entry, number=entry.version, url=url,
                           started_at=timezone.now(), reason=reason[:200])
    entry.sigma = MODEL.sigma
    entry.ordinal = ordinal(entry.mu, entry.sigma)
    entry.started_at = None
    for field, start in VERSION_FIGURES.items():
        setattr(entry, field, copy.copy(start))


def _retire(entry_id: int, reason: str) -> None:
    with transaction.atomic():
        entry = Entry.objects.select_for_update().get(pk=entry_id)
        if entry.status != Entry.RETIRED:
            entry.status, entry.reason = Entry.RETIRED, reason
            entry.save(update_fields=["status", "reason"])


def _entry_for(bot: OutsideBot, preset: str) -> int:
    """The id of the bot's new entry on the preset's ladder: the record its author's removed
    bot of the same name left there, which it continues, or else a new one."""
    left = Entry.objects.filter(preset=preset, reference=False, outside_bot=None,
                                name__iexact=bot.name, author=bot.owner).values_list("pk",
                                                                                    flat=True)
    for pk in left[:1]:
        if Entry.objects.filter(pk=pk, outside_bot=None).update(outside_bot=bot):
            return pk
    try:
        with transaction.atomic():  # a savepoint: the caller's transaction goes on after it
            return Entry.objects.create(preset=preset, name=bot.name, outside_bot=bot,
                                        author=bot.owner).pk
    except IntegrityError:
        # Another tick brought the bot on at the same time (a new entry, or its record): the
        # bot's entry is the one it made.
        made = Entry.objects.filter(preset=preset, outside_bot=bot).values_list("pk", flat=True)
        for pk in made[:1]:
            return pk
        raise


def removed_bot_refusal(entry: Entry, user) -> str | None:
    """What ``user`` is told acting on the record their removed bot left on the ladder (its
    author's still, outside_bot None): not that only its author may (_entry_for continues it)."""
    if entry.reference or entry.outside_bot_id is not None or entry.author_id != user.pk:
        return None
    return (f"you removed {entry.name}: its record stays on the {entry.preset} ladder, and a "
            f"bot you register named {entry.name} continues it")


def bot_name_refusal(name: str, owner) -> str | None:
    """Why ``owner`` (None: an administrator) may not name a bot ``name``: the ladder record
    of another author's removed bot carries it (outside_bots.services.name_checks), in any
    case (a bot's name is a slug, in which name_key is the lower case) or in look-alike
    letters ("adab0t" for "adabot", league.names), as no bot may beside a registered one."""
    held = Entry.objects.filter(reference=False, outside_bot=None)
    held = held.exclude(author=None) if owner is None else held.exclude(author=owner)
    if held.filter(name__iexact=name).exists():
        return (f"{name} is the name of a bot of another author on the ladder (removed, its "
                "record kept): choose another name")
    # A slug's look-alikes are as long as its key, one letter for one, but for each "m" of
    # the key that an "rn" may spell (league.names.look_alike_keys): only those are read.
    key = look_alike_keys(name)["look_casefolded"]
    alike = (held.alias(length=Length("name"))
             .filter(length__gte=len(key), length__lte=len(key) + key.count("m"))
             .values_list("name", flat=True).distinct())
    for other in alike:
        if keys_alike(name, other):
            return (f"{name} looks like {other}, the name of a bot of another author on the "
                    "ladder (removed, its record kept): choose another name")
    return None


def _join(bot: OutsideBot, preset: str, entry_id: int | None) -> bool:
    """Bring ``bot`` onto the preset's ladder, or back (retired, or a changed URL); False
    when there was nothing to bring (another tick at once did it, or only its name changed)."""
    with transaction.atomic():
        if entry_id is None:
            entry_id = _entry_for(bot, preset)
        entry, opponents = _locked_for_validation(preset, entry_id)
        if entry.status == Entry.RETIRED or entry.url != bot.url:
            entry.name = bot.name
            _validation_start(entry, opponents, bot.url)
            return True
        if entry.name != bot.name:
            entry.name = bot.name
            entry.save(update_fields=["name"])
        return False


def bots_sync() -> dict[str, int]:
    """Entries follow the outside bots: an enabled bot is on the ladder of each preset it
    plays, validated again when its URL changed; an entry whose bot is removed, disabled or
    no longer plays the preset, or whose author's account is closed (an administrator
    deactivated it), retires (its games and history stay). At most SYNC_AT_ONCE changes a
    call; the next tick does the rest."""
    bots = {b.pk: b for b in OutsideBot.objects.select_related("owner").only(
        "id", "name", "url", "presets", "enabled", "owner__is_active")}
    entries = Entry.objects.filter(reference=False).values_list(
        "pk", "preset", "outside_bot_id", "status", "url", "name")
    seen, joined, retired = set(), 0, 0
    for pk, preset, bot_id, status, url, name in entries.iterator():
        if joined + retired >= SYNC_AT_ONCE:
            break
        bot = bots.get(bot_id)
        if bot is None or not _plays(bot) or preset not in bot.presets:
            if status != Entry.RETIRED:
                why = ("its bot was removed" if bot is None else "its bot is disabled"
                       if not bot.enabled else "its author's account is closed"
                       if not _plays(bot) else f"its bot no longer plays {preset}")
                _retire(pk, why)
                retired += 1
            continue
        seen.add((bot_id, preset))
        if status == Entry.RETIRED or url != bot.url or name != bot.name:
            joined += _join(bot, preset, pk)
    for bot in bots.values():
        if not _plays(bot):
            continue
        for preset in bot.presets:
            if (bot.pk, preset) not in seen and joined + retired < SYNC_AT_ONCE:
                joined += _join(bot, preset, None)
    return {"joined": joined, "retired": retired}


def _plays(bot: OutsideBot) -> bool:
    """Enabled, and its author's account open (a bot an administrator registered has none)."""
    return bot.enabled and (bot.owner is None or bot.owner.is_active)


def entry_resume(*, entry: Entry, by=None, now=None) -> Entry:
    """A paused bot's author asks to go on, once its wait is over: it plays a validation game
    again."""
    now = now or timezone.now()
    with transaction.atomic():
        entry, opponents = _locked_for_validation(entry.preset, entry.pk)
        if entry.status != Entry.PAUSED:
            raise LadderError(f"{entry.name} is {entry.status} on the {entry.preset} ladder: "
                              "only a paused bot resumes")
        if entry.resume_after and now < entry.resume_after:
            raise LadderError(f"{entry.name} may resume in {resume_wait(entry, now)}")
        bot = entry.outside_bot
        if bot is None or not bot.enabled:
            raise LadderError(f"{entry.name} is disabled: enable it first")
        _validation_start(entry, opponents, bot.url)
    logger.info("ladder: %s asked to resume %s", by, entry)
    return entry


def entry_new_version(*, entry: Entry, by=None, now=None) -> Entry:
    """Its author says the bot at the same URL is a new version: it starts the next version
    (mu kept, sigma reset, figures afresh) and plays a validation game. A paused bot does so
    only once it may resume, a bot being validated once its validation game is over (its game
    goes to the workers at once, past the games in flight: one at a time)."""
    now = now or timezone.now()
    with transaction.atomic():
        entry, opponents = _locked_for_validation(entry.preset, entry.pk)
        if entry.status == Entry.RETIRED:
            raise LadderError(f"{entry.name} is retired from the {entry.preset} ladder")
        if (entry.status == Entry.VALIDATING
                and Game.objects.filter(pk=entry.validation_game_id, status__in=OPEN).exists()):
            raise LadderError(f"{entry.name} is being validated (game "
                              f"{entry.validation_game_id}): a new version starts once that "
                              "game is over")
        if entry.status == Entry.PAUSED and entry.resume_after and now < entry.resume_after:
            raise LadderError(f"{entry.name} may start a new version when it may resume, in "
                              f"{resume_wait(entry, now)}")
        bot = entry.outside_bot
        if bot is None or not bot.enabled:
            raise LadderError(f"{entry.name} is disabled: enable it first")
        _validation_start(entry, opponents, bot.url, new_version="its author's new version")
    logger.info("ladder: %s started version %s of %s", by, entry.version, entry)
    return entry


def entry_pause(*, entry: Entry, by=None, now=None) -> Entry:
    """Its author takes an active or validating bot off the ladder; its games in play still
    land. It may resume after LADDER_RESUME_COOLDOWN_SECONDS (a wait that does not grow)."""
    now = now or timezone.now()
    with transaction.atomic():
        entry = Entry.objects.select_for_update().get(pk=entry.pk)
        if entry.status not in (Entry.ACTIVE, Entry.VALIDATING):
            raise LadderError(f"{entry.name} is {entry.status} on the {entry.preset} ladder: "
                              "only an active or validating bot pauses")
        entry.status, entry.reason = Entry.PAUSED, "paused by its author"
        entry.resume_after = now + timedelta(seconds=settings.LADDER_RESUME_COOLDOWN_SECONDS)
        entry.save(update_fields=["status", "reason", "resume_after"])
    logger.info("ladder: %s paused %s", by, entry)
    return entry


def resume_wait(entry: Entry, now=None) -> str:
    """How long a paused bot waits before it may resume, in words ("" when it may now)."""
    now = now or timezone.now()
    if entry.status != Entry.PAUSED or not entry.resume_after or entry.resume_after <= now:
        return ""
    why = (f"it was paused for faults {entry.pauses} time{'s' if entry.pauses != 1 else ''}, "
           "and each pause doubles the wait" if entry.pauses else "its author paused it")
    minutes = math.ceil((entry.resume_after - now).total_seconds() / 60)  # never "0 minutes"
    left = timeuntil(now + timedelta(minutes=minutes), now).replace("\xa0", " ")
    return f"{left} (from {entry.resume_after:%H:%M} UTC): {why}"


def resume_cooldown(pauses: int) -> timedelta:
    """The wait after a bot's ``pauses``-th pause for faults: LADDER_RESUME_COOLDOWN_SECONDS,
    doubled with each pause before, at most LADDER_RESUME_COOLDOWN_MAX_SECONDS."""
    seconds = settings.LADDER_RESUME_COOLDOWN_SECONDS * 2 ** min(max(pauses - 1, 0), 30)
    return timedelta(seconds=min(seconds, settings.LADDER_RESUME_COOLDOWN_MAX_SECONDS))


# Scheduling


def _started(entry: Entry, now) -> float:
    """Its rated games started, each counted less as it ages (LADDER_FAIR_HALF_LIFE_HOURS)."""
    if entry.started_at is None:
        return entry.started
    hours = max(0.0, (now - entry.started_at).total_seconds() / 3600)
    return entry.started * 0.5 ** (hours / settings.LADDER_FAIR_HALF_LIFE_HOURS)


def _open_games():
    return Game.objects.filter(status__in=OPEN)


def games_schedule(*, now=None, rng: random.Random | None = None) -> list[int]:
    """Rated games for the free slots (LADDER_GAMES_IN_FLIGHT minus the games in flight),
    shared among the presets with an author's bot active, each author's bots in at most the
    author's fair share of the slots at once (an administrator's bots have no author); their
    tasks are sent after commit. Returns the new games' ids."""
    now = now or timezone.now()
    rng = rng or random.Random()
    free = settings.LADDER_GAMES_IN_FLIGHT - _open_games().count()
    presets = sorted(set(Entry.objects.filter(reference=False, status=Entry.ACTIVE)
                         .values_list("preset", flat=True)))
    rng.shuffle(presets)
    shares = fair_shares(Counter(Entry.objects.filter(status=Entry.ACTIVE, author__isnull=False)
                                 .values_list("author_id", flat=True)),
                         settings.LADDER_GAMES_IN_FLIGHT)
    ids: list[int] = []
    for i, preset in enumerate(presets):
        left = free - len(ids)
        if left <= 0:
            break
        ids += _schedule_preset(preset, math.ceil(left / (len(presets) - i)), now, rng, shares)
    return ids


def _authors_busy() -> Counter:
    """The open games (any kind, every preset) with each author's bots, a game once each."""
    return Counter(author for _, author in Seat.objects.filter(
        game__status__in=OPEN, entry__author__isnull=False).order_by().values_list(
        "game_id", "entry__author_id").distinct())


@transaction.atomic
def _schedule_preset(preset: str, slots: int, now, rng: random.Random,
                     shares: dict) -> list[int]:
    sizes = table_sizes(preset)
    if not sizes:
        return []
    references_ensure(preset)
    # Locked in id order, as game_store locks a game's entries: one tick at a time schedules
    # the preset, and the counts it updates are not lost to a game landing.
    entries = {e.pk: e for e in Entry.objects.select_for_update().filter(
        preset=preset, status=Entry.ACTIVE).order_by("pk")}
    busy = Counter(Seat.objects.filter(game__status__in=OPEN, game__preset=preset)
                   .values_list("entry_id", flat=True))
    candidates = [Candidate(id=e.pk, mu=e.mu, games=_started(e, now), last_played=e.started_at,
                            new=e.started_at is None and not e.reference,
                            reference=e.reference,
                            author=None if e.reference else e.author_id)
                  for e in entries.values()]
    # One reference a table, unless the authors' bots are too few to fill a table with them
    # (one bot of an author a table: a lone author's bots each play the references).
    authors = author_seats(c for c in candidates if not c.reference)
    if not authors:
        return []  # references alone would learn nothing new
    matchmaker = Matchmaker(sizes=sizes, references_per_table=max(1, max(sizes) - authors),
                            author_games=shares)
    tables = matchmaker.next_games(candidates, busy, slots, now, rng, _authors_busy())
    ids = []
    for table in tables:
        game = Game.objects.create(kind=Game.RATED, preset=preset, seed=rng.getrandbits(63),
                                   deals=settings.LADDER_DEALS_PER_GAME)
        Seat.objects.bulk_create(
            Seat(game=game, entry_id=pk, seat=s,
                 bot=entries[pk].spec if entries[pk].reference else entries[pk].url)
            for s, pk in enumerate(table))
        ids.append(game.pk)
    for pk in {pk for table in tables for pk in table}:
        entry = entries[pk]
        entry.started = _started(entry, now) + sum(pk in table for table in tables)
        entry.started_at = now
        entry.save(update_fields=["started", "started_at"])
    if ids:
        GAMES.after_commit(games_send, ids=ids)
    return ids


# The task that plays and stores one scheduled game (ladder.tasks), sent by name with the id
# ladder-game-<id>: games_recover asks the broker and the workers for it.
GAME_TASK = "ladder.tasks.ladder_game_task"
GAMES = queue.Work(GAME_TASK, "ladder-game")


def game_beat(*, game_id: int) -> None:
    """The worker playing the game is alive (its heartbeat, every TASK_HEARTBEAT_SECONDS):
    a running game's ``sent_at`` is its worker's last sign of life."""
    Game.objects.filter(pk=game_id, status=Game.RUNNING).update(sent_at=timezone.now())


def games_send(*, ids: list[int] | None = None) -> int:
    """Send the tasks of scheduled games not sent yet (``ids`` only, if given), at most
    SEND_AT_ONCE. A broker that is down is logged; the next tick sends them."""
    to_send = Game.objects.filter(status=Game.SCHEDULED, sent_at=None).order_by("pk")
    if ids is not None:
        to_send = to_send.filter(pk__in=ids)
    ids = list(to_send.values_list("pk", flat=True)[:SEND_AT_ONCE])
    plays = {pk: [] for pk in ids}
    for pk, bot in Seat.objects.filter(game__in=ids).values_list("game_id", "bot"):
        plays[pk].append(bot)
    return len(GAMES.send(((pk, (pk,), hosted_route(plays[pk])) for pk in ids),
                          sent=_games_sent))


def _games_sent(pks: list[int]) -> None:
    Game.objects.filter(pk__in=pks, sent_at=None, status=Game.SCHEDULED).update(
        sent_at=timezone.now())


def games_recover(*, now=None) -> dict[str, int]:
    """Send again a game whose worker died (running with no heartbeat for
    LADDER_GAME_STALL_SECONDS), one whose message was lost (sent, and neither in a queue nor
    held by a worker TASK_SENT_GRACE_SECONDS later) and, whatever the broker says, one sent
    LADDER_GAME_RESEND_SECONDS ago and never taken; after LADDER_GAME_ATTEMPTS takes, it
    fails."""
    now = now or timezone.now()
    sent_before = now - timedelta(seconds=settings.TASK_SENT_GRACE_SECONDS)
    late = (Q(status=Game.RUNNING,
              sent_at__lt=now - timedelta(seconds=settings.LADDER_GAME_STALL_SECONDS)) |
            Q(status=Game.SCHEDULED,
              sent_at__lt=now - timedelta(seconds=settings.LADDER_GAME_RESEND_SECONDS)))
    lost = set(_open_games().filter(late).values_list("pk", flat=True))
    lost |= GAMES.lost(_open_games().filter(
        status=Game.SCHEDULED, sent_at__lt=sent_before).values_list("pk", flat=True)[:SEND_AT_ONCE])
    # Still as found: a game taken meanwhile is running with a fresh heartbeat.
    late = _open_games().filter(late | Q(status=Game.SCHEDULED, sent_at__lt=sent_before),
                                pk__in=lost)
    failed = 0
    for pk in late.filter(attempts__gte=settings.LADDER_GAME_ATTEMPTS).values_list(
            "pk", flat=True)[:SEND_AT_ONCE]:
        failed += game_fail(game_id=pk, reason=f"not stored after "
                                               f"{settings.LADDER_GAME_ATTEMPTS} attempts")
    resent = late.filter(attempts__lt=settings.LADDER_GAME_ATTEMPTS).update(
        status=Game.SCHEDULED, sent_at=None)
    return {"failed": failed, "resent": resent}


def ladder_tick() -> dict[str, int]:
    """What celery beat runs every LADDER_TICK_SECONDS: bots onto the ladder, lost games sent
    again, new rated games for the free slots, and anything unsent sent."""
    report = {**bots_sync(), **games_recover()}
    report["scheduled"] = len(games_schedule())
    report["sent"] = games_send()
    return report


# Playing


class TimedBot:
    """A bot whose every decision is timed: the seat's stats keep only the total, the ladder
    keeps each decision's time in a histogram (ladder.timing)."""

    DECISIONS = frozenset({"play", "name_cards", "give_back", "ask", "lead_and_direction"})

    def __init__(self, bot: EngineBot):
        self._bot = bot
        self.times_ms: list[float] = []

    def __getattr__(self, name):
        attr = getattr(self._bot, name)
        if name not in self.DECISIONS:
            return attr

        def timed(*args):
            start = time.perf_counter()
            try:
                return attr(*args)
            finally:
                self.times_ms.append(1000 * (time.perf_counter() - start))

        return timed


@dataclass
class Played:
    """A played ladder game: the runner's result and each seat's decision times (ms)."""

    result: GameResult
    times_ms: list[list[float]]
    stderr: list[str] | None = None  # each seat's, for a hosted bot (its author's to read)


def _seat_bot(seat: Seat, seed: int, workdir: str) -> EngineBot:
    bot = seat.entry.outside_bot
    if seat.bot.startswith(HOSTED):  # its code in the sandbox, unpacked in ``workdir``
        return bot.engine_bot(workdir)
    if not is_url(seat.bot):
        return make_bot(seat.bot, seed=seed)
    try:
        # The network policy checks the URL; every request is signed with the bot's secret.
        return HttpBot(seat.bot) if bot is None else bot.http_bot(seat.bot)
    except ValueError as e:
        return UnavailableBot(seat.entry.name, f"{seat.entry.name}: {e}")


def _challenge_refusal(game: Game) -> str | None:
    """Why the bot a validation game tests failed its ownership challenge
    (gameplay.runner.validation.challenge, as ``president validate``), or None."""
    for seat in game.seats.select_related("entry__outside_bot"):
        bot = seat.entry.outside_bot
        if seat.entry.reference or bot is None or bot.hosted:  # hosted: its code is its own
            continue
        try:
            refusal = validation.challenge(HttpBot(seat.bot, secret=bot.secret))
        except ValueError as e:
            refusal = str(e)
        if refusal:  # it may quote the bot (a broken status line): escaped, as a fault's text
            refusal = fault_text(refusal, 500)
            return (f"{seat.entry.name} failed its challenge: {refusal} (a bot proves it is "
                    "its author's with its secret: \"Replace its secret\" on its page gives a "
                    "new one, shown once)")
    return None


def game_play(game: Game) -> Played:
    """Play the game with the match runner: deterministic in its seed for built-in bots."""
    seats = list(game.seats.select_related("entry__outside_bot").order_by("seat"))
    with ExitStack() as game_over:  # hosted bots stopped, their code removed, after the game
        bots = []
        for s in seats:
            workdir = game_over.enter_context(tempfile.TemporaryDirectory(prefix="hosted-"))
            bot = _seat_bot(s, seed_of("bot", game.seed, s.seat), workdir)
            if isinstance(bot, SandboxedProgram):
                game_over.callback(bot.close)
            bots.append(TimedBot(bot))
        result = validation.play_ladder_game(bots, game.preset, seed=game.seed,
                                             deals=game.deals, names=[s.entry.name for s in seats])
    return Played(result=result, times_ms=[b.times_ms for b in bots],
                  stderr=[_stderr(b._bot) for b in bots])


def _stderr(bot: EngineBot) -> str:
    """A hosted bot's stderr after its game, and why the sandbox stopped it, in words."""
    if not isinstance(bot, SandboxedProgram):
        return ""
    # Its control characters escaped, as a fault's text: PostgreSQL stores no NUL in text (a
    # NUL on stderr made every game of the bot fail to be stored, its opponents' rated games
    # with it). An escape is at most 10 characters ("\U000e0100"): nothing of it is cut.
    text = bot.stderr.decode(errors="replace")
    text = fault_text(text, 10 * len(text), lines=True)
    return f"[the sandbox stopped it: {bot.stopped}]\n{text}" if bot.stopped else text


def _unavailable(game: Game) -> str | None:
    """Why the game cannot be played as scheduled: an outside bot removed, disabled or given
    another URL since (that URL is not called)."""
    for seat in game.seats.select_related("entry__outside_bot"):
        if seat.entry.reference:
            continue
        bot = seat.entry.outside_bot
        if bot is None or not bot.enabled or bot.url != seat.bot:
            return f"{seat.entry.name} was removed, disabled or changed before the game"
    return None


def _take(game_id: int) -> Game | None:
    with transaction.atomic():
        game = Game.objects.select_for_update().filter(pk=game_id).first()
        if game is None or game.status not in OPEN:
            return None
        game.status, game.sent_at = Game.RUNNING, timezone.now()
        game.attempts += 1
        game.save(update_fields=["status", "sent_at", "attempts"])
        return game


def game_release(*, game_id: int) -> None:
    """Give a game back to be sent again (its worker reached the time limit)."""
    Game.objects.filter(pk=game_id, status=Game.RUNNING).update(status=Game.SCHEDULED,
                                                                sent_at=None)


def game_run(*, game_id: int) -> bool:
    """The game task's body: take the game, play it, store it. A game already stored or
    failed, or taken too often, is left alone. True when this run stored it."""
    game = _take(game_id)
    if game is None:
        return False
    if game.attempts > settings.LADDER_GAME_ATTEMPTS:
        game_fail(game_id=game_id, reason=f"taken {game.attempts - 1} times, never stored")
        return False
    problem = (_unavailable(game) or no_sandbox(game.seats.values_list("bot", flat=True))
               or (game.kind == Game.VALIDATION and _challenge_refusal(game)))
    if problem:
        game_fail(game_id=game_id, reason=problem)
        return False
    return game_store(game_id=game_id, played=game_play(game))


def game_fail(*, game_id: int, reason: str) -> bool:
    """Give up a game; a validation game's bot is paused with the reason."""
    with transaction.atomic():
        game = Game.objects.select_for_update().get(pk=game_id)
        if game.status not in OPEN:
            return False
        game.status, game.reason = Game.FAILED, reason[:500]
        game.save(update_fields=["status", "reason"])
        if game.kind == Game.VALIDATION:
            for entry in Entry.objects.select_for_update().filter(
                    validation_game=game, status=Entry.VALIDATING).order_by("pk"):
                entry.status = Entry.PAUSED
                entry.reason = f"its validation game could not be played: {reason}"[:500]
                entry.save(update_fields=["status", "reason"])
    logger.warning("ladder: game %s failed: %s", game_id, reason)
    return True


def game_crashed(*, game_id: int, error: Exception) -> bool:
    """A game our own code could not play or store (a bug, not a bot's fault): logged as an
    error with its traceback, and the game fails at once with the reason in words, so its
    seats are free and its bots' records are untouched."""
    logger.error("ladder: game %s stopped by an error in our code", game_id, exc_info=error)
    return game_fail(game_id=game_id, reason=(
        f"stopped by an error in the ladder's own code, not your bot's fault "
        f"({type(error).__name__}: {error}); the administrators are told"))


# Storing


def game_store(*, game_id: int, played: Played) -> bool:
    """Store a played game once: its transcript, each seat's result and faults, and for a
    rated game every entry's new rating, aggregates and history point, in one transaction
    (the game's row locked first, then its entries in id order). False when it was already
    stored or failed: a second delivery of its task changes nothing."""
    result = played.result
    par = bot_games.game_par(result)  # the slow part, before any lock is taken
    with transaction.atomic():
        game = Game.objects.select_for_update().get(pk=game_id)
        if game.status not in OPEN:
            return False
        seats = list(game.seats.order_by("seat"))
        entries = {e.pk: e for e in Entry.objects.select_for_update().filter(
            pk__in=[s.entry_id for s in seats]).order_by("pk")}
        now = timezone.now()
        game.bot_game = bot_games.game_store(
            result, preset=game.preset, seed=validation.deals_seed(game.seed),
            times_ms=played.times_ms, played_at=now, par=par, stderr=played.stderr)
        bot_seats = {s.seat: s for s in game.bot_game.seats.defer("timeline", "logs", "stderr")}
        for seat in seats:
            seat.bot_seat, seat.version = bot_seats[seat.seat], entries[seat.entry_id].version
        if game.kind == Game.RATED:
            _rate(game, seats, entries, played, now, par)
        for seat in seats:  # a few plain UPDATEs: cheaper than bulk_update's CASE per field
            seat.save(update_fields=["bot_seat", "version", "mu_after", "sigma_after"])
        if game.kind == Game.VALIDATION:
            _validated(game, seats, entries, result)
        game.status, game.stored_at = Game.DONE, now
        game.save(update_fields=["status", "stored_at", "bot_game"])
    return True


# What a rated game changes on an entry.
PAR_FIELDS = ["par_deals", "par_points", "par_points_squares", "adjusted", "adjusted_squares"]
RATED_FIELDS = ["mu", "sigma", "ordinal", "rated_deals", "deals", "games", "firsts", "lasts",
                "positions", *PAR_FIELDS, "faults", "fault_kinds", "faulted_games", "decisions",
                "decision_times", "decision_median_ms", "decision_p95_ms", "last_played_at",
                "status", "reason", "probation_decisions", "probation_faults", "pauses",
                "resume_after"]


def _rate(game: Game, seats: list[Seat], entries: dict[int, Entry], played: Played,
          now, par: dict | None) -> None:
    """A rated game's ratings (each deal one OpenSkill match), aggregates (with its par's),
    pausing and history points."""
    by_seat = [s.entry_id for s in seats]
    state = {pk: (e.mu, e.sigma, e.rated_deals) for pk, e in entries.items()}
    _, state = replay(((i, [by_seat[s] for s in order])
                       for i, order in enumerate(played.result.finishing_orders)), state)
    points = []
    for seat in seats:
        entry = entries[seat.entry_id]
        entry.mu, entry.sigma, entry.rated_deals = state[entry.pk]
        entry.deals += len(seat.positions)
        entry.ordinal = ordinal(entry.mu, entry.sigma)
        seat.mu_after, seat.sigma_after = entry.mu, entry.sigma
        players = len(seats)
        entry.games += 1
        entry.firsts += seat.positions.count(1)
        entry.lasts += seat.positions.count(players)
        entry.positions += sum(seat.positions)
        for field, value in zip(PAR_FIELDS, seat_par_sums(par, seat.seat), strict=True):
            setattr(entry, field, getattr(entry, field) + value)
        faults = played.result.stats[seat.seat].faults
        entry.faults += len(faults)
        entry.fault_kinds = dict(Counter(entry.fault_kinds) + Counter(f["kind"] for f in faults))
        entry.faulted_games += bool(faults)
        entry.decisions += seat.decisions
        entry.decision_times = timing.add(entry.decision_times, played.times_ms[seat.seat])
        entry.decision_median_ms = timing.quantile(entry.decision_times, 0.5)
        entry.decision_p95_ms = timing.quantile(entry.decision_times, 0.95)
        entry.last_played_at = now
        _probation(entry, played.result.stats[seat.seat], now)
        entry.save(update_fields=RATED_FIELDS)
        points.append(RatingPoint(entry=entry, game=game, at=now, mu=entry.mu, sigma=entry.sigma,
                                  ordinal=entry.ordinal, deals=entry.rated_deals,
                                  version=entry.version))
    RatingPoint.objects.bulk_create(points)


def _probation(entry: Entry, stats, now) -> None:
    """An author's active bot counts a rated game's decisions and faulted decisions (a fault,
    or a safe move played for it once its time bank ran out), leaving out those the service
    itself was late for, and is paused when they fault too often (``_too_faulty``)."""
    if entry.reference or entry.status != Entry.ACTIVE:
        return
    entry.probation_decisions += stats.decisions - stats.late
    entry.probation_faults += len(stats.faults) + stats.benched
    why = _too_faulty(entry.probation_faults, entry.probation_decisions)
    if why:
        kinds = ", ".join(f"{kind} {count}" for kind, count in sorted(entry.fault_kinds.items()))
        _pause(entry, now, f"paused: {why} (all its faults by kind: {kinds}); fix the bot and "
                           "ask to resume, which plays a validation game again")


def _too_faulty(faults: int, decisions: int) -> str | None:
    """Why a bot whose rated decisions since its last passed validation had ``faults`` faulty
    ones is paused, or None: at least LADDER_PAUSE_FAULTS of them, and at least
    LADDER_PAUSE_FAULT_SHARE of its decisions. One timeout in 30 decisions is a hiccup."""
    if faults >= settings.LADDER_PAUSE_FAULTS and (
            faults >= settings.LADDER_PAUSE_FAULT_SHARE * decisions):
        return (f"{faults} of its {decisions} decisions in rated games since its last passed "
                "validation had faults")
    return None


def _pause(entry: Entry, now, reason: str) -> None:
    """Paused for its faults: the wait before it may resume doubles with each such pause."""
    entry.status, entry.reason = Entry.PAUSED, reason[:500]
    entry.pauses += 1
    entry.resume_after = now + resume_cooldown(entry.pauses)


def _validated(game: Game, seats: list[Seat], entries: dict[int, Entry], result) -> None:
    """The validated entry becomes active if it made no fault; otherwise it is paused."""
    for seat in seats:
        entry = entries[seat.entry_id]
        if entry.validation_game_id != game.pk or entry.status != Entry.VALIDATING:
            continue  # a reference, or a bot validated again since
        mine = Counter(f["kind"] for f in result.stats[seat.seat].faults)
        if not mine:  # probation counts its rated decisions from here (a fixed bot afresh)
            entry.status, entry.reason = Entry.ACTIVE, ""
            entry.probation_decisions = entry.probation_faults = 0
        else:
            _pause(entry, timezone.now(), f"its validation game {game.pk} had "
                                          f"{validation.fault_summary(mine)}; fix the bot and "
                                          "ask to resume")
        entry.save(update_fields=["status", "reason", "probation_decisions",
                                  "probation_faults", "pauses", "resume_after"])


# Challenges


def challenge_create(*, by, entry: Entry, opponents: list[Entry]) -> Game:
    """An unrated game of ``entry`` (an author's bot) against ``opponents`` on its preset,
    at most LADDER_CHALLENGES_PER_DAY in 24 hours per author. Its task is sent after
    commit."""
    with transaction.atomic():
        # The author's row lock: two challenges at once cannot both pass the count.
        get_user_model().objects.select_for_update().filter(pk=by.pk).first()
        since = timezone.now() - timedelta(days=1)
        limit = settings.LADDER_CHALLENGES_PER_DAY
        if Game.objects.filter(kind=Game.CHALLENGE, requested_by=by,
                               created_at__gte=since).count() >= limit:
            raise LadderError(f"you started {limit} challenge games in the last 24 hours, the "
                              "most an author may (LADDER_CHALLENGES_PER_DAY)")
        seated = [entry, *opponents]
        if len({e.pk for e in seated}) != len(seated):
            raise LadderError("a bot is named twice: each opponent plays once, and not your "
                              "own bot")
        most = settings.LADDER_CHALLENGE_MAX_SEATS
        if not opponents or len(seated) > most:
            raise LadderError(f"choose from 1 to {most - 1} opponents")
        for e in seated:
            if e.preset != entry.preset:
                raise LadderError(f"{e.name} is on the {e.preset} ladder, not {entry.preset}")
            if e.status == Entry.RETIRED:
                raise LadderError(f"{e.name} is retired from the {e.preset} ladder")
            if e.status == Entry.PAUSED:
                raise LadderError(f"{e.name} is paused: it gets no new games until its author "
                                  "resumes it")
        try:
            preset_options(entry.preset).validate(len(seated))
        except PresidentError as e:
            raise LadderError(f"{entry.preset} cannot seat {len(seated)}: {e.message}") from e
        bots = {e.pk: e.outside_bot for e in Entry.objects.filter(
            pk__in=[e.pk for e in seated]).select_related("outside_bot")}
        rng = random.Random()
        rng.shuffle(seated)
        specs = []
        for e in seated:
            if e.reference:
                specs.append(e.spec)
                continue
            bot = bots[e.pk]
            if bot is None or not bot.enabled:
                raise LadderError(f"{e.name} is disabled")
            specs.append(bot.url)
        game = Game.objects.create(kind=Game.CHALLENGE, preset=entry.preset,
                                   seed=rng.getrandbits(63),
                                   deals=settings.LADDER_DEALS_PER_GAME, requested_by=by)
        Seat.objects.bulk_create(Seat(game=game, entry=e, seat=s, bot=spec)
                                 for s, (e, spec) in enumerate(zip(seated, specs, strict=True)))
        GAMES.after_commit(games_send, ids=[game.pk])
    return game
