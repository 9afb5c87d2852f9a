"""One deal played out: whose turn it is, what is legal, and what each move does.

``Deal`` is the single game state.  ``legal_moves()`` lists every distinct legal play (plus
PASS and BLIND where allowed); ``apply(move)`` plays a move known to be legal, mutating this
state; ``play(move)`` checks it first.  ``copy()`` is cheap: hands are ints.
"""

from gameplay.engine import cards as C
from gameplay.engine.errors import RuleViolation
from gameplay.engine.plays import BLIND, BOMB, LONE_DOPPELGANGER, MIX, PASS
from gameplay.engine.rules import (
    beating,
    bombs,
    consec,
    eight_below,
    kkk,
    revolution,
    sixty_nine,
    skips,
    top_rank,
)
from gameplay.engine.ruleset import Rules

NORMAL, CONSEC, EIGHT_BELOW, SIXTY_NINE, KKK = range(5)
MODE_NAMES = {NORMAL: None, CONSEC: "consec", EIGHT_BELOW: "eight below", SIXTY_NINE: "69",
              KKK: "KKK"}

CW, CCW = 1, -1


class Deal:
    __slots__ = ("rules", "hands", "held", "blind", "active", "finishing_order", "turn",
                 "direction", "last", "last_seat", "before_last", "passed", "mode", "mode_count",
                 "reversed", "opening", "over")

    def __init__(self, rules: Rules, hands: list[int], *, leader: int, direction: int = CW,
                 blind: list[tuple[int, ...]] | None = None, opening: int | None = None):
        self.rules = rules
        self.hands = list(hands)
        self.held = [C.mask_count(h) for h in hands]
        self.blind = [tuple(p) for p in blind] if blind is not None else None
        self.active = 0
        for seat in range(rules.players):
            if self.held[seat] or (self.blind and self.blind[seat]):
                self.active |= 1 << seat
        self.finishing_order: list[int] = []
        self.turn = leader
        self.direction = direction
        self.last = None  # the play on top of the pile; None when the next play is a lead
        self.last_seat = leader
        self.before_last = None
        self.passed = 0  # seats that passed since the last play (pass_is_final: in this trick)
        self.mode = NORMAL
        self.mode_count = 0  # 69: the count of the 6s
        self.reversed = False  # revolution in force
        self.opening = opening  # a card the deal's first lead must include (seed 000: 3♣)
        self.over = False

    def copy(self) -> "Deal":
        new = Deal.__new__(Deal)
        new.rules = self.rules
        new.hands = self.hands[:]
        new.held = self.held[:]
        new.blind = self.blind[:] if self.blind is not None else None
        new.active = self.active
        new.finishing_order = self.finishing_order[:]
        new.turn = self.turn
        new.direction = self.direction
        new.last = self.last
        new.last_seat = self.last_seat
        new.before_last = self.before_last
        new.passed = self.passed
        new.mode = self.mode
        new.mode_count = self.mode_count
        new.reversed = self.reversed
        new.opening = self.opening
        new.over = self.over
        return new

    # --- determinizations: a position with guessed hidden cards (bots' searches) ---------
    @classmethod
    def position(cls, rules: Rules, hands: list[int], *, turn: int, direction: int,
                 active: list[int], finishing_order: list[int], last, last_seat: int,
                 before_last, passed: list[int], mode: int, mode_count: int, reversed: bool,
                 opening: int | None, blind: list[tuple[int, ...]] | None = None) -> "Deal":
        """A deal in the middle of play: what a seat sees of the table (whose turn, the pile,
        who passed, the trick's rule …) with ``hands`` and ``blind`` piles as guessed."""
        d = cls(rules, hands, leader=turn, direction=direction, blind=blind)
        d.active = sum(1 << s for s in active)
        d.finishing_order = list(finishing_order)
        d.last, d.last_seat, d.before_last = last, last_seat, before_last
        d.passed = sum(1 << s for s in passed)
        d.mode, d.mode_count, d.reversed = mode, mode_count, reversed
        d.opening = opening
        return d

    def with_hand(self, seat: int, hand: int) -> "Deal":
        """This position with ``hand`` (as many cards as the seat holds) in ``seat``'s place."""
        new = self.copy()
        new.hands[seat] = hand
        return new

    # --- reading the state ---------------------------------------------------------------
    @property
    def leading(self) -> bool:
        return self.last is None

    def active_seats(self) -> list[int]:
        return [s for s in range(self.rules.players) if self.active >> s & 1]

    def strengths(self) -> list[int]:
        return self.rules.strengths(self.reversed)

    # --- what is legal -------------------------------------------------------------------
    def legal_moves(self) -> list:
        r = self.rules
        seat = self.turn
        hand = self.hands[seat]
        last = self.last
        if last is None:
            moves = r.group_plays(hand)
            if self.opening is not None:
                moves = [p for p in moves if self.opening in p.cards]
            elif r.options.doppelgangers:
                moves += r.lone_doppelganger_plays(hand)
        else:
            mode = self.mode
            if mode == SIXTY_NINE:
                moves = sixty_nine.answers(hand, self.mode_count)
            elif mode == KKK:
                moves = kkk.answers(hand)
            else:
                moves = self._answers(hand, last, mode)
        if r.options.bombs and hand & 0xFFFFFFFF:
            moves += r.bomb_plays(hand)
        if last is not None:
            moves.append(PASS)
        if self.blind is not None and self.blind[seat]:
            moves.append(BLIND)
        return moves

    def _answers(self, hand: int, last, mode: int, groups: list | None = None) -> list:
        """The groups that may follow ``last`` (from ``groups``, default: all the hand's)."""
        r = self.rules
        o = r.options
        rev = self.reversed
        st = r.strengths(rev)
        ls, lc = st[last.face], last.count
        if mode == CONSEC:
            if groups is None:
                groups = r.group_plays(hand, r.faces_above(ls, rev, False))
            return [p for p in groups if p.count == lc and st[p.face] == ls + 1]
        rule = o.count_rule
        if mode == EIGHT_BELOW:
            below = st[eight_below.EIGHT]
            if groups is None:
                groups = r.group_plays(hand)
            return [p for p in groups
                    if st[p.face] < below and beating.count_allows(rule, p.count, lc)]
        if o.any_larger_set or o.single_top_beats_groups:
            if groups is None:
                groups = r.group_plays(hand)
            return [p for p in groups if beating.beats(r, st, rev, p.face, p.count, last.face, lc)]
        # the common case: a count window and a rank above (or equal to) the last play's
        lo, hi = beating.count_window(rule, lc)
        equal = o.equal_rank_allowed
        if groups is None:
            return [p for p in r.group_plays(hand, r.faces_above(ls, rev, equal))
                    if lo <= p.count <= hi]
        return [p for p in groups if lo <= p.count <= hi
                and (st[p.face] > ls or equal and st[p.face] == ls)]

    def fault(self, move) -> str | None:
        """Why ``move`` is illegal for the seat to move now, or None when it is legal."""
        if self.over:
            return "the deal is over"
        if move is PASS:
            return "a lead is a play: the leader cannot pass" if self.last is None else None
        if move is BLIND:
            if self.blind is None or not self.blind[self.turn]:
                return "no blind card to turn"
            return None
        play = move
        if not C.mask_contains(self.hands[self.turn], play.mask):
            return f"seat {self.turn} does not hold {self.rules.cards_text(play.cards)}"
        if play.kind == BOMB:
            return None
        last = self.last
        if last is None:
            if play.kind == MIX:
                return "a group is cards of one rank"
            if self.opening is not None and self.opening not in play.cards:
                card = C.card_text(self.opening)
                return f"the deal's first lead must include {card}"
            return None
        if play.kind == LONE_DOPPELGANGER:
            return "doppelgangers alone can only lead"
        if self.mode == SIXTY_NINE:
            return None if sixty_nine.allows(self.mode_count, play) else sixty_nine.FAULT
        if self.mode == KKK:
            return None if kkk.allows(play) else kkk.FAULT
        if play.kind == MIX:
            return "a group is cards of one rank"
        if self._answers(0, last, self.mode, [play]):
            return None
        return {CONSEC: consec.FAULT, EIGHT_BELOW: eight_below.FAULT}.get(
            self.mode, "play does not beat the pile")

    # --- moving --------------------------------------------------------------------------
    def play(self, move) -> None:
        """Apply ``move`` after checking it; raise RuleViolation when it is illegal."""
        reason = self.fault(move)
        if reason is not None:
            raise RuleViolation(reason)
        self.apply(move)

    def apply(self, move) -> None:
        seat = self.turn
        if move is PASS:
            self._pass(seat)
        elif move is BLIND:
            self._turn_blind(seat)
        else:
            self._play(seat, move)

    def _turn_blind(self, seat: int) -> None:
        """Friday option `blind` (RULES.md): the top blind card is played if it can be played
        as a single (or the seat leads); otherwise it joins the hand and counts as a pass."""
        pile = self.blind[seat]
        card = pile[0]
        self.blind[seat] = pile[1:]
        self.hands[seat] += C.unit(card)
        self.held[seat] += 1
        single = self.rules.play_from_cards([card])
        if self.last is None or self.fault(single) is None:
            self._play(seat, single)
        else:
            self._pass(seat)

    def _pass(self, seat: int) -> None:
        self.passed |= 1 << seat
        if self.active & ~self.passed & ~(1 << self.last_seat) == 0:
            self._end_trick(self.last_seat)
        else:
            self.turn = self._next(seat)

    def _play(self, seat: int, play) -> None:
        r = self.rules
        o = r.options
        self.hands[seat] -= play.mask
        self.held[seat] -= play.count
        self.opening = None
        if not self.held[seat] and not (self.blind and self.blind[seat]):
            self.active &= ~(1 << seat)
            self.finishing_order.append(seat)
            if self.active & (self.active - 1) == 0:  # one player holds cards: the deal ends
                self._finish()
                return
        if play.kind == BOMB:
            self.direction = bombs.new_direction(self.direction, play)
            self._end_trick(seat)
            return
        last = self.last
        if o.revolution and revolution.reverses(play):
            self.reversed = not self.reversed
        st = r.strengths(self.reversed)
        if play.kind != MIX and top_rank.ends_trick(r, self.reversed, play):
            self.last_seat = seat
            self._end_trick(seat)
            return
        self.mode = self._next_mode(st, last, play)
        skipped = play.kind != MIX and skips.skips(r, st, last, play)
        self.before_last, self.last, self.last_seat = last, play, seat
        if not o.pass_is_final:
            self.passed = 0
        after = seat
        if skipped:
            after = self._next(seat)
            self.passed |= 1 << after
        if self.active & ~self.passed & ~(1 << seat) == 0:
            self._end_trick(seat)
        else:
            self.turn = self._next(after)

    def _next_mode(self, st: list[int], last, play) -> int:
        o = self.rules.options
        mode = self.mode
        if mode in (SIXTY_NINE, KKK) or play.kind == MIX:
            return mode
        if o.kkk and kkk.starts(play):
            return KKK
        if o.sixty_nine:
            n = sixty_nine.starts(last, play)
            if n:
                self.mode_count = n
                return SIXTY_NINE
        if o.consec and (mode == CONSEC or consec.starts(st, self.before_last, last, play)):
            return CONSEC
        if o.eight_below and eight_below.starts(play):
            return EIGHT_BELOW
        return NORMAL

    def _end_trick(self, seat: int) -> None:
        """The pile is cleared; ``seat`` leads, or if out the next active player after it."""
        self.last = self.before_last = None
        self.passed = 0
        self.mode = NORMAL
        self.last_seat = seat if self.active >> seat & 1 else self._next_active(seat)
        self.turn = self.last_seat

    def _next(self, seat: int) -> int:
        """The next seat in the direction of play that may still act in this trick."""
        n = self.rules.players
        blocked = self.passed if self.rules.options.pass_is_final else 0
        for _ in range(n):
            seat = (seat + self.direction) % n
            if self.active >> seat & 1 and not blocked >> seat & 1:
                return seat
        return seat

    def _next_active(self, seat: int) -> int:
        n = self.rules.players
        for _ in range(n):
            seat = (seat + self.direction) % n
            if self.active >> seat & 1:
                return seat
        return seat

    def _finish(self) -> None:
        for seat in range(self.rules.players):
            if self.active >> seat & 1:
                self.finishing_order.append(seat)
        self.over = True
