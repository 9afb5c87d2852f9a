"""69 (seed 000): when n 9s are played directly on n 6s, every later play in the trick is any
2n face cards (J, Q, K mixed freely, in no order).  Once in force it replaces all other
constraints until the trick ends (RULES.md)."""

from itertools import product

from gameplay.engine.cards import JACK, KING, QUEEN
from gameplay.engine.ruleset import chunk_cards, mix_play

FACE_CARDS = (JACK, QUEEN, KING)


def starts(last, play) -> int:
    """The n of a 69 this play starts, or 0."""
    if last is not None and last.face == 6 and play.face == 9 and not play.wilds:
        return play.count
    return 0


def allows(n: int, play) -> bool:
    return play.count == 2 * n and all(c >> 2 in FACE_CARDS for c in play.cards)


def answers(hand: int, n: int) -> list:
    """Every distinct mix of 2n face cards the hand holds."""
    held = [chunk_cards(f, (hand >> (f * 32)) & 0xFFFFFFFF) for f in FACE_CARDS]
    plays = []
    for counts in product(*(range(len(cards) + 1) for cards in held)):
        if sum(counts) == 2 * n:
            cards = tuple(c for cards, k in zip(held, counts, strict=True) for c in cards[:k])
            plays.append(mix_play(cards))
    return plays


FAULT = "69 in force: play face cards (J, Q, K), twice the count of the 6s"
