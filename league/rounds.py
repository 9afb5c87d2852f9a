"""A season's rounds and a club night's tables, read from its games: rounds are not stored.

Games are taken in order of their numbers, and consecutive games whose players do not overlap
form one round (the tables a confirm creates together have consecutive numbers and no one
twice); a game that continues another at the same table ("New game, same table") is in that
game's round, at its table. A game's seats in seat order, everyone who ever sat there (joiners
too), make its table; its first dealer is the player in the seat ``Game.dealer``. Readers only:
league.services and league.nights both name tables in these words.
"""

import datetime
from collections.abc import Sequence

from django.utils import timezone

from league.models import Game, Player, Season, Seat
from league.seating import Round, Table

# A club night runs past midnight: its games are those created from this hour (local time)
# until the same hour the next day.
NIGHT_TURNS_AT = datetime.time(6)


def season_rounds(season: Season) -> list[Round]:
    """The season's games so far as the planner's rounds of tables of player ids (module
    docstring); a table's later games ("New game, same table") are the same table."""
    return [Round(number=number, tables=tuple(
        table for game, table, _ in tables if game.continues_id is None))
        for number, tables in enumerate(game_rounds(Game.objects.filter(season=season)))]


def game_rounds(games) -> list[list[tuple[Game, Table, int]]]:
    """``games`` in rounds (module docstring), cancelled ones left out: each game with its
    table of player ids and its table's number in the round (from 1). A game that continues
    another at the same table is in that game's round, at its table."""
    return _rounds_read(games)[0]


def new_tables_at(season: Season, night: datetime.date,
                  players: Sequence[Player]) -> tuple[int, int]:
    """Where new tables of ``players`` confirmed now are read (module docstring): the round of
    the night and the first new table's number. That is the night's last round, after its
    tables, when none of them sat at its tables (latecomers while it plays show as more of
    its tables), else the round after it, from table 1."""
    rounds, seated = _rounds_read(night_games(season, night))
    if rounds and not seated & {p.pk for p in players}:
        return len(rounds), 1 + max(number for _, _, number in rounds[-1])
    return len(rounds) + 1, 1


def _rounds_read(games) -> tuple[list[list[tuple[Game, Table, int]]], set[int]]:
    """game_rounds, and who sat at the last round's tables (player ids): new tables without
    them join that round."""
    games = games.exclude(status=Game.CANCELLED)
    seats = {}
    for seat in Seat.objects.filter(game__in=games.values("pk")).order_by("number"):
        seats.setdefault(seat.game_id, []).append(seat)
    rounds, tables, seated = [], [], set()
    at = {}  # game id: (its round's index, its table's number)
    for game in games.order_by("number"):
        players = [seat.player_id for seat in seats.get(game.pk, [])]
        if not players:
            continue
        dealer = next((s.player_id for s in seats[game.pk] if s.number == game.dealer),
                      players[0])
        table = Table(seats=tuple(players), dealer=dealer)
        if game.continues_id in at:
            index, number = at[game.continues_id]
            (rounds[index] if index < len(rounds) else tables).append((game, table, number))
            at[game.pk] = index, number
            continue
        if seated & set(players):
            rounds.append(tables)
            tables, seated = [], set()
        number = 1 + sum(g.continues_id not in at for g, _, _ in tables)
        tables.append((game, table, number))
        at[game.pk] = len(rounds), number
        seated |= set(players)
    if tables:
        rounds.append(tables)
    return [sorted(tables, key=lambda t: (t[2], t[0].number)) for tables in rounds], seated


def night_of(when: datetime.datetime | None = None) -> datetime.date:
    """The club night a moment belongs to, named by the day it started (NIGHT_TURNS_AT)."""
    local = timezone.localtime(when)
    turn = datetime.timedelta(hours=NIGHT_TURNS_AT.hour, minutes=NIGHT_TURNS_AT.minute)
    return (local - turn).date()


def night_games(season: Season, night: datetime.date):
    """The season's games created on the club night ``night`` (night_of)."""
    start = timezone.make_aware(datetime.datetime.combine(night, NIGHT_TURNS_AT))
    return Game.objects.filter(season=season, created_at__gte=start,
                               created_at__lt=start + datetime.timedelta(days=1))


def night_rounds(season: Season, night: datetime.date) -> list[list[tuple[Game, int]]]:
    """The night's rounds (cancelled games left out): each game with its table's number."""
    return [[(game, number) for game, _, number in tables]
            for tables in game_rounds(night_games(season, night))]


def in_play(tables: Sequence[tuple[Game, int]]) -> list[tuple[Game, int]]:
    """A round's tables still playing: a round is in play until every game in it is finished
    or cancelled."""
    return [(game, number) for game, number in tables if game.status == Game.OPEN]


def where_played(games: Sequence[Game], season: Season | None = None) -> dict[int, str]:
    """Where each game is played, in the night's words: "round 5, table 2 (game 9)" on its
    night (a cancelled game has no table), else "game 9"; by game id. Said at a page of
    ``season``, a game of another season names it: "… (game 9) of Winter 2026"."""
    named = {}
    for played, night in {(g.season, night_of(g.created_at)) for g in games}:
        for index, tables in enumerate(night_rounds(played, night), 1):
            named |= {game.pk: f"round {index}, table {number} (game {game.number})"
                      for game, number in tables}
    return {g.pk: named.get(g.pk, f"game {g.number}")
            + (f" of {g.season.name}" if season and g.season_id != season.pk else "")
            for g in games}


def tables_named(tables: Sequence[tuple[Game, int]]) -> str:
    return ", ".join(f"table {number} (game {game.number})" for game, number in tables)
