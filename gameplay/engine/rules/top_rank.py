"""Seed 001: a play of the top rank of the current order (2, or Joker when jokers are in, or 3
under revolution) ends the trick at once; its player leads next (if out, the next to the left).
"""


def ends_trick(rules, reversed_: bool, play) -> bool:
    return rules.options.top_rank_ends_trick and play.face == rules.top_face(reversed_)
