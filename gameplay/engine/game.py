"""A game of several deals: dealing, exchanges, leaders, dealer rotation and the score.

``Game`` keeps the bookkeeping between deals; the checker and the self-play driver both walk
through it, so both apply the same rules.
"""

import random
from dataclasses import dataclass, field

from gameplay.engine import cards as C
from gameplay.engine.deal import CW, Deal
from gameplay.engine.errors import RuleViolation
from gameplay.engine.rules import exchange, leading
from gameplay.engine.ruleset import Rules
from gameplay.engine.scoring import ScoreSheet, Scoring


@dataclass
class DealRecord:
    """What happened in one deal, in the transcript's terms (cards as codes)."""

    hands: list[list[int]]
    blind: list[list[int]] | None = None
    exchanges: list[dict] = field(default_factory=list)
    leader: int = 0
    direction: int = CW
    moves: list[tuple[int, object]] = field(default_factory=list)
    finishing_order: list[int] = field(default_factory=list)
    finished: bool = False
    partial: bool = False


class Game:
    def __init__(self, rules: Rules, *, dealer: int = 0, scoring: Scoring | None = None):
        self.rules = rules
        self.dealer = dealer
        self.scoring = scoring
        self.sheet = ScoreSheet(scoring) if scoring else None
        self.records: list[DealRecord] = []

    @property
    def previous_order(self) -> list[int] | None:
        return self.records[-1].finishing_order if self.records else None

    @property
    def over(self) -> bool:
        return self.sheet is not None and self.sheet.finished

    def exchange_plan(self) -> list[exchange.ExchangeStep]:
        return exchange.plan(self.rules, self.previous_order)

    def check_hands(self, hands: list[int], blind: list[list[int]] | None) -> bool:
        """Raise RuleViolation unless the hands can be dealt from the pack; return partial."""
        r = self.rules
        held = [h + (C.cards_mask(blind[s]) if blind else 0) for s, h in enumerate(hands)]
        total = sum(held)
        if not C.mask_contains(r.deck.mask, total):
            extra = C.mask_cards(total)
            for card in set(extra):
                if extra.count(card) > (r.deck.mask >> (card * 8)) & 0xFF:
                    raise RuleViolation(f"{r.cards_text([card])[0]} is not in this pack "
                                        "(or appears too often)")
        sizes = [C.mask_count(h) for h in held]
        if min(C.mask_count(h) for h in hands) == 0 and not blind:
            raise RuleViolation("every seat must hold at least one card when play starts")
        partial = total != r.deck.mask
        if not partial and max(sizes) - min(sizes) > 1:
            raise RuleViolation("a whole pack must be dealt evenly: hand sizes differ by more "
                                "than one")
        return partial

    def begin(self, hands: list[int], *, leader: int, direction: int = CW,
              blind: list[list[int]] | None = None, opening: int | None = None) -> Deal:
        return Deal(self.rules, hands, leader=leader, direction=direction, blind=blind,
                    opening=opening)

    def end(self, record: DealRecord) -> None:
        """Record a finished deal: score it and move the deal to the next dealer."""
        self.records.append(record)
        if self.sheet is not None:
            self.sheet.add(record.finishing_order)
        self.dealer = leading.next_dealer(self.rules.options, range(self.rules.players),
                                          self.dealer, record.finishing_order)


def deal_cards(rules: Rules, dealer: int,
               rng: random.Random) -> tuple[list[int], list[list[int]] | None]:
    """Shuffle the pack and deal it one card at a time from the dealer's left.

    With `blind` (RULES.md, friday) the pack is dealt as for twice the players; each seat takes
    one pile as its hand and the pile opposite as its face-down blind pile.
    """
    pack = rules.deck.cards()
    rng.shuffle(pack)
    n = rules.players
    piles = n * 2 if rules.options.blind else n
    dealt: list[list[int]] = [[] for _ in range(piles)]
    for i, card in enumerate(pack):
        dealt[i % piles].append(card)
    hands = [0] * n
    for i in range(n):
        hands[(dealer + 1 + i) % n] = C.cards_mask(dealt[i])
    if not rules.options.blind:
        return hands, None
    blind: list[list[int]] = [[] for _ in range(n)]
    for i in range(n):
        blind[(dealer + 1 + i) % n] = dealt[n + i]
    return hands, blind
