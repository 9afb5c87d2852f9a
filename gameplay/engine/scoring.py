"""The three scoring systems for a game of several deals (RULES.md "Scoring systems")."""

from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from gameplay.engine.errors import OptionsError, RuleViolation
from gameplay.engine.roles import Role, roles_by_position

PENALTY = "penalty"
FIRST_TO_ELEVEN = "first-to-eleven"
FIXED_ROUNDS = "fixed-rounds"
SYSTEMS = (PENALTY, FIRST_TO_ELEVEN, FIXED_ROUNDS)

ROLE_POINTS = {Role.PRESIDENT: 2, Role.VICE_PRESIDENT: 1}

# A limit, target or number of deals at most. RULES.md's are a limit of 4-6, a target of 11
# and 3-10 deals; 100 leaves room for house rules while every game still ends within
# selfplay.MAX_DEALS deals (a penalty game by its limit's deal, first-to-eleven by
# target x players / 2).
SCORING_MOST = 100


@dataclass(frozen=True)
class Scoring:
    system: str
    limit: int | None = None  # penalty: the points that end the game
    target: int | None = None  # first-to-eleven: the points that win
    deals: int | None = None  # a fixed number of deals

    def __post_init__(self):
        system = self.system if isinstance(self.system, str) else None
        allowed = {PENALTY: {"limit", "deals"}, FIRST_TO_ELEVEN: {"target", "deals"},
                   FIXED_ROUNDS: {"deals"}}.get(system)
        if allowed is None:
            raise OptionsError(f"unknown scoring system {self.system!r}; "
                               f"systems are {', '.join(SYSTEMS)}")
        for name in ("limit", "target", "deals"):
            value = getattr(self, name)
            if value is None:
                continue
            if name not in allowed:
                raise OptionsError(f"scoring {self.system!r} takes no {name!r}")
            if not isinstance(value, int) or isinstance(value, bool) or value < 1:
                raise OptionsError(f"scoring {name} must be a positive whole number, not {value!r}")
            if value > SCORING_MOST:
                raise OptionsError(f"scoring {name} must be at most {SCORING_MOST}, not {value}")
        if self.system == FIXED_ROUNDS and self.deals is None:
            raise OptionsError("fixed-rounds needs a number of deals")

    @property
    def effective_limit(self) -> int | None:
        if self.system != PENALTY:
            return None
        return self.limit if self.limit is not None or self.deals is not None else 4

    @property
    def effective_target(self) -> int | None:
        if self.system != FIRST_TO_ELEVEN:
            return None
        return self.target if self.target is not None or self.deals is not None else 11

    @classmethod
    def from_dict(cls, data: Any) -> "Scoring":
        if not isinstance(data, Mapping) or "system" not in data:
            raise OptionsError('scoring must be an object with a "system"')
        unknown = set(data) - {"system", "limit", "target", "deals"}
        if unknown:
            raise OptionsError(f"unknown scoring field(s) {sorted(unknown)}")
        return cls(**dict(data))

    def to_dict(self) -> dict[str, Any]:
        return {k: v for k, v in (("system", self.system), ("limit", self.limit),
                                  ("target", self.target), ("deals", self.deals)) if v is not None}


def deal_points(scoring: Scoring, finishing_order: Sequence[Hashable]) -> dict[Hashable, int]:
    """Points each player takes from one deal: penalty points, or role points."""
    n = len(finishing_order)
    if scoring.system == PENALTY:
        return {p: 0 if i == 0 else 2 if i == n - 1 else 1 for i, p in enumerate(finishing_order)}
    roles = roles_by_position(n)
    return {p: ROLE_POINTS.get(role, 0) for p, role in zip(finishing_order, roles, strict=True)}


@dataclass
class ScoreSheet:
    """A game's running score; ``add`` one finished deal's finishing order at a time."""

    scoring: Scoring
    totals: dict[Hashable, int] = field(default_factory=dict)
    positions: dict[Hashable, list[int]] = field(default_factory=dict)
    deals: int = 0
    finished: bool = False
    winners: list[Hashable] = field(default_factory=list)
    last_order: list[Hashable] = field(default_factory=list)
    called: bool = False  # ended by time being called, not by its own rule

    def add(self, finishing_order: Sequence[Hashable]) -> None:
        if self.finished:
            raise RuleViolation("the game has already ended")
        points = deal_points(self.scoring, finishing_order)
        for position, player in enumerate(finishing_order, start=1):
            self.totals[player] = self.totals.get(player, 0) + points[player]
            self.positions.setdefault(player, []).append(position)
        self.deals += 1
        self.last_order = list(finishing_order)
        self._decide(self.last_order)

    def mean_position(self, player: Hashable) -> float:
        positions = self.positions.get(player) or [0]
        return sum(positions) / len(positions)

    def _decide(self, last_order: list[Hashable]) -> None:
        s = self.scoring
        out_of_deals = s.deals is not None and self.deals >= s.deals
        if s.system == PENALTY:
            limit = s.effective_limit
            if out_of_deals or (limit is not None and max(self.totals.values()) >= limit):
                fewest = min(self.totals.values())
                self._end([p for p, t in self.totals.items() if t == fewest])
        elif s.system == FIRST_TO_ELEVEN:
            target = s.effective_target
            reached = [p for p in last_order if target is not None and self.totals[p] >= target]
            if reached:
                # the higher total wins, then the better finish in this deal (order of `reached`)
                self._end([max(reached, key=lambda p: (self.totals[p], -last_order.index(p)))])
            elif out_of_deals:
                self._end([last_order[0]])
        elif out_of_deals:  # fixed-rounds
            def standing(p):
                return (self.totals[p], -self.mean_position(p))
            best = max(standing(p) for p in self.totals)
            self._end([p for p in self.totals if standing(p) == best])

    def call_time(self) -> None:
        """End an unfinished game now ("time called" at the end of the night), with its
        system's rule for an unfinished game (docs/league.md "Time called"; RULES.md "Scoring
        systems" gives each system's order, applied to the deals played so far):

        - penalty: fewest points wins; equal totals share the win (as at the limit).
        - first-to-eleven: the most points wins; among equal totals the better finish in the
          last deal (as when two reach the target in one deal); tied players who sat out the
          last deal come after those who played it, and share if none of them did.
        - fixed-rounds: the most role points, then the lower average finishing position (as
          after the last deal); equal on both share the win.
        """
        if self.finished:
            raise RuleViolation("the game has already ended")
        if not self.deals:
            raise RuleViolation("no deal has been played: there is nothing to score")
        s = self.scoring
        if s.system == PENALTY:
            fewest = min(self.totals.values())
            winners = [p for p, t in self.totals.items() if t == fewest]
        elif s.system == FIRST_TO_ELEVEN:
            most = max(self.totals.values())
            tied = [p for p, t in self.totals.items() if t == most]
            in_last = [p for p in self.last_order if p in tied]
            winners = in_last[:1] or tied
        else:  # fixed-rounds
            def standing(p):
                return (self.totals[p], -self.mean_position(p))
            best = max(standing(p) for p in self.totals)
            winners = [p for p in self.totals if standing(p) == best]
        self.called = True
        self._end(winners)

    def _end(self, winners: list[Hashable]) -> None:
        self.finished = True
        self.winners = winners
