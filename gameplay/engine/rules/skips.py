"""Seed 004: a play of equal rank skips the next player, who counts as having passed.  With two
active players that clears the pile and the player leads again."""


def skips(rules, strength: list[int], last, play) -> bool:
    return (rules.options.skip_on_equal and last is not None
            and strength[play.face] == strength[last.face])
