"""Consec (seed 000): three plays in a row of consecutive ascending ranks (6-7-8, Q-K-A,
A-2-Joker) put the trick under consec: every later play is exactly one rank above the last,
same count.  Consec takes priority over eight below (6-7-8 then only 9)."""


def starts(strength: list[int], before_last, last, play) -> bool:
    if before_last is None or last is None:
        return False
    a, b, c = strength[before_last.face], strength[last.face], strength[play.face]
    return a >= 0 and b == a + 1 and c == b + 1


def allows(strength: list[int], last, play) -> bool:
    return play.count == last.count and strength[play.face] == strength[last.face] + 1


FAULT = "consec in force: play exactly one rank above, same count"
