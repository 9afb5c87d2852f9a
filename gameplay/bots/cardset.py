"""Sets of cards as the bots handle them: the one place they do bit arithmetic on cards.

A set of cards (a hand, the cards played, the unseen ones) is the engine's hand mask, an int in
which card code ``c`` is counted in byte ``c`` (``engine/cards.py``); a face's four suit codes
make one 32-bit chunk.  Sets add and subtract as ints where one holds the other.  The engine's
own helpers are re-exported here so that bots import cards from one module.
"""

from gameplay.engine.cards import (
    BOMB_FACE,
    FACE_BITS,
    FACE_MASK,
    cards_mask,
    mask_cards,
    mask_contains,
    mask_count,
    parse_card,
    unit,
)

__all__ = ["BOMB_FACE", "cards_mask", "copies", "face_count", "face_counts", "face_of",
           "face_set", "holds_any", "mask_cards", "mask_contains", "mask_count", "parse_card",
           "unit"]


def copies(cards: int, card: int) -> int:
    """How many copies of ``card`` the set holds."""
    return cards >> (card * 8) & 0xFF


def face_of(card: int) -> int:
    return card >> 2


def face_count(cards: int, face: int) -> int:
    """How many cards of ``face`` (any suit) the set holds."""
    return (((cards >> (face * FACE_BITS)) & FACE_MASK) * 0x01010101 >> 24) & 0xFF


def face_counts(cards: int, faces) -> dict[int, int]:
    """For each of ``faces`` the set holds, how many (in the order of ``faces``)."""
    counts = {}
    for f in faces:
        chunk = (cards >> (f * FACE_BITS)) & FACE_MASK
        if chunk:
            counts[f] = ((chunk * 0x01010101) >> 24) & 0xFF
    return counts


def face_set(face: int) -> int:
    """Every card of ``face``, as a pattern for ``holds_any`` (not a set to count)."""
    return FACE_MASK << (face * FACE_BITS)


def holds_any(cards: int, pattern: int) -> bool:
    """True when the set holds a card of ``pattern`` (a sum of ``face_set``s)."""
    return bool(cards & pattern)
