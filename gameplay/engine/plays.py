"""Moves: a play (a group of cards put down at once), a pass, or turning a blind card.

Plays are small immutable values.  ``kind`` says what sort of group it is; ``face`` is the rank
the group stands for (declared for wild cards), ``count`` its number of cards.
"""

GROUP = 0  # cards of one rank, wild jokers or doppelgängers standing in
MIX = 1  # cards of several ranks: only under 69 (face cards) or KKK (red cards)
BOMB = 2  # Bombs and Bomb Reverses (seed 004)
LONE_DOPPELGANGER = 3  # doppelgängers alone: lead only, below 1 (seed 004)


class Play:
    __slots__ = ("cards", "mask", "face", "count", "kind", "wilds", "reverses", "declared")

    def __init__(self, cards: tuple[int, ...], mask: int, face: int, kind: int = GROUP,
                 wilds: int = 0, reverses: int = 0, declared: bool = False):
        self.cards = cards
        self.mask = mask
        self.face = face
        self.count = len(cards)
        self.kind = kind
        self.wilds = wilds  # wild jokers or doppelgängers in a group
        self.reverses = reverses  # Bomb Reverses in a bomb
        self.declared = declared  # the transcript writes "as" for this play

    @property
    def key(self) -> tuple:
        """What the rules see of this play: equal keys are the same play but for suits."""
        if self.kind == MIX:
            return (MIX, tuple(sorted(c >> 2 for c in self.cards)), self.count)
        return (self.kind, self.face, self.count, self.wilds, self.reverses)

    def __eq__(self, other):
        return isinstance(other, Play) and self.cards == other.cards and self.face == other.face

    def __hash__(self):
        return hash((self.cards, self.face))

    def __repr__(self):
        return f"Play({self.cards!r}, face={self.face})"


class _Signal:
    __slots__ = ("name",)

    def __init__(self, name: str):
        self.name = name

    def __repr__(self):
        return self.name


PASS = _Signal("PASS")
BLIND = _Signal("BLIND")  # turn the top card of the blind pile (friday option `blind`)
