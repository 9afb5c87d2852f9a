"""A club night: the one bridge between the pure seating planner (league.seating) and the ORM.

``night_plan`` reads the season so far into a seating History, asks the engine which table sizes
the season's preset can play, and plans the night; it writes nothing. ``night_confirm`` creates
one round's games, all or nothing (the organiser plays round by round: plan, confirm the first
round, and plan again before the next with whoever is then present).

The season's rounds, as the planner needs them, are not stored: league.rounds reads them from
the games.
"""

import datetime
from collections.abc import Sequence
from dataclasses import dataclass, field

from django.conf import settings
from django.db import transaction
from django.db.models import Count, Max

from gameplay.engine.errors import PresidentError, RuleViolation
from gameplay.engine.scoring import ScoreSheet
from league import idempotency, selectors, services, table_links
from league.errors import Conflict, LeagueError
from league.models import AuditEntry, Deal, Game, Place, Player, Season, Seat
from league.par import PlayerPar, games_pars
from league.rounds import (
    game_rounds,
    in_play,
    new_tables_at,
    night_games,
    night_of,
    night_rounds,
    season_rounds,
    tables_named,
    where_played,
)
from league.rules import options_of, scoring_of
from league.seating import (
    History,
    Round,
    Score,
    Table,
    TableSizes,
    plan_night,
    repeats_lower_bound,
    score,
    swap,
)
from league.seating import repeats as seating_repeats

SIZES_TRIED = range(2, 13)  # table sizes asked of the engine: more than a club night seats
PEOPLE_MAX = 100  # people planned at once: bounds the planner's work (the API's limit too)
ROUNDS_MAX = 10
DEFAULT_PREFERRED = (4, 5)  # players per table a club night starts from (within the preset's)
NIGHT_TABLES_MAX = 200  # tables a night's pages read, at most


class RoundInPlay(Conflict):
    """Refused to confirm a round while the one before is still being played: the organiser
    is asked first."""


@dataclass(frozen=True)
class MeetAgain:
    """A pair of the plan who meet again, in the night's words: round ``round`` of tonight,
    table ``table`` (from 1); ``earlier``: tonight's rounds they met in before, and how many
    times earlier in the season."""

    a: Player
    b: Player
    round: int
    table: int
    earlier: list[int]
    in_season: int
    back_to_back: bool


@dataclass(frozen=True)
class NightPlan:
    rounds: list[Round]  # tables of Player rows in seat order, with the first dealer
    score: Score
    sizes: TableSizes
    repeats: list[MeetAgain] = field(default_factory=list)
    fewest_repeats: int = 0  # no plan of these people and rounds has fewer (docs/seating.md)


def table_sizes(season: Season, preferred: Sequence[int] | None = None) -> TableSizes:
    """The sizes the season's preset plays: from the smallest the engine accepts, up to the
    last of the sizes after it that it accepts too."""
    options = options_of(season)
    allowed = []
    for size in SIZES_TRIED:
        try:
            options.validate(size)
        except PresidentError:
            if allowed:
                break
        else:
            allowed.append(size)
    if not allowed:
        raise LeagueError(f"{season.preset} cannot be played at a table of "
                          f"{SIZES_TRIED.start} to {SIZES_TRIED.stop - 1} players")
    return TableSizes(allowed[0], allowed[-1], tuple(preferred) if preferred else None)


def preferred_default(sizes: TableSizes) -> tuple[int, int]:
    """DEFAULT_PREFERRED within what the preset allows."""
    low = min(max(DEFAULT_PREFERRED[0], sizes.smallest), sizes.largest)
    return low, max(low, min(DEFAULT_PREFERRED[1], sizes.largest))


def _club_players(season: Season, players: Sequence[Player]) -> None:
    if len({p.pk for p in players}) != len(players):
        twice = sorted({p.name for p in players if sum(q.pk == p.pk for q in players) > 1})
        raise LeagueError(f"listed twice: {', '.join(twice)}")
    members = set(season.club.players.filter(pk__in=[p.pk for p in players])
                  .values_list("pk", flat=True))
    outsiders = [p.name for p in players if p.pk not in members]
    if outsiders:
        raise LeagueError(f"not players of {season.club}: {', '.join(outsiders)}")


def club_players(season: Season, ids: Sequence[int]) -> list[Player]:
    """The season's club's players with these ids, in this order; refused if one is listed
    twice or is not a player of the club (unknown ids included)."""
    ids = list(ids)
    if len(ids) > PEOPLE_MAX:
        raise LeagueError(f"at most {PEOPLE_MAX} people can be seated at once, not {len(ids)}")
    found = {p.pk: p for p in season.club.players.filter(pk__in=ids)}
    twice = sorted({i for i in ids if ids.count(i) > 1})
    if twice:
        named = [found[i].name if i in found else f"id {i}" for i in twice]
        raise LeagueError(f"listed twice: {', '.join(named)}")
    unknown = [str(i) for i in ids if i not in found]
    if unknown:
        raise LeagueError(f"no player of {season.club} has the id {', '.join(unknown)}")
    return [found[i] for i in ids]


def night_plan(*, season: Season, present: Sequence[Player], rounds: int,
               preferred: Sequence[int] | None = None, seed: int = 0,
               swaps: Sequence[tuple[int, Player, Player]] = ()) -> NightPlan:
    """Plan ``rounds`` rounds for the players present (all of them in every round), against
    the season so far (tonight's earlier rounds too). ``swaps`` are (round of the plan, 0
    first; a; b): a and b exchange seats in that round, after planning. Writes nothing."""
    present = list(present)
    _club_players(season, present)
    if not 1 <= rounds <= ROUNDS_MAX:
        raise LeagueError(f"a night has 1 to {ROUNDS_MAX} rounds, not {rounds}")
    if len(present) > PEOPLE_MAX:
        raise LeagueError(f"at most {PEOPLE_MAX} people can be seated at once")
    sizes = table_sizes(season, preferred)
    played = season_rounds(season)
    history = History.from_rounds(played)
    asked = [[p.pk for p in present]] * rounds
    planned = plan_night(asked, sizes, history, seed=seed,
                         budget=settings.SEATING_BUDGET_SECONDS)
    for index, a, b in swaps:
        if not 0 <= index < len(planned):
            raise LeagueError(f"there is no round {index + 1} in this plan")
        if a.pk == b.pk:
            raise LeagueError(f"{a} cannot swap with themselves")
        planned = swap(planned, planned[index].number, a.pk, b.pk)
    by_id = {p.pk: p for p in present}
    # Season round numbers as tonight's: the night's rounds are the season's last ones.
    first_tonight = len(played) - len(night_rounds(season, night_of()))
    return NightPlan(
        rounds=[Round(number=r.number, tables=tuple(
            Table(seats=tuple(by_id[i] for i in t.seats), dealer=by_id[t.dealer])
            for t in r.tables)) for r in planned],
        score=score(planned, history), sizes=sizes,
        repeats=[MeetAgain(
            a=by_id[r.pair[0]], b=by_id[r.pair[1]], round=r.round - first_tonight + 1,
            table=r.table + 1, back_to_back=r.back_to_back,
            earlier=[n - first_tonight + 1 for n in r.earlier if n >= first_tonight],
            in_season=sum(n < first_tonight for n in r.earlier))
            for r in seating_repeats(planned, history)],
        fewest_repeats=repeats_lower_bound(asked, sizes, history))


@transaction.atomic
def night_confirm(*, season: Season, tables: Sequence[tuple[Sequence[Player], int]],
                  by=None, round_number: int | None = None,
                  while_in_play: bool = False) -> list[Game]:
    """Create one round's games: ``tables`` holds (players in seat order, dealer's seat) per
    table. All or nothing; a player may sit at one table only, and not while still seated at
    an open table of the club (Conflict, even ``while_in_play``). ``round_number``: the round
    of tonight it is meant as, refused once that round exists; refused while tonight's last
    round is in play unless ``while_in_play`` (the organiser was asked).
    Each game gets its table link (league.table_links)."""
    if not tables:
        raise LeagueError("a round has at least one table")
    services.seating_locked(season.club_id)  # first: the order writers lock in
    # Two confirms at once: the second sees the first's round.
    Season.objects.select_for_update(no_key=True).get(pk=season.pk)
    rounds = _round_checked(season, round_number)
    everyone = [p for players, _ in tables for p in players]
    _club_players(season, everyone)
    services.free_checked(season, everyone)
    playing = in_play(rounds[-1]) if rounds else []
    if playing and not while_in_play:
        joined, _ = new_tables_at(season, night_of(), everyone)
        raise RoundInPlay(f"round {len(rounds)} is still in play: {tables_named(playing)}; "
                          "confirm again to start "
                          f"{'more tables of it' if joined == len(rounds) else 'the next round'}"
                          " anyway")
    games = [services.game_create(season=season, players=players, dealer=dealer, by=by)
             for players, dealer in tables]
    table_links.links_create(games=games, by=by)
    return games


def night_confirm_once(*, season: Season, tables: Sequence[tuple[Sequence[Player], int]], by,
                       token: str, round_number: int | None = None,
                       while_in_play: bool = False) -> tuple[list[int], bool]:
    """night_confirm once per form token (league.idempotency, as the entry page's deals): a
    second post of the plan creates nothing more. Returns (the games' numbers, whether this
    call created them)."""
    if not token:
        raise LeagueError("the form is missing its token: open the plan again")

    def confirm():
        return {"games": [g.number for g in night_confirm(
            season=season, tables=tables, by=by, round_number=round_number,
            while_in_play=while_in_play)]}

    body, created = idempotency.once_per_form(
        user=by, key=f"page-night:{token}",
        identity=f"night {season.pk} {[([p.pk for p in ps], d) for ps, d in tables]}",
        write=confirm, reused="this form was already used for another round: open the plan "
                              "again")
    return body["games"], created


# Tonight: the games of one club night, and how they stand.


@dataclass(frozen=True)
class NightTicks:
    """Whom the next round's planning starts from (``present``, player ids), and the games
    the night page names for why (night_ticks)."""

    present: list[int]
    called_off: list[Game]  # the last round's tables cancelled, in order
    playing_on: list[Game]  # earlier rounds' tables still playing when the last round began


def night_ticks(season: Season, night: datetime.date) -> NightTicks:
    """Who is still here for the next round. First who is still seated in the night's last
    round (joiners in, leavers out), at each table's latest game; then the people of its
    cancelled tables (the night's games cancelled since its last round began, all its
    cancelled games when none is left: seated, then the table was called off), unless they
    left another table of the round; then the people (leavers out) of an earlier round's table
    that was still playing when the last round began (its latest game is open, or its last
    deal was recorded or time called since): the round was started anyway without them, as
    they could not be seated. An earlier table that had ended by then is left out: its people
    not seated since went home."""
    games = night_games(season, night)
    rounds = game_rounds(games)
    latest = {number: game.pk for game, _, number in rounds[-1]} if rounds else {}
    seats = Seat.objects.filter(game__in=latest.values()).order_by("game__number", "number")
    left = {s.player_id for s in seats if s.left_before is not None}
    here = [s.player_id for s in seats if s.left_before is None]
    since = min(game.number for game, _, _ in rounds[-1]) if rounds else 0
    called_off = list(games.filter(status=Game.CANCELLED, number__gt=since).order_by("number"))
    called_off_people = (Seat.objects.filter(game__in=called_off)
                         .order_by("game__number", "number").values_list("player_id", flat=True))
    playing_on = _playing_on(rounds)
    playing_on_people = (Seat.objects.filter(game__in=playing_on, left_before__isnull=True)
                         .order_by("game__number", "number").values_list("player_id", flat=True))
    present = list(dict.fromkeys(
        here + [p for p in called_off_people if p not in left] + list(playing_on_people)))
    return NightTicks(present=present, called_off=called_off, playing_on=playing_on)


def _playing_on(rounds: list[list[tuple[Game, Table, int]]]) -> list[Game]:
    """The latest games of the earlier ``rounds``' tables still open, or whose last deal was
    recorded or time called after the last round's first game was created, in order."""
    if len(rounds) < 2:
        return []
    began = min(game.created_at for game, _, _ in rounds[-1])
    latest = {}
    for index, tables in enumerate(rounds[:-1]):
        for game, _, number in tables:  # a table's games in order of their numbers
            latest[index, number] = game.pk
    return [game for game in Game.objects.filter(pk__in=latest.values()).order_by("number")
            .annotate(last_deal=Max("deal_set__recorded_at"))
            if game.status == Game.OPEN
            or (game.last_deal is not None and game.last_deal > began)
            or (game.time_called_at is not None and game.time_called_at > began)]


def _round_checked(season: Season, round_number: int | None) -> list[list[tuple[Game, int]]]:
    """Tonight's rounds; refused (Conflict) when round ``round_number`` of tonight was already
    confirmed, or when it is not the next."""
    rounds = night_rounds(season, night_of())
    if round_number is not None and round_number <= len(rounds):
        games = ", ".join(str(game.number) for game, _ in rounds[round_number - 1])
        raise Conflict(f"round {round_number} was already confirmed (games {games}): open the "
                       "night page to plan the next round")
    if round_number is not None and round_number > len(rounds) + 1:
        raise LeagueError(f"tonight has {len(rounds)} round{'s' if len(rounds) != 1 else ''}: "
                          f"the next is round {len(rounds) + 1}, not {round_number}")
    return rounds


@dataclass(frozen=True)
class StillPlaying:
    """An open table of the club where some of the people asked for still sit."""

    game: Game
    where: str  # in the night's words (where_played)
    players: list[Player]  # in the order asked
    deals: int  # played there so far: with none, time cannot be called, only the game cancelled


def still_playing(season: Season, players: Sequence[Player]) -> list[StillPlaying]:
    """Who of ``players`` sits now at an open table of the season's club (any of its seasons,
    selectors.seated_at_open_tables), one entry per table, the season's tables first in the
    order of their games; each table named as where_played names it."""
    seated = selectors.seated_at_open_tables(club=season.club_id)
    at = {}
    for player in players:
        if player.pk in seated:
            at.setdefault(seated[player.pk], []).append(player)
    where = where_played(list(at), season=season)
    deals = dict(Deal.objects.filter(game__in=list(at)).order_by().values("game")
                 .annotate(n=Count("id")).values_list("game", "n"))
    return [StillPlaying(game=game, where=where[game.pk], players=people,
                         deals=deals.get(game.pk, 0))
            for game, people in sorted(at.items(), key=lambda item: (
                item[0].season_id != season.pk, item[0].season_id, item[0].number))]


@transaction.atomic
def round_cancel(*, season: Season, night: datetime.date, number: int, by=None) -> list[Game]:
    """Cancel round ``number`` of the night, all or nothing: refused if one of its games has
    a deal (services.game_cancel)."""
    rounds = night_rounds(season, night)
    if not 1 <= number <= len(rounds):
        raise LeagueError(f"there is no round {number} that night")
    return [services.game_cancel(game=game, by=by) for game, _ in rounds[number - 1]]


@dataclass(frozen=True)
class TableEnd:
    round: int
    table: int
    game: Game
    winners: list[str]  # names; none when the game is cancelled (no deal was played)
    cancelled: bool


@transaction.atomic
def night_end(*, season: Season, night: datetime.date, by=None) -> list[TableEnd]:
    """End of the night: time called on every open table (each game decided by its scoring
    system's rule, services.game_time_called); a table that played no deal is cancelled."""
    # Every table locked before any is ended: time called changes the season's results (its
    # row), which a phone's deal at a table not yet locked would wait for, holding its game.
    # Each as it is once locked: its phone may have recorded its first deal, or the deal that
    # ended it, since the rounds were read.
    playing = [(index, number, services.game_locked(game))
               for index, tables in enumerate(night_rounds(season, night), 1)
               for game, number in in_play(tables)]
    ended = []
    for index, number, game in playing:
        if game.status != Game.OPEN:
            continue
        if game.deal_set.exists():
            game = services.game_time_called(game=game, by=by)
        else:
            game = services.game_cancel(game=game, by=by)
        ended.append(TableEnd(
            round=index, table=number, game=game,
            winners=list(game.seats.filter(is_winner=True).order_by("number")
                         .values_list("player__name", flat=True)),
            cancelled=game.status == Game.CANCELLED))
    if not ended:
        raise LeagueError("no table is playing: the night has already ended")
    # What tells the night page the organiser ended the night, not just a round that finished.
    services.audit_record(by=by, club=season.club, action=NIGHT_ENDED, target=season,
                          details={"season": season.pk, "night": night.isoformat(),
                                   "tables": len(ended)})
    return ended


NIGHT_ENDED = "night ended"


def night_ended(season: Season, night: datetime.date) -> AuditEntry | None:
    """The organiser's "End of the night" (its audit row: when, by whom), if the night is
    still ended: no game of it open (one reopened to correct it is, until time is called on
    it again) and none started since (a round played after all)."""
    games = night_games(season, night)
    if games.filter(status=Game.OPEN).exists():
        return None
    last = games.aggregate(last=Max("created_at"))["last"]
    ends = AuditEntry.objects.filter(club=season.club, action=NIGHT_ENDED,
                                     details__season=season.pk,
                                     details__night=night.isoformat())
    return (ends.filter(at__gte=last) if last else ends).select_related("actor").first()


def night_end_preview(*, season: Season, night: datetime.date) -> list[TableEnd]:
    """What ``night_end`` would do (nothing written), or the LeagueError it would refuse
    with: the real operation in a transaction that is then rolled back."""
    preview = []
    try:
        with transaction.atomic():
            preview = night_end(season=season, night=night)
            raise _RolledBack
    except _RolledBack:
        return preview


class _RolledBack(Exception):
    pass


@dataclass
class TableState:
    game: Game
    table: int  # the table's number in its round (a table's later games keep it)
    seats: list[Seat]  # everyone who sat at the table with their totals: leaders, then best
    deals: int
    leaders: list[int]  # player ids: the winners once it ended, else who would win if time
    # were called now (the engine's rule for an unfinished game); none before the first deal

    @property
    def state(self) -> str:
        if self.game.status != Game.FINISHED:
            return "playing"
        return "time called" if self.game.time_called_at else "finished"


@dataclass
class NightTotal:
    player: Player
    games: int = 0  # games with at least one deal played
    deals: int = 0
    points: int = 0
    wins: int = 0  # ended games won (shared wins count for each winner)
    position_sum: int = 0
    par: PlayerPar | None = None  # against role par (league.par); None without one

    @property
    def mean_position(self) -> float | None:
        return self.position_sum / self.deals if self.deals else None


@dataclass
class NightBoard:
    season: Season
    night: datetime.date
    rounds: list[list[TableState]] = field(default_factory=list)
    totals: list[NightTotal] = field(default_factory=list)  # best first (docs/league.md)
    fewer_points_first: bool = False  # its scoring system ranks fewer points better
    par_why: str = ""  # why the night has no role par, if it has none

    @property
    def done(self) -> bool:
        """Every table of the night has ended."""
        tables = [t for tables in self.rounds for t in tables]
        return bool(tables) and all(t.game.status == Game.FINISHED for t in tables)


def night_board(season: Season, night: datetime.date) -> NightBoard:
    """Tonight's tables round by round, each with its totals and who leads, and each person's
    totals over the night's games; a fixed number of queries (at most NIGHT_TABLES_MAX
    tables)."""
    ids = list(night_games(season, night).exclude(status=Game.CANCELLED).order_by("number")
               .values_list("pk", flat=True)[:NIGHT_TABLES_MAX])
    rounds = game_rounds(Game.objects.filter(pk__in=ids))
    seats = {}
    for seat in (Seat.objects.filter(game__in=ids).select_related("player")
                 .order_by("number")):
        seats.setdefault(seat.game_id, []).append(seat)
    orders = {}
    for game_id, number, player, _ in (Place.objects.filter(deal__game__in=ids)
                                       .order_by("deal__game_id", "deal__number", "position")
                                       .values_list("deal__game_id", "deal__number",
                                                    "player_id", "position")):
        orders.setdefault(game_id, {}).setdefault(number, []).append(player)
    scoring = scoring_of(season)
    board = NightBoard(season=season, night=night,
                       fewer_points_first=scoring.system.fewer_points_win)
    totals = {}
    sign = 1 if board.fewer_points_first else -1
    for tables in rounds:
        states = []
        for game, _, number in tables:
            deals = orders.get(game.pk, {})
            leaders = _leaders(game, seats.get(game.pk, []), scoring, deals)
            states.append(TableState(
                game=game, table=number, deals=len(deals), leaders=leaders,
                seats=sorted(seats.get(game.pk, []), key=lambda s: (
                    s.player_id not in leaders, sign * s.points, s.number))))
            for seat in seats.get(game.pk, []):
                total = totals.setdefault(seat.player_id, NightTotal(player=seat.player))
                total.games += seat.deals > 0
                total.deals += seat.deals
                total.points += seat.points
                total.position_sum += seat.position_sum
                total.wins += seat.is_winner and game.status == Game.FINISHED
        board.rounds.append(states)
    pars = games_pars(season, ids)
    board.par_why = pars.why
    for total in totals.values():
        total.par = pars.get(total.player.pk)
    board.totals = sorted(totals.values(), key=lambda t: (
        -t.wins, sign * t.points,
        t.mean_position if t.mean_position is not None else float("inf"), t.player.name))
    return board


def _leaders(game, seats, scoring, deals) -> list[int]:
    if game.status == Game.FINISHED:
        return [s.player_id for s in seats if s.is_winner]
    if not deals:
        return []
    sheet = ScoreSheet(scoring)
    for number in sorted(deals):
        try:
            selectors.sheet_leave(sheet, seats, number)
            sheet.add(deals[number])
        except RuleViolation:  # as game_sheet: a deal after the end cannot be stored
            break
    if not sheet.finished:
        selectors.sheet_leave(sheet, seats)
        sheet.call_time()
    return list(sheet.winners)
