"""What one seat sees at the table, and nothing more (STYLE.md: bots receive an Observation).

An ``Observation`` is built for every decision from the engine's ``Deal`` and ``Game`` plus a
``GameLog`` that every seat of the game shares: the moves made so far this deal, the cards
played, each player's card count, roles, scores, direction and the rule in force.  It never
holds another player's hand.  ``to_json`` is the outside-bot protocol's ``observation`` object.
"""

from dataclasses import dataclass, field, fields

from gameplay.bots import cardset as C
from gameplay.engine.deal import CW, MODE_NAMES, Deal
from gameplay.engine.plays import BLIND, BOMB, PASS
from gameplay.engine.roles import roles_of
from gameplay.engine.rules import bombs
from gameplay.engine.ruleset import Rules

DIRECTION_TEXT = {1: "cw", -1: "ccw"}


def _pile_mask(cards) -> int:
    return C.cards_mask(cards) if cards else 0


class GameLog:
    """The public log of one game, shared by all its seats' adapters.

    The engine's driver hands deciders the live ``Deal``; the log notices a new deal by the
    object changing, keeps the hands as play began (to know which cards have been played) and
    the moves each seat reported.
    """

    def __init__(self):
        self.deal: Deal | None = None
        self.deal_number = -1
        self.start_cards: list[int] = []
        self.moves: list[tuple[int, object]] = []
        self.trick: list[tuple[int, object]] = []

    def follow(self, deal: Deal) -> None:
        if deal is not self.deal:
            self.deal = deal
            self.deal_number += 1
            blind = deal.blind or [()] * deal.rules.players
            self.start_cards = [h + _pile_mask(b) for h, b in zip(deal.hands, blind, strict=True)]
            self.moves = []
            self.trick = []
        if deal.last is None:
            self.trick = []

    def record(self, seat: int, move) -> None:
        self.moves.append((seat, move))
        self.trick.append((seat, move))

    def played(self, deal: Deal) -> int:
        """Every card put down this deal so far, as a hand mask."""
        blind = deal.blind or [()] * deal.rules.players
        return sum(start - h - _pile_mask(b) for start, h, b
                   in zip(self.start_cards, deal.hands, blind, strict=True))


@dataclass(slots=True)
class Observation:
    """One seat's view of the table at one decision.

    ``observe`` builds it for a real decision; ``Observation.at`` builds the view of a seat in
    a deal the bot itself holds (a playout, a past position it replays), fast and with the
    position only: no moves or trick, roles or scores, and every card outside the seat's hand
    and not in any hand or blind pile counts as ``played``."""

    seat: int
    rules: Rules
    hand: int  # this seat's cards as a hand mask (``cards`` lists them)
    held: list[int]  # each seat's card count in hand
    blind_held: list[int]  # each seat's face-down blind cards (option `blind`), else zeros
    active: list[int]  # seats still holding cards
    finishing_order: list[int]  # seats out so far this deal
    turn: int
    last: object | None  # the play on the pile, None when the next play is a lead
    last_seat: int
    before_last: object | None
    trick: list[tuple[int, object]]  # this trick's moves so far, oldest first
    moves: list[tuple[int, object]]  # this deal's moves so far
    played: int  # cards put down this deal so far (hand mask)
    passed: list[int]  # seats that passed since the last play (pass_is_final: this trick)
    direction: int
    mode: int
    mode_count: int
    reversed: bool
    opening: int | None  # a card the deal's first lead must include (seed 000: 3♣)
    roles: dict[int, str] = field(default_factory=dict)  # from the previous deal
    scores: list[int] | None = None
    deal_number: int = 0
    dealer: int = 0
    gave: dict[int, list[int]] = field(default_factory=dict)  # exchange: cards given, by seat
    received: list[int] = field(default_factory=list)  # exchange: cards received

    @classmethod
    def at(cls, d: Deal, seat: int, played: int | None = None) -> "Observation":
        """``seat``'s view of ``d``, a deal the bot holds; ``played`` defaults to every card in
        no hand or blind pile.  A playout builds one per move, so the fields are set directly."""
        obs = object.__new__(cls)
        obs.seat, obs.rules, obs.hand, obs.held = seat, d.rules, d.hands[seat], d.held
        n = len(d.held)
        obs.blind_held = [len(p) for p in d.blind] if d.blind else [0] * n
        obs.active = d.active_seats()
        obs.finishing_order, obs.turn = d.finishing_order, d.turn
        obs.last, obs.last_seat, obs.before_last = d.last, d.last_seat, d.before_last
        obs.trick, obs.moves = [], []
        if played is None:
            played = d.rules.deck.mask - sum(d.hands)
            if d.blind:
                played -= sum(C.cards_mask(p) for p in d.blind if p)
        obs.played = played
        obs.passed = [s for s in range(n) if d.passed >> s & 1] if d.passed else []
        obs.direction, obs.mode, obs.mode_count = d.direction, d.mode, d.mode_count
        obs.reversed, obs.opening = d.reversed, d.opening
        obs.roles, obs.scores, obs.deal_number, obs.dealer = {}, None, 0, 0
        obs.gave, obs.received = {}, []
        return obs

    @property
    def players(self) -> int:
        return self.rules.players

    @property
    def cards(self) -> list[int]:
        return C.mask_cards(self.hand)

    @property
    def leading(self) -> bool:
        return self.last is None

    def strengths(self) -> list[int]:
        return self.rules.strengths(self.reversed)

    def unseen(self) -> int:
        """Cards this seat cannot see: the pack minus its hand and every card played."""
        return self.rules.deck.mask - self.hand - self.played

    def stand_in(self) -> tuple[Deal, list[int]]:
        """This deal as it began, to replay its moves on, and the cards each seat has played.
        Each seat holds what it played plus, for its hidden cards, filler from the unseen ones:
        card counts, tricks and the pile come out exact; the filler's ranks mean nothing."""
        n = self.players
        played = [0] * n
        for seat, move in self.moves:
            if move is not PASS and move is not BLIND:
                played[seat] += move.mask
        filler = C.mask_cards(self.unseen())
        at = 0
        hands = []
        for s in range(n):
            if s == self.seat:
                hands.append(self.hand + played[s])
                continue
            hands.append(played[s] + C.cards_mask(filler[at:at + self.held[s]]))
            at += self.held[s]
        direction = self.direction  # each Bomb Reverse played turned it (seed 004)
        for _, move in self.moves:
            if move is not PASS and move is not BLIND and move.kind == BOMB:
                direction = bombs.new_direction(direction, move)
        leader = self.moves[0][0] if self.moves else self.turn
        return Deal(self.rules, hands, leader=leader, direction=direction), played

    def deal_with(self, hands: list[int], blind: list[tuple[int, ...]] | None = None) -> Deal:
        """A full ``Deal`` matching this view, with ``hands`` for every seat (a determinization:
        the other seats' cards are guesses)."""
        return Deal.position(
            self.rules, hands, turn=self.turn, direction=self.direction, active=self.active,
            finishing_order=self.finishing_order, last=self.last, last_seat=self.last_seat,
            before_last=self.before_last, passed=self.passed, mode=self.mode,
            mode_count=self.mode_count, reversed=self.reversed, opening=self.opening,
            blind=blind)

    def to_json(self) -> dict:
        text = self.rules.cards_text
        return {
            "seat": self.seat,
            "players": self.players,
            "ruleset": _ruleset(self.rules),
            "preset": self.rules.options.preset,
            "options": _options(self.rules),
            "rank_order": [self.rules.face_text(f) for f in
                           (self.rules.reversed_order if self.reversed else self.rules.order)],
            "hand": text(self.cards),
            "held": self.held,
            "blind_held": self.blind_held,
            "active": self.active,
            "finishing_order": self.finishing_order,
            "turn": self.turn,
            "leading": self.leading,
            "pile": move_json(self.rules, self.last) if self.last is not None else None,
            "pile_seat": self.last_seat if self.last is not None else None,
            "before_pile": (move_json(self.rules, self.before_last)
                            if self.before_last is not None else None),
            "trick": [{"seat": s} | move_json(self.rules, m) for s, m in self.trick],
            "moves": [{"seat": s} | move_json(self.rules, m) for s, m in self.moves],
            "played": text(C.mask_cards(self.played)),
            "passed": self.passed,
            "direction": DIRECTION_TEXT[self.direction],
            "special": MODE_NAMES[self.mode],
            "special_count": self.mode_count,
            "reversed": self.reversed,
            "opening": text([self.opening])[0] if self.opening is not None else None,
            "roles": {str(s): r for s, r in self.roles.items()},
            "scores": self.scores,
            "deal": self.deal_number,
            "dealer": self.dealer,
            "gave": {str(s): text(c) for s, c in self.gave.items()},
            "received": text(self.received),
        }


def _ruleset(rules: Rules):
    from gameplay.engine.options import to_ruleset

    return to_ruleset(rules.options)


def _options(rules: Rules) -> dict:
    """Every option in force, the preset's own and its family's (``decks`` as at this table)."""
    options = {f.name: getattr(rules.options, f.name) for f in fields(rules.options)}
    del options["preset"]
    return options | {"decks": rules.decks}


def move_json(rules: Rules, move) -> dict:
    """A move in the transcript's notation, without the seat."""
    if move is PASS:
        return {"pass": True}
    if move is BLIND:
        return {"blind": True}
    out = {"play": rules.cards_text(move.cards)}
    if move.declared:
        out["as"] = rules.face_text(move.face)
    return out


def observe(deal: Deal, game, log: GameLog, seat: int, *, gave=None, received=None) -> Observation:
    """Seat ``seat``'s view of ``deal`` (the engine's live state) within ``game``."""
    log.follow(deal)
    n = deal.rules.players
    previous = game.previous_order if game is not None else None
    roles = {s: str(r) for s, r in roles_of(previous).items()} if previous else {}
    scores = None
    if game is not None and game.sheet is not None:
        scores = [game.sheet.totals.get(s, 0) for s in range(n)]
    return Observation(
        seat=seat, rules=deal.rules, hand=deal.hands[seat], held=list(deal.held),
        blind_held=[len(p) for p in deal.blind] if deal.blind else [0] * n,
        active=deal.active_seats(), finishing_order=list(deal.finishing_order), turn=deal.turn,
        last=deal.last, last_seat=deal.last_seat, before_last=deal.before_last,
        trick=list(log.trick), moves=list(log.moves), played=log.played(deal),
        passed=[s for s in range(n) if deal.passed >> s & 1], direction=deal.direction,
        mode=deal.mode, mode_count=deal.mode_count, reversed=deal.reversed,
        opening=deal.opening, roles=roles, scores=scores, deal_number=log.deal_number,
        dealer=game.dealer if game is not None else 0, gave=dict(gave or {}),
        received=list(received or []))


def pre_deal(game, seat: int, hand: int, *, deal_number: int) -> Observation:
    """A seat's view before play starts (exchange, choosing the leader): its hand, the roles
    and scores; no pile."""
    rules = game.rules
    n = rules.players
    previous = game.previous_order
    roles = {s: str(r) for s, r in roles_of(previous).items()} if previous else {}
    scores = [game.sheet.totals.get(s, 0) for s in range(n)] if game.sheet else None
    return Observation(
        seat=seat, rules=rules, hand=hand, held=[0] * n, blind_held=[0] * n,
        active=list(range(n)), finishing_order=[], turn=seat, last=None, last_seat=seat,
        before_last=None, trick=[], moves=[], played=0, passed=[], direction=CW, mode=0,
        mode_count=0, reversed=False, opening=None, roles=roles, scores=scores,
        deal_number=deal_number, dealer=game.dealer)
