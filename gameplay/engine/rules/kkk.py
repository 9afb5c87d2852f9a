"""KKK (seed 000): after exactly three kings are played as a triple, every later play in the
trick is any three red cards (hearts and diamonds; jokers are not red).  Once in force it
replaces all other constraints until the trick ends (RULES.md)."""

from itertools import combinations_with_replacement

from gameplay.engine.cards import DIAMONDS, HEARTS, KING
from gameplay.engine.ruleset import mix_play


def starts(play) -> bool:
    return play.face == KING and play.count == 3 and not play.wilds


def allows(play) -> bool:
    return play.count == 3 and all((c & 3) in (DIAMONDS, HEARTS) and c >> 2 != 15
                                   for c in play.cards)


def answers(hand: int) -> list:
    """Every distinct set of three red cards (by rank) the hand holds."""
    red: dict[int, list[int]] = {}
    for face in range(2, 15):
        for suit in (DIAMONDS, HEARTS):
            card = face * 4 + suit
            red.setdefault(face, []).extend([card] * ((hand >> (card * 8)) & 0xFF))
    faces = [f for f, cards in red.items() if cards]
    plays = []
    for combo in combinations_with_replacement(faces, 3):
        if all(combo.count(f) <= len(red[f]) for f in set(combo)):
            used: dict[int, int] = {}
            cards = []
            for f in combo:
                cards.append(red[f][used.get(f, 0)])
                used[f] = used.get(f, 0) + 1
            plays.append(mix_play(tuple(cards)))
    return plays


FAULT = "KKK in force: play three red cards"
