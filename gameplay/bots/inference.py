"""What the other seats' moves say about their hidden cards (BOTS.md, inference), for
``montecarlo``'s sampling.

The deal's public moves are replayed on a stand-in ``Deal`` (the real cards each seat played
plus filler, so the trick mechanics, card counts and the pile are exact) and every move of
another seat becomes a *constraint* on that seat's hand as it was then: its hidden cards now
plus the cards it played since.  The constraints model a player who plays like ``heuristic``
(the house's rule bot and the seeds' strategy advice): it passes only when it has no cheap
whole group that beats the pile (a pass on a low single says "no low single just above"),
leads its lowest whole group, and follows with the lowest whole group that beats.  A sampled
world is scored by how many constraints it breaks; the sampler keeps the first world that
breaks none, or the one that breaks fewest.

Not every seat plays like ``heuristic`` (a greedy or random player, a program of its own), so
each seat's reading is weighed by how well it has predicted that seat so far this deal (its
*fit*): the share of the seat's read moves that some hand it could have held explains.  A move
no such hand explains (the seat passed on a 5, then played a 7 it held then; it played one 9,
then another) proves the seat did not play like the model there.  A seat with no such move is
read in full (its constraints weigh 1 and rule cards out of its hand when dealing); the others'
explained constraints weigh their seat's fit and rule out no card, and the unexplained ones are
dropped.  A seat whose plain constraints together leave it fewer unseen cards than it holds
counts one move unexplained too.  Against heuristic players the fit changes nothing: their
real hands break no constraint, so every seat keeps fit 1.

Only plain tricks are read (the normal mode, groups without wild cards, no blind piles or
bombs); anything else adds no constraint, so the model never rules a world out on a rule it
does not understand.  Every threshold is the modelled ``Style``'s (``heuristic.PLAIN``, the one
the ``heuristic`` bot plays), so a change to the heuristic changes the model with it.
"""

from collections import Counter

from gameplay.bots import cardset as C
from gameplay.bots.heuristic import PLAIN, Style, control_at
from gameplay.engine.options import OPTIONS
from gameplay.engine.plays import BLIND, GROUP, PASS
from gameplay.engine.rules.beating import count_window


class Constraint:
    """Seat ``seat``'s hand at one decision (hidden now + ``later``) held no card of
    ``zero`` (a sum of face patterns) and, for each (face, lo, hi, inside) check, a count of
    that face inside [lo, hi] (``inside``) or outside it.  ``weight``: its seat's fit."""

    __slots__ = ("seat", "later", "zero", "checks", "weight")
    kind = 0  # the kernel's copy: 0 this, 1 a follow, 2 a lead (``kernel.constraints``)

    def __init__(self, seat: int, later: int, zero: int, checks: tuple):
        self.seat = seat
        self.later = later
        self.zero = zero
        self.checks = checks
        self.weight = 1.0

    def broken(self, hidden: int) -> bool:
        hand = hidden + self.later
        if C.holds_any(hand, self.zero):
            return True
        for face, lo, hi, inside in self.checks:
            n = C.face_count(hand, face)
            if (lo <= n <= hi) != inside:
                return True
        return False

    def unexplained(self, held: int) -> bool:
        """Broken whatever ``held`` hidden cards the seat holds now: the cards it played since
        already break it (hidden cards only add to a count)."""
        if C.holds_any(self.later, self.zero):
            return True
        for face, lo, hi, inside in self.checks:
            n = C.face_count(self.later, face)
            if inside and n > hi or not inside and lo <= n and hi >= 1 << 20:
                return True
        return False


def readable(rules) -> bool:
    """Whether the moves can be read under ``rules``: no wild card, none of the family's rules
    the reading does not know, each option at a value it knows (``OPTIONS``' ``inference``)."""
    o = rules.options
    return (rules.wild_card is None and not o.bombs and not o.doppelgangers
            and not o.single_top_beats_groups
            and all(spec.inference or getattr(o, name) == spec.default
                    for name, spec in OPTIONS.items()))


def constraints(obs, style: Style = PLAIN) -> list[Constraint]:
    """The constraints the deal's moves so far put on the other seats' hands, read as the
    moves of players who play ``style``, each weighed by its seat's fit (``weigh``)."""
    rules = obs.rules
    if not readable(rules) or not obs.moves:
        return []
    d, played = obs.stand_in()
    top = len(rules.order) - 1
    controls_from = control_at(rules, style)
    naturals = rules.natural_faces
    rule = rules.options.count_rule
    equal = rules.options.equal_rank_allowed
    later = played[:]  # cards each seat plays from this move on (walked forward)
    found = []
    for seat, move in obs.moves:
        if d.over or d.turn != seat:
            break  # the stand-in went astray: keep what was read so far
        before = later[seat]
        if move is not PASS and move is not BLIND:
            later[seat] -= move.mask
        if seat != obs.seat and d.mode == 0:
            c = _read(d, seat, move, before, rules, top, controls_from, naturals, rule, equal,
                      style)
            if c is not None:
                found.append(c)
        d.apply(move)
    return weigh(found, obs.held, obs.unseen())


def weigh(found: list[Constraint], held: list[int], unseen: int) -> list[Constraint]:
    """``found`` less the constraints no hand explains, each weighed by its seat's fit: the
    share of the seat's constraints some hand it could hold (``held[seat]`` of the ``unseen``
    cards) explains.  A seat whose explained constraints together leave too few unseen cards
    for its hand is not read in full either: its fit is its share less one."""
    read, explained = Counter(), Counter()
    kept = []
    for c in found:
        read[c.seat] += 1
        if not c.unexplained(held[c.seat]):
            explained[c.seat] += 1
            kept.append(c)
    banned = [0] * len(held)  # the cards plain constraints (no endgame escape) rule out
    for c in kept:
        if type(c) is Constraint:
            banned[c.seat] |= c.zero
    for seat, ban in enumerate(banned):
        if ban and C.mask_count(unseen & ~ban) < held[seat]:
            explained[seat] -= 1
    for c in kept:
        c.weight = max(0, explained[c.seat]) / read[c.seat]
    return kept


def _read(d, seat, move, hand_later, rules, top, control_at, naturals, rule, equal, style):
    st = rules.strengths(d.reversed)
    last = d.last
    if move is BLIND or (move is not PASS and (move.kind != GROUP or move.wilds)):
        return None
    if last is not None and (last.kind != GROUP or last.face < 0):
        return None
    others = [d.held[s] for s in range(rules.players) if d.active >> s & 1 and s != seat]
    danger = bool(others) and min(others) <= style.danger
    total = d.held[seat]
    if move is PASS:
        if last is None:
            return None
        ls = st[last.face]
        lo, hi = count_window(rule, last.count)
        jump_ok = total > style.pass_total and not danger  # it may keep a high card early
        faces = [f for f in naturals if (st[f] > ls or equal and st[f] == ls)
                 and st[f] < control_at]
        if jump_ok:
            # only faces it would not have held back: a short jump, or not near the top
            faces = [f for f in faces
                     if st[f] - ls < style.pass_jump or st[f] < top - style.pass_near_top]
        if not faces:
            return None
        if hi >= 1 << 20 and lo == 1:
            return Constraint(seat, hand_later, sum(C.face_set(f) for f in faces), ())
        return Constraint(seat, hand_later, 0,
                          tuple((f, lo, hi, False) for f in faces))
    f, k = move.face, move.count
    if st[f] >= control_at:
        return None
    checks = [(f, k, k, True)]  # a whole group: no copy of that face kept
    if last is None:
        if k == 4 and rules.options.revolution:
            return None
        lower = [g for g in naturals if st[g] < st[f]]
        zero = sum(C.face_set(g) for g in lower)
        return _LeadConstraint(seat, hand_later, zero, tuple(checks), control_at, st, naturals,
                               style.safe_groups)
    if k == 1 and st[f] >= top - style.split_near_top:
        return None  # may be a high pair split on purpose
    ls = st[last.face]
    lo, hi = count_window(rule, last.count)
    between = [g for g in naturals if (st[g] > ls or equal and st[g] == ls) and st[g] < st[f]]
    if hi >= 1 << 20 and lo == 1:
        zero = sum(C.face_set(g) for g in between)
    else:
        zero = 0
        checks += [(g, lo, hi, False) for g in between]
    if danger:
        # an opponent near out: the heuristic plays its lowest whole group that beats, else
        # (none left) its lowest play, split or not; so no whole group lower than this one
        return Constraint(seat, hand_later, zero, tuple(checks[1:]))
    return _FollowConstraint(seat, hand_later, zero, tuple(checks), control_at, st, naturals,
                             style.endgame_margin)


class _FollowConstraint(Constraint):
    """A follow with the lowest whole group that beats, unless the hand was in its endgame
    (no more low groups than controls + the style's margin: it then plays its lowest play)."""

    __slots__ = ("low", "high", "margin")
    kind = 1

    def __init__(self, seat, later, zero, checks, control_at, st, naturals, margin):
        super().__init__(seat, later, zero, checks)
        self.margin = margin
        self.low = tuple(C.face_set(f) for f in naturals if st[f] < control_at)
        self.high = tuple(f for f in naturals if st[f] >= control_at)

    def broken(self, hidden: int) -> bool:
        if not Constraint.broken(self, hidden):
            return False
        hand = hidden + self.later
        groups = sum(1 for m in self.low if C.holds_any(hand, m))
        controls = sum(C.face_count(hand, f) for f in self.high)
        return groups > controls + self.margin

    def unexplained(self, held: int) -> bool:
        if not Constraint.unexplained(self, held):
            return False
        # hidden cards add groups, or at most ``held`` controls
        groups = sum(1 for m in self.low if C.holds_any(self.later, m))
        controls = sum(C.face_count(self.later, f) for f in self.high)
        return groups > controls + held + self.margin


class _LeadConstraint(Constraint):
    """A lead of the lowest whole group, unless the hand had the style's ``safe_groups`` groups
    or fewer left (it then leads a sure winner first)."""

    __slots__ = ("few", "safe_groups")
    kind = 2

    def __init__(self, seat, later, zero, checks, control_at, st, naturals, safe_groups):
        super().__init__(seat, later, zero, checks)
        self.safe_groups = safe_groups
        self.few = tuple(C.face_set(f) for f in naturals if st[f] < control_at)

    def broken(self, hidden: int) -> bool:
        if not Constraint.broken(self, hidden):
            return False
        hand = hidden + self.later
        return sum(1 for m in self.few if C.holds_any(hand, m)) > self.safe_groups

    def unexplained(self, held: int) -> bool:
        if not Constraint.unexplained(self, held):
            return False
        return sum(1 for m in self.few if C.holds_any(self.later, m)) > self.safe_groups


def violations(found: list[Constraint], hands: list[int]) -> float:
    """The weight of the constraints ``hands`` break."""
    return sum(c.weight for c in found if c.broken(hands[c.seat]))


def forbidden(found: list[Constraint], players: int) -> list[int]:
    """For each seat read in full (fit 1), the cards the constraints say it does not hold now
    (each constraint's ``zero`` cards; the sampler deals around them, then checks the rest)."""
    out = [0] * players
    for c in found:
        if c.weight < 1 or C.holds_any(c.later, c.zero):
            continue  # a seat not read in full, or broken whatever the seat holds now
        out[c.seat] |= c.zero
        for face, lo, hi, inside in c.checks:
            # "a whole group": when the seat played them all, it holds no more of that face
            if inside and lo == hi and C.face_count(c.later, face) == lo:
                out[c.seat] |= C.face_set(face)
    return out
