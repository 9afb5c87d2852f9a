"""The scoring systems for a game of several deals (RULES.md "Scoring systems").

Each system is one registered object (``ScoringSystem``): the points of a deal, when a game
is decided, who wins when time is called, which way points rank, its parameters and its
words. Everything else (score sheets, standings, forms, pages, the API) asks the system by
its name (``system_named``); an unknown name is an error, never another system.
"""

from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from gameplay.engine.errors import OptionsError, RuleViolation
from gameplay.engine.roles import Role, roles_by_position

ROLE_POINTS = {Role.PRESIDENT: 2, Role.VICE_PRESIDENT: 1}

# A limit, target or number of deals at most. RULES.md's are a limit of 4-6, a target of 11
# and 3-10 deals; 100 leaves room for house rules while every game still ends within
# selfplay.MAX_DEALS deals (a penalty game by its limit's deal, first-to-eleven by
# target x players / 2).
SCORING_MOST = 100


@dataclass(frozen=True)
class Parameter:
    """A whole number a system takes. ``default`` stands in when none of the system's
    parameters is set; ``required`` ones must be set. Parameters of the same name in several
    systems are the same control on a form: they share label and bounds."""

    name: str
    title: str  # its name in words: "Points limit"
    label: str  # its control's label, the same wherever the name is: "Points limit (penalty)"
    words: str  # its value in a line of words: "ends at {} points"
    help: str  # what it does under its system
    default: int | None = None
    required: bool = False
    least: int = 1
    most: int = SCORING_MOST
    kind: type = int


class ScoringSystem:
    """One way of scoring a game; a subclass per system, registered with ``register``."""

    name: str
    description: str  # the system in a sentence or two (docs/rules/scoring.md)
    time_called_rule: str  # who wins when time is called, after "when time is called, ..."
    parameters: tuple[Parameter, ...]
    fewer_points_win: bool  # which way points rank: penalty points are better fewer

    def deal_points(self, finishing_order: Sequence[Hashable]) -> dict[Hashable, int]:
        """Points each player takes from one deal."""
        raise NotImplementedError

    def decided(self, sheet: "ScoreSheet") -> list[Hashable] | None:
        """The winners if the game has ended after ``sheet``'s latest deal, else None."""
        raise NotImplementedError

    def called(self, sheet: "ScoreSheet") -> list[Hashable]:
        """The winners of a game ended by time called after ``sheet``'s deals."""
        raise NotImplementedError

    def parameter(self, name: str) -> Parameter | None:
        return next((p for p in self.parameters if p.name == name), None)


_SYSTEMS: dict[str, ScoringSystem] = {}


def register(system: ScoringSystem) -> ScoringSystem:
    """Make ``system`` known by its name (a second one of the same name replaces it)."""
    _SYSTEMS[system.name] = system
    return system


def unregister(name: str) -> None:
    _SYSTEMS.pop(name, None)


def systems() -> tuple[ScoringSystem, ...]:
    """Every registered system, in the order they were registered."""
    return tuple(_SYSTEMS.values())


def system_named(name: Any) -> ScoringSystem:
    system = _SYSTEMS.get(name) if isinstance(name, str) else None
    if system is None:
        raise OptionsError(f"unknown scoring system {name!r}; "
                           f"systems are {', '.join(_SYSTEMS)}", field="system")
    return system


def parameters() -> dict[str, Parameter]:
    """Each parameter name any system takes, with the first system's parameter of that name,
    in an order that keeps each system's own (limit, target, deals)."""
    found: dict[str, Parameter] = {}
    for system in systems():
        for p in system.parameters:
            found.setdefault(p.name, p)
    before = {name: set() for name in found}  # the names some system lists before each
    for system in systems():
        names = [p.name for p in system.parameters]
        for i, name in enumerate(names):
            before[name].update(names[:i])
    ordered: dict[str, Parameter] = {}
    while len(ordered) < len(found):
        name = next((n for n in found if n not in ordered and before[n] <= set(ordered)),
                    next(n for n in found if n not in ordered))  # systems that disagree
        ordered[name] = found[name]
    return ordered


class Scoring:
    """A game's scoring: a system and the parameters set for it (``Scoring("penalty",
    limit=6)``); the transcript's ``scoring`` object is ``to_dict()``. A refusal (OptionsError)
    names the field of that object it is about as its ``field``: "system", "limit"…"""

    __slots__ = ("system", "values")

    def __init__(self, system: str, **values: Any):
        self.system = system_named(system)
        self.values = {name: value for name, value in values.items() if value is not None}
        for name, value in self.values.items():
            p = self.system.parameter(name)
            if p is None:
                raise OptionsError(f"scoring {system!r} takes no {name!r}", field=name)
            if not isinstance(value, p.kind) or isinstance(value, bool) or value < p.least:
                raise OptionsError(f"scoring {name} must be a positive whole number, "
                                   f"not {value!r}", field=name)
            if value > p.most:
                raise OptionsError(f"scoring {name} must be at most {p.most}, not {value}",
                                   field=name)
        for p in self.system.parameters:
            if p.required and p.name not in self.values:
                raise OptionsError(f"{system} needs a {p.title.lower()}", field=p.name)

    def value(self, name: str) -> int | None:
        """Parameter ``name`` as set; its default when none of the system's is set."""
        if self.values:
            return self.values.get(name)
        p = self.system.parameter(name)
        return p.default if p else None

    @classmethod
    def from_dict(cls, data: Any) -> "Scoring":
        if not isinstance(data, Mapping) or "system" not in data:
            raise OptionsError('scoring must be an object with a "system"',
                               field="system" if isinstance(data, Mapping) else None)
        known = {"system", *parameters()}
        unknown = set(data) - known
        if unknown:
            raise OptionsError(f"unknown scoring field(s) {sorted(unknown)}")
        return cls(**dict(data))

    def words(self) -> str:
        """The scoring in a line: the system and the parameters it plays by (a default when
        none is set, as ``value``)."""
        return ", ".join([self.system.name, *(p.words.format(self.value(p.name))
                                              for p in self.system.parameters
                                              if self.value(p.name) is not None)])

    def to_dict(self) -> dict[str, Any]:
        return {"system": self.system.name,
                **{p.name: self.values[p.name] for p in self.system.parameters
                   if p.name in self.values}}

    def __eq__(self, other):
        return isinstance(other, Scoring) and self.to_dict() == other.to_dict()

    def __hash__(self):
        return hash(tuple(self.to_dict().items()))

    def __repr__(self):
        return f"Scoring({self.to_dict()!r})"


def deal_points(scoring: Scoring, finishing_order: Sequence[Hashable]) -> dict[Hashable, int]:
    """Points each player takes from one deal under ``scoring``."""
    return scoring.system.deal_points(finishing_order)


@dataclass
class ScoreSheet:
    """A game's running score; ``add`` one finished deal's finishing order at a time, and
    ``leave`` a player who leaves the table between deals."""

    scoring: Scoring
    totals: dict[Hashable, int] = field(default_factory=dict)
    positions: dict[Hashable, list[int]] = field(default_factory=dict)
    deals: int = 0
    finished: bool = False
    winners: list[Hashable] = field(default_factory=list)
    last_order: list[Hashable] = field(default_factory=list)
    called: bool = False  # ended by time being called, not by its own rule
    left: set[Hashable] = field(default_factory=set)  # players who left: they cannot win

    def add(self, finishing_order: Sequence[Hashable]) -> None:
        if self.finished:
            raise RuleViolation("the game has already ended")
        points = self.scoring.system.deal_points(finishing_order)
        for position, player in enumerate(finishing_order, start=1):
            self.totals[player] = self.totals.get(player, 0) + points[player]
            self.positions.setdefault(player, []).append(position)
        self.deals += 1
        self.last_order = list(finishing_order)
        winners = self.scoring.system.decided(self)
        if winners is not None:
            self._end(winners)

    def leave(self, player: Hashable) -> None:
        """``player`` leaves the table before the next deal: their totals and positions stay
        on the sheet, but the winners are decided among the players still seated (the
        league's rule, docs/league.md "Scoring and standings"; RULES.md is silent)."""
        if self.finished:
            raise RuleViolation("the game has already ended")
        self.left.add(player)

    @property
    def seated(self) -> list[Hashable]:
        """The players on the sheet who have not left, who alone can win."""
        return [p for p in self.totals if p not in self.left]

    def mean_position(self, player: Hashable) -> float:
        positions = self.positions.get(player) or [0]
        return sum(positions) / len(positions)

    @property
    def out_of_deals(self) -> bool:
        """The scoring's number of deals, if it has one, has been played."""
        deals = self.scoring.value("deals")
        return deals is not None and self.deals >= deals

    def call_time(self) -> None:
        """End an unfinished game now ("time called" at the end of the night), with its
        system's rule for an unfinished game (docs/league.md "Time called"; each system's
        ``time_called_rule`` says it in words)."""
        if self.finished:
            raise RuleViolation("the game has already ended")
        if not self.deals:
            raise RuleViolation("no deal has been played: there is nothing to score")
        self.called = True
        self._end(self.scoring.system.called(self))

    def _end(self, winners: list[Hashable]) -> None:
        self.finished = True
        self.winners = winners


def _role_points(finishing_order: Sequence[Hashable]) -> dict[Hashable, int]:
    roles = roles_by_position(len(finishing_order))
    return {p: ROLE_POINTS.get(role, 0) for p, role in zip(finishing_order, roles, strict=True)}


def _fewest_points(sheet: ScoreSheet) -> list[Hashable]:
    seated = sheet.seated
    fewest = min((sheet.totals[p] for p in seated), default=None)
    return [p for p in seated if sheet.totals[p] == fewest]


def _most_points_then_mean_position(sheet: ScoreSheet) -> list[Hashable]:
    def standing(p):
        return (sheet.totals[p], -sheet.mean_position(p))
    seated = sheet.seated
    best = max((standing(p) for p in seated), default=None)
    return [p for p in seated if standing(p) == best]


class Penalty(ScoringSystem):
    name = "penalty"
    description = ("Penalty points: each deal the first out scores 0, the last out 2, everyone "
                   "else 1. Fewest points wins; equal totals share the win.")
    time_called_rule = "the fewest penalty points win; equal totals share the win"
    parameters = (
        Parameter("limit", "Points limit", "Points limit (penalty)", "ends at {} points", default=4,
                  help="The game ends after the deal in which someone reaches this many points "
                       "(4 if neither this nor a number of deals is set)."),
        Parameter("deals", "Number of deals", "Number of deals", "{} deals",
                  help="Or end after this many deals (with a limit too, whichever comes "
                       "first)."),
    )
    fewer_points_win = True

    def deal_points(self, finishing_order):
        last = len(finishing_order) - 1
        return {p: 0 if i == 0 else 2 if i == last else 1 for i, p in enumerate(finishing_order)}

    def decided(self, sheet):
        limit = sheet.scoring.value("limit")
        if sheet.out_of_deals or (limit is not None and max(sheet.totals.values()) >= limit):
            return _fewest_points(sheet)
        return None

    def called(self, sheet):
        return _fewest_points(sheet)  # as at the limit


class FirstToEleven(ScoringSystem):
    name = "first-to-eleven"
    description = ("First to eleven: each deal the President scores 2 and the Vice President "
                   "1. The first to reach the target wins; if two reach it in one deal, the "
                   "higher total, then the better finish in that deal.")
    time_called_rule = "the most points win; among equal totals, the better finish in the last deal"
    parameters = (
        Parameter("target", "Target", "Target (first to eleven)", "target {}", default=11,
                  help="The points that win (11 if neither this nor a number of deals is set)."),
        Parameter("deals", "Number of deals", "Number of deals", "{} deals",
                  help="Or play this many deals; the President of the last deal wins."),
    )
    fewer_points_win = False

    def deal_points(self, finishing_order):
        return _role_points(finishing_order)

    def decided(self, sheet):
        target, order = sheet.scoring.value("target"), sheet.last_order
        reached = [p for p in order if target is not None and sheet.totals[p] >= target]
        if reached:
            # the higher total wins, then the better finish in this deal (order of `reached`)
            return [max(reached, key=lambda p: (sheet.totals[p], -order.index(p)))]
        return [order[0]] if sheet.out_of_deals else None

    def called(self, sheet):
        """The most points; among equal totals the better finish in the last deal (as when two
        reach the target in one deal); tied players who sat out the last deal come after those
        who played it, and share if none of them did. Players who left are not among them."""
        seated = sheet.seated
        most = max((sheet.totals[p] for p in seated), default=None)
        tied = [p for p in seated if sheet.totals[p] == most]
        return [p for p in sheet.last_order if p in tied][:1] or tied


class FixedRounds(ScoringSystem):
    name = "fixed-rounds"
    description = ("Fixed rounds: a set number of deals, scored as first to eleven; the most "
                   "points wins, then the lower average finishing position; equal on both "
                   "share the win.")
    time_called_rule = ("the most role points win, then the lower average finishing position; "
                        "equal on both share the win")
    parameters = (
        Parameter("deals", "Number of deals", "Number of deals", "{} deals", required=True,
                  help="The number of deals played (needed)."),
    )
    fewer_points_win = False

    def deal_points(self, finishing_order):
        return _role_points(finishing_order)

    def decided(self, sheet):
        return _most_points_then_mean_position(sheet) if sheet.out_of_deals else None

    def called(self, sheet):
        return _most_points_then_mean_position(sheet)  # as after the last deal


for _system in (Penalty(), FirstToEleven(), FixedRounds()):
    register(_system)
