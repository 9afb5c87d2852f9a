"""A ruleset bound to a table size: its pack, rank order and the plays a hand can make.

Everything here is computed once per (options, players) and shared by every deal state, so a
state copy stays a handful of ints and lists.
"""

from functools import lru_cache
from itertools import product

from gameplay.engine import cards as C
from gameplay.engine.errors import RuleViolation
from gameplay.engine.options import Options
from gameplay.engine.plays import BOMB, GROUP, LONE_DOPPELGANGER, MIX, Play


class Rules:
    def __init__(self, options: Options, players: int):
        options.validate(players)
        self.options = options
        self.players = players
        self.decks = options.decks_for(players)
        o = options
        self.presidents = o.presidents_deck
        self.deck = C.Deck(presidents=o.presidents_deck, decks=self.decks, jokers=o.jokers)
        if o.presidents_deck:
            naturals = list(range(1, 13))
            order = [C.DOPPELGANGER_FACE] + naturals  # doppelgängers alone rank below 1
        else:
            naturals = list(range(2, 15))
            ranks = list(range(3, 15)) + [C.TWO] if o.two_high else list(range(2, 15))
            order = list(ranks)
            if o.jokers and not o.jokers_wild:
                naturals.append(C.JOKER_FACE)
                order.append(C.JOKER_FACE)  # seeds 000/001: jokers are the highest rank
        self.natural_faces = naturals
        self.order = order
        # revolution (seed 001) reverses every rank but jokers
        jokers = [f for f in order if f == C.JOKER_FACE]
        self.reversed_order = [f for f in reversed(order) if f != C.JOKER_FACE] + jokers
        self.strength = _strength_table(order)
        self.reversed_strength = _strength_table(self.reversed_order)
        self.wild_card = (C.JOKER if o.jokers_wild and o.jokers else
                          C.DOPPELGANGER if o.doppelgangers else None)
        self.max_play = o.max_play
        # faces ranked above (or at least at) each strength, for answering without a full scan
        self._above = {rev: [tuple(f for f in naturals if st[f] > s) for s in range(len(order))]
                       for rev, st in ((False, self.strength), (True, self.reversed_strength))}
        self._at_least = {rev: [tuple(f for f in naturals if st[f] >= s)
                                for s in range(len(order))]
                          for rev, st in ((False, self.strength), (True, self.reversed_strength))}
        self._plays: dict[int, tuple[Play, ...]] = {}

    # --- rank order -------------------------------------------------------------------------
    def strengths(self, reversed_: bool) -> list[int]:
        return self.reversed_strength if reversed_ else self.strength

    def top_face(self, reversed_: bool) -> int:
        """The top rank of the current order (seed 001: playing it ends the trick)."""
        return (self.reversed_order if reversed_ else self.order)[-1]

    def top_natural_face(self, reversed_: bool) -> int:
        order = self.reversed_order if reversed_ else self.order
        return next(f for f in reversed(order) if f != C.JOKER_FACE)

    # --- the plays a hand can make ----------------------------------------------------------
    def wilds_in(self, hand: int) -> int:
        return 0 if self.wild_card is None else (hand >> (self.wild_card * 8)) & 0xFF

    def faces_above(self, strength: int, reversed_: bool, equal: bool) -> tuple[int, ...]:
        """The natural faces ranked above ``strength`` (or equal to it, with ``equal``)."""
        return (self._at_least if equal else self._above)[reversed_][strength]

    def group_plays(self, hand: int, faces=None) -> list[Play]:
        """Every distinct one-rank group the hand can put down (wild cards standing in),
        of the given faces (default: all)."""
        wilds = self.wilds_in(hand)
        jokers_alone = wilds and self.wild_card == C.JOKER
        plays: list[Play] = []
        cache = self._plays
        for face in self.natural_faces if faces is None else faces:
            chunk = (hand >> (face * 32)) & 0xFFFFFFFF
            if chunk or jokers_alone:
                key = chunk | face << 32 | wilds << 40
                found = cache.get(key)
                if found is None:
                    found = cache[key] = _face_plays(face, chunk, wilds, self.wild_card,
                                                     self.max_play)
                plays.extend(found)
        return plays

    def bomb_plays(self, hand: int) -> list[Play]:
        chunk = hand & 0xFFFFFFFF  # face 0: Bombs (suit 0) and Bomb Reverses (suit 1)
        return list(_bomb_plays(chunk)) if chunk else []

    def lone_doppelganger_plays(self, hand: int) -> list[Play]:
        n = (hand >> (C.DOPPELGANGER * 8)) & 0xFF if self.options.doppelgangers else 0
        return [_lone_doppelgangers(k) for k in range(1, n + 1)]

    # --- reading a play from its cards -------------------------------------------------------
    def play_from_cards(self, cards: list[int], declared: int | None = None) -> Play:
        """Classify concrete cards as a play; raise RuleViolation for a shape no rule allows."""
        if not cards:
            raise RuleViolation("a play needs at least one card")
        o = self.options
        faces = [c >> 2 for c in cards]
        mask = C.cards_mask(cards)
        ordered = tuple(sorted(cards))
        if self.max_play is not None and len(cards) > self.max_play:
            raise RuleViolation(f"a play is at most {self.max_play} cards")
        if o.bombs and C.BOMB_FACE in faces:
            if any(f != C.BOMB_FACE for f in faces):
                raise RuleViolation("bombs are played on their own")
            if declared is not None:
                raise RuleViolation("a bomb takes no declared rank")
            reverses = ordered.count(C.BOMB_REVERSE)
            return Play(ordered, mask, C.BOMB_FACE, BOMB, reverses=reverses)
        wild = self.wild_card
        naturals = sorted({f for c, f in zip(cards, faces, strict=True) if c != wild})
        wilds = len(cards) - sum(1 for c in cards if c != wild)
        if not naturals:
            if wild == C.DOPPELGANGER:
                if declared is not None:
                    raise RuleViolation("doppelgangers alone take no declared rank")
                return Play(ordered, mask, C.DOPPELGANGER_FACE, LONE_DOPPELGANGER)
            if declared is None:
                raise RuleViolation('wild jokers alone must declare their rank with "as"')
            if declared not in self.natural_faces:
                raise RuleViolation("wild jokers cannot stand for that rank")
            return Play(ordered, mask, declared, GROUP, wilds=wilds, declared=True)
        if len(naturals) > 1:
            if wilds:
                raise RuleViolation("a group is cards of one rank")
            if declared is not None:
                raise RuleViolation("a mixed play takes no declared rank")
            return Play(ordered, mask, -1, MIX)
        face = naturals[0]
        if declared is not None and declared != face:
            raise RuleViolation('"as" does not match the cards\' rank')
        return Play(ordered, mask, face, GROUP, wilds=wilds, declared=bool(wilds))

    def cards_text(self, cards) -> list[str]:
        return [C.card_text(c, presidents=self.presidents) for c in cards]

    def face_text(self, face: int) -> str:
        return C.face_text(face, presidents=self.presidents)


def _strength_table(order: list[int]) -> list[int]:
    table = [-1] * C.FACES
    for i, face in enumerate(order):
        table[face] = i
    return table


def chunk_cards(face: int, chunk: int) -> list[int]:
    """The cards in a face's chunk, black suits first (they are worth least: seed 000 KKK)."""
    cards = []
    for suit in range(4):
        cards.extend([face * 4 + suit] * ((chunk >> (suit * 8)) & 0xFF))
    return cards


def _face_plays(face: int, chunk: int, wilds: int, wild_card: int | None,
                max_play: int | None) -> tuple[Play, ...]:
    naturals = chunk_cards(face, chunk)
    plays = []
    for n in range(0 if wild_card == C.JOKER else 1, len(naturals) + 1):
        for w in range(0, wilds + 1):
            count = n + w
            if count == 0 or (max_play is not None and count > max_play):
                continue
            cards = tuple(naturals[:n]) + (wild_card,) * w if w else tuple(naturals[:n])
            plays.append(Play(cards, C.cards_mask(cards), face, GROUP, wilds=w,
                              declared=bool(w)))
    return tuple(plays)


@lru_cache(maxsize=256)
def _bomb_plays(chunk: int) -> tuple[Play, ...]:
    bombs, reverses = chunk & 0xFF, (chunk >> 8) & 0xFF
    plays = []
    for b, r in product(range(bombs + 1), range(reverses + 1)):
        if b + r:
            cards = (C.BOMB,) * b + (C.BOMB_REVERSE,) * r
            plays.append(Play(cards, C.cards_mask(cards), C.BOMB_FACE, BOMB, reverses=r))
    return tuple(plays)


@lru_cache(maxsize=32)
def _lone_doppelgangers(n: int) -> Play:
    cards = (C.DOPPELGANGER,) * n
    return Play(cards, C.cards_mask(cards), C.DOPPELGANGER_FACE, LONE_DOPPELGANGER)


def mix_play(cards: tuple[int, ...]) -> Play:
    faces = {c >> 2 for c in cards}
    if len(faces) == 1:
        return Play(cards, C.cards_mask(cards), cards[0] >> 2, GROUP)
    return Play(cards, C.cards_mask(cards), -1, MIX)
