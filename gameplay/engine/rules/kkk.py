"""KKK (seed 000): after exactly three kings are played as a triple, every later play in the
trick is any three red cards (hearts and diamonds; jokers are not red).  Once in force it
replaces all other constraints until the trick ends (RULES.md)."""

from gameplay.engine.cards import DIAMONDS, HEARTS, KING
from gameplay.engine.ruleset import mix_play


def starts(play) -> bool:
    return play.face == KING and play.count == 3 and not play.wilds


def allows(play) -> bool:
    return play.count == 3 and all((c & 3) in (DIAMONDS, HEARTS) and c >> 2 != 15
                                   for c in play.cards)


# The bytes of every red card in a hand mask: the answers depend on these alone.
RED_MASK = sum(0xFF << ((face * 4 + suit) * 8) for face in range(2, 15)
               for suit in (DIAMONDS, HEARTS))
_answers: dict[int, tuple] = {}


def answers(hand: int) -> list:
    """Every distinct set of three red cards (by rank) the hand holds."""
    red = hand & RED_MASK
    found = _answers.get(red)
    if found is None:
        if len(_answers) > 4096:
            _answers.clear()
        found = _answers[red] = tuple(_red_triples(red))
    return list(found)


def _red_triples(red: int) -> list:
    held = []  # (face, its red cards, diamonds first)
    for face in range(2, 15):
        cards = [face * 4 + suit for suit in (DIAMONDS, HEARTS)
                 for _ in range((red >> ((face * 4 + suit) * 8)) & 0xFF)]
        if cards:
            held.append(cards)
    plays = []
    n = len(held)
    for i in range(n):
        for j in range(i, n):
            for k in range(j, n):
                if i == j == k:
                    if len(held[i]) >= 3:
                        plays.append(mix_play(tuple(held[i][:3])))
                elif i == j or j == k:
                    pair, single = (held[j], held[k]) if i == j else (held[j], held[i])
                    if len(pair) >= 2:
                        plays.append(mix_play(tuple(pair[:2]) + (single[0],)))
                else:
                    plays.append(mix_play((held[i][0], held[j][0], held[k][0])))
    return plays


FAULT = "KKK in force: play three red cards"
