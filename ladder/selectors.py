"""Reads of the ladder for the API and the pages: the table from the entries' own aggregates
(never recomputed from the deals), a bot's history, games and faults."""

from collections import Counter
from datetime import timedelta

from django.conf import settings
from django.db.models import (
    BooleanField,
    Case,
    Count,
    ExpressionWrapper,
    F,
    FloatField,
    OuterRef,
    Prefetch,
    Q,
    QuerySet,
    Subquery,
    When,
)
from django.db.models.functions import Coalesce
from django.utils import timezone

from bot_games import selectors as bot_games
from bot_games.models import BotFault
from gameplay.runner.figures import par_figures, rating_interval, share
from ladder import timing
from ladder.models import Entry, Game, RatingPoint, Seat, Version
from outside_bots.models import OutsideBot

SHOWN = (Entry.ACTIVE, Entry.PAUSED, Entry.VALIDATING)
HISTORY_POINTS = 500  # a rating chart's latest points at most
RECENT_GAMES = 20
RECENT_FAULTS = 50
NOT_YET_RATED = 200  # bots listed under the ranking at most


def presets() -> list[str]:
    """The presets whose ladder has an author's bot on it."""
    return sorted(set(Entry.objects.filter(reference=False, status__in=SHOWN)
                      .values_list("preset", flat=True)))


# The table's orders: by rating (the ladder's ranking), or by luck-adjusted points per deal
# (issue #31; docs/ladder.md "Par": it separates two bots in fewer games, but does not weigh
# the opponents met), entries without par last; ties by rating, then the oldest entry.
ORDERS = {"rating": ("-ordinal", "id"),
          "adjusted": (F("adjusted_mean").desc(nulls_last=True), "-ordinal", "id")}


def _ordered(entries: QuerySet, order: str, *first) -> QuerySet:
    if order == "adjusted":
        entries = entries.annotate(adjusted_mean=Case(
            When(par_deals__gt=0, then=F("adjusted") / F("par_deals")),
            default=None, output_field=FloatField()))
    return entries.order_by(*first, *ORDERS[order])


def ladder_bots(*, preset: str, statuses=SHOWN, order: str = "rating") -> QuerySet:
    """The preset's bots, rated or not, best first by ordinal (mu - 3 sigma), then the
    oldest entry; or by another of ``ORDERS``."""
    return (_ordered(Entry.objects.filter(preset=preset, status__in=statuses), order)
            .select_related("outside_bot", "author")
            .defer("decision_times", "outside_bot__description"))


def ladder_table(*, preset: str, statuses=SHOWN, order: str = "rating") -> QuerySet:
    """The preset's ranking: its bots that played a rated game, best first."""
    return ladder_bots(preset=preset, statuses=statuses, order=order).filter(
        rated_deals__gt=0)


def not_yet_rated(*, preset: str, statuses=SHOWN, limit: int = NOT_YET_RATED) -> QuerySet:
    """The preset's bots that never played a rated game, listed apart from the ranking,
    oldest first."""
    return ladder_bots(preset=preset, statuses=statuses).filter(rated_deals=0).order_by(
        "id")[:limit]


# An entry's sums of its deals with par, read by figures.par_figures (issue #31).
PAR_SUMS = ("par_deals", "par_points", "par_points_squares", "adjusted", "adjusted_squares")
# A table row's stored fields: read as plain values, no model built per row, so that serving
# the table stays a few milliseconds however many games have landed.
ROW_FIELDS = ("id", "preset", "name", "reference", "status", "reason", "mu", "sigma",
              "ordinal", "version", "rated_deals", "games", "deals", "firsts", "lasts",
              "positions", "faults", "fault_kinds", "faulted_games", "decisions",
              "decision_median_ms", "decision_p95_ms", "last_played_at", "created_at",
              *PAR_SUMS)


def ladder_rows(*, preset: str, statuses=SHOWN, order: str = "rating") -> QuerySet:
    """The ladder table as dicts of ROW_FIELDS and ``owner`` (the author's username, None for
    built-in bots): the ranking best first (``ORDERS``), then the bots not yet rated (``rated``
    false); ``row_figures`` adds the derived figures to a page of them."""
    rated = ExpressionWrapper(Q(rated_deals__gt=0), output_field=BooleanField())
    return (_ordered(Entry.objects.filter(preset=preset, status__in=statuses)
                     .annotate(rated=rated), order, "-rated")
            .values(*ROW_FIELDS, "rated", owner=F("author__username")))


def row_figures(row: dict) -> dict:
    """A table row (ladder_rows) with its rates and interval, and its points per deal raw and
    luck-adjusted with their intervals (``par``) in place of its sums of them."""
    deals, games = row["deals"], row["games"]
    row["par"] = par_figures(*(row.pop(f) for f in PAR_SUMS))
    row.update(interval=list(rating_interval(row["mu"], row["sigma"])),
               first_out_rate=share(row["firsts"], deals),
               last_rate=share(row["lasts"], deals),
               mean_position=share(row["positions"], deals),
               fault_rate=share(row["faulted_games"], games))
    row["owner"] = row["owner"] or ""
    return row


def figures(entry: Entry) -> dict:
    """An entry's derived figures: rates per deal, the rating's 95% interval."""
    return {k: v for k, v in row_figures({**{f: getattr(entry, f) for f in ROW_FIELDS},
                                          "owner": None}).items()
            if k in ("interval", "first_out_rate", "last_rate", "mean_position", "fault_rate",
                     "par")}


def entry_get(entry_id) -> Entry | None:
    return (Entry.objects.select_related("outside_bot", "author", "validation_game")
            .filter(pk=entry_id).first())


def author_entries(*, user) -> QuerySet:
    """An author's bots on every ladder, for the dashboard, those they removed included
    (their records stay theirs)."""
    return (Entry.objects.filter(author=user).select_related("outside_bot")
            .order_by("name", "preset"))


def history(*, entry: Entry, limit: int = HISTORY_POINTS) -> list[RatingPoint]:
    """Its latest rating points, oldest first (the chart)."""
    points = list(RatingPoint.objects.filter(entry=entry).order_by("-id")[:limit])
    points.reverse()
    return points


def history_values(*, entry: Entry, limit: int = HISTORY_POINTS) -> list[dict]:
    """The same points as dicts of game, at, mu, sigma, ordinal, deals (its rated deals so
    far) and version, without building a model per point (the API)."""
    points = list(RatingPoint.objects.filter(entry=entry).order_by("-id").values(
        "game", "at", "mu", "sigma", "ordinal", "deals", "version")[:limit])
    points.reverse()
    return points


def versions(*, entry: Entry) -> dict[int, Version]:
    """Its versions after the first, by number (version 1 is the entry as it joined)."""
    return {v.number: v for v in Version.objects.filter(entry=entry)}


def seats_played() -> QuerySet:
    """Seats with their entry, how they did (``bot_seat``) and ``faults``: how many faults
    its bot game has at the seat; in one query however many seats."""
    faults = (BotFault.objects.filter(game_id=OuterRef("bot_seat__game_id"),
                                      seat=OuterRef("seat"))
              .order_by().values("seat").annotate(n=Count("id")).values("n"))
    return (Seat.objects.select_related("entry", "bot_seat")
            .defer("bot_seat__timeline", "bot_seat__logs", "bot_seat__stderr")
            .annotate(faults=Coalesce(Subquery(faults), 0)).order_by("seat"))


def with_seats(games: QuerySet) -> QuerySet:
    """Games without their transcripts, their seats prefetched (lists of games)."""
    return games.prefetch_related(Prefetch("seats", queryset=seats_played()))


def recent_games(*, entry: Entry, limit: int = RECENT_GAMES, kinds=None) -> list[Game]:
    """Its latest games (of ``kinds``, all by default), newest first, seats included."""
    ids = Seat.objects.filter(entry=entry).order_by("-game_id")
    if kinds:
        ids = ids.filter(game__kind__in=kinds)
    ids = list(ids.values_list("game_id", flat=True)[:limit])
    return list(with_seats(Game.objects.filter(pk__in=ids)).order_by("-id"))


def faults(*, entry: Entry, limit: int = RECENT_FAULTS) -> list[BotFault]:
    """Its latest faults, newest first, each with ``entry`` and ``ladder_game`` (not its
    transcript)."""
    return _of_entry(_entry_faults([entry.pk]).order_by("-id")[:limit], entry)


def _entry_faults(entry_ids) -> QuerySet:
    """The bot games' faults made at the seats of ladder games ``entry_ids`` played, with
    their ladder game: a fault's entry is the one its seat had (Seat(game, seat))."""
    return (BotFault.objects.filter(game__ladder_game__seats__entry_id__in=entry_ids,
                                    game__ladder_game__seats__seat=F("seat"))
            .select_related("game__ladder_game").defer("game__transcript"))


def _of_entry(faults, entry: Entry) -> list[BotFault]:
    faults = list(faults)
    for fault in faults:
        fault.entry, fault.ladder_game = entry, fault.game.ladder_game
    return faults


def validation_game(*, entry: Entry) -> Game | None:
    """Its latest validation game, seats included (not its transcript)."""
    if entry.validation_game_id is None:
        return None
    return (game_get_queryset().defer("bot_game__transcript")
            .filter(pk=entry.validation_game_id).first())


def game_get_queryset() -> QuerySet:
    """Ladder games with their seats (their transcripts and faults in ``bot_game``)."""
    return with_seats(Game.objects.select_related("bot_game"))


def game_get(game_id) -> Game | None:
    return game_get_queryset().filter(pk=game_id).first()


def game_faults(*, game: Game, seats: list[Seat]) -> list:
    """The stored game's faults in the order they were made, from its bot game, each with
    ``entry``, the ladder entry at its seat, and ``ladder_game``."""
    if game.bot_game_id is None:
        return []
    entries = {s.seat: s.entry for s in seats}
    faults = list(bot_games.game_faults(game_id=game.bot_game_id))
    for fault in faults:
        fault.entry, fault.ladder_game = entries[fault.seat], game
    return faults


def decision_quantiles(entry: Entry) -> dict:
    return {"median_ms": timing.quantile(entry.decision_times, 0.5),
            "p95_ms": timing.quantile(entry.decision_times, 0.95)}


def challenges_left(*, user) -> int:
    """Challenge games the author may still start in the next 24 hours' count."""
    since = timezone.now() - timedelta(days=1)
    used = Game.objects.filter(kind=Game.CHALLENGE, requested_by=user,
                               created_at__gte=since).count()
    return max(0, settings.LADDER_CHALLENGES_PER_DAY - used)


def in_flight() -> dict[str, int]:
    """Games scheduled or running, by kind (operators, the dashboard)."""
    return dict(Game.objects.filter(status__in=(Game.SCHEDULED, Game.RUNNING))
                .values_list("kind").annotate(n=Count("id")).values_list("kind", "n"))


# The pages (ladder.web): an author's dashboard and a bot's challenge form.


def author_waiting(*, user) -> list[tuple]:
    """An author's enabled bots and the presets whose ladder they are not on yet: (bot,
    preset) pairs the next ladder tick brings on (services.bots_sync)."""
    on = set(Entry.objects.filter(outside_bot__owner=user)
             .values_list("outside_bot_id", "preset"))
    return [(bot, preset) for bot in OutsideBot.objects.filter(owner=user, enabled=True)
            .order_by("name") for preset in bot.presets if (bot.pk, preset) not in on]


def latest_faults_by_entry(*, entries, per_entry: int = 3) -> dict[int, list[BotFault]]:
    """Each entry's latest faults (at most ``per_entry``), newest first, in one query per
    entry: an author has few entries (OUTSIDE_BOT_MAX_PER_AUTHOR bots times the presets)."""
    return {e.pk: _of_entry(_entry_faults([e.pk]).order_by("-id")[:per_entry], e)
            for e in entries}


def validation_faults(*, entries) -> dict[int, int]:
    """How many faults each entry made in its latest validation game."""
    games = {e.pk: e.validation_game_id for e in entries if e.validation_game_id}
    counts = Counter()
    faults = _entry_faults(list(games)).filter(game__ladder_game__in=games.values())
    for entry_id, game_id in faults.values_list("game__ladder_game__seats__entry_id",
                                                "game__ladder_game__id"):
        if games[entry_id] == game_id:
            counts[entry_id] += 1
    return {pk: counts[pk] for pk in games}


def challenge_opponents(*, entry: Entry) -> QuerySet:
    """The bots an author may challenge ``entry`` against: the rest of its ladder but the
    paused, best first (the service checks again when the game is started)."""
    return ladder_bots(preset=entry.preset, statuses=(Entry.ACTIVE, Entry.VALIDATING)).exclude(
        pk=entry.pk)


def challenge_choices(*, entry: Entry) -> list[tuple]:
    """The same bots as (id, name, reference, ordinal, author's username) rows, for the form's
    boxes: a ladder of hundreds of bots is read without building its rows as models."""
    return list(challenge_opponents(entry=entry).values_list(
        "pk", "name", "reference", "ordinal", "author__username"))


def author_bot_count(*, user) -> int:
    """The outside bots the author registered (OUTSIDE_BOT_MAX_PER_AUTHOR at most)."""
    return OutsideBot.objects.filter(owner=user).count()
