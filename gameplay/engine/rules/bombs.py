"""Bombs (seed 004): one or more Bombs and Bomb Reverses may be played on your turn onto any
pile, or as a lead.  The pile clears and the bomber leads at once; each Bomb Reverse reverses
the direction once; if the bomb was the bomber's last card the next player (new direction) leads.
"""


def new_direction(direction: int, play) -> int:
    return -direction if play.reverses % 2 else direction
