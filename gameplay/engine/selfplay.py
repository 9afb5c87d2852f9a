"""Playing whole games: a driver that asks each seat's decider for every decision.

A decider answers the decisions the rules give a player (RULES.md): a move, the cards to name
or give in an exchange, high/low asks, and the leader and direction where a player names them.
``RandomDecider`` answers each uniformly at random from the legal choices.
"""

import random
from typing import Protocol

from gameplay.engine import cards as C
from gameplay.engine.deal import CCW, CW, Deal
from gameplay.engine.errors import RuleViolation
from gameplay.engine.game import DealRecord, Game, deal_cards
from gameplay.engine.options import EXCHANGE_ASK, EXCHANGE_NAMED, Options
from gameplay.engine.rules import exchange, leading
from gameplay.engine.rules.exchange import ExchangeStep
from gameplay.engine.ruleset import Rules
from gameplay.engine.scoring import Scoring
from gameplay.engine.transcript import ExchangeEntry, dump

MAX_DEALS = 1000  # a game whose scoring never ends it (no scoring) stops here


class Decider(Protocol):
    def move(self, deal: Deal, legal: list): ...

    def name_cards(self, game: Game, step: ExchangeStep, giver_hand: int,
                   hand: int) -> list[int]: ...

    def give_back(self, game: Game, step: ExchangeStep, hand: int,
                  received: list[int]) -> list[int]: ...

    def ask(self, game: Game, step: ExchangeStep, index: int, hand: int) -> str: ...

    def lead_and_direction(self, game: Game, hands: list[int],
                           names_leader: bool) -> tuple[int | None, int]: ...


class RandomDecider:
    def __init__(self, rng: random.Random):
        self.rng = rng

    def move(self, deal, legal):
        return legal[self.rng.randrange(len(legal))]

    def name_cards(self, game, step, giver_hand, hand):
        return self.rng.sample(C.mask_cards(giver_hand), min(step.count, C.mask_count(giver_hand)))

    def give_back(self, game, step, hand, received):
        kept = C.mask_cards(hand - C.cards_mask(received))
        return self.rng.sample(kept, min(step.count, C.mask_count(hand)))

    def ask(self, game, step, index, hand):
        return self.rng.choice((exchange.HIGH, exchange.LOW))

    def lead_and_direction(self, game, hands, names_leader):
        seats = [s for s in range(game.rules.players) if hands[s]]
        leader = self.rng.choice(seats) if names_leader else None
        return leader, self.rng.choice((CW, CCW))


def run_exchanges(game: Game, hands: list[int], deciders: list[Decider]) -> list[ExchangeEntry]:
    """Carry out the exchange before a deal, mutating ``hands``; returns what was exchanged.

    A decider's illegal answer raises RuleViolation: the driver never writes an invalid game.
    """
    rules = game.rules
    entries = []
    received: dict[int, list[int]] = {}
    for step in game.exchange_plan():
        hand = hands[step.giver]
        asked = None
        if step.gives_back:
            cards = deciders[step.giver].give_back(game, step, hand, received.get(step.giver, []))
        elif rules.options.exchange == EXCHANGE_NAMED:
            cards = deciders[step.receiver].name_cards(game, step, hand, hands[step.receiver])
        elif rules.options.exchange == EXCHANGE_ASK:
            asked, cards, left = [], [], hand
            for i in range(min(step.count, C.mask_count(hand))):
                ask = deciders[step.receiver].ask(game, step, i, hands[step.receiver])
                card = exchange.answer_ask(left, ask)
                asked.append(ask)
                cards.append(card)
                left -= C.unit(card)
        else:
            cards = exchange.highest(rules, hand, step.count)
        fault = exchange.fault(rules, step, hand, cards, asked, received.get(step.giver, []))
        if fault:
            raise RuleViolation(fault)
        mask = C.cards_mask(cards)
        hands[step.giver] -= mask
        hands[step.receiver] += mask
        received[step.receiver] = cards
        entries.append(ExchangeEntry(step.giver, step.receiver, cards, asked))
    return entries


def play_deal(game: Game, deciders: list[Decider], rng: random.Random) -> DealRecord:
    """Deal, exchange, play one deal to its end with the deciders, and record it in ``game``."""
    hands, blind = deal_cards(game.rules, game.dealer, rng)
    record, deal = begin_deal(game, hands, blind, deciders)
    while not deal.over:
        seat = deal.turn
        move = deciders[seat].move(deal, deal.legal_moves())
        deal.apply(move)
        record.moves.append((seat, move))
    record.finishing_order = list(deal.finishing_order)
    record.finished = True
    game.end(record)
    return record


def fresh_deal(rules: Rules, rng: random.Random) -> Deal:
    """A deal of shuffled cards with no exchange, led as the rules fix it or by a seat drawn
    from ``rng``, in a drawn direction where presidents-deck's leader chooses one: positions
    for tests, benches and training."""
    hands, _ = deal_cards(rules, 0, rng)
    leader, opening = leading.fixed_leader(rules.options, rules.players, 0, hands, None)
    if leader is None:
        leader = rng.randrange(rules.players)
    direction = rng.choice((CW, CCW)) if rules.options.presidents_deck else CW
    return Deal(rules, hands, leader=leader, direction=direction, opening=opening)


def begin_deal(game: Game, hands: list[int], blind: list[list[int]] | None,
               deciders: list[Decider]) -> tuple[DealRecord, Deal]:
    """The dealt ``hands`` (mutated) through the exchange and the choice of leader and
    direction to the first move: the deal's record so far and its ``Deal``."""
    rules = game.rules
    record = DealRecord(hands=[C.mask_cards(h) for h in hands],
                        blind=[list(p) for p in blind] if blind else None)
    record.exchanges = run_exchanges(game, hands, deciders)
    leader, opening = leading.fixed_leader(rules.options, rules.players, game.dealer, hands,
                                           game.previous_order)
    direction = CW
    chooser = leading.direction_chooser(rules.options, rules.players, game.dealer,
                                        game.previous_order)
    if chooser is not None:
        named, direction = deciders[chooser].lead_and_direction(game, hands, leader is None)
        leader = named if leader is None else leader
    record.leader, record.direction = leader, direction
    deal = game.begin(hands, leader=leader, direction=direction, blind=record.blind,
                      opening=opening)
    return record, deal


def play_game(game: Game, deciders: list[Decider], rng: random.Random) -> Game:
    """Play ``game`` to its end: until its scoring ends it (MAX_DEALS at most), or one deal
    when it has no scoring; ``rng`` shuffles the packs."""
    while not game.over and len(game.records) < (MAX_DEALS if game.scoring else 1):
        play_deal(game, deciders, rng)
    return game


def play_random_game(options: Options, players: int, *, seed: int,
                     scoring: Scoring | None) -> dict:
    """The transcript of a whole game between random legal players, reproducible from seed."""
    rng = random.Random(seed)
    deciders = [RandomDecider(random.Random(rng.random())) for _ in range(players)]
    game = play_game(Game(Rules(options, players), scoring=scoring), deciders,
                     random.Random(seed))
    return dump(options, players, 0, scoring, game.records, game.rules)
