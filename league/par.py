"""Points against role par for club players (issue #31, docs/par.md), from finishing orders
alone: each deal's starting roles (the deal before's finishing order, shifted by who left or
joined), each seat's place from the dealer, and the season's preset and scoring system.

A player's *points against par* are, summed over their deals, the deal's points less its
role par, measured from the table (``gameplay.runner.role_par.over_par``: less the table's
mean of the same). Their *role luck* is the role par they started with less the table's mean
role par: how much their roles were worth before a card was seen.
"""

from collections import Counter
from dataclasses import dataclass, field
from itertools import groupby

from django.core.cache import cache
from django.db.models import QuerySet

from gameplay.engine.options import Options, preset
from gameplay.engine.roles import Role, rank_shift, role_names
from gameplay.engine.scoring import Scoring, deal_points
from gameplay.runner import role_par
from league.models import Game, Place, Season
from league.rules import options_of, scoring_of

ORDINALS = ("first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth")
# Below this, a sum of deals' figures is said to be on par (the figures have two decimals).
ON_PAR = 0.05
# A player's par in a season is cached under the season's results version (player_pars), so
# no change is missed however long it is kept.
PAR_CACHE_SECONDS = 24 * 60 * 60


def times(n: int) -> str:
    return {1: "once", 2: "twice"}.get(n, f"{n} times")


@dataclass
class PlayerPar:
    """One player's deals against role par in some games."""

    player_id: int
    names: dict  # Role → the preset's word for it
    fewer_points_win: bool
    deals: int = 0
    over: float = 0.0  # points against par, summed
    luck: float = 0.0  # role par less the table's mean role par, summed
    points: float = 0.0  # points less the table's mean points, summed (= luck + over)
    starts: Counter = field(default_factory=Counter)  # starting role → deals
    finishes: dict = field(default_factory=dict)  # starting role → Counter of positions

    @property
    def better(self) -> float:
        """Points against par the way the scoring ranks: above zero is better than par."""
        return -self.over if self.fewer_points_win else self.over

    @property
    def signed(self) -> str:
        """The sum to one decimal with its sign, for a table's column: "+0.6", "-0.4" (a
        hyphen-minus, as the rating column: the table's sort reads it); "0.0" on par, not
        "-0.0"."""
        shown = f"{self.over:+.1f}"
        return "0.0" if shown in ("+0.0", "-0.0") else shown

    @property
    def figure(self) -> str:
        """"+0.6 over par", "0.4 under par" or "on par"."""
        if abs(self.over) < ON_PAR:
            return "on par"
        return f"+{self.over:.1f} over par" if self.over > 0 else f"{-self.over:.1f} under par"

    def _started(self, roles, pick):
        """"started as Scum 3 times and still finished second twice" for the first of
        ``roles`` the player started from; ``pick`` chooses the position to tell of."""
        for role in roles:
            if self.starts[role]:
                position, n = pick(self.finishes[role].items())
                return (f"started as {self.names[role]} {times(self.starts[role])}",
                        ORDINALS[position - 1], times(n))
        return None

    @property
    def started(self) -> str:
        """"started as President twice, Scum once, and 3 times on a game's first deal (no
        roles)"."""
        parts = [f"{self.names[role]} {times(n)}" for role, n in
                 sorted(self.starts.items(), key=lambda item: list(Role).index(item[0]))]
        first = self.deals - sum(self.starts.values())
        told = ("started as " + ", ".join(parts)) if parts else ""
        if first:
            told += (", and " if told else "") + f"{times(first)} on a game's first deal (no roles)"
        return told

    @property
    def recap(self) -> str:
        """How lucky the roles were against the table, and how the player did against them."""
        luck = -self.luck if self.fewer_points_win else self.luck
        worth = (f"worth {abs(self.luck):.1f} points {'more' if self.luck > 0 else 'less'} "
                 f"than the table's mean")
        roles = ("lucky roles" if luck >= ON_PAR else "unlucky roles" if luck <= -ON_PAR
                 else "roles as good as the table's")
        if abs(self.luck) < ON_PAR:
            worth = "worth the table's mean"
        played = self.words if self.because != self.started else self.figure
        return (f"{self.deals} deal{'s' if self.deals != 1 else ''}, {self.started}: "
                f"{roles}, {worth}. Against them: {played}.")

    @property
    def because(self) -> str:
        """What earned the figure, in the scoring's direction: a climb from the bottom roles
        when better than par, a fall from the top ones when worse, else the roles started."""
        if self.better >= ON_PAR:
            told = self._started((Role.SCUM, Role.VICE_SCUM), lambda c: min(c))
            if told:
                return f"{told[0]} and still finished {told[1]} {told[2]}"
        elif self.better <= -ON_PAR:
            told = self._started((Role.PRESIDENT, Role.VICE_PRESIDENT), lambda c: max(c))
            if told:
                return f"{told[0]} and finished {told[1]} {told[2]}"
        return self.started

    @property
    def words(self) -> str:
        """"+0.6 over par: started as Scum 3 times and still finished second twice"."""
        return f"{self.figure}: {self.because}" if self.because else self.figure


@dataclass
class Pars:
    """Every player's PlayerPar in some games, or why there is none (``why``)."""

    players: dict = field(default_factory=dict)  # player id → PlayerPar
    why: str = ""
    fewer_points_win: bool = False

    def get(self, player_id):
        return self.players.get(player_id)


def no_par_why(season) -> str:
    """Why a season has no role par, or "" when it has one."""
    if role_par.preset_of(options_of(season)) is None:
        return (f"This season's rules change options of the {season.preset} preset, so it has "
                f"no role par: role par is measured for the presets only as they stand.")
    return ""


def season_pars(season) -> Pars:
    return _pars(season, Place.objects.filter(deal__game__season=season))


def games_pars(season, game_ids) -> Pars:
    return _pars(season, Place.objects.filter(deal__game__in=list(game_ids)))


def player_pars(player) -> list[tuple]:
    """(season, the player's PlayerPar or None, why none) for each season the player played a
    deal in, newest first: two queries, whatever the number of seasons, and one while no
    result of theirs changed. Each season's is cached under its results version, which every
    change to its deals moves on: a regular's ten seasons of deals are read again only for the
    season that changed."""
    seasons = list(Season.objects.filter(games__seats__player=player, games__seats__deals__gt=0)
                   .select_related("club").distinct().order_by("-starts_on", "-pk"))
    keys = {s.pk: f"league:player-par:{player.pk}:{s.pk}:{s.results_version}" for s in seasons}
    known = cache.get_many(keys.values())
    missing = [s for s in seasons if keys[s.pk] not in known]
    rows = _rows(Place.objects.filter(deal__game__seats__player=player,
                                      deal__game__season__in=missing)) if missing else []
    by_season = {pk: list(group) for pk, group in groupby(rows, key=lambda r: r[0])}
    found = {}
    for season in missing:
        pars = _pars(season, by_season.get(season.pk, []))
        found[keys[season.pk]] = (pars.get(player.pk), pars.why)
    cache.set_many(found, PAR_CACHE_SECONDS)
    known |= found
    return [(season, *known[keys[season.pk]]) for season in seasons]


def _rows(places):
    """Every place of the deals, cancelled games left out: (season, game, deal number,
    dealer seat, seat, player), first out first."""
    return (places.exclude(deal__game__status=Game.CANCELLED)
            .order_by("deal__game__season_id", "deal__game_id", "deal__number", "position")
            .values_list("deal__game__season_id", "deal__game_id", "deal__number",
                         "deal__dealer", "seat", "player_id").iterator(chunk_size=2000))


def _pars(season, places) -> Pars:
    """``places`` a queryset of Place (one query) or the season's rows (_rows) already read."""
    why = no_par_why(season)
    if why:
        return Pars(why=why)
    options, scoring = options_of(season), scoring_of(season)
    pars = Pars(fewer_points_win=scoring.system.fewer_points_win)
    rows = _rows(places) if isinstance(places, QuerySet) else places
    for _, game in groupby(rows, key=lambda r: r[1]):
        previous = None
        for _, deal in groupby(game, key=lambda r: r[2]):
            deal = [(dealer, seat, player) for *_, dealer, seat, player in deal]
            order = [player for *_, player in deal]
            _add(pars, options, scoring, deal, _starting_roles(previous, order))
            previous = order
    return pars


def _starting_roles(previous, order) -> dict:
    """Each player's role going into the deal (none on a game's first deal)."""
    if previous is None:
        return {}
    ranking = rank_shift(previous, leaving=[p for p in previous if p not in order],
                         joining=[p for p in order if p not in previous])
    return dict(ranking)


def _add(pars, options: Options, scoring, deal, roles) -> None:
    """Add one deal's figures (rows: dealer seat, seat, player; first out first) to each of
    its players; a deal at a table size the table has no cell for adds nothing."""
    seats = sorted(seat for _, seat, _ in deal)
    players, dealer = len(seats), deal[0][0]
    dealer = seats.index(dealer) if dealer in seats else 0
    points = deal_points(scoring, [player for *_, player in deal])
    cells = {}
    for _, seat, player in deal:
        key = role_par.cell_key(str(roles.get(player, role_par.FIRST)),
                                (seats.index(seat) - dealer) % players)
        cells[player] = role_par.role_par(options, players, scoring.system.name, key)
    if None in cells.values():
        return
    mean_par = sum(c["points"] for c in cells.values()) / players
    mean_points = sum(points.values()) / players
    for position, (_, _, player) in enumerate(deal, start=1):
        mine = pars.players.get(player) or pars.players.setdefault(player, PlayerPar(
            player, role_names(options), scoring.system.fewer_points_win))
        luck = cells[player]["points"] - mean_par
        mine.deals += 1
        mine.luck += luck
        mine.points += points[player] - mean_points
        mine.over += points[player] - mean_points - luck
        if player in roles:
            mine.starts[roles[player]] += 1
            mine.finishes.setdefault(roles[player], Counter())[position] += 1


# The help page's worked example: a presidents-deck deal at four, the second of its game.
EXAMPLE_PRESET, EXAMPLE_SYSTEM = "presidents-deck", "fixed-rounds"
EXAMPLE_PREVIOUS = ["North", "East", "South", "West"]  # the first deal's finishing order
EXAMPLE_ORDER = ["East", "West", "North", "South"]  # this deal's
EXAMPLE_DEALER = "North"


@dataclass
class ExampleSeat:
    name: str
    role: str
    from_dealer: int
    par: float
    interval: tuple
    deals: int
    position: int
    points: int
    over: float

    @property
    def finished(self) -> str:
        return ORDINALS[self.position - 1]


def worked_example() -> list[ExampleSeat]:
    """Each seat of the example deal with its role par from the shipped table and its points
    over par by ``role_par.over_par``, the function the pages' figures follow."""
    options = preset(EXAMPLE_PRESET)
    scoring = Scoring.from_dict({"system": EXAMPLE_SYSTEM, "deals": 10})
    seats = EXAMPLE_PREVIOUS  # seat order round the table, the dealer first
    dealer = seats.index(EXAMPLE_DEALER)
    previous = [seats.index(name) for name in EXAMPLE_PREVIOUS]
    points = deal_points(scoring, EXAMPLE_ORDER)
    over = role_par.over_par(options, len(seats), EXAMPLE_SYSTEM, dealer, previous,
                             [points[name] for name in seats])
    names = role_names(options)
    rows = []
    for seat, name in enumerate(seats):
        key = role_par.seat_roles(len(seats), dealer, previous)[seat]
        cell = role_par.role_par(options, len(seats), EXAMPLE_SYSTEM, key)
        role = Role(key.split("@")[0])
        rows.append(ExampleSeat(name, names[role], (seat - dealer) % len(seats), cell["points"],
                                cell["interval"], cell["deals"],
                                EXAMPLE_ORDER.index(name) + 1, points[name], over[seat]))
    return rows
