"""Reads about tournaments: progress, ratings for pairing, standings."""

import math
from collections import defaultdict
from dataclasses import asdict, dataclass

from django.conf import settings
from django.db.models import (
    Count,
    F,
    Func,
    IntegerField,
    Max,
    Min,
    OuterRef,
    Prefetch,
    Q,
    Subquery,
    Sum,
)
from django.utils import timezone

from bot_games import selectors as bot_games
from bot_games.models import BotFault
from gameplay.bots.base import FAULT_KINDS
from gameplay.runner.figures import deal_figures, ordinal, par_figures
from league.models import Place, Seat
from league.ratings import replay
from league.selectors import season_standings
from outside_bots.models import OUTSIDE, OutsideBot
from tournaments.models import (
    Entrant,
    Tournament,
    TournamentBatch,
    TournamentGame,
    UnplayedGame,
)


@dataclass
class Progress:
    status: str
    done: int
    total: int
    games_per_second: float | None
    eta_seconds: float | None
    # Running, with games missing, and no game stored nor worker heard from for
    # TOURNAMENT_STALL_SECONDS: no ETA then (the reconciler sends the work again).
    stalled: bool = False
    # Games this site could not play (services._game_unplayed: an error in our code, or a
    # hosted entrant on a worker without the sandbox), and the latest's reason.
    unplayed: int = 0
    unplayed_reason: str = ""

    @property
    def fraction(self) -> float:
        return self.done / self.total if self.total else 1.0

    def to_dict(self) -> dict:
        return {**asdict(self), "fraction": self.fraction}


def tournament_progress(*, tournament: Tournament) -> Progress:
    """Games stored out of the total, the rate between the first and last stored games and
    the time the rest would take at that rate, or that it is stalled, and the games our own
    code could not play; from the database, in two queries (three with unplayed games), one
    more while it runs."""
    status = Tournament.objects.filter(pk=tournament.pk).values_list("status", flat=True).get()
    row = TournamentGame.objects.filter(tournament_id=tournament.pk).aggregate(
        done=Count("id"), first=Min("stored_at"), last=Max("stored_at"))
    done = row["done"]
    rate = eta = None
    if done >= 2:
        seconds = (row["last"] - row["first"]).total_seconds()
        if seconds > 0:
            rate = (done - 1) / seconds
            if status == Tournament.RUNNING:  # a finished one has no time left to tell
                eta = (tournament.total_games - done) / rate
    stalled = status == Tournament.RUNNING and done < tournament.total_games and \
        _stalled(tournament, row["last"])
    unplayed = UnplayedGame.objects.filter(tournament_id=tournament.pk).order_by("-id")
    reasons = list(unplayed.values_list("reason", flat=True)[:1])
    return Progress(status=status, done=done, total=tournament.total_games,
                    games_per_second=rate, eta_seconds=None if stalled else eta,
                    stalled=stalled, unplayed=unplayed.count() if reasons else 0,
                    unplayed_reason=reasons[0] if reasons else "")


def _stalled(tournament: Tournament, last_stored) -> bool:
    """No sign of life for TOURNAMENT_STALL_SECONDS: a game stored, a worker's heartbeat on a
    batch, batches scheduled, or the start time still to come."""
    batches = TournamentBatch.objects.filter(tournament_id=tournament.pk).aggregate(
        beat=Max("beat_at"), scheduled=Max("created_at"))
    signs = [t for t in (last_stored, batches["beat"], batches["scheduled"],
                         tournament.starts_at) if t is not None]
    return bool(signs) and (timezone.now() - max(signs)).total_seconds() > \
        settings.TOURNAMENT_STALL_SECONDS


def resume_refusal(*, tournament: Tournament) -> str | None:
    """Why ``tournament`` cannot resume now, or None when it may: a cancelled tournament that
    had started, or a running one that is stalled (tournament_progress). A running tournament
    with signs of life is left to its workers and the reconciler."""
    status = Tournament.objects.filter(pk=tournament.pk).values_list("status", flat=True).get()
    if status == Tournament.CANCELLED:
        return None if tournament.tables else f"{tournament} was cancelled before it started"
    if status != Tournament.RUNNING:
        return f"{tournament} is {status}: only a cancelled or running tournament can resume"
    if not tournament_progress(tournament=tournament).stalled:
        return (f"{tournament} is running and its games are being played: only a cancelled "
                "or stalled tournament resumes")
    return None


def may_resume(*, tournament: Tournament) -> bool:
    """Whether the organisers' Resume does anything now (the page's button, the service)."""
    return resume_refusal(tournament=tournament) is None


def tournament_ratings(*, tournament: Tournament) -> dict[int, float]:
    """OpenSkill ordinal of each entrant (by index) over the tournament's deals so far, in
    game-key order: the same stored games give the same ratings, whatever order workers
    stored them in (the league's own ratings follow storage order)."""
    entrants = list(tournament.entrants.order_by("id").values_list("player_id", flat=True))
    index = {p: i for i, p in enumerate(entrants)}
    orders = _finishing_orders(tournament, "player_id")
    _, state = replay([(k, [index[p] for p in order]) for k, order in orders.items()], {})
    return {i: ordinal(*state[i][:2]) if i in state else 0.0 for i in range(len(entrants))}


def tournament_standings(*, tournament: Tournament) -> list[dict]:
    """The league standings of the tournament's season, each row with its per-deal figures and
    their 95% intervals: first-out rate (Wilson) and mean finishing position (normal), and
    points per deal raw and luck-adjusted (``par``, normal); four queries, whatever the number
    of entrants and deals."""
    per_deal = {r["player_id"]: r for r in (
        Place.objects.filter(deal__game__season=tournament.season).values("player_id")
        .annotate(deals=Count("id"), firsts=Count("id", filter=Q(position=1)),
                  position_sum=Sum("position"), position_squares=Sum(F("position") ** 2)))}
    rows = season_standings(season=tournament.season)
    par = _par_sums(tournament)
    for row in rows:
        row.update(_deal_figures(per_deal.get(row["player_id"])))
        row["par"] = par_figures(*par.get(row["player_id"], (0, 0, 0, 0, 0)))
    return rows


def _par_sums(tournament: Tournament) -> dict[int, list[float]]:
    """Each player's sums of its deals with par (bot_games.selectors.seat_par_sums) over the
    tournament's stored games (issue #31); two queries. Added exactly (fsum): the same games
    give the same figures in whatever order the workers stored them."""
    pars = dict(tournament.games.filter(bot_game__par__isnull=False)
                .values_list("game_id", "bot_game__par"))
    games = defaultdict(list)
    for game_id, number, player_id in Seat.objects.filter(game_id__in=pars).values_list(
            "game_id", "number", "player_id"):
        games[player_id].append(bot_games.seat_par_sums(pars[game_id], number))
    return {player: [math.fsum(column) for column in zip(*sums, strict=True)]
            for player, sums in games.items()}


def _deal_figures(stats: dict | None) -> dict:
    figures = deal_figures(stats["deals"], stats["firsts"], stats["position_sum"],
                           stats["position_squares"]) if stats else deal_figures(0, 0, 0, 0)
    first_ci, mean_ci = figures["first_out_ci"], figures["mean_position_ci"]
    return {"first_rate": figures["first_out_rate"],
            "first_rate_ci": first_ci and list(first_ci),
            "mean_position_ci": mean_ci and list(mean_ci)}


def tournament_results(*, tournament: Tournament) -> dict[tuple[int, int, int, int], list]:
    """Each stored deal's finishing order (player names) by (round, table, game, deal)."""
    return _finishing_orders(tournament, "player__name")


def _finishing_orders(tournament: Tournament, field: str) -> dict[tuple[int, int, int, int], list]:
    """Each stored deal's finishing order (``field`` of each place) by (round, table, game,
    deal), in that order; one query."""
    game = "deal__game__tournament_game__"
    orders = defaultdict(list)
    for *key, value in (
            Place.objects.filter(**{f"{game}tournament": tournament})
            .order_by(f"{game}round", f"{game}table", f"{game}number", "deal__number", "position")
            .values_list(f"{game}round", f"{game}table", f"{game}number", "deal__number", field)):
        orders[tuple(key)].append(value)
    return dict(orders)


def with_fault_counts(entrants):
    """Entrants annotated with their games' faults: ``faults_total`` and ``faults_<kind>``
    for each kind (gameplay.bots.base.FAULT_KINDS); one query with the entrants."""
    return entrants.annotate(faults_total=_fault_count(), **{
        f"faults_{kind}": _fault_count(kind=kind) for kind in FAULT_KINDS})


def _fault_count(**where) -> Subquery:
    """How many faults (with ``where``) the entrant made: those of its tournament's bot games
    at the seats its player had in their league games."""
    faults = BotFault.objects.filter(
        game__tournament_game__tournament=OuterRef("tournament_id"),
        game__tournament_game__game__seats__player=OuterRef("player_id"),
        game__tournament_game__game__seats__number=F("seat"), **where)
    return Subquery(faults.order_by().annotate(n=Func(F("id"), function="COUNT")).values("n"),
                    output_field=IntegerField())


def fault_counts(entrant) -> dict:
    """``{"total": n, "<kind>": n, …}`` for an entrant, from its annotations when it has them."""
    if not hasattr(entrant, "faults_total"):
        entrant = with_fault_counts(type(entrant).objects.filter(pk=entrant.pk)).get()
    return {"total": entrant.faults_total,
            **{kind: getattr(entrant, f"faults_{kind}") for kind in FAULT_KINDS}}


OUTSIDE_FAULTS_SHOWN = 100


def outside_bot_faults(*, bot: OutsideBot) -> dict:
    """An outside bot's faults in tournament games: counts by tournament entry and kind, and
    the latest ``OUTSIDE_FAULTS_SHOWN`` with where they happened."""
    entries = with_fault_counts(Entrant.objects.filter(bot=OUTSIDE + bot.name)
                                .select_related("tournament", "player")
                                .order_by("-tournament__created_at", "id"))
    latest = (bot_games.faults_of_bot(bot=OUTSIDE + bot.name)
              .filter(game__tournament_game__isnull=False)
              .select_related("game__tournament_game__tournament").defer("game__transcript")
              [:OUTSIDE_FAULTS_SHOWN])
    return {"entries": list(entries), "latest": list(latest)}


def enters(by) -> Q:
    """The outside bots ``by`` may enter in a tournament: an author's bot its author or an
    administrator alone (an entry locks its name and its removal, and has the site call its
    URL); those an administrator registered (no owner), anyone. ``by`` None: the site's own
    commands, any bot."""
    if by is None or by.is_superuser:
        return Q()
    return Q(owner=None) | Q(owner=by.pk)


def enterable_outside_bots(*, by):
    """The enabled outside bots ``by`` may enter, by name, with their authors."""
    return OutsideBot.objects.filter(enters(by), enabled=True).select_related("owner")


def last_pace(*, club) -> tuple[Tournament, float] | None:
    """The club's latest finished tournament of two games or more and its games a second, for
    a rough time of the next one; None if it has none."""
    for tournament in Tournament.objects.filter(club=club, status=Tournament.FINISHED,
                                                total_games__gte=2).order_by("-finished_at")[:1]:
        rate = tournament_progress(tournament=tournament).games_per_second
        if rate:
            return tournament, rate
    return None


def running_tournaments(*, club=None):
    """Bot tournaments being played now, newest first; of one club when given."""
    tournaments = Tournament.objects.filter(status=Tournament.RUNNING).select_related("club")
    return tournaments.filter(club=club) if club is not None else tournaments


CLUB_TOURNAMENTS_SHOWN = 20


def club_tournaments(*, club):
    """A club's tournaments, newest first, the latest ``CLUB_TOURNAMENTS_SHOWN`` (running,
    scheduled, finished or cancelled alike: a finished one's page keeps its final standings)."""
    return Tournament.objects.filter(club=club)[:CLUB_TOURNAMENTS_SHOWN]


def tournament_game_of(game) -> TournamentGame | None:
    """The tournament game a league game was stored from, without its transcript; None for a
    game of the league's own (entered by its organisers)."""
    return TournamentGame.objects.select_related("tournament").filter(game=game).first()


def tournament_game_with_transcript(*, pk: int) -> TournamentGame | None:
    """A tournament game with its transcript, its league game and the game's players by seat
    (``game.seats``, in seat order); None when there is no such game."""
    return (TournamentGame.objects.select_related("tournament", "game__season__club", "bot_game")
            .prefetch_related(Prefetch("game__seats", queryset=Seat.objects.select_related(
                "player").order_by("number")))
            .filter(pk=pk).first())


def season_game_transcripts(*, season):
    """(league game number, round, table, game number at the table, transcript) of every
    stored game of the tournament played in ``season``, in the tournament's order of games;
    empty for a season with no tournament."""
    return (TournamentGame.objects.filter(tournament__season=season)
            .order_by("round", "table", "number")
            .values_list("game__number", "round", "table", "number", "bot_game__transcript"))
