"""montecarlo's exchange decisions by search over the coming deal (issue #21).

A give-back (every preset with an exchange) and seed 004's high/low asks are chosen like a
play: a few candidates (the heuristic's choice first), each played out in the same sampled
worlds of the coming deal and the best mean finish kept, the heuristic's choice winning ties.
A world is the deal as dealt, drawn from the cards this seat cannot see by each seat's dealt
count and consistent with what it received and from whom (a Scum who gave its highest cards
keeps none higher; a Turd asked high or low keeps none beyond the card it gave).  The rest of
the exchange follows the rules as the heuristic players answer them (the lower seat's highest
cards or the asked ones, the heuristic's give-back and asks), then the deal is played out from
its first leader with the kernel's heuristic policy (montecarlo searches only with the kernel).
"""

import time
from itertools import combinations, product

from gameplay.bots import cardset as C
from gameplay.bots.base import card_value
from gameplay.engine.deal import CW, Deal
from gameplay.engine.options import EXCHANGE_ASK, EXCHANGE_NAMED
from gameplay.engine.roles import Role, exchange_pairs
from gameplay.engine.rules import exchange, leading
from gameplay.engine.rules.exchange import ExchangeStep

WIDTH = 3  # give-back candidates: every set of the count due among the lowest count + WIDTH
SPEND = 4  # an exchange search spends SPEND times a play decision's playouts (or budget)
LEAN = 0.03  # another candidate must beat the heuristic's by this much in mean finish
ROLE_ORDER = list(Role)  # best first


def heuristic_give(rules, hand: int, received: list[int], count: int) -> list[int]:
    """``HeuristicBot.give_back``: the lowest cards standing alone, never one just received."""
    counts = C.face_counts(hand, rules.natural_faces)
    allowed = C.mask_cards(hand - C.cards_mask(received))

    def cost(card):
        alone = counts.get(C.face_of(card), 0) <= 1
        return (card_value(rules, card, False) + (0 if alone else 3), card)

    return sorted(allowed, key=cost)[:count]


def heuristic_ask(rules, index: int) -> str:
    """``HeuristicBot.ask``."""
    return exchange.LOW if rules.options.bombs and index == 0 else exchange.HIGH


class Table:
    """What a seat knows of the coming deal's exchange before play: the steps, who leads."""

    def __init__(self, obs):
        self.rules = rules = obs.rules
        self.seat = obs.seat
        self.dealer = obs.dealer
        ranked = sorted(obs.roles, key=lambda s: (ROLE_ORDER.index(Role(obs.roles[s])), s))
        # the previous finishing order as far as the leader and the exchange need it (the
        # citizens' order among themselves matters to neither)
        self.previous = ranked
        pairs = exchange_pairs([(s, Role(obs.roles[s])) for s in ranked])
        self.steps = [ExchangeStep(g, r, n, gives_back=i % 2 == 1)
                      for i, (g, r, n) in enumerate(pairs)]
        n = rules.players
        total = C.mask_count(rules.deck.mask)
        # deal_cards: one card at a time from the dealer's left
        self.sizes = [0] * n
        for i in range(n):
            self.sizes[(obs.dealer + 1 + i) % n] = total // n + (1 if i < total % n else 0)

    def step(self, gives_back: bool) -> ExchangeStep | None:
        return next((s for s in self.steps if s.gives_back == gives_back
                     and (s.giver if gives_back else s.receiver) == self.seat), None)

    def exchange(self, hands: list[int], give=None, asks=None, received=None) -> list[int]:
        """``hands`` (as dealt) after the exchange: this seat gives ``give`` back, asks ``asks``
        and receives ``received`` where given; every other answer the heuristic's."""
        rules = self.rules
        kind = rules.options.exchange
        got: dict[int, list[int]] = {}
        hands = list(hands)
        for step in self.steps:
            hand = hands[step.giver]
            due = min(step.count, C.mask_count(hand))
            if step.gives_back:
                if step.giver == self.seat and give is not None:
                    cards = give
                else:
                    cards = heuristic_give(rules, hand, got.get(step.giver, []), due)
            elif step.receiver == self.seat and received is not None:
                cards = received
            elif kind == EXCHANGE_ASK:
                cards, left = [], hand
                for i in range(due):
                    mine = step.receiver == self.seat and asks is not None
                    card = exchange.answer_ask(left, asks[i] if mine else heuristic_ask(rules, i))
                    cards.append(card)
                    left -= C.unit(card)
            elif kind == EXCHANGE_NAMED:  # the President names the strongest cards
                cards = sorted(C.mask_cards(hand), key=lambda c: -card_value(rules, c, False))
                cards = cards[:due]
            else:
                cards = exchange.highest(rules, hand, due)
            mask = C.cards_mask(cards)
            hands[step.giver] -= mask
            hands[step.receiver] += mask
            got[step.receiver] = cards
        return hands

    def deal(self, hands: list[int]) -> Deal | None:
        rules = self.rules
        leader, opening = leading.fixed_leader(rules.options, rules.players, self.dealer, hands,
                                               self.previous)
        if leader is None:
            return None
        return Deal(rules, hands, leader=leader, direction=CW, opening=opening)

    def world(self, rng, own: int, giver: int | None = None, given: list[int] = (),
              keeps=None) -> list[int]:
        """Hands as dealt: this seat's ``own``; ``giver`` held ``given`` and other cards only
        where ``keeps`` allows (when enough unseen cards are allowed); the rest at random."""
        rules = self.rules
        pool = C.mask_cards(rules.deck.mask - own - C.cards_mask(given))
        rng.shuffle(pool)
        hands = [0] * rules.players
        hands[self.seat] = own
        if giver is not None:
            need = self.sizes[giver] - len(given)
            fits = [c for c in pool if keeps is None or keeps(c)]
            if len(fits) < need:  # what it saw cannot be; deal without the constraint
                fits = pool
            taken = fits[:need]
            hands[giver] = C.cards_mask(list(given) + taken)
            for card in taken:
                pool.remove(card)
        at = 0
        for s in range(rules.players):
            if s != self.seat and s != giver:
                hands[s] = C.cards_mask(pool[at:at + self.sizes[s]])
                at += self.sizes[s]
        return hands


def give_candidates(obs, count: int, allowed: list[int], prior: list[int]) -> list[list[int]]:
    """The heuristic's give first, then every set of ``count`` among the lowest allowed cards,
    one per set of faces (suits matter only for the card that names the first leader)."""
    lowest = sorted(allowed, key=lambda c: (card_value(obs.rules, c, False), c))[:count + WIDTH]
    special = (leading.THREE_OF_CLUBS, leading.TWO_OF_CLUBS)

    def key(cards):
        return tuple(sorted(c if c in special else C.face_of(c) + 1000 for c in cards))

    out, seen = [list(prior)], {key(prior)}
    for cards in combinations(lowest, count):
        if key(cards) not in seen:
            seen.add(key(cards))
            out.append(list(cards))
    return out


def search(bot, candidates: list, world, outcome) -> int:
    """The index of the candidate with the best mean finish (0, the heuristic's, on ties and
    near-ties); ``outcome(candidate, dealt)`` plays one out in the hands ``world()`` dealt, the
    same for every candidate.  Work as one play decision's, SPEND times over."""
    config = bot.config
    n = len(candidates)
    if n == 1:
        return 0
    sums = [0.0] * n
    alive = list(range(n))
    runs = done = 0
    deadline = time.perf_counter() + SPEND * config.budget_ms / 1000
    while True:
        dealt = world()
        for i in alive:
            sums[i] += outcome(candidates[i], dealt)
        runs += 1
        done += len(alive)
        if runs >= 4 and len(alive) > 1:
            top = max(sums[i] for i in alive)
            margin = 0.8 * runs ** 0.5
            alive = [i for i in alive if sums[i] >= top - margin]
        if config.playouts is not None:
            if done >= SPEND * config.playouts:
                break
        elif time.perf_counter() >= deadline:
            break
    bonus = max(0.5, LEAN * runs)
    return max(alive, key=lambda i: (sums[i] + (bonus if i == 0 else 0), -i))


def give_back(bot, obs, count: int, allowed: list[int], prior: list[int], asked, play_out):
    """The give-back by search, or ``prior`` where the table's exchange cannot be modelled;
    ``asked``: seed 004, the asks that brought ``obs.received``."""
    if not obs.roles or count < 1 or len(allowed) <= count:
        return prior
    table = Table(obs)
    step = table.step(gives_back=True)
    if step is None:
        return prior
    giver = step.receiver  # who gave this seat the cards it received
    received = list(obs.received)
    own = obs.hand - C.cards_mask(received)
    keeps = _keeps(obs, received, asked)
    candidates = give_candidates(obs, count, allowed, prior)

    def outcome(give, dealt):
        deal = table.deal(table.exchange(dealt, give=give, received=received))
        return 0.5 if deal is None else play_out(deal, obs.seat)

    world = lambda: table.world(bot.rng, own, giver, received, keeps)  # noqa: E731
    return candidates[search(bot, candidates, world, outcome)]


def asks(bot, obs, play_out) -> list[str] | None:
    """Seed 004: every ask of this seat's exchange step, chosen before the first (the bot does
    not see what an ask brought before the next); None where it cannot be modelled."""
    if not obs.roles:
        return None
    table = Table(obs)
    step = table.step(gives_back=False)
    if step is None:
        return None
    prior = [heuristic_ask(obs.rules, i) for i in range(step.count)]
    candidates = [prior] + [list(a) for a in product((exchange.HIGH, exchange.LOW),
                                                     repeat=step.count) if list(a) != prior]

    def outcome(choice, dealt):
        deal = table.deal(table.exchange(dealt, asks=choice))
        return 0.5 if deal is None else play_out(deal, obs.seat)

    return candidates[search(bot, candidates, lambda: table.world(bot.rng, obs.hand), outcome)]


def _keeps(obs, received, asked):
    """What the seat that gave ``received`` can still hold, by the rules of its giving."""
    rules = obs.rules
    kind = rules.options.exchange
    if not received:
        return None
    if kind == EXCHANGE_ASK:  # each card the giver's highest or lowest left when asked
        asked = asked or [heuristic_ask(rules, i) for i in range(len(received))]
        pairs = list(zip(received, asked, strict=False))  # a Turd short of cards gave fewer
        high = [exchange.ask_order(c) for c, a in pairs if a == exchange.HIGH]
        low = [exchange.ask_order(c) for c, a in pairs if a == exchange.LOW]
        top, bottom = min(high, default=99), max(low, default=-1)
        return lambda c: bottom <= exchange.ask_order(c) <= top
    if kind == EXCHANGE_NAMED:
        low = min(card_value(rules, c, False) for c in received)
        return lambda c: card_value(rules, c, False) <= low
    low = min(exchange.exchange_strength(rules, c) for c in received)
    return lambda c: exchange.exchange_strength(rules, c) <= low
