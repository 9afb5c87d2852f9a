"""A club night: the one bridge between the pure seating planner (league.seating) and the ORM.

``night_plan`` reads the season so far into a seating History, asks the engine which table sizes
the season's preset can play, and plans the night; it writes nothing. ``night_confirm`` creates
one round's games, all or nothing (the organiser plays round by round: plan, confirm the first
round, and plan again before the next with whoever is then present).

The season's rounds, as the planner needs them, are not stored: games are taken in order of
their numbers, and consecutive games whose players do not overlap form one round (the tables a
confirm creates together have consecutive numbers and no one twice). A game's seats in seat
order, everyone who ever sat there (joiners too), make its table; its first dealer is the player
in the seat ``Game.dealer``.
"""

from collections.abc import Sequence
from dataclasses import dataclass

from django.db import transaction

from gameplay.engine.errors import PresidentError
from league import services
from league.errors import LeagueError
from league.models import Game, Player, Season, Seat
from league.rules import options_of
from league.seating import History, Round, Score, Table, TableSizes, plan_night, score

SIZES_TRIED = range(2, 13)  # table sizes asked of the engine: more than a club night seats


@dataclass(frozen=True)
class NightPlan:
    rounds: list[Round]  # tables of Player rows in seat order, with the first dealer
    score: Score
    sizes: TableSizes


def season_rounds(season: Season) -> list[Round]:
    """The season's games so far as the planner's rounds of tables of player ids (module
    docstring)."""
    seats = {}
    for seat in Seat.objects.filter(game__season=season).order_by("number"):
        seats.setdefault(seat.game_id, []).append(seat)
    rounds, tables, seated = [], [], set()
    for game in Game.objects.filter(season=season).order_by("number"):
        players = [seat.player_id for seat in seats.get(game.pk, [])]
        if not players:
            continue
        if seated & set(players):
            rounds.append(Round(number=len(rounds), tables=tuple(tables)))
            tables, seated = [], set()
        dealer = next((s.player_id for s in seats[game.pk] if s.number == game.dealer),
                      players[0])
        tables.append(Table(seats=tuple(players), dealer=dealer))
        seated |= set(players)
    if tables:
        rounds.append(Round(number=len(rounds), tables=tuple(tables)))
    return rounds


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


def _club_players(season: Season, players: Sequence[Player]) -> None:
    if len({p.pk for p in players}) != len(players):
        twice = sorted({p.name for p in players if sum(q.pk == p.pk for q in players) > 1})
        raise LeagueError(f"listed twice: {', '.join(twice)}")
    members = set(season.club.players.filter(pk__in=[p.pk for p in players])
                  .values_list("pk", flat=True))
    outsiders = [p.name for p in players if p.pk not in members]
    if outsiders:
        raise LeagueError(f"not players of {season.club}: {', '.join(outsiders)}")


def night_plan(*, season: Season, present: Sequence[Player], rounds: int,
               preferred: Sequence[int] | None = None, seed: int = 0) -> NightPlan:
    """Plan ``rounds`` rounds for the players present (all of them in every round), against
    the season so far. Writes nothing."""
    present = list(present)
    _club_players(season, present)
    if rounds < 1:
        raise LeagueError("a night has at least one round")
    sizes = table_sizes(season, preferred)
    history = History.from_rounds(season_rounds(season))
    planned = plan_night([[p.pk for p in present]] * rounds, sizes, history, seed=seed)
    by_id = {p.pk: p for p in present}
    return NightPlan(
        rounds=[Round(number=r.number, tables=tuple(
            Table(seats=tuple(by_id[i] for i in t.seats), dealer=by_id[t.dealer])
            for t in r.tables)) for r in planned],
        score=score(planned, history), sizes=sizes)


@transaction.atomic
def night_confirm(*, season: Season, tables: Sequence[tuple[Sequence[Player], int]],
                  by=None) -> list[Game]:
    """Create one round's games: ``tables`` holds (players in seat order, dealer's seat) per
    table. All or nothing; a player may sit at one table only."""
    if not tables:
        raise LeagueError("a round has at least one table")
    everyone = [p for players, _ in tables for p in players]
    _club_players(season, everyone)
    return [services.game_create(season=season, players=players, dealer=dealer, by=by)
            for players, dealer in tables]
