"""The playout kernel: montecarlo's playouts in C (``_kernel.c``), the same moves as the engine.

A playout is the heuristic policy (``heuristic_move``) for every seat, played to the end of the
deal.  In Python each move builds the engine's legal ``Play`` list and an ``Observation``; the
kernel plays on a compact state instead (each hand as 17 face chunks of card counts, seat sets
as bits, a move as one integer) and allocates nothing while it plays, so a playout runs many
times faster (``bench/kernel.py``).  The engine stays the judge: ``tests/bots/test_kernel.py``
plays the kernel against ``Deal.legal_moves()`` and ``heuristic_move`` on every preset.

Built at install (``make kernel``, which ``make run`` and ``make test`` run) with the C compiler
and Python headers already on the machine, from the engine's constants (``build.py`` writes
them as a header; a kernel built from other constants does not import).  It fails closed:
``supports()`` refuses rules it does not play, and montecarlo then plays its playouts in
Python: an option the engine's table (``OPTIONS``) does not give the kernel at any value but
its default (blind piles; any new option until the kernel plays it), a count rule it does not
know, tables of more than ``MAX_PLAYERS``.
"""

import struct
from dataclasses import fields
from weakref import WeakKeyDictionary

from gameplay.bots.heuristic import PLAIN, Style
from gameplay.bots.kernel.build import (
    BLIND_MOVE,
    COUNT_RULES,
    FLAGS,
    PASS_MOVE,
    PLAY_KINDS,
    digest,
)
from gameplay.engine.cards import JOKER
from gameplay.engine.options import OPTIONS
from gameplay.engine.plays import BLIND, PASS

# What builds it: a kit installed with `pip install .` has no C source to build from, and
# `make kernel` builds the service's .venv (docs/kit.md).
BUILD = ("with the kit, run `python gameplay/bots/kernel/build.py` in its source folder (a C "
         "compiler and Python's headers), then `pip install .` again; in the service's "
         "checkout, `make kernel`")
try:
    from gameplay.bots.kernel import _kernel
except ImportError as error:  # pragma: no cover - the message is the point
    raise ImportError(f"the playout kernel is not built: {BUILD}") from error
if getattr(_kernel, "ENGINE_DIGEST", None) != digest():
    raise ImportError(f"the playout kernel was built from other engine constants: {BUILD}")

MAX_PLAYERS = _kernel.MAX_PLAYERS
N_FEATURES = _kernel.N_FEATURES
# The learned policy's features of a move, in the kernel's order (``features()``).
FEATURES = ("pass", "heuristic", "out", "rank", "jump", "size", "lead_size", "split", "control",
            "wilds", "left", "whole_group", "lowest", "pass_danger", "rank_danger",
            "endgame_control", "bomb")
HAND_BYTES = _kernel.HAND_BYTES
_COUNT_RULE_NUMBERS = {rule: number for number, rule in enumerate(COUNT_RULES.values())}
NO_MOVE = (1 << 64) - 1  # playout(): play out from the state as it is
WON, LOST, UNKNOWN = 1, 0, -1  # solve()'s results

_compiled: dict = {}  # by (options, players)
_by_rules: WeakKeyDictionary = WeakKeyDictionary()  # the same, by Rules object: a fast lookup
_styles: dict = {}
_STYLE_FIELDS = tuple(f.name for f in fields(Style))


def supports(rules) -> bool:
    """Whether the kernel plays ``rules``: each option at a value it plays, a count rule it
    knows, at most ``MAX_PLAYERS`` seats."""
    o = rules.options
    return (rules.players <= MAX_PLAYERS and o.count_rule in _COUNT_RULE_NUMBERS
            and all(spec.kernel or getattr(o, name) == spec.default
                    for name, spec in OPTIONS.items()))


def refused(rules) -> list[str]:
    """The options of ``rules`` the kernel does not play (at their value there)."""
    o = rules.options
    return [name for name, spec in OPTIONS.items()
            if not spec.kernel and getattr(o, name) != spec.default]


def compiled(rules):
    """The kernel's copy of ``rules`` (one per options and table size)."""
    found = _by_rules.get(rules)
    if found is None:
        found = _by_rules[rules] = _compile(rules)
    return found


def _compile(rules):
    key = (rules.options, rules.players)
    found = _compiled.get(key)
    if found is None:
        if not supports(rules):
            raise ValueError(f"the kernel does not play these rules: options {refused(rules)}, "
                             f"count rule {rules.options.count_rule!r}, {rules.players} players")
        o = rules.options
        flags = bytes(bool(o.jokers and not o.jokers_wild) if name == "jokers_on_top"
                      else getattr(o, name) for name in FLAGS)
        found = _compiled[key] = _kernel.rules(
            rules.players, bytes(rules.natural_faces), _strengths(rules.strength),
            _strengths(rules.reversed_strength), len(rules.order),
            (rules.top_face(False), rules.top_face(True)),
            (rules.top_natural_face(False), rules.top_natural_face(True)),
            -1 if rules.wild_card is None else rules.wild_card >> 2,
            int(rules.wild_card == JOKER), rules.max_play or 0,
            _COUNT_RULE_NUMBERS[o.count_rule], flags)
    return found


def _strengths(table: list[int]) -> bytes:
    return bytes(s + 1 for s in table)


def hand_bytes(hand: int) -> bytes:
    return hand.to_bytes(HAND_BYTES, "little")


def move(rules, m) -> int:
    """An engine move (a ``Play``, PASS or BLIND) as the kernel's integer."""
    if m is PASS:
        return PASS_MOVE
    if m is BLIND:
        return BLIND_MOVE
    return _kernel.pack(compiled(rules), m.kind + PLAY_KINDS, m.face, m.count, m.wilds, m.reverses,
                        hand_bytes(m.mask))


def state(deal) -> bytes:
    """The kernel's state of an engine ``Deal``."""
    rules = deal.rules
    return _kernel.state(
        compiled(rules), tuple(hand_bytes(h) for h in deal.hands), deal.active,
        bytes(deal.finishing_order), deal.turn, deal.direction,
        move(rules, deal.last) if deal.last is not None else 0, deal.last_seat,
        move(rules, deal.before_last) if deal.before_last is not None else 0, deal.passed,
        deal.mode, deal.mode_count, int(deal.reversed),
        -1 if deal.opening is None else deal.opening)


def with_hands(rules, s: bytes, hands: list[int]) -> bytes:
    """State ``s`` with ``hands`` (one a seat) instead of its own: ``state(deal)`` of a deal
    that differs from ``s``'s only in its hands, without building the deal."""
    return _kernel.with_hands(compiled(rules), s, tuple(map(hand_bytes, hands)))


def style_of(style: Style) -> tuple:
    found = _styles.get(style)
    if found is None:  # read field by field: dataclasses.astuple deep-copies, 30 times slower
        found = _styles[style] = tuple(getattr(style, name) for name in _STYLE_FIELDS)
    return found


def playout(rules, s: bytes, m: int, seat: int, own: Style = PLAIN, looks: int = 0,
            weights: bytes | None = None, seed: int = 0, every_seat: bool = False,
            random_seats: int = 0) -> float:
    """``montecarlo.playout`` in the kernel: apply move ``m`` (NO_MOVE: none) to state ``s``,
    play to the end with the heuristic policy, ``seat`` in the ``own`` style; 1 for ``seat``
    out first … 0 for last.  At ``seat``'s first ``looks`` decisions with a choice, each move
    is played out and the best kept instead of the policy's.  With ``weights`` (``packed``)
    ``seat``'s moves (every seat's with ``every_seat``) follow the learned policy instead,
    its draws from ``seed``: the same seed, the same playout.  The seats of ``random_seats``
    (a bit each) play a uniformly random legal move, as the ``random`` bot does, drawing
    from ``seed`` too."""
    return _kernel.playout(compiled(rules), s, m, seat, style_of(own), looks, weights, seed,
                           every_seat, random_seats)


def packed(weights: list[float]) -> bytes:
    """The learned policy's weights (``N_FEATURES`` of them) as ``playout`` takes them."""
    if len(weights) != N_FEATURES:
        raise ValueError(f"the learned policy takes {N_FEATURES} weights, not {len(weights)}")
    return struct.pack(f"{N_FEATURES}d", *weights)


def features(rules, s: bytes, style: Style = PLAIN) -> tuple[list[int], list[tuple]]:
    """The legal moves at state ``s`` and each one's features (``FEATURES``), which the
    learned policy weighs: the one definition its training and its playouts share."""
    return _kernel.features(compiled(rules), s, style_of(style))


def reinforce(rules, s: bytes, seat: int, own: Style, weights: bytes,
              seed: int) -> tuple[float, tuple]:
    """A playout from state ``s`` with ``seat`` on the learned policy (``packed`` weights,
    draws from ``seed``) in the ``own`` style, the others on the heuristic: its result and the
    gradient in the weights of the log-probability of ``seat``'s moves (the policy
    gradient's)."""
    return _kernel.reinforce(compiled(rules), s, seat, style_of(own), weights, seed)


def logit(data: bytes, weights: list[float], l2: float) -> tuple[float, list, list]:
    """The learned policy's fit to decisions packed as doubles (each: its moves' number, the
    chosen one's index, every move's features): the log-likelihood less ``l2``/2·|w|², its
    gradient and its Hessian at ``weights``."""
    return _kernel.logit(data, packed(weights), l2)


def playouts(rules, s: bytes, plays) -> list[float]:
    """``playout(rules, s, NO_MOVE, seat, own)`` for each ``(seat, own)`` of ``plays``, in one
    call (par plays a position out dozens of times)."""
    return _kernel.playouts(compiled(rules), s, [(seat, style_of(own)) for seat, own in plays])


def legal(rules, s: bytes) -> list[int]:
    return _kernel.legal(compiled(rules), s)


def apply(rules, s: bytes, m: int) -> bytes:
    return _kernel.apply(compiled(rules), s, m)


def choose(rules, s: bytes, style: Style = PLAIN) -> int:
    """The heuristic policy's move at state ``s`` (``heuristic_policy``)."""
    return _kernel.choose(compiled(rules), s, style_of(style))


def solve(rules, s: bytes, limit: int) -> tuple[int, int, int]:
    """The exact endgame at state ``s`` with two players left: (WON, a winning move, nodes)
    when the seat to move goes out first whatever the other does, (LOST, 0, nodes) when it
    cannot, (UNKNOWN, 0, limit) when ``limit`` nodes did not settle it."""
    return _kernel.solve(compiled(rules), s, limit)


def position(rules, s: bytes, later: int, notdown: int, m) -> bytes:
    """A past choice for ``worlds.History``: the seat to move in state ``s`` made move ``m``
    (an engine move), has played ``later`` since, and could not see ``notdown`` then less its
    hand (the cards not yet put down)."""
    return _kernel.position(s, hand_bytes(later), hand_bytes(notdown), move(rules, m))


def broken(rules, positions: list[bytes], hidden: int, enough: int) -> int:
    """``History.broken`` in the kernel: how many of one seat's ``positions`` the hidden hand
    ``hidden`` (with the cards played since) would not have chosen as that seat did with the
    heuristic (``heuristic_move``, the plain style), counting up to ``enough``; the position
    that reached ``enough`` moves to the front of the list."""
    return _kernel.broken(compiled(rules), positions, hand_bytes(hidden), enough)


def walk(rules, rng, hands: list[int], pinned: list[int], bad: list[int],
         positions: list[list[bytes]], steps: int) -> tuple[list[int], list[int]]:
    """``worlds.Worlds.walk`` in C, drawing from ``rng`` as it does: the hands and counts of
    broken positions after ``steps`` swaps (each other seat's, then the undealt cards')."""
    hands, bad = _kernel.walk(compiled(rules), rng.getrandbits, tuple(map(hand_bytes, hands)),
                              tuple(map(hand_bytes, pinned)), tuple(bad), positions, steps)
    return [int.from_bytes(h, "little") for h in hands], list(bad)


def shuffle(rng, cards: list) -> None:
    """``rng.shuffle(cards)`` (``rng`` a ``random.Random``) in C: the same draws from ``rng``,
    so the same order."""
    _kernel.shuffle(rng.getrandbits, cards)


def dealer(rng, cards: list[int], need: list[int], gave: list[tuple[int, int]],
           banned: list[int], found, tries: int):
    """montecarlo's dealer in C (``MonteCarloBot.dealer``), drawing from ``rng`` as it does: a
    function dealing one world's hands (this seat's empty) from the unseen ``cards``, by
    ``need``, the cards this seat ``gave`` (seat, card) kept with their receiver, around the
    ``banned`` cards, the first of ``tries`` that breaks none of the ``found`` constraints
    (else the first that breaks the least weight of them)."""
    getrandbits = rng.getrandbits
    args = (bytes(cards), bytes(need), bytes(x for pair in gave for x in pair),
            tuple(map(hand_bytes, banned)), constraints(found), tries)

    def deal() -> list[int]:
        return [int.from_bytes(h, "little") for h in _kernel.deal(getrandbits, *args)]

    return deal


def constraints(found) -> bytes:
    """``inference.py``'s constraints as the kernel's ``violations`` takes them."""
    packed = []
    for c in found:
        if c.kind == 1:  # a follow: its low groups' faces and its controls' faces
            low, high, margin = _faces(c.low), sum(1 << f for f in c.high), c.margin
        elif c.kind == 2:  # a lead: its groups' faces
            low, high, margin = _faces(c.few), 0, c.safe_groups
        else:
            low = high = margin = 0
        packed.append(_kernel.constraint(c.seat, c.kind, hand_bytes(c.later), hand_bytes(c.zero),
                                         c.checks, low, high, margin, c.weight))
    return b"".join(packed)


def _faces(patterns) -> int:
    """The faces of ``face_set`` patterns (one face each), as bits."""
    bits = 0
    for p in patterns:
        bits |= 1 << ((p.bit_length() - 1) // 32)
    return bits


def violations(packed: bytes, hands: list[int]) -> float:
    """``inference.violations`` of ``constraints(found)``: the weight of those a world's hidden
    hands break (what ``dealer`` keeps the least of)."""
    return _kernel.violations(packed, tuple(hand_bytes(h) for h in hands))


def unpack(rules, m: int) -> tuple:
    """(kind, face, count, wilds, reverses, mask) of a kernel move, in the engine's terms
    (kind: the engine's play kind, or PASS / BLIND)."""
    kind, face, count, wilds, reverses, mask = _kernel.unpack(compiled(rules), m)
    if kind < PLAY_KINDS:
        return (PASS if kind == PASS_MOVE else BLIND), None, 0, 0, 0, 0
    return kind - PLAY_KINDS, face, count, wilds, reverses, int.from_bytes(mask, "little")


def view(rules, s: bytes) -> dict:
    """A kernel state's fields in the engine's terms (hands as masks, plays unpacked)."""
    (hands, active, order, turn, direction, last, last_seat, before_last, passed, mode,
     mode_count, reversed_, opening, over) = _kernel.view(compiled(rules), s)
    return {"hands": [int.from_bytes(h, "little") for h in hands], "active": active,
            "finishing_order": order, "turn": turn, "direction": direction,
            "last": unpack(rules, last) if last else None, "last_seat": last_seat,
            "before_last": unpack(rules, before_last) if before_last else None,
            "passed": passed, "mode": mode, "mode_count": mode_count,
            "reversed": bool(reversed_), "opening": None if opening < 0 else opening,
            "over": bool(over)}
