"""Eight below (seed 000): after a play of 8s outside consec, the next play must be lower than
8 (same count); after it, normal order resumes from that lower play (8, 7, 9 legal; 8, 7, 4 not).
"""

EIGHT = 8


def starts(play) -> bool:
    return play.face == EIGHT


def allows(strength: list[int], play) -> bool:
    return strength[play.face] < strength[EIGHT]


FAULT = "eight below: the play after 8s must be lower than 8"
