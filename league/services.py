"""Operations that change the league, each one transaction (STYLE.md, HackSoft styleguide).

Every refusal raises LeagueError before anything is written, or inside the transaction so the
whole operation rolls back: a refused operation changes nothing.
"""

import logging
import unicodedata
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from django.db import IntegrityError, transaction
from django.db.models import F, Max, Value
from django.db.models.functions import Lower
from django.utils import timezone

from gameplay.engine.checker import check
from gameplay.engine.errors import PresidentError, RuleViolation
from gameplay.engine.options import from_ruleset
from gameplay.engine.roles import Role, roles_by_position, roles_of
from gameplay.engine.rules.leading import next_dealer
from gameplay.engine.scoring import ScoreSheet
from league import idempotency, rating_jobs, rounds, table_links
from league.errors import Conflict, LeagueError, TranscriptRefused
from league.models import (
    AuditEntry,
    Club,
    Deal,
    Game,
    Place,
    Player,
    RatingJob,
    Season,
    Seat,
    SeatChange,
    default_scoring,
)
from league.names import look_alike
from league.rules import deal_dealer, options_of, rating_scope, scoring_of
from league.selectors import (
    deal_of_game,
    game_next_deal,
    game_next_dealer,
    game_next_ranking,
    may_bring_into_club,
    may_change_player,
    player_clubs,
    seated_at_open_tables,
    seated_elsewhere,
    sheet_leave,
    undoable_deal,
)

logger = logging.getLogger(__name__)

ROLE_FIELDS = {
    Role.PRESIDENT: "presidents",
    Role.VICE_PRESIDENT: "vice_presidents",
    Role.CITIZEN: "citizens",
    Role.VICE_SCUM: "vice_scums",
    Role.SCUM: "scums",
}
# Table sizes a season's options are tried at: more than any pack (3 decks and jokers) deals to.
TABLE_MAX = 200
# Shifting deal numbers past the unique (game, number) constraint, one UPDATE at a time.
RENUMBER_OFFSET = 1_000_000


def _audit(*, by, club, action: str, target, details: dict[str, Any] | None = None) -> None:
    AuditEntry.objects.create(actor=by, club=club, action=action, target=str(target)[:200],
                              details=details or {})


@transaction.atomic
def audit_record(*, by, club, action: str, target, details: dict[str, Any] | None = None):
    """The audit row of a plain admin edit (a club's or player's name), in the admin's own
    transaction; everything else writes its row inside its service."""
    _audit(by=by, club=club, action=action, target=target, details=details)


# Clubs, players, seasons, games

# Characters that change how the text around them shows without showing themselves: controls
# (Cc), format characters such as zero-width spaces and right-to-left overrides (Cf), line and
# paragraph separators. "\u202eevil\u202c Ada" shows as "live Ada".
HIDDEN_CATEGORIES = {"Cc", "Cf", "Zl", "Zp"}
# And characters of other categories that show as nothing in any text: Hangul fillers and the
# blank Braille cell (a name of one looks empty), the combining grapheme joiner, Khmer's
# deprecated inherent vowels. (Variation selectors show the character before them in another
# form, so names keep them and league.names compares names without them.)
HIDDEN_CHARACTERS = frozenset("\u034f\u115f\u1160\u17b4\u17b5\u2800\u3164\uffa0")
NAME_LONGEST = 100  # the name fields of Club, Season and Player


def name_checked(name: str, what: str) -> str:
    """``name`` without surrounding spaces, refused if empty, longer than a name field holds,
    or holding a character that hides itself or turns the text around it (zero-width,
    right-to-left and other controls); ``what`` names what is named ("a club"). Every service
    that takes a name checks it here."""
    name = name.strip()
    if not name:
        raise LeagueError(f"{what} needs a name", field="name")
    if len(name) > NAME_LONGEST:
        raise LeagueError(f"{what}'s name is at most {NAME_LONGEST} characters, not {len(name)}",
                          field="name")
    hidden = [c for c in dict.fromkeys(name)
              if unicodedata.category(c) in HIDDEN_CATEGORIES or c in HIDDEN_CHARACTERS]
    if hidden:
        listed = ", ".join(f"U+{ord(c):04X} {unicodedata.name(c, 'control character')}"
                           for c in hidden)
        raise LeagueError(f"{what}'s name cannot hold invisible or text-direction control "
                          f"characters, which make names look like others ({listed})", field="name")
    return name


def club_name_check(*, name: str, club: Club | None = None) -> str:
    """``name`` checked (name_checked) and refused if another club has it (case-insensitive);
    the admin's club form calls this too."""
    name = name_checked(name, "a club")
    if _club_named_alike(name, club) is not None:
        raise LeagueError(f"there is already a club called {name!r}", field="name")
    return name


def _club_named_alike(name: str, club: Club | None = None) -> Club | None:
    """Another club than ``club`` whose name is ``name`` in any case, compared by the
    database's lower() as its unique key on the name (models.Club) is."""
    alike = Club.objects.alias(key=Lower("name")).filter(key=Lower(Value(name)))
    if club is not None:
        alike = alike.exclude(pk=club.pk)
    return alike.first()


def _club_saved(club: Club) -> None:
    """Write ``club`` (new or renamed) after club_name_check. Of two clubs named alike at the
    same instant both are checked free; the database's unique name refuses the second, which,
    checked again, now sees the first: refused (Conflict, the API's 409) naming it."""
    try:
        with transaction.atomic():  # a savepoint: the check below runs after the refusal
            club.save()
    except IntegrityError as e:
        try:
            club_name_check(name=club.name, club=club if club.pk else None)
        except LeagueError:
            taken = _club_named_alike(club.name, club if club.pk else None)
            raise Conflict(f"there is already a club called {taken.name!r}, named so at the "
                           "same moment by another request (a club's name is unique in any "
                           "case); nothing was changed", field="name") from e
        raise  # not the name (the API answers 409, "send it again")


@transaction.atomic
def club_create(*, name: str, organisers: Sequence = (), by=None) -> Club:
    name = club_name_check(name=name)
    club = Club(name=name)
    _club_saved(club)
    club.organisers.set(organisers)
    _audit(by=by, club=club, action="club created", target=club,
           details={"organisers": [u.get_username() for u in organisers]})
    return club


@transaction.atomic
def player_create(*, name: str, kind: str = Player.PERSON, clubs: Sequence[Club] = (),
                  by=None) -> Player:
    name = name_checked(name, "a player")
    if kind not in (Player.PERSON, Player.BOT):
        raise LeagueError(f"a player is a person or a bot, not {kind!r}", field="kind")
    player_name_check(name=name, clubs=clubs)
    player = Player.objects.create(name=name, kind=kind)
    player.clubs.set(clubs)
    for club in clubs:
        _audit(by=by, club=club, action="player created", target=player, details={"kind": kind})
    return player


def player_name_check(*, name: str, clubs: Sequence[Club], player: Player | None = None,
                      joining: bool = False) -> None:
    """Refuse ``name`` if another player of one of ``clubs`` already has it, or one that looks
    the same (any case, look-alike letters: league.names.look_alike).

    Names are unique within a club, not across the site (docs/league.md "Player names"): the
    clubs' rows are locked first, in id order, so two requests naming a player of the same club
    take turns and the second sees the first's name (the admin's player form calls this too)."""
    ids = sorted({c.pk for c in clubs})
    if not ids:
        return
    list(Club.objects.select_for_update(no_key=True).filter(pk__in=ids).order_by("pk")
         .values_list("pk", flat=True))
    members = Player.clubs.through.objects.filter(club_id__in=ids)
    if player is not None:
        members = members.exclude(player_id=player.pk)
    taken = [(club, other) for club, other in members.order_by("club__name", "player__name")
             .values_list("club__name", "player__name") if look_alike(name, other)]
    if taken:
        where = "; ".join(f"{club} already has a player called {other!r}" + (
            "" if other.casefold() == name.casefold() else f", which looks the same as {name!r}")
            for club, other in taken)
        if joining:
            raise LeagueError(f"{player} cannot join {taken[0][0]}: names are unique within a "
                              f"club and {where}; rename one of them first")
        raise LeagueError(where, field="name")


def _club_names(player: Player) -> str:
    return ", ".join(sorted(c.name for c in player_clubs(player)))


@transaction.atomic
def player_join_club(*, player: Player, club: Club, by=None) -> None:
    """``player`` plays in ``club`` too; ``by`` (when given) must organise ``club`` and one of
    the player's clubs, if they have any (league.selectors.may_bring_into_club)."""
    if player.clubs.filter(pk=club.pk).exists():
        raise LeagueError(f"{player} already plays in {club}")
    if by is not None and not may_bring_into_club(by, player, club):
        raise LeagueError(f"{player} plays or played in clubs you do not organise "
                          f"({_club_names(player)}): only an organiser of one of their clubs "
                          f"may bring them into {club}")
    player_name_check(name=player.name, clubs=[club], player=player, joining=True)
    player.clubs.add(club)
    _audit(by=by, club=club, action="player joined club", target=player)


@transaction.atomic
def player_leave_club(*, player: Player, club: Club, by=None) -> None:
    """``player`` no longer plays in ``club`` (their games there stay as they were played)."""
    if not player.clubs.filter(pk=club.pk).exists():
        raise LeagueError(f"{player} does not play in {club}")
    player.clubs.remove(club)
    _audit(by=by, club=club, action="player left club", target=player)


@transaction.atomic
def club_organisers_set(*, club: Club, organisers: Sequence, by=None) -> Club:
    """Who organises ``club`` (an administrator's choice)."""
    before = sorted(u.get_username() for u in club.organisers.all())
    club.organisers.set(organisers)
    _audit(by=by, club=club, action="club organisers changed", target=club,
           details={"organisers": [before, sorted(u.get_username() for u in organisers)]})
    return club


@transaction.atomic
def club_update(*, club: Club, name: str, by=None) -> Club:
    """Rename a club (its organisers are an administrator's choice, in the admin)."""
    name = club_name_check(name=name, club=club)
    before = club.name
    club.name = name
    _club_saved(club)
    _audit(by=by, club=club, action="club changed", target=club,
           details={"name": [before, name]})
    return club


@transaction.atomic
def player_update(*, player: Player, name: str | None = None, kind: str | None = None,
                  by=None) -> Player:
    """Rename a player or correct their kind; the audit row goes to each of their clubs (those
    they played in too, league.selectors.player_clubs). ``by`` (when given) must organise every
    one of them (league.selectors.may_change_player)."""
    if by is not None and not may_change_player(by, player):
        raise LeagueError(f"{player} plays or played in {_club_names(player) or 'no club'}: "
                          "only an organiser of every club they play or played in may rename "
                          "them or change their kind")
    changed = {}
    if name is not None:
        name = name_checked(name, "a player")
        player_name_check(name=name, clubs=list(player.clubs.all()), player=player)
        changed["name"] = name
    if kind is not None:
        if kind not in (Player.PERSON, Player.BOT):
            raise LeagueError(f"a player is a person or a bot, not {kind!r}", field="kind")
        changed["kind"] = kind
    changed = {k: v for k, v in changed.items() if getattr(player, k) != v}
    if not changed:  # the form sent again as it was: no change to record
        return player
    details = {k: [getattr(player, k), v] for k, v in changed.items()}
    for key, value in changed.items():
        setattr(player, key, value)
    player.save(update_fields=list(changed))
    if "name" in changed:  # cached standings show names: show the new one at once
        for season_id in (Seat.objects.filter(player=player).order_by()
                          .values_list("game__season_id", flat=True).distinct()):
            _results_changed(season_id)
    for club in player_clubs(player):
        _audit(by=by, club=club, action="player changed", target=player, details=details)
    return player


@transaction.atomic
def season_create(*, club: Club, name: str, starts_on, preset: str = "classic",
                  options: dict | None = None, scoring: dict | None = None, ends_on=None,
                  by=None) -> Season:
    """A new season; ``scoring`` is the engine's scoring object (penalty to 4 by default)."""
    season = Season(club=club, name=name.strip(), preset=preset, options=options or {},
                    scoring=scoring or default_scoring(), starts_on=starts_on, ends_on=ends_on)
    season_check(season=season)
    season.save()
    RatingJob.objects.create(scope=rating_scope(season), season=season)
    _audit(by=by, club=club, action="season created", target=season,
           details={"preset": preset, "options": season.options,
                    "scoring": season.scoring})
    return season


def season_check(*, season: Season) -> None:
    """Refuse a season whose rules, scoring, dates or name cannot be used: every refusal at
    once (LeagueError.together)."""
    refusals = _season_refusals(season)
    if refusals:
        raise LeagueError.together(refusals)


def season_refusals(*, club: Club, season: Season | None = None, **fields) -> list[LeagueError]:
    """What season_create (or season_update of ``season``) would refuse of ``fields``, saving
    nothing; a field left out is as the season has it (a new season: a classic one with the
    default scoring). The season form asks when some of its fields are refused already, to
    say the others' refusals with them."""
    checked = Season(club=club, name="", preset="classic", options={},
                     scoring=default_scoring(), starts_on=None)
    if season is not None:
        checked = Season.objects.get(pk=season.pk)
    for key, value in fields.items():
        setattr(checked, key, value)
    return _season_refusals(checked)


def _season_refusals(season: Season) -> list[LeagueError]:
    """Each refusal of the season's name, options, scoring and dates, independent of each
    other; the name and scoring set to what is stored when they are not refused."""
    refusals = []
    try:
        season.name = name_checked(season.name, "a season")
    except LeagueError as e:
        refusals.append(e)
    else:
        clash = (Season.objects.filter(club=season.club, name__iexact=season.name)
                 .exclude(pk=season.pk).first())
        if clash is not None:
            refusals.append(LeagueError(
                f"{season.club} already has a season called {clash.name!r} (names are "
                "compared in any case)", field="name"))
    try:
        _check_playable(options_of(season))
    except LeagueError as e:
        refusals.append(e)
    try:
        season.scoring = scoring_of(season).to_dict()
    except LeagueError as e:
        refusals.append(e)
    if (season.starts_on is not None and season.ends_on is not None
            and season.ends_on < season.starts_on):
        refusals.append(LeagueError("a season cannot end before it starts", field="ends_on"))
    return refusals


def _check_playable(options) -> None:
    """Refuse options no table can play (``jokers`` 1e30), with the engine's fault at a table
    of four (of two with blind), at the first option it names; options some sizes cannot
    play (blind: two players) are game_create's to refuse."""
    faults = {}
    for players in range(2, TABLE_MAX + 1):
        try:
            options.validate(players)
            return
        except PresidentError as e:
            faults[players] = e
    # blind is only ever played by 2: the fault at 2 says what else stands in its way
    fault = faults[2 if options.blind else 4]
    raise LeagueError(fault.message, options=fault.options,
                      field=f"options.{fault.options[0]}" if fault.options else None)


@transaction.atomic
def season_update(*, season: Season, by=None, **fields) -> Season:
    """Change a season's settings; refused once a game is played if the rules would change."""
    rules_fields = {"preset", "options", "scoring"}
    unknown = set(fields) - rules_fields - {"name", "starts_on", "ends_on"}
    if unknown:
        raise LeagueError(f"unknown season field(s): {', '.join(sorted(unknown))}")
    changed = {k: v for k, v in fields.items() if getattr(season, k) != v}
    if set(changed) & rules_fields and Deal.objects.filter(game__season=season).exists():
        raise LeagueError("the rules and scoring of a season with recorded deals cannot change")
    if not changed:  # the form sent again as it was: no change to record
        return season
    for key, value in changed.items():
        setattr(season, key, value)
    season_check(season=season)
    season.save()
    _audit(by=by, club=season.club, action="season changed", target=season,
           details={k: str(v) for k, v in changed.items()})
    return season


def _table_checked(season: Season, players: Sequence[Player], dealer: int) -> dict[int, str]:
    """Refuse a table that cannot play the season's game; the players' names by id."""
    if len({p.pk for p in players}) != len(players):
        raise LeagueError("a player cannot sit at the table twice")
    try:
        options_of(season).validate(len(players))
    except PresidentError as e:
        raise LeagueError(f"this table cannot play {season.preset}: {e.message}") from e
    members = dict(season.club.players.filter(pk__in=[p.pk for p in players])
                   .values_list("pk", "name"))
    outsiders = [p.name for p in players if p.pk not in members]
    if outsiders:
        raise LeagueError(f"not players of {season.club}: {', '.join(outsiders)}")
    if not 0 <= dealer < len(players):
        raise LeagueError(f"the dealer must be one of seats 0 to {len(players) - 1}")
    return members


def _game_new(season: Season, **fields) -> Game:
    # Lock the season so two games created at once do not take the same number.
    Season.objects.select_for_update(no_key=True).get(pk=season.pk)
    number = (season.games.aggregate(n=Max("number"))["n"] or 0) + 1
    return Game.objects.create(season=season, number=number, **fields)


@transaction.atomic
def game_create(*, season: Season, players: Sequence[Player], dealer: int = 0,
                continues: Game | None = None, by=None) -> Game:
    """A new table; ``players`` in seat order (seat 0 first); ``continues``: the game it
    follows at the same table (game_same_table)."""
    by_hand(season, "starting a game")
    players = list(players)
    names = _table_checked(season, players, dealer)
    game = _game_new(season, dealer=dealer, continues=continues)
    Seat.objects.bulk_create(Seat(game=game, number=i, player=p) for i, p in enumerate(players))
    _audit(by=by, club=season.club, action="game created", target=game,
           details={"players": [names[p.pk] for p in players], "dealer": dealer})
    return game


@transaction.atomic
def game_same_table(*, game: Game, by=None) -> Game:
    """A new game of the season for the players at this finished game's table, in their seats,
    dealt by whoever would have dealt next. A second call finds that game (it is still empty)
    instead of creating another. Refused (Conflict) while one of them sits at another open
    table of the club: one person, one table."""
    by_hand(game.season, "a new game at its table", game)
    seating_locked(game.season.club_id)
    if game.status != Game.FINISHED:
        raise LeagueError(f"game {game.number} is still being played: end it first")
    next_deal = game_next_deal(game=game)
    players = [s.player for s in next_deal.seats]
    dealer = game_next_dealer(game=game, number=next_deal.number)
    dealer = players.index(dealer) if dealer in players else 0
    for later in (game.season.games.filter(number__gt=game.number, status=Game.OPEN,
                                           deal_set__isnull=True, dealer=dealer)
                  .order_by("number")):
        if [s.player for s in later.seats.order_by("number")] == players:
            return later
    free_checked(game.season, players, refusing="no game was started")
    following = game_create(season=game.season, players=players, dealer=dealer, continues=game,
                            by=by)
    # The table's phones go on entering: its live link now enters the game that continues it.
    game.table_links.filter(revoked_at__isnull=True).update(game=following)
    return following


@transaction.atomic
def game_cancel(*, game: Game, by=None) -> Game:
    """Cancel a game confirmed by mistake, before any deal: it is kept (and audited) but left
    out of every page, the standings and the seating history. A game with deals, or one that
    has ended, is refused (Conflict): its results stand."""
    by_hand(game.season, "cancelling it", game)
    game = game_locked(game)
    if game.status == Game.CANCELLED:
        raise Conflict(f"game {game.number} was already cancelled")
    deals = game.deal_set.count()
    if deals:
        raise Conflict(f"game {game.number} has {deals} deal{'s' if deals > 1 else ''}: a game "
                       "that was played cannot be cancelled (call time on it instead)")
    if game.status == Game.FINISHED:
        raise Conflict(f"game {game.number} has ended: it cannot be cancelled")
    game.status, game.cancelled_at = Game.CANCELLED, timezone.now()
    game.save(update_fields=["status", "cancelled_at"])
    _audit(by=by, club=game.season.club, action="game cancelled", target=game,
           details={"players": list(game.seats.order_by("number")
                                    .values_list("player__name", flat=True))})
    return game


@transaction.atomic
def game_store_played(*, season: Season, players: Sequence[Player], dealer: int,
                      finishing_orders: Sequence[Sequence[int]], totals: Sequence[int],
                      winners: Sequence[int], over: bool, by=None) -> Game:
    """Store a whole game the engine played (the match runner's GameResult) in one go: the
    table (``players`` in seat order), every deal's places, and the totals, winners and end
    as the engine's ScoreSheet computed them; finishing orders, totals and winners are by
    seat. The engine played by the rules, so nothing is replayed or rescored here (a test
    checks the stored totals against a ScoreSheet replay); the ratings are marked stale once.
    """
    players = list(players)
    names = _table_checked(season, players, dealer)
    n = len(players)
    if any(sorted(order) != list(range(n)) for order in finishing_orders):
        raise LeagueError(f"each finishing order must list seats 0 to {n - 1} once")
    if not finishing_orders or len(totals) != n or not set(winners) <= set(range(n)):
        raise LeagueError("a played game has deals, a total for each seat and winners "
                          "among its seats")
    roles = roles_by_position(n)
    counts = [defaultdict(int) for _ in range(n)]
    dealers = [dealer]
    options = options_of(season)
    for order in finishing_orders:
        for position, seat in enumerate(order, start=1):
            _count_place(counts[seat], position, roles[position - 1])
        dealers.append(next_dealer(options, range(n), dealers[-1], order))
    game = _game_new(season, dealer=dealer, status=Game.FINISHED if over else Game.OPEN)
    game = _locked_for_deals(game)  # the one lock order of deal writers
    Seat.objects.bulk_create(
        Seat(game=game, number=i, player=p, points=totals[i], is_winner=i in winners,
             **counts[i]) for i, p in enumerate(players))
    deals = Deal.objects.bulk_create(
        Deal(game=game, number=i, dealer=dealers[i - 1], recorded_by=by)
        for i in range(1, len(finishing_orders) + 1))
    Place.objects.bulk_create(
        Place(deal=deal, seat=seat, player_id=players[seat].pk, position=i,
              role=roles[i - 1].value)
        for deal, order in zip(deals, finishing_orders, strict=True)
        for i, seat in enumerate(order, start=1))
    _audit(by=by, club=season.club, action="game played", target=game,
           details={"players": [names[p.pk] for p in players], "dealer": dealer,
                    "deals": len(deals), "winners": [names[players[s].pk] for s in winners]})
    _results_changed(season.pk)
    rating_jobs.mark_stale(season, deals[0].pk)
    return game


@transaction.atomic
def game_time_called(*, game: Game, by=None) -> Game:
    """End an open game at the end of the night with its scoring system's rule for an
    unfinished game (the engine's ScoreSheet.call_time; docs/league.md "Time called")."""
    by_hand(game.season, "calling time", game)
    game = _locked_for_deals(game)
    if game.status == Game.FINISHED:
        raise LeagueError(f"{game} has already ended")
    if not game.deal_set.exists():
        raise LeagueError(f"no deal has been played in {game} yet: there is nothing to score")
    game.time_called_at = timezone.now()
    game.save(update_fields=["time_called_at"])
    _game_rescore(game)
    _audit(by=by, club=game.season.club, action="time called", target=game,
           details={"winners": _winner_names(game),
                    "totals": dict(game.seats.order_by("number")
                                   .values_list("player__name", "points"))})
    return game


@dataclass(frozen=True)
class ReopenPreview:
    """What reopening a finished game would change, read before the change is rolled back."""

    winners_before: list  # the game's winners (Player rows) now
    winners_after: list  # its winners once reopened (none while it goes on)
    time_called: bool  # whether it ended by time called (then it goes on once reopened)


@transaction.atomic
def game_reopen(*, game: Game, by=None) -> Game:
    """Reopen a finished game so that its deals can be undone or corrected: time called is
    taken back (the game goes on and has no winner until it ends again); a game its deals
    decided stays decided, but its deals can be corrected until it ends again."""
    by_hand(game.season, "reopening it", game)
    game = _locked_for_deals(game)
    if game.status != Game.FINISHED:
        raise LeagueError(f"game {game.number} has not ended: there is nothing to reopen")
    if game.reopened_at is not None:
        raise LeagueError(f"game {game.number} is already reopened")
    before = _winner_names(game)
    game.time_called_at = None
    game.reopened_at = timezone.now()
    game.save(update_fields=["time_called_at", "reopened_at"])
    _game_rescore(game)
    _audit(by=by, club=game.season.club, action="game reopened", target=game,
           details={"winners before": before, "winners after": _winner_names(game)})
    return game


def _winner_names(game: Game) -> list[str]:
    return list(game.seats.filter(is_winner=True).order_by("number")
                .values_list("player__name", flat=True))


def game_reopen_preview(*, game: Game) -> ReopenPreview:
    """What ``game_reopen`` would change (nothing written), or the LeagueError it would refuse
    with: the real operation in a transaction that is then rolled back."""
    class _Preview(Exception):
        pass

    def winners():
        return [s.player for s in game.seats.filter(is_winner=True).select_related("player")
                .order_by("number")]

    before = winners()
    time_called = Game.objects.filter(pk=game.pk, time_called_at__isnull=False).exists()
    try:
        with transaction.atomic():
            game_reopen(game=game)
            preview = ReopenPreview(winners_before=before, winners_after=winners(),
                                    time_called=time_called)
            raise _Preview
    except _Preview:
        return preview


# Deals


def seating_locked(club_id: int) -> None:
    """Lock the club before a write that checks who sits at its open tables (one person, one
    table, in any of its seasons): of two writes seating the same player at once, the second
    checks once the first is written. Taken before any season or game row (night_confirm,
    free_checked, seat_change_apply), so writers lock in one order."""
    Club.objects.select_for_update(no_key=True).get(pk=club_id)


def game_locked(game: Game) -> Game:
    """The game row, locked until the transaction ends: its deals and seats change in turn."""
    # FOR NO KEY UPDATE of the game row only: rows that merely reference the game, its season
    # or club (places, rating history) can still be written by others meanwhile.
    return (Game.objects.select_for_update(of=("self",), no_key=True)
            .select_related("season__club").get(pk=game.pk))


def _locked_for_deals(game: Game) -> Game:
    """The game row, locked until the transaction ends, before any deal is touched: a game's
    writers of deals take turns. Nothing shared with other games is locked: the ratings are
    marked stale by inserting rows (rating_jobs.mark_stale), and a ratings recompute takes no
    lock on deals, so a writer never waits for it nor it for a writer (the deadlocks of
    issue #16; docs/league.md, "Ratings")."""
    game = game_locked(game)
    if game.status == Game.CANCELLED:
        raise Conflict(f"game {game.number} was cancelled: nothing can be entered in it")
    return game


# The fields of president-transcript/1 (TRANSCRIPT.md) at each level: only these are stored.
# (A ruleset's, scoring's and options' fields the engine itself refuses when unknown.)
TRANSCRIPT_FIELDS = ("format", "ruleset", "players", "dealer", "scoring", "deals")
DEAL_FIELDS = ("hands", "blind", "exchanges", "leader", "direction", "moves")
EXCHANGE_FIELDS = ("from", "to", "cards", "asked")
MOVE_FIELDS = ("seat", "play", "as", "pass", "blind")


def transcript_kept(transcript: Any) -> Any:
    """The transcript as stored: only the format's fields; refused if any text in it holds a
    NUL character, which PostgreSQL cannot store. Anything not shaped like a transcript is
    returned as it is, for the engine's checker to refuse."""
    _refuse_nul(transcript)
    if not isinstance(transcript, dict):
        return transcript
    kept = _fields(transcript, TRANSCRIPT_FIELDS)
    if isinstance(kept.get("deals"), list):
        kept["deals"] = [_deal_kept(d) for d in kept["deals"]]
    return kept


def _fields(data: Any, names: Sequence[str]) -> Any:
    return {k: data[k] for k in names if k in data} if isinstance(data, dict) else data


def _deal_kept(deal: Any) -> Any:
    deal = _fields(deal, DEAL_FIELDS)
    for name, fields in (("exchanges", EXCHANGE_FIELDS), ("moves", MOVE_FIELDS)):
        if isinstance(deal, dict) and isinstance(deal.get(name), list):
            deal[name] = [_fields(entry, fields) for entry in deal[name]]
    return deal


def _refuse_nul(data: Any) -> None:
    pending = [data]
    while pending:  # not recursive: depth is the JSON parser's to bound
        item = pending.pop()
        if isinstance(item, dict):
            pending.extend(item.keys())
            pending.extend(item.values())
        elif isinstance(item, list):
            pending.extend(item)
        elif isinstance(item, str) and "\x00" in item:
            raise LeagueError("the transcript holds a NUL character (\\u0000), which no text "
                              "in a transcript may hold")


def _seats_for(seats: Sequence[Seat], deal_number: int) -> list[Seat]:
    return [s for s in seats if s.plays_in(deal_number)]


def _check_order(finishing_order: Sequence, seated: Sequence[Seat], deal_number: int) -> list[int]:
    order = list(finishing_order)
    if not all(isinstance(p, int) and not isinstance(p, bool) for p in order):
        raise LeagueError("a finishing order is a list of player ids")
    seated_ids = {s.player_id for s in seated}
    names = {s.player_id: s.player.name for s in seated}
    twice = sorted({p for p in order if order.count(p) > 1})
    strangers = [p for p in dict.fromkeys(order) if p not in seated_ids]
    missing = [p for p in seated_ids if p not in order]
    if twice or strangers or missing:
        problems = []
        if twice:
            problems.append("listed twice: " + ", ".join(names.get(p, str(p)) for p in twice))
        if strangers:
            stranger_names = dict(Player.objects.filter(pk__in=strangers)
                                  .values_list("pk", "name"))
            problems.append("not at the table for this deal: "
                            + ", ".join(stranger_names.get(p, f"#{p}") for p in strangers))
        if missing:
            problems.append("missing: " + ", ".join(sorted(names[p] for p in missing)))
        raise LeagueError(f"the finishing order of deal {deal_number} must list each of the "
                          f"{len(seated)} seated players once ({'; '.join(problems)})")
    return order


def _transcript_order(season: Season, seated: Sequence[Seat], transcript) -> list[int]:
    """The finishing order (player ids) of a one-deal transcript checked by the engine.

    The transcript's seat i is the i-th seat at the table (by seat number) for that deal.
    """
    status, verdict = check(transcript)
    if not verdict["valid"]:
        raise TranscriptRefused(verdict)
    if len(verdict["deals"]) != 1:
        raise LeagueError(f"a deal's transcript holds exactly one deal, "
                          f"not {len(verdict['deals'])}")
    if transcript["players"] != len(seated):
        raise LeagueError(f"the transcript has {transcript['players']} players but "
                          f"{len(seated)} are at the table")
    if from_ruleset(transcript["ruleset"]) != options_of(season):
        raise LeagueError(f"the transcript's rules are not this season's ({season.preset} "
                          f"with options {season.options or 'as preset'})")
    deal = verdict["deals"][0]
    if not deal["finished"]:
        raise LeagueError("the transcript's deal stops before it ends")
    by_seat = sorted(seated, key=lambda s: s.number)
    return [by_seat[i].player_id for i in deal["finishing_order"]]


def finishing_order_check(*, game: Game, finishing_order: Sequence[int],
                          number: int | None = None) -> list[int]:
    """``finishing_order`` (player ids, first out first) as the game's next deal (``number``)
    would take it, or the LeagueError deal_record would refuse it with: for a preview,
    nothing written."""
    next_number = (game.deal_set.aggregate(n=Max("number"))["n"] or 0) + 1
    _number_checked(game, number, next_number)
    number = next_number
    seated = _seats_for(list(game.seats.select_related("player")), number)
    return _check_order(finishing_order, seated, number)


def _resolve_order(game: Game, seated, number, finishing_order, transcript) -> list[int]:
    if transcript is None:
        if finishing_order is None:
            raise LeagueError("give a finishing order or a transcript")
        return _check_order(finishing_order, seated, number)
    from_transcript = _transcript_order(game.season, seated, transcript)
    if finishing_order is not None and list(finishing_order) != from_transcript:
        _check_order(finishing_order, seated, number)
        raise LeagueError("the finishing order does not match the transcript's")
    return from_transcript


def _write_places(deal: Deal, order: Sequence[int], seats: Sequence[Seat]) -> None:
    seat_of = {s.player_id: s.number for s in seats}
    roles = roles_of(order)
    Place.objects.bulk_create(
        Place(deal=deal, seat=seat_of[p], player_id=p, position=i, role=roles[p].value)
        for i, p in enumerate(order, start=1)
    )


def _game_rescore(game: Game) -> None:
    """Recompute a game's totals, end and winners from its deals, with the engine's scoring."""
    sheet = ScoreSheet(scoring_of(game.season))
    seats = list(game.seats.all())
    counts = {s.player_id: defaultdict(int) for s in seats}
    places_by_deal = defaultdict(list)
    for place in Place.objects.filter(deal__game=game).values_list(
            "deal__number", "player_id", "position", "role"):
        places_by_deal[place[0]].append(place[1:])
    for number in sorted(places_by_deal):
        places = sorted(places_by_deal[number], key=lambda p: p[1])
        try:
            sheet_leave(sheet, seats, number)
            sheet.add([p for p, _, _ in places])
        except RuleViolation as e:
            ended = number - 1
            raise LeagueError(
                f"the game would end after deal {ended}, so deal {number} would come after its "
                f"end ({e.message}); delete the later deals first") from e
        for player, position, role in places:
            _count_place(counts[player], position, Role(role))
    if not sheet.finished:
        sheet_leave(sheet, seats)  # who left before a deal not yet played
    if game.time_called_at is not None and not sheet.finished:
        sheet.call_time()  # its deals cannot change until it is reopened (game_reopen)
    winners = set(sheet.winners)
    for seat in seats:
        c = counts[seat.player_id]
        totals = {"points": sheet.totals.get(seat.player_id, 0),
                  "is_winner": seat.player_id in winners,
                  **{name: c[name] for name in ("deals", "position_sum", *ROLE_FIELDS.values())}}
        # One plain UPDATE per changed seat: bulk_update's CASE expressions cost more to build
        # than the few round trips of a table's seats.
        if any(getattr(seat, name) != value for name, value in totals.items()):
            Seat.objects.filter(pk=seat.pk).update(**totals)
    status = Game.FINISHED if sheet.finished else Game.OPEN
    if game.status != status:
        game.status = status
        Game.objects.filter(pk=game.pk).update(status=status)
    if status == Game.OPEN and game.reopened_at is not None:  # open: nothing left to reopen
        game.reopened_at = None
        Game.objects.filter(pk=game.pk).update(reopened_at=None)
    _results_changed(game.season_id)


def _count_place(counts: dict[str, int], position: int, role: Role) -> None:
    """Add a deal's place to a seat's counts (the Seat columns other than points)."""
    counts["deals"] += 1
    counts["position_sum"] += position
    counts[ROLE_FIELDS[role]] += 1


def _results_changed(season_id: int) -> None:
    """A new key for the season's cached standings, committed with the change itself."""
    Season.objects.filter(pk=season_id).update(results_version=F("results_version") + 1)


def _number_checked(game: Game, number: int | None, next_number: int) -> None:
    """Refuse a deal ``number`` that is not the game's next (Conflict): entered on another
    phone meanwhile, it is said when, from where, by whom and with what finishing order.
    ``None`` (the site's own writers, tests) means the next one."""
    if number is None or number == next_number:
        return
    then = ("the game has ended" if game.status == Game.FINISHED
            else f"the next deal is deal {next_number}")
    deal = (game.deal_set.select_related("recorded_by").prefetch_related("places__player")
            .filter(number=number).first())
    deleted = _deleted_words(game) if deal is None else ""
    if deal is None and number > next_number and game.status != Game.FINISHED:
        # A deal ahead: one before it was undone, or a phone's kept deal refused when sent.
        why = (f": {deleted}" if deleted
               else " (undone meanwhile, or refused when it was sent?)")
        raise Conflict(f"deal {number} cannot be recorded: {then}, not recorded yet{why}; "
                       "nothing was recorded")
    if deal is None:
        why = f": {deleted}" if deleted else " (a deal was undone or deleted meanwhile?)"
        raise Conflict(f"deal {number} cannot be recorded: {then}{why}; nothing was recorded")
    order = ", ".join(p.player.name for p in sorted(deal.places.all(), key=lambda p: p.position))
    raise Conflict(f"deal {number} was already recorded {_recorded_words(deal)} (finishing "
                   f"order: {order}); nothing was recorded, {then}")


def _at_words(at) -> str:
    when = timezone.localtime(at)
    return (f"at {when:%H:%M}" if when.date() == timezone.localdate()
            else f"on {when:%d %b %Y} at {when:%H:%M}")


def _recorded_words(deal: Deal) -> str:
    """When, from where and by whom ``deal`` was recorded: "at 21:04 from a table link"."""
    said = [_at_words(deal.recorded_at)]
    if deal.source != Deal.OTHER:
        said.append(f"from {deal.get_source_display()}")
    if deal.recorded_by is not None:
        said.append(f"by {deal.recorded_by.get_username()}")
    return " ".join(said)


def _deleted_words(game: Game) -> str:
    """The game's last deal deleted (or undone), from its audit row, in words: "deal 1 was
    deleted at 21:04 by ann, and the deals after it moved up one number"; '' if none."""
    entry = (AuditEntry.objects.filter(club=game.season.club_id, action="deal deleted",
                                       details__game=game.pk)
             .select_related("actor").first())
    if entry is None or "number" not in entry.details:
        return ""
    by = f" by {entry.actor.get_username()}" if entry.actor is not None else ""
    number = entry.details["number"]
    moved = (", and the deals after it moved up one number"
             if game.deal_set.filter(number__gte=number).exists() else "")
    return f"deal {number} was deleted {_at_words(entry.at)}{by}{moved}"


def by_hand(season: Season, doing: str, game: Game | None = None) -> None:
    """Refuse ``doing`` by hand in a bot tournament's season: the tournament plays and stores
    its games (game_store_played), and its page, replays and figures are read from them."""
    if hasattr(season, "tournament"):
        what = f"Game {game.number} is a game" if game else f"{season.name} is the season"
        raise LeagueError(f"{what} of the bot tournament {season.tournament.name}, which plays "
                          f"and stores its games: {doing} by hand is not done there")


def _editable(game: Game, doing: str) -> None:
    """Refuse to undo or correct the deals of a game that has ended, unless an organiser
    reopened it (game_reopen): its winner would change without anyone saying so."""
    if game.status == Game.FINISHED and game.reopened_at is None:
        how = "time was called" if game.time_called_at else "its deals decided it"
        raise Conflict(f"game {game.number} has ended ({how}): an organiser must reopen it "
                       f"before {doing}; nothing was changed")


@transaction.atomic
def deal_record(*, game: Game, finishing_order: Sequence[int] | None = None,
                transcript: dict | None = None, number: int | None = None,
                source: str = Deal.OTHER, by=None, table_link=None) -> Deal:
    """Record deal ``number`` of a game, which must be its next one (every entry names the
    deal it records, so the same deal entered on two phones is stored once): its finishing
    order (player ids, first out first), or a transcript the engine checks; rescore the game
    and mark the ratings stale. ``source`` says where it was entered (Deal.SOURCE_CHOICES);
    a deal entered with a ``table_link`` (league.table_links) is that link's."""
    by_hand(game.season, "recording a deal", game)
    if transcript is not None:
        transcript = transcript_kept(transcript)
    game = _locked_for_deals(game)
    if table_link is not None:
        table_links.link_checked(table_link, game)
        source = Deal.TABLE_LINK
    previous = game.deal_set.prefetch_related("places").order_by("-number").first()
    next_number = previous.number + 1 if previous else 1
    _number_checked(game, number, next_number)
    if game.status == Game.FINISHED:
        raise LeagueError(f"{game} has ended: no more deals can be recorded")
    number = next_number
    seats = list(game.seats.select_related("player"))
    seated = _seats_for(seats, number)
    order = _resolve_order(game, seated, number, finishing_order, transcript)
    deal = Deal.objects.create(game=game, number=number, transcript=transcript,
                               dealer=deal_dealer(game, seats, number, previous), recorded_by=by,
                               source=source, table_link=table_link)
    _write_places(deal, order, seats)
    _game_rescore(game)
    names = {s.player_id: s.player.name for s in seats}
    _audit(by=by, club=game.season.club, action="deal recorded", target=deal,
           details={"finishing_order": [names[p] for p in order]})
    rating_jobs.mark_stale(game.season, deal.pk)
    return deal


@transaction.atomic
def deal_edit(*, deal: Deal, finishing_order: Sequence[int] | None = None,
              transcript: dict | None = None, by=None) -> Deal:
    """Correct a recorded deal; the game's scores and end are recomputed in this transaction."""
    by_hand(deal.game.season, "correcting a deal", deal.game)
    if transcript is not None:
        transcript = transcript_kept(transcript)
    game = _locked_for_deals(deal.game)
    _editable(game, "correcting its deals")
    deal = Deal.objects.get(pk=deal.pk)
    seats = list(game.seats.select_related("player"))
    seated = _seats_for(seats, deal.number)
    order = _resolve_order(game, seated, deal.number, finishing_order, transcript)
    before = list(deal.places.order_by("position").values_list("player__name", flat=True))
    deal.places.all().delete()
    deal.transcript = transcript
    deal.save(update_fields=["transcript"])
    _write_places(deal, order, seats)
    _game_rescore(game)
    names = {s.player_id: s.player.name for s in seats}
    _audit(by=by, club=game.season.club, action="deal edited", target=deal,
           details={"before": before, "after": [names[p] for p in order]})
    rating_jobs.mark_stale(game.season, deal.pk)
    return deal


@dataclass(frozen=True)
class DealEditPreview:
    """What correcting a deal would make of its game, read before the change is rolled back."""

    number: int  # the deal's number
    seats: list  # the game's Seat rows with their totals after the correction, by seat number
    finished: bool  # whether the game has ended after the correction
    next_ranking: list  # (player id, Role) carried into the next deal after the correction


def deal_edit_preview(*, deal: Deal, finishing_order: Sequence[int] | None = None,
                      transcript: dict | None = None) -> DealEditPreview:
    """The game as ``deal_edit`` would leave it (no change), or the LeagueError it would
    refuse the correction with. Runs the real operation in a transaction that is then rolled
    back, so the preview and the confirmed correction cannot disagree."""
    class _Preview(Exception):
        pass

    try:
        with transaction.atomic():
            edited = deal_edit(deal=deal, finishing_order=finishing_order, transcript=transcript)
            game = Game.objects.get(pk=edited.game_id)
            preview = DealEditPreview(
                number=edited.number,
                seats=list(game.seats.select_related("player").order_by("number")),
                finished=game.status == Game.FINISHED,
                next_ranking=game_next_ranking(game=game))
            raise _Preview
    except _Preview:
        return preview


@transaction.atomic
def deal_delete(*, deal: Deal, by=None) -> list[str]:
    """Delete a deal; later deals move up one number and the game is rescored. Returns the
    seat changes undone with it, in words (those after the last deal that no deal follows)."""
    by_hand(deal.game.season, "deleting a deal", deal.game)
    game = _locked_for_deals(deal.game)
    _editable(game, "deleting its deals")
    deal = Deal.objects.get(pk=deal.pk)
    number, deal_id = deal.number, deal.pk
    before = list(deal.places.order_by("position").values_list("player__name", flat=True))
    target = str(deal)
    details: dict[str, Any] = {"finishing_order": before, "game": game.pk, "number": number}
    later = Deal.objects.filter(game=game, number__gt=number)
    # Entering and leaving after the deleted deal moves up with the deals, unless it has no
    # deal to follow any more: then, if this is the last deal, it is undone with the deal.
    pending = game.seat_changes.filter(before_deal=number + 1)
    if number > 1:  # a leave of someone whose only deal this is
        pending = pending.filter(kind=SeatChange.LEAVE, player__seats__game=game,
                                 player__seats__joined_before=number)
    if later.exists():
        for change in pending.select_related("player"):
            raise LeagueError(f"deleting {target} would leave {change.player} with no deal "
                              "played between joining and leaving; delete the later deals first")
    elif pending.exists():
        details["seat changes undone"] = _seat_changes_undo(pending)
    deal.delete()
    later.update(number=F("number") + RENUMBER_OFFSET)
    Deal.objects.filter(game=game, number__gt=RENUMBER_OFFSET).update(
        number=F("number") - RENUMBER_OFFSET - 1)
    game.seat_changes.filter(before_deal__gt=number).update(before_deal=F("before_deal") - 1)
    game.seats.filter(joined_before__gt=number).update(joined_before=F("joined_before") - 1)
    game.seats.filter(left_before__gt=number).update(left_before=F("left_before") - 1)
    _game_rescore(game)
    _audit(by=by, club=game.season.club, action="deal deleted", target=target, details=details)
    rating_jobs.mark_stale(game.season, deal_id)
    return details.get("seat changes undone", [])


@transaction.atomic
def deal_undo(*, game: Game, deal_id, by=None, table_link=None) -> tuple[int, list[str]]:
    """Undo the game's last deal, named by the id the organiser saw (selectors.undoable_deal);
    refused when it is no longer the last one (undone already, or a deal came after it), and,
    through a ``table_link``, unless that link recorded it. Returns its number and the seat
    changes undone with it (deal_delete)."""
    by_hand(game.season, "undoing a deal", game)
    game = _locked_for_deals(game)
    if table_link is not None:
        table_links.link_checked(table_link, game)
    _editable(game, "undoing its last deal")
    last = undoable_deal(game=game)
    if last is None or str(last.pk) != str(deal_id):
        asked = deal_of_game(game=game, deal_id=deal_id)
        if asked is not None and last is not None:  # a deal was recorded after it meanwhile
            raise LeagueError(f"deal {asked.number} is no longer the last one: deal "
                              f"{last.number} was recorded after it {_recorded_words(last)}; "
                              "nothing was deleted")
        raise LeagueError("that deal is no longer the last one (already undone?): nothing was "
                          "deleted")
    if table_link is not None and last.table_link_id != table_link.pk:
        raise table_links.LinkRefused(f"deal {last.number} was not entered with this table "
                                      "link: only an organiser can undo it; nothing was deleted")
    return last.number, deal_delete(deal=last, by=by)


# Players entering and leaving (RULES.md, last section)


def _seat_changes_undo(changes) -> list[str]:
    """Undo entering and leaving recorded before a deal not yet played: who left sits again,
    who joined never sat. Returns what was undone, in words."""
    undone = []
    for change in changes.select_related("player").distinct().order_by("pk"):
        seats = Seat.objects.filter(game_id=change.game_id, player=change.player)
        if change.kind == SeatChange.JOIN:
            seats.filter(joined_before=change.before_deal).delete()
        else:
            seats.filter(left_before=change.before_deal).update(left_before=None)
        change.delete()
        undone.append(f"{change.player} {change.get_kind_display()}")
    return undone


@transaction.atomic
def seat_change_apply(*, game: Game, leaving: Sequence[Player] = (),
                      joining: Sequence[Player] = (), by=None,
                      table_link=None) -> list[tuple[int, Role]]:
    """Players leave or join before the next deal; returns the shifted ranking the next
    exchange uses, as (player id, Role) best first (the engine's rank_shift)."""
    by_hand(game.season, "a player leaving or joining", game)
    if joining:
        seating_locked(game.season.club_id)
    game = game_locked(game)
    if table_link is not None:
        table_links.link_checked(table_link, game)
    if not leaving and not joining:
        raise LeagueError("choose a player who leaves or joins")
    if game.status == Game.FINISHED:
        raise LeagueError(f"{game} has ended: players can no longer enter or leave")
    last = game.deal_set.aggregate(n=Max("number"))["n"]
    if last is None:
        raise LeagueError("no deal has been played yet: set the table when creating the game")
    number = last + 1
    seats = {s.player_id: s for s in game.seats.select_related("player")}
    for player in leaving:
        seat = seats.get(player.pk)
        if seat is None or not seat.plays_in(number):
            raise LeagueError(f"{player} cannot leave: not at the table")
        if seat.joined_before == number:
            raise LeagueError(f"{player} joined before this deal and has not played yet")
    members = set(game.season.club.players.values_list("pk", flat=True))
    elsewhere = seated_elsewhere(game=game) if joining else {}
    for player in joining:
        if player.pk in seats:
            seat = seats[player.pk]
            raise LeagueError(f"{player} cannot join: " + (
                "already at the table" if seat.plays_in(number) else
                "already played at this table and left"))
        if player.pk not in members:
            raise LeagueError(f"{player} does not play in {game.season.club}")
        if player.pk in elsewhere:
            raise LeagueError(f"{player} cannot join: playing at "
                              f"{_table_named(elsewhere[player.pk], game.season)}, still open; "
                              "enter their leaving there first")
    players_after = sum(1 for s in seats.values() if s.plays_in(number)) - len(leaving) \
        + len(joining)
    try:
        options_of(game.season).validate(players_after)
    except PresidentError as e:
        raise LeagueError(f"the table cannot go on with {players_after} players: {e.message}") \
            from e
    next_seat = max(s.number for s in seats.values()) + 1
    for player in leaving:
        seats[player.pk].left_before = number
        seats[player.pk].save(update_fields=["left_before"])
    for i, player in enumerate(joining):
        Seat.objects.create(game=game, number=next_seat + i, player=player, joined_before=number)
    try:
        SeatChange.objects.bulk_create(
            [SeatChange(game=game, player=p, kind=SeatChange.LEAVE, before_deal=number, by=by)
             for p in leaving]
            + [SeatChange(game=game, player=p, kind=SeatChange.JOIN, before_deal=number, by=by)
               for p in joining])
    except IntegrityError as e:  # a unique constraint caught what the checks above missed
        raise LeagueError("that player has already entered or left this game") from e
    ranking = game_next_ranking(game=game)
    _audit(by=by, club=game.season.club, action="seat change", target=game,
           details={"before_deal": number, "leaving": [p.name for p in leaving],
                    "joining": [p.name for p in joining],
                    "ranking": [[pid, role.value] for pid, role in ranking]})
    return ranking


def free_checked(season: Season, players: Sequence[Player], *, refusing: str = "") -> None:
    """Refuse (Conflict) to seat ``players`` while one sits at an open table of the club, in
    any of its seasons: one person sits at one table, so even a round started while the one
    before is in play leaves them out. Locks the club first (seating_locked): call it in a
    transaction. ``refusing`` ends the refusal ("no game was started")."""
    seating_locked(season.club_id)
    seated = seated_at_open_tables(club=season.club_id)
    at: dict[Game, list[str]] = defaultdict(list)
    for player in players:
        if player.pk in seated:
            at[seated[player.pk]].append(player.name)
    if not at:
        return
    where = rounds.where_played(list(at), season=season)
    said = [f"{_listed(names)} {'is' if len(names) == 1 else 'are'} still playing at "
            f"{where[game.pk]}"
            for game, names in sorted(at.items(), key=lambda item: (
                item[0].season_id != season.pk, item[0].season_id, item[0].number))]
    raise Conflict("; ".join(said) + f": call time on {'it' if len(at) == 1 else 'them'} "
                   "or enter their leaving there first" + (f"; {refusing}" if refusing else ""))


def _listed(names: Sequence[str]) -> str:
    return names[0] if len(names) == 1 else f"{', '.join(names[:-1])} and {names[-1]}"


def _table_named(game: Game, season: Season) -> str:
    """Where ``game`` is played, for a refusal at a game of ``season``."""
    return rounds.where_played([game], season=season)[game.pk]


def seat_change_preview(*, game: Game, leaving: Sequence[Player] = (),
                        joining: Sequence[Player] = ()) -> list[tuple[int, Role]]:
    """The ranking the next exchange would use if these players left or joined (no change).

    Runs the real operation in a transaction that is then rolled back, so the preview and the
    confirmed change cannot disagree.
    """
    class _Preview(Exception):
        pass

    try:
        with transaction.atomic():
            ranking = seat_change_apply(game=game, leaving=leaving, joining=joining)
            raise _Preview
    except _Preview:
        return ranking


# The entry page's writes, each once per form token (league.idempotency): a double tap or a
# resent post acts once.

DEAL_GONE = "that deal is no longer in this game (deleted meanwhile?): nothing was changed"


def deal_record_once(*, game: Game, finishing_order: Sequence[int], number: int, source: str,
                     by, token: str, table_link=None) -> tuple[int, bool]:
    """deal_record once per form token (per user, or per ``table_link``): (the deal's number,
    whether this call recorded it)."""
    order = list(finishing_order)

    def record():
        deal = deal_record(game=game, finishing_order=order, number=number, source=source,
                           by=by, table_link=table_link)
        return {"number": deal.number, "deal": deal.pk}

    body, recorded = idempotency.once_per_form(
        user=by, key=f"page-deal:{token}", identity=f"deal {game.pk} {number} {order}",
        write=record, reused="this form was already used for another deal: start the next "
                             "deal from the page again", table_link=table_link)
    return body["number"], recorded


def deal_edit_once(*, deal: Deal, finishing_order: Sequence[int], transcript, by,
                   token: str) -> tuple[int, bool]:
    """deal_edit once per form token: (the deal's number, whether this call corrected it)."""
    order = list(finishing_order)

    def edit():
        edited = deal_edit(deal=deal, finishing_order=order, transcript=transcript, by=by)
        return {"number": edited.number, "deal": edited.pk}

    body, edited = idempotency.once_per_form(
        user=by, key=f"page-deal-edit:{token}", identity=f"edit {deal.pk} {order}", write=edit,
        reused="this form was already used for another correction: open the deal's "
               "correction again")
    return body["number"], edited


def deal_delete_once(*, game: Game, deal_id, by, token: str) -> tuple[int, list[str], bool]:
    """Delete a game's deal (by the id the organiser saw) once per form token: a second post
    finds the token claimed, not a deal that is gone. Returns (the deal's number, the seat
    changes undone with it, whether this call deleted it)."""
    def delete():
        deal = deal_of_game(game=game, deal_id=deal_id)
        if deal is None:
            raise LeagueError(DEAL_GONE)
        return {"number": deal.number, "undone": deal_delete(deal=deal, by=by)}

    body, deleted = idempotency.once_per_form(
        user=by, key=f"page-deal-delete:{token}", identity=f"delete {game.pk} {deal_id}",
        write=delete, reused="this form was already used for another deal: open the deal "
                             "again")
    return body["number"], body["undone"], deleted
