"""Reads: querysets and aggregates for pages, the admin and the benchmark."""

from collections import defaultdict
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import cached_property
from hashlib import md5

from django.core.cache import cache
from django.db.models import (
    Case,
    Count,
    Exists,
    F,
    FloatField,
    Max,
    OrderBy,
    OuterRef,
    Prefetch,
    Q,
    Subquery,
    Sum,
    Value,
    When,
    Window,
)
from django.db.models.functions import Cast, Coalesce, RowNumber

from gameplay.engine.errors import RuleViolation
from gameplay.engine.roles import Role, exchange_pairs, rank_shift
from gameplay.engine.scoring import ScoreSheet, ScoringSystem, systems
from league.errors import LeagueError
from league.models import (
    Club,
    Deal,
    Game,
    Place,
    Player,
    Rating,
    RatingHistory,
    RatingJob,
    RatingStale,
    Season,
    Seat,
)
from league.par import season_pars
from league.rules import deal_dealer, options_of, rating_scope, scoring_of

ROLE_COUNTS = ("presidents", "vice_presidents", "citizens", "vice_scums", "scums")


STANDINGS_CACHE_SECONDS = 60
# The season page's rating chart: this many best-rated players, at most this many points each.
CHART_PLAYERS = 10
CHART_POINTS = 100


def tie_breaks() -> list[tuple[str, Callable[[ScoringSystem], OrderBy]]]:
    """How season_standings ranks its rows, in order (docs/league.md): each tie-break's words
    (the API shows them) and its ordering under the season's scoring system."""
    fewer = " or ".join(system.name for system in systems() if system.fewer_points_win)
    return [
        ("more wins", lambda system: F("wins").desc()),
        (f"points: fewer under {fewer} scoring, more otherwise",
         lambda system: F("points").asc() if system.fewer_points_win else F("points").desc()),
        ("lower mean finishing position", lambda system: F("mean_position").asc()),
        ("more deals as President", lambda system: F("presidents").desc()),
        ("name", lambda system: F("name").asc()),
    ]


def tie_break_words() -> list[str]:
    return [words for words, _ in tie_breaks()]


def season_standings(*, season):
    """One row per player who played a deal in the season, best first, ranked by tie_breaks().

    Cached under the season's results version, which every change to its results bumps in
    its own transaction (a player's rename too): a read costs one small query while nothing
    changes, and sees a new deal at once in every process.
    """
    version = Season.objects.filter(pk=season.pk).values_list("results_version", flat=True).get()
    key = f"league:standings:{season.pk}:{version}"
    rows = cache.get(key)
    if rows is None:
        rows = _standings(season)
        cache.set(key, rows, STANDINGS_CACHE_SECONDS)
    return rows


def _standings(season) -> list[dict]:
    """The standings aggregate itself: one query, whatever the number of players and deals."""
    system = scoring_of(season).system
    return list(
        Seat.objects.filter(game__season=season, deals__gt=0)
        .values("player_id", name=F("player__name"))
        .annotate(
            games=Count("id"),
            wins=Count("id", filter=Q(is_winner=True)),
            points=Sum("points"),
            deals_played=Sum("deals"),
            mean_position=Cast(Sum("position_sum"), FloatField())
            / Cast(Sum("deals"), FloatField()),
            **{name: Sum(name) for name in ROLE_COUNTS},
        )
        .order_by(*(ordering(system) for _, ordering in tie_breaks()))
    )


def ratings_updating(*, season=None) -> bool:
    """Whether a season's (or the all-time) ratings are still being recomputed."""
    return bool(RatingJob.stale_scopes(rating_scope(season)))


def season_ratings(*, season=None):
    """Current ratings, highest ordinal first; all-time when ``season`` is None."""
    return (Rating.objects.filter(season=season).select_related("player")
            .order_by("-ordinal", "player__name"))


def rating_history(*, player, season=None, after=None, limit=None):
    """(deal id, mu, sigma, ordinal) after each of a player's deals in deal order, those after
    deal ``after`` only when given, at most ``limit`` of them."""
    history = RatingHistory.objects.filter(player=player, season=season, deal__isnull=False)
    if after is not None:
        history = history.filter(deal_id__gt=after)
    return list(history.order_by("deal_id").values_list("deal_id", "mu", "sigma",
                                                        "ordinal")[:limit])


@dataclass
class NextDeal:
    number: int
    seats: list  # Seat rows at the table for the next deal, by seat number
    ranking: list  # (Player, Role) best first, carried from the last deal; [] before deal 1
    exchanges: list  # (giver Player, receiver Player, cards) in the order they happen
    exchange_in_preset: bool


def game_next_ranking(*, game) -> list[tuple[int, Role]]:
    """The ranking (player id, Role) carried into the next deal: the last deal's finishing
    order shifted by the players who left or joined since (engine's ``rank_shift``)."""
    last = game.deal_set.order_by("-number").first()
    if last is None:
        return []
    order = list(last.places.order_by("position").values_list("player_id", flat=True))
    changes = list(game.seat_changes.filter(before_deal=last.number + 1)
                   .values_list("kind", "player_id"))
    try:
        return rank_shift(order, leaving=[p for k, p in changes if k == "leave"],
                          joining=[p for k, p in changes if k == "join"])
    except RuleViolation as e:
        raise LeagueError(e.message) from e


def game_next_deal(*, game) -> NextDeal:
    number = (game.deal_set.aggregate(n=Max("number"))["n"] or 0) + 1
    seats = [s for s in game.seats.select_related("player").order_by("number")
             if s.plays_in(number)]
    ranking = game_next_ranking(game=game)
    players = {s.player_id: s.player for s in seats}
    return NextDeal(
        number=number, seats=seats,
        ranking=[(players[p], role) for p, role in ranking],
        exchanges=[(players[g], players[r], n) for g, r, n in exchange_pairs(ranking)],
        exchange_in_preset=options_of(game.season).has_exchange,
    )


def game_next_dealer(*, game, number: int):
    """The Player who deals the game's next deal (``number``), by the rule deals are recorded
    with (league.rules.deal_dealer, the engine's)."""
    previous = game.deal_set.prefetch_related("places").order_by("-number").first()
    seats = list(game.seats.select_related("player"))
    seat = deal_dealer(game, seats, number, previous)
    return next((s.player for s in seats if s.number == seat), None)


def undoable_deal(*, game) -> Deal | None:
    """The deal an organiser may undo on the entry page: the game's last one, if any."""
    return game.deal_set.prefetch_related("places__player").order_by("-number").first()


def deal_of_game(*, game, deal_id) -> Deal | None:
    """The game's deal with this id (as posted or asked for in a link), with its places first
    out first; None when the game has no such deal (deleted meanwhile, or not a number)."""
    if not str(deal_id).isascii() or not str(deal_id).isdigit() or len(str(deal_id)) > 18:
        return None
    return game.deal_set.prefetch_related(_places_prefetch()).filter(pk=int(deal_id)).first()


def deal_seats(*, game, number: int) -> list:
    """The Seat rows of the players at the table for deal ``number``, by seat number: those
    its finishing order lists (as services.deal_edit judges it)."""
    return [s for s in game.seats.select_related("player").order_by("number")
            if s.plays_in(number)]


def game_deals(*, game):
    """The game's deals with their places, in two queries."""
    return game.deal_set.prefetch_related(
        _places_prefetch()).order_by("number")


def _places_prefetch():
    return Prefetch("places", queryset=Place.objects.select_related("player").order_by("position"))


def game_scoreboard(*, game):
    """The game's seats with their totals, winners first then by seat."""
    return list(game.seats.select_related("player").order_by("number"))


def club_players(*, club):
    return Player.objects.filter(clubs=club).order_by("name")


def seasons_with_versions():
    """Seasons with their club, their ratings' job, whether deals were written since their
    ratings' last recompute (``ratings_marked``), their bot tournament (for a tournament's
    season) and the number of their newest game (None before the first): all the season
    page's cached parts are keyed by, in one query."""
    return _SEASONS_WITH_VERSIONS.all()


# Built once: resolving the subquery for each page took longer than running the query.
_SEASONS_WITH_VERSIONS = Season.objects.select_related("club", "rating_job", "tournament").annotate(
    last_game_number=Subquery(Game.objects.filter(season=OuterRef("pk"))
                              .order_by("-number").values("number")[:1]),
    ratings_marked=Exists(RatingStale.objects.filter(season=OuterRef("pk"))))


def season_games(*, season):
    """The season's games, newest first, with their number of deals: counted per game shown,
    so a page of them costs the same in a season of 10 or 10,000 games."""
    deals = (Deal.objects.filter(game=OuterRef("pk")).order_by().values("game")
             .annotate(n=Count("id")).values("n"))
    return (Game.objects.filter(season=season).exclude(status=Game.CANCELLED)
            .annotate(deal_count=Coalesce(Subquery(deals), 0)).order_by("-number"))


def deal_count(*, season) -> int:
    return Deal.objects.filter(game__season=season).count()


# --- reads for the web pages (a fixed number of queries, whatever the size) ---------------


@dataclass
class DealRow:
    deal: Deal
    places: list  # Place rows, first out first
    totals: list  # (Seat, running total or None when the seat has not played yet)
    ends_game: bool = False


@dataclass
class GameSheet:
    game: Game
    seats: list
    rows: list = field(default_factory=list)
    score: ScoreSheet | None = None  # the engine's sheet after the last deal


def sheet_leave(sheet: ScoreSheet, seats, before_deal: int | None = None) -> None:
    """The seats that left before deal ``before_deal`` (all who left, when None) leave
    ``sheet``: they keep their totals but are not among its winners, decided among the
    players still seated (docs/league.md "Scoring and standings"). Every sheet built from a
    game's deals calls it before each deal, and with None before time is called."""
    for seat in seats:
        if (seat.left_before is not None and seat.player_id not in sheet.left
                and (before_deal is None or seat.left_before <= before_deal)):
            sheet.leave(seat.player_id)


def game_sheet(*, game) -> GameSheet:
    """Each deal with its places and the running totals after it, under the season's scoring
    (the engine's ScoreSheet, so the page adds up as the services do)."""
    seats = game_scoreboard(game=game)
    deals = list(game_deals(game=game))
    sheet = ScoreSheet(scoring_of(game.season))
    rows = []
    for deal in deals:
        places = list(deal.places.all())
        try:
            sheet_leave(sheet, seats, deal.number)
            sheet.add([p.player_id for p in places])
        except RuleViolation:  # a deal after the end cannot be stored; show what is there
            pass
        rows.append(DealRow(
            deal=deal, places=places,
            totals=[(s, sheet.totals.get(s.player_id)) for s in seats],
            ends_game=sheet.finished and not any(r.ends_game for r in rows)))
    if not sheet.finished:
        sheet_leave(sheet, seats)  # who left before a deal not yet played
    if game.time_called_at is not None and not sheet.finished and sheet.deals:
        sheet.call_time()  # as league.services scored it
    return GameSheet(game=game, seats=seats, rows=rows, score=sheet)


def exchanges_of(ranking, players) -> list[tuple[Player, Player, int]]:
    by_id = {p.pk: p for p in players}
    return [(by_id[g], by_id[r], n) for g, r, n in exchange_pairs(ranking)]


# Players


def player_seats(*, player):
    """The player's games, newest first, with their season and club (a query: a regular's
    thousands are read a page at a time)."""
    return (Seat.objects.filter(player=player).exclude(game__status=Game.CANCELLED)
            .select_related("game__season__club").order_by("-game__created_at", "-pk"))


def player_positions(*, player) -> list[tuple[int, int]]:
    """(finishing position, how many deals) for the player."""
    return list(Place.objects.filter(player=player).values_list("position")
                .annotate(n=Count("id")).order_by("position"))


def player_head_to_head(*, player) -> list[dict]:
    """Against each other player met in a deal: deals together, and how often each finished
    ahead of the other; most met first."""
    # One join: "deal__places" in the counts is the join the filter made, the player's own
    # place in the same deal (a subquery for each row took seconds for a player of 18,000
    # deals, bench/pages.py).
    return list(
        Place.objects.filter(deal__places__player=player).exclude(player=player)
        .values("player_id", name=F("player__name"))
        .annotate(deals=Count("id"),
                  ahead=Count("id", filter=Q(deal__places__position__lt=F("position"))),
                  behind=Count("id", filter=Q(deal__places__position__gt=F("position"))))
        .order_by("-deals", "name"))


def rating_chart(*, player, season=None) -> dict:
    """The player's rating after up to CHART_POINTS of their deals, evenly spaced and their
    last among them, as chart data (labels are deal counts); in two queries. Every deal of a
    regular of ten seasons would be 18,000 points no one can read and half a megabyte of page."""
    history = RatingHistory.objects.filter(player=player, season=season, deal__isnull=False)
    total = history.count()
    every = max(1, -(-total // CHART_POINTS))
    points = list(history.annotate(n=Window(RowNumber(), order_by=F("deal_id").asc()))
                  .filter(n__in={*range(every, total + 1, every), total})
                  .order_by("n").values_list("n", "ordinal"))
    return {"labels": [n for n, _ in points], "ordinal": [round(o, 3) for _, o in points]}


def season_rating_chart(*, season, ratings=None) -> dict:
    """The ratings of the season's CHART_PLAYERS best-rated players (``ratings``, best first:
    the season's current ratings when not given) after the deal at up to CHART_POINTS evenly
    spaced places in the season's deal order, one series each; in at most three queries. All
    500 players' every deal would be a chart no one can read and megabytes of page."""
    if ratings is None:
        ratings = season_ratings(season=season)[:CHART_PLAYERS]
    names = {r.player_id: r.player.name for r in ratings[:CHART_PLAYERS]}
    if not names:
        return {"deals": 0, "every": 1, "series": []}
    deals = Deal.objects.filter(game__season=season)
    total = deals.count()
    every = max(1, -(-total // CHART_POINTS))
    marks = list(deals.annotate(n=Window(RowNumber(), order_by=F("pk").asc()))
                 .filter(n__in={*range(every, total + 1, every), total})
                 .order_by("n").values_list("n", "pk"))
    history = defaultdict(list)
    for player_id, deal_id, ordinal in (
            RatingHistory.objects.filter(season=season, player_id__in=names, deal__isnull=False)
            .order_by("player_id", "deal_id").values_list("player_id", "deal_id", "ordinal")):
        history[player_id].append((deal_id, ordinal))
    series = []
    for player_id, name in names.items():
        points, rows, i = [], history[player_id], 0
        for n, deal_id in marks:  # the rating after the player's last deal up to this one
            while i < len(rows) and rows[i][0] <= deal_id:
                i += 1
            if i:
                points.append({"x": n, "y": round(rows[i - 1][1], 3)})
        series.append({"label": name, "data": points})
    return {"deals": total, "every": every, "series": series}


class SeasonResults:
    """What the season page shows of its results and ratings, each read on first use, and
    ``key``, what they depend on: the results version (moved in each result change's own
    transaction) and the ratings' recomputation count and pending state (a Celery task
    recomputes them after the deal's transaction). A page whose fragment cached under ``key``
    is there reads none of them. ``season`` as just read, by seasons_with_versions."""

    def __init__(self, season):
        self.season = season
        try:
            job = season.rating_job
        except RatingJob.DoesNotExist:
            job = None
        self.updating = job is not None and (job.dirty_from is not None
                                             or season.ratings_marked)
        self.key = f"{season.results_version}:{job and job.runs}:{int(self.updating)}"

    @cached_property
    def ratings(self):
        return list(season_ratings(season=self.season))

    @cached_property
    def par(self):
        return season_pars(self.season)

    @cached_property
    def standings(self):
        ordinal = {r.player_id: r.ordinal for r in self.ratings}
        return [{**row, "rating": ordinal.get(row["player_id"]),
                 "par": self.par.get(row["player_id"])}
                for row in season_standings(season=self.season)]

    @cached_property
    def rating_chart(self):
        return season_rating_chart(season=self.season, ratings=self.ratings[:CHART_PLAYERS])


def season_standings_rendered(*, season, variant, render):
    """``render(rows)`` of the season's standings rows (the API's JSON document), cached
    under the results version of ``season`` as just read and ``variant`` (what else the
    document depends on): no query while nothing changes."""
    variant = md5(variant.encode(), usedforsecurity=False).hexdigest()  # may come from a header
    key = f"league:standings-rendered:{season.pk}:{season.results_version}:{variant}"
    document = cache.get(key)
    if document is None:
        document = render(season_standings(season=season))
        cache.set(key, document, STANDINGS_CACHE_SECONDS)
    return document


# Export


def season_results(*, season):
    """One row per place of every deal in the season, in game, deal and position order; each
    ends with whether the player won the game and the game's status."""
    won = Seat.objects.filter(game=OuterRef("deal__game"), player=OuterRef("player"),
                              is_winner=True)
    return (Place.objects.filter(deal__game__season=season)
            .annotate(won=Exists(won))
            .order_by("deal__game__number", "deal__number", "position")
            .values_list("deal__game__number", "deal__number", "deal__dealer", "position",
                         "seat", "player__name", "role", "deal__recorded_at", "won",
                         "deal__game__status"))


def season_transcripts(*, season):
    """(game number, deal number, transcript) of every deal recorded with a transcript."""
    return (Deal.objects.filter(game__season=season, transcript__isnull=False)
            .order_by("game__number", "number")
            .values_list("game__number", "number", "transcript"))


# Who may change a player (a player may play in several clubs: issue #16)


def _active(user) -> bool:
    return bool(user and user.is_authenticated and user.is_active)


def organises(user, club) -> bool:
    """Whether ``user`` changes ``club``'s data: one of its organisers, or an administrator."""
    if not _active(user):
        return False
    return user.is_superuser or club.organisers.filter(pk=user.pk).exists()


def organised_clubs(user):
    """The clubs ``user`` is an organiser of, by name."""
    if not _active(user):
        return Club.objects.none()
    return Club.objects.filter(organisers=user).order_by("name")


def player_clubs(player: Player):
    """The clubs a player plays in or has played in (a seat at one of its games, kept after
    they left its list): each shows the player's name in its game sheets."""
    member = Player.clubs.through.objects.filter(player=player).values("club_id")
    played = Seat.objects.filter(player=player).values("game__season__club_id")
    return Club.objects.filter(Q(pk__in=member) | Q(pk__in=played))


def may_change_player(user, player: Player) -> bool:
    """Only who organises every club of the player's (player_clubs) renames them or changes
    their kind, since each of those clubs shows the change; an administrator always may."""
    if not _active(user):
        return False
    clubs = player_clubs(player)
    return user.is_superuser or (clubs.exists() and not clubs.exclude(organisers=user).exists())


def may_bring_into_club(user, player: Player, club) -> bool:
    """An organiser of ``club`` brings in a player of no club (player_clubs: never played in
    one either), or of a club they organise too."""
    if not _active(user):
        return False
    if user.is_superuser:
        return True
    clubs = player_clubs(player)
    return club.organisers.filter(pk=user.pk).exists() and (
        not clubs.exists() or clubs.filter(organisers=user).exists())


# Public pages: home, club, player search (league.web.pages)

RECENT_GAMES = 10
SEARCH_RESULTS = 20

# How the club's all-time table ranks its rows, in order (all its seasons together; points
# are left out: seasons may score by different systems).
ALL_TIME_ORDER = ["more wins", "lower mean finishing position", "more deals played", "name"]


def recent_games(*, club=None, limit=RECENT_GAMES):
    """The newest club games (tournament games left out: their tournament has its own page),
    with their deal count and ``winners`` (the Seat rows of a finished game's winners)."""
    games = Game.objects.filter(season__tournament__isnull=True).exclude(status=Game.CANCELLED)
    if club is not None:
        games = games.filter(season__club=club)
    deals = (Deal.objects.filter(game=OuterRef("pk")).order_by().values("game")
             .annotate(n=Count("id")).values("n"))
    winners = Seat.objects.filter(is_winner=True).select_related("player").order_by("number")
    return list(games.select_related("season__club")
                .annotate(deal_count=Coalesce(Subquery(deals), 0))
                .prefetch_related(Prefetch("seats", queryset=winners, to_attr="winners"))
                .order_by("-created_at", "-pk")[:limit])


def club_all_time(*, club) -> list[dict]:
    """One row per player who played a deal in any of the club's seasons, ranked by
    ALL_TIME_ORDER, with their all-time rating (all clubs; None before it is computed).
    Cached under the club's seasons' results versions, which only ever move on."""
    versions = Season.objects.filter(club=club).aggregate(n=Count("id"), v=Sum("results_version"),
                                                          last=Max("id"))
    key = f"league:club-all-time:{club.pk}:{versions['n']}:{versions['v']}:{versions['last']}"
    rows = cache.get(key)
    if rows is None:
        rows = list(
            Seat.objects.filter(game__season__club=club, deals__gt=0)
            .values("player_id", name=F("player__name"))
            .annotate(
                seasons=Count("game__season", distinct=True),
                games=Count("id"),
                wins=Count("id", filter=Q(is_winner=True)),
                deals_played=Sum("deals"),
                mean_position=Cast(Sum("position_sum"), FloatField())
                / Cast(Sum("deals"), FloatField()),
                **{name: Sum(name) for name in ROLE_COUNTS},
            )
            .order_by(F("wins").desc(), F("mean_position").asc(), F("deals_played").desc(),
                      "name"))
        cache.set(key, rows, STANDINGS_CACHE_SECONDS)
    ratings = dict(Rating.objects.filter(season=None, player_id__in=[r["player_id"] for r in rows])
                   .values_list("player_id", "ordinal"))
    return [{**row, "rating": ratings.get(row["player_id"])} for row in rows]


def player_search(*, query, limit=SEARCH_RESULTS):
    """Players whose name contains ``query`` (any case), names starting with it first, at
    most ``limit`` + 1 (so the page can say there are more), with their clubs."""
    return list(Player.objects.filter(name__icontains=query)
                .annotate(starts=Case(When(name__istartswith=query, then=Value(0)),
                                      default=Value(1)))
                .prefetch_related("clubs").order_by("starts", "name", "pk")[:limit + 1])


def player_rating(*, player):
    """The player's all-time rating, or None before their first rated deal."""
    return Rating.objects.filter(season=None, player=player).first()


# The organisers' club page (league.web.organiser)

OPEN_TABLES_SHOWN = 40  # open games listed on the organisers' club page, newest first


def club_league_seasons(*, club):
    """The club's own seasons (a bot tournament's season belongs to its tournament), newest
    first, each with its number of games."""
    return (Season.objects.filter(club=club, tournament__isnull=True)
            .annotate(game_count=Count("games")).order_by("-starts_on", "-pk"))


def seated_at_open_tables(*, club, but=None) -> dict[int, Game]:
    """Who sits now at an open game of ``club`` (a club or its id; tonight's tables, as
    club_open_tables: any season, bot tournaments' left out), the game ``but`` left out:
    player id to that game. One person plays at one table at a time."""
    seats = (Seat.objects.filter(game__season__club=club,
                                 game__season__tournament__isnull=True, game__status=Game.OPEN,
                                 left_before__isnull=True)
             .exclude(game=but).select_related("game__season").order_by("game__number"))
    return {seat.player_id: seat.game for seat in seats}


def seated_elsewhere(*, game) -> dict[int, Game]:
    """Who sits now at another open game of ``game``'s club: they may not join ``game``."""
    return seated_at_open_tables(club=game.season.club_id, but=game)


def club_open_tables(*, club, limit=OPEN_TABLES_SHOWN):
    """The club's open games (tonight's tables), newest first, at most ``limit``: each with
    its season, its deal count and ``at_table``, the Seat rows of who sits there now in seat
    order. A fixed number of queries, whatever the number of tables."""
    from django.db.models import Prefetch

    deals = (Deal.objects.filter(game=OuterRef("pk")).order_by().values("game")
             .annotate(n=Count("id")).values("n"))
    seats = Seat.objects.filter(left_before__isnull=True).select_related("player") \
        .order_by("number")
    return list(Game.objects.filter(season__club=club, season__tournament__isnull=True,
                                    status=Game.OPEN)
                .select_related("season")
                .annotate(deal_count=Coalesce(Subquery(deals), 0))
                .prefetch_related(Prefetch("seats", queryset=seats, to_attr="at_table"))
                .order_by("-created_at", "-pk")[:limit])
