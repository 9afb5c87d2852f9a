"""The hidden hands ``montecarlo`` plays out: worlds in which every other seat, playing like
``heuristic``, would have made the very moves it made (BOTS.md, inference).

``History`` replays the deal's public moves on a stand-in deal and keeps each position at which
another seat chose.  A hand for that seat *breaks* a position when ``heuristic_move``, given that
hand plus the cards the seat has played since, answers something else than the seat did.  The
heuristic is deterministic, so against ``heuristic`` players the true hands break nothing, and
the worlds that break nothing are exactly the deals those players could have held.

``Worlds`` keeps one world (each other seat's hidden hand and the cards nobody was dealt) through
one seat's decisions in a deal.  Each new move is folded in (a card the world put elsewhere is
swapped into the hand that played it), then the world walks: a swap of two cards between two
holders is kept when it breaks no more positions of those two seats than before.  Until a world
breaks nothing the walk is a descent towards one; from there on it only visits worlds that break
nothing.  ``montecarlo`` walks where ``inference.py`` cannot read the rules; docs/bots.md has what
that was measured to be worth.
"""

from gameplay.bots import cardset as C
from gameplay.bots.heuristic import heuristic_move
from gameplay.bots.observation import Observation
from gameplay.engine.plays import BLIND, PASS


def _what(move):
    """What the rules see of a move (the engine picks suits, so a guessed hand's play of the
    same ranks may differ in suits)."""
    return move if move is PASS or move is BLIND else move.key


class History:
    """The positions at which each other seat chose this deal, to check guessed hands against."""

    def __init__(self, obs, earlier: "History | None" = None, fast=None):
        """``earlier``: an earlier History of this seat; when its moves began this deal's, what
        it found of guessed hands is kept (a position and a hand decide the heuristic's move).
        ``fast``: the playout kernel where it plays the rules, to judge hands in C (the same
        judgement, the kernel's heuristic being the engine's; a decision's walk on
        presidents-deck ran in Python four times as long as its playouts)."""
        rules = obs.rules
        n = rules.players
        self.rules = rules
        self.fast = fast
        self.deal_number = obs.deal_number
        self.moves = list(obs.moves)
        # each seat's positions: tuples of the engine's deal and view, or the kernel's bytes
        self.positions: list[list] = [[] for _ in range(n)]
        # per move: the hands the mover was checked with, and whether it would have moved so
        self.known: list[dict[int, bool]] = []
        if (earlier is not None and earlier.rules is rules
                and earlier.deal_number == self.deal_number
                and self.moves[:len(earlier.moves)] == earlier.moves):
            self.known = earlier.known
        if not obs.moves or any(obs.blind_held):
            return  # blind piles hide what a seat could play: nothing is read
        d, later = obs.stand_in()  # later: what each seat plays from this move on
        seen = rules.deck.mask  # the pack less every card put down before this move
        known = self.known
        for at, (seat, move) in enumerate(obs.moves):
            if d.over or d.turn != seat:
                return  # the stand-in went astray: keep what was read so far
            if at == len(known):
                known.append({})
            if seat != obs.seat and fast is not None:
                self.positions[seat].append(fast.position(rules, fast.state(d), later[seat],
                                                          seen, move))
            elif seat != obs.seat:
                past = d.copy()
                # the seat's view then: the cards it could not see are the ones not yet put down
                view = Observation.at(past, seat, played=rules.deck.mask - seen)
                self.positions[seat].append((past, view, _what(move), later[seat], known[at]))
            if move is not PASS and move is not BLIND:
                later[seat] -= move.mask
                seen -= move.mask
            d.apply(move)

    def forget(self, seats: int) -> None:
        """Read none of the choices of ``seats`` (a bit each): any hand explains them."""
        for seat in range(len(self.positions)):
            if seats >> seat & 1:
                self.positions[seat] = []

    def broken(self, seat: int, hidden: int, enough: int = 1 << 30) -> int:
        """How many of ``seat``'s positions a hidden hand of ``hidden`` now breaks (counting
        stops at ``enough``)."""
        if self.fast is not None:
            return self.fast.broken(self.rules, self.positions[seat], hidden, enough)
        rules = self.rules
        bad = 0
        positions = self.positions[seat]
        for i, (past, view, what, later, known) in enumerate(positions):
            hand = hidden + later
            agrees = known.get(hand)
            if agrees is None:
                legal = past.with_hand(seat, hand).legal_moves()
                if len(legal) > 1:
                    view.hand = hand
                    move = heuristic_move(rules, view, legal)
                else:
                    move = legal[0]
                agrees = known[hand] = _what(move) == what
            if not agrees:
                bad += 1
                if bad >= enough:
                    # most guesses break the same few choices: check this one first next time
                    positions.insert(0, positions.pop(i))
                    break
        return bad


class Worlds:
    """One seat's world through a deal: ``follow`` brings it up to the observation,
    ``walk`` moves it on.  ``hands`` holds every other seat's hidden hand (this seat's entry
    is unused) and, last, the cards nobody was dealt."""

    def __init__(self, rng):
        self.rng = rng
        self.deal_number = None
        self.moves = 0
        self.hands: list[int] = []
        self.bad: list[int] = []
        self.history: History | None = None
        self.pinned: list[int] = []
        self.card_lists: dict[int, list[int]] = {}

    def follow(self, obs, history: History, fresh) -> None:
        """Fold the moves since the last decision into the world, or start from ``fresh()``
        (a ``(hands, blind)`` sample) on a new deal or when the world cannot be followed."""
        n = obs.players
        unseen = obs.unseen()
        self.history = history
        self.card_lists = {}
        self.pinned = [0] * (n + 1)
        for seat, cards in obs.gave.items():  # cards this seat gave stay with their receiver
            for card in cards:
                if C.copies(unseen, card):
                    self.pinned[seat] += C.unit(card)
        if (self.deal_number != obs.deal_number or len(obs.moves) < self.moves
                or not self._fold(obs.moves[self.moves:], obs.seat)
                or sum(self.hands) != unseen
                or any(C.mask_count(self.hands[s]) != obs.held[s] for s in range(n)
                       if s != obs.seat)):
            hands, _ = fresh()
            hands = list(hands)
            hands[obs.seat] = 0
            self.hands = hands + [unseen - sum(hands)]
        self.deal_number = obs.deal_number
        self.moves = len(obs.moves)
        self.bad = [self.history.broken(s, self.hands[s]) if s < n else 0
                    for s in range(n + 1)]

    def _fold(self, moves, me: int) -> bool:
        hands = self.hands
        rng = self.rng
        for seat, move in moves:
            if seat == me or move is PASS or move is BLIND:
                continue
            for card in move.cards:
                bit = C.unit(card)
                if C.copies(hands[seat], card):
                    hands[seat] -= bit
                    continue
                holder = next((t for t, h in enumerate(hands) if C.copies(h, card)), None)
                mine = C.mask_cards(self._free(seat)) or C.mask_cards(hands[seat])
                if holder is None or not mine:
                    return False
                give = rng.choice(mine)
                hands[holder] += C.unit(give) - bit
                hands[seat] -= C.unit(give)
        return True

    def walk(self, steps: int) -> list[int]:
        """Try ``steps`` swaps; the world's hidden hands (seats in order, then the undealt)."""
        history = self.history
        if history.fast is not None:  # the same swaps in C
            self.hands, self.bad = history.fast.walk(history.rules, self.rng, self.hands,
                                                     self.pinned, self.bad, history.positions,
                                                     steps)
            return self.hands
        hands, bad, rng = self.hands, self.bad, self.rng
        last = len(hands) - 1
        holders = [s for s, h in enumerate(hands) if h]
        if len(holders) < 2:
            return hands
        for _ in range(steps):
            a, b = rng.sample(holders, 2)
            free_a, free_b = self._free(a), self._free(b)
            if not free_a or not free_b:
                continue
            x, y = rng.choice(self._cards(free_a)), rng.choice(self._cards(free_b))
            if C.face_of(x) == C.face_of(y):
                continue
            new_a = hands[a] - C.unit(x) + C.unit(y)
            new_b = hands[b] - C.unit(y) + C.unit(x)
            allowed = bad[a] + bad[b]
            ba = history.broken(a, new_a, allowed + 1) if a != last else 0
            if ba > allowed:
                continue
            bb = history.broken(b, new_b, allowed - ba + 1) if b != last else 0
            if ba + bb > allowed:
                continue
            hands[a], hands[b], bad[a], bad[b] = new_a, new_b, ba, bb
        return hands

    def _free(self, seat: int) -> int:
        """The cards of ``seat`` the walk may move (not the ones this seat gave it)."""
        hand, pinned = self.hands[seat], self.pinned[seat]
        return hand - pinned if C.mask_contains(hand, pinned) else hand

    def _cards(self, mask: int) -> list[int]:
        """``C.mask_cards``, remembered: most swaps are refused, so the hands seldom change."""
        cards = self.card_lists.get(mask)
        if cards is None:
            cards = self.card_lists[mask] = C.mask_cards(mask)
        return cards

    def forget(self, seats: int) -> None:
        """``History.forget``'s seats break nothing now."""
        for seat in range(len(self.bad)):
            if seats >> seat & 1:
                self.bad[seat] = 0

    @property
    def consistent(self) -> bool:
        return not any(self.bad)
