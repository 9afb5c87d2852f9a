"""Cards, decks and the card notation of TRANSCRIPT.md.

A card is a small int, ``face * 4 + suit``.  Standard faces run 2..14 (J=11 … A=14) and the
joker is face 15; the presidents deck uses faces 1..12 for numbered cards, face 0 for Bombs
(suit 0) and Bomb Reverses (suit 1), and face 16 for Doppelgängers.

A hand is one int holding an 8-bit count per card code (``cards_mask``), so it copies for free,
loses or gains cards by subtraction and addition, and yields a face's four counts with a shift.
"""

from collections import Counter
from collections.abc import Iterable

from gameplay.engine.errors import Unreadable

CLUBS, SPADES, DIAMONDS, HEARTS = 0, 1, 2, 3  # black suits first: red cards are kept for KKK
SUIT_LETTERS = "CSDH"

JACK, QUEEN, KING, ACE, TWO = 11, 12, 13, 14, 2
JOKER_FACE = 15
BOMB_FACE = 0
DOPPELGANGER_FACE = 16
FACES = 17

JOKER = JOKER_FACE * 4
BOMB = BOMB_FACE * 4
BOMB_REVERSE = BOMB_FACE * 4 + 1
DOPPELGANGER = DOPPELGANGER_FACE * 4

FOREIGN = 72  # added to the code of a card from the other pack's notation (never in a deck)

FACE_BITS = 32
FACE_MASK = (1 << FACE_BITS) - 1

_STANDARD_FACE_NAMES = {2: "2", 3: "3", 4: "4", 5: "5", 6: "6", 7: "7", 8: "8", 9: "9", 10: "10",
                        11: "J", 12: "Q", 13: "K", 14: "A"}
_STANDARD_FACES_BY_NAME = {v: k for k, v in _STANDARD_FACE_NAMES.items()} | {"T": 10}





def unit(card: int) -> int:
    """The hand-mask value of one copy of ``card``."""
    return 1 << (card * 8)


def cards_mask(cards: Iterable[int]) -> int:
    mask = 0
    for card in cards:
        mask += 1 << (card * 8)
    return mask


def mask_cards(mask: int) -> list[int]:
    """Every card in a hand mask, lowest code first, repeated as often as held."""
    cards = []
    for code, count in enumerate(mask.to_bytes((mask.bit_length() + 7) >> 3, "little")):
        if count:
            cards.extend([code] * count)
    return cards


def mask_count(mask: int) -> int:
    return sum(mask.to_bytes((mask.bit_length() + 7) >> 3, "little"))


def mask_contains(hand: int, cards: int) -> bool:
    """True when every card counted in ``cards`` is held in ``hand`` (multiset inclusion)."""
    while cards:
        if (cards & 0xFF) > (hand & 0xFF):
            return False
        cards >>= 8
        hand >>= 8
    return True


def face_chunk(hand: int, face: int) -> int:
    return (hand >> (face * FACE_BITS)) & FACE_MASK


def chunk_count(chunk: int) -> int:
    return ((chunk * 0x01010101) >> 24) & 0xFF


class Deck:
    """The pack for a ruleset: which cards exist and how many of each."""

    def __init__(self, *, presidents: bool, decks: int, jokers: int = 0):
        self.presidents = presidents
        counts: Counter[int] = Counter()
        if presidents:
            for face in range(1, 13):
                counts[face * 4] = 4 * decks
            counts[BOMB] = counts[BOMB_REVERSE] = counts[DOPPELGANGER] = 2 * decks
        else:
            for face in range(2, 15):
                for suit in range(4):
                    counts[face * 4 + suit] = decks
            if jokers:
                counts[JOKER] = jokers
        self.counts = counts
        self.mask = sum(n << (card * 8) for card, n in counts.items())
        self.size = sum(counts.values())

    def cards(self) -> list[int]:
        return mask_cards(self.mask)

    def parse(self, text: str) -> int:
        return parse_card(text, presidents=self.presidents)


def parse_card(text: object, *, presidents: bool) -> int:
    """Read one card in transcript notation (case ignored); raise Unreadable if it is no card.

    A card of the other pack's notation (7C in a presidents-deck game, B in a standard one)
    exists, so it reads as a foreign card that no hand can hold: a rule fault, not unreadable
    (TRANSCRIPT.md "The checker").
    """
    t = text.strip().upper() if isinstance(text, str) else ""
    card = _read(t, presidents)
    if card is None:
        card = _read(t, not presidents)
        if card is None:
            raise Unreadable(f"unknown card {text!r}")
        card += FOREIGN
    return card


def _read(t: str, presidents: bool) -> int | None:
    if presidents:
        if t in ("B", "BR", "DG"):
            return {"B": BOMB, "BR": BOMB_REVERSE, "DG": DOPPELGANGER}[t]
        if t.isdigit() and not t.startswith("0") and 1 <= int(t) <= 12:
            return int(t) * 4
        return None
    if t == "JK":
        return JOKER
    face = _STANDARD_FACES_BY_NAME.get(t[:-1])
    suit = SUIT_LETTERS.find(t[-1:]) if t else -1
    return None if face is None or suit < 0 else face * 4 + suit


def card_text(card: int, *, presidents: bool = False) -> str:
    if card >= FOREIGN:
        return card_text(card - FOREIGN, presidents=not presidents)
    if presidents:
        return {BOMB: "B", BOMB_REVERSE: "BR", DOPPELGANGER: "DG"}.get(card) or str(card >> 2)
    if card == JOKER:
        return "JK"
    return _STANDARD_FACE_NAMES[card >> 2] + SUIT_LETTERS[card & 3]


def face_text(face: int, *, presidents: bool) -> str:
    if presidents:
        return {BOMB_FACE: "B", DOPPELGANGER_FACE: "DG"}.get(face, str(face))
    return "JK" if face == JOKER_FACE else _STANDARD_FACE_NAMES[face]


def parse_face(text: object, *, presidents: bool) -> int:
    """Read a declared rank (the transcript's ``as``)."""
    t = str(text).strip().upper()
    if presidents:
        if t.isdigit() and 1 <= int(t) <= 12:
            return int(t)
    else:
        face = _STANDARD_FACES_BY_NAME.get(t)
        if face is not None:
            return face
    raise Unreadable(f"unknown rank {text!r}")
