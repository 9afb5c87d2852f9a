"""Revolution (seed 001 option): any quadruple reverses the order of all non-joker ranks until
the deal ends or another quadruple is played; the new order applies from that quadruple on."""


def reverses(play) -> bool:
    return play.count >= 4 and play.face >= 0
