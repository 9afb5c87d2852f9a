"""Determinizations for ``montecarlo``: worlds (every seat's hidden cards) consistent with what
one seat has seen (BOTS.md: inference about hidden hands).

A world holds the unseen cards dealt to the other seats and the blind piles by their counts;
cards the seat gave away in the exchange stay with the seat it gave them to until played.  The
constraints ``inference`` reads from the other seats' moves shape the worlds: the first world
of a decision is dealt around the cards they rule out, then repaired by swapping cards between
seats; every later world is the one before moved on by a few swaps that break no more
constraints.  That random walk comes out about uniform over the worlds the constraints allow,
which is the right weighting for opponents that play by the modelled rules.
"""

import random

from gameplay.bots import inference
from gameplay.engine import cards as C


class Worlds:
    """The worlds for one decision of ``obs``'s seat, one per ``next()``."""

    def __init__(self, obs, found: list, rng: random.Random, *, tries: int = 6,
                 repair: int = 40, steps: int = 6):
        self.obs = obs
        self.rng = rng
        self.tries = tries
        self.repair = repair
        self.steps = steps
        # a constraint whose ruled-out cards the seat has since played is broken in any world
        self.found = [c for c in found if not c.later & c.zero]
        self.hands = None
        self.fixed = [0] * obs.players  # cards known to be with a seat (the exchange)
        self.walk = bool(self.found) and not any(obs.blind_held) and steps > 0

    def next(self):
        """(hands, blind piles or None): the next world."""
        if self.hands is None or not self.walk:
            world = self._first()
            if not self.walk:
                return world
            self.hands = world[0]
            self.seats = [s for s in range(self.obs.players)
                          if s != self.obs.seat and self.obs.held[s]]
            self.by_seat = {s: [c for c in self.found if c.seat == s] for s in self.seats}
            self.bad = {s: _broken(self.by_seat[s], self.hands[s]) for s in self.seats}
            self._swaps(self.repair, until_clean=True)
        else:
            self._swaps(self.steps)
        return list(self.hands), None

    def _first(self):
        """A world that breaks none of the constraints if one turns up within ``tries``
        dealings, else the one that breaks fewest."""
        best, fewest = None, None
        banned = inference.forbidden(self.found, self.obs.players) if self.found else None
        for _ in range(max(1, self.tries) if self.found else 1):
            world = self.deal(banned)
            if not self.found:
                return world
            broken = inference.violations(self.found, world[0])
            if fewest is None or broken < fewest:
                best, fewest = world, broken
                if not broken:
                    break
        return best

    def _swaps(self, tries: int, until_clean: bool = False) -> None:
        """Propose ``tries`` swaps of one card between two other seats; keep each that breaks
        no more constraints than before (first seat: one with a broken constraint, if any)."""
        seats, hands, bad, rng = self.seats, self.hands, self.bad, self.rng
        if len(seats) < 2:
            return
        for _ in range(tries):
            broken = [s for s in seats if bad[s]]
            if until_clean and not broken:
                return
            a = rng.choice(broken) if broken else rng.choice(seats)
            b = rng.choice(seats)
            if a == b:
                continue
            ca = self._movable(a)
            cb = self._movable(b)
            if ca is None or cb is None or ca == cb:
                continue
            ha = hands[a] - C.unit(ca) + C.unit(cb)
            hb = hands[b] - C.unit(cb) + C.unit(ca)
            na = _broken(self.by_seat[a], ha)
            nb = _broken(self.by_seat[b], hb)
            if na + nb <= bad[a] + bad[b]:
                hands[a], hands[b], bad[a], bad[b] = ha, hb, na, nb

    def _movable(self, seat: int):
        """A random card of ``seat``'s that is not known to be there, or None."""
        cards = C.mask_cards(self.hands[seat] - self.fixed[seat])
        return self.rng.choice(cards) if cards else None

    def deal(self, banned: list[int] | None = None):
        """One dealing: (hands, blind piles) for every seat, this seat's hand as is;
        ``banned`` cards (per seat) go to other seats when the counts allow."""
        obs, rng = self.obs, self.rng
        players = obs.players
        pool = C.mask_cards(obs.unseen())
        rng.shuffle(pool)
        hands = [0] * players
        fixed = [0] * players
        need = [0 if s == obs.seat else obs.held[s] for s in range(players)]
        # cards this seat gave in the exchange are still with their receiver unless played
        for seat, cards in obs.gave.items():
            for card in cards:
                if need[seat] and card in pool:
                    pool.remove(card)
                    fixed[seat] += C.unit(card)
                    need[seat] -= 1
        at = 0
        if banned is not None and any(banned) and not any(obs.blind_held):
            _deal_around(rng, pool, need, hands, banned)
        else:
            for s in range(players):
                if need[s]:
                    hands[s] += C.cards_mask(pool[at:at + need[s]])
                    at += need[s]
        for s in range(players):
            hands[s] += fixed[s]
        hands[obs.seat] = obs.hand
        self.fixed = fixed
        blind = None
        if any(obs.blind_held):
            blind = []
            for s in range(players):
                blind.append(tuple(pool[at:at + obs.blind_held[s]]))
                at += obs.blind_held[s]
        return hands, blind


def _broken(found: list, hand: int) -> int:
    return sum(1 for c in found if c.broken(hand))


def _deal_around(rng, pool, need, hands, banned):
    """Deal the shuffled ``pool`` by ``need``, each card to a seat allowed to hold it (the
    most constrained cards first), weighted by the room left; a card no seat with room may
    hold goes to any seat with room."""
    seats = [s for s in range(len(need)) if need[s]]
    allowed = [[s for s in seats if not banned[s] >> (card * 8) & 0xFF] for card in pool]
    order = sorted(range(len(pool)), key=lambda i: len(allowed[i]))
    need = need[:]
    for i in order:
        room = [s for s in allowed[i] if need[s]] or [s for s in seats if need[s]]
        r = rng.randrange(sum(need[s] for s in room))
        for s in room:
            r -= need[s]
            if r < 0:
                break
        hands[s] += 1 << (pool[i] * 8)
        need[s] -= 1
