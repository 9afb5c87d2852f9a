"""The exchange before a deal (RULES.md "Common to all" and each preset).

The Scum gives, the President gives back, then the Vice-Scum gives and the Vice President gives
back.  Which cards the lower player gives depends on the preset:

- seed 000 (`named`): the President names any cards in the Scum's hand;
- seeds 001, 003 (`highest`): the Scum gives their highest cards (jokers highest);
- seed 004 (`ask`): per card the President asks `high` or `low` and gets the Turd's highest or
  lowest card in the order Bomb = Bomb Reverse < Doppelgänger < 1 < … < 12.

The one giving back gives any cards but never one just received.  "Highest" is judged on the
giver's hand at that moment; a giver holding fewer cards than asked gives all they hold.
"""

from dataclasses import dataclass

from gameplay.engine import cards as C
from gameplay.engine.options import EXCHANGE_ASK, EXCHANGE_HIGHEST
from gameplay.engine.roles import exchange_pairs, roles_of

HIGH, LOW = "high", "low"


@dataclass(frozen=True)
class ExchangeStep:
    giver: int
    receiver: int
    count: int
    gives_back: bool  # the higher role returning cards


def plan(rules, previous_order: list[int] | None) -> list[ExchangeStep]:
    if not previous_order or not rules.options.has_exchange:
        return []
    ranking = list(roles_of(previous_order).items())
    return [ExchangeStep(g, r, n, gives_back=i % 2 == 1)
            for i, (g, r, n) in enumerate(exchange_pairs(ranking))]


def ask_order(card: int) -> int:
    """Seed 004's exchange order: Bomb = Bomb Reverse (0) < Doppelgänger < 1 < … < 12."""
    face = card >> 2
    if face == C.BOMB_FACE:
        return 0
    if face == C.DOPPELGANGER_FACE:
        return 1
    return face + 1


def exchange_strength(rules, card: int) -> int:
    """How high a card counts when the Scum must give their highest (jokers highest)."""
    if rules.presidents:
        return ask_order(card)
    face = card >> 2
    return 99 if face == C.JOKER_FACE else rules.strength[face]


def fault(rules, step: ExchangeStep, hand: int, cards: list[int], asked: list[str] | None,
          received: list[int]) -> str | None:
    """Why giving ``cards`` is wrong for this step, or None."""
    due = min(step.count, C.mask_count(hand))
    if len(cards) != due:
        return f"exchange {step.giver}->{step.receiver} must be {due} card(s)"
    if not C.mask_contains(hand, C.cards_mask(cards)):
        return f"seat {step.giver} does not hold {rules.cards_text(cards)} to give"
    if step.gives_back:
        kept = hand - C.cards_mask(received)
        if not C.mask_contains(kept, C.cards_mask(cards)):
            return f"seat {step.giver} cannot give back a card just received"
        return None
    kind = rules.options.exchange
    if kind == EXCHANGE_HIGHEST:
        held = sorted((exchange_strength(rules, c) for c in C.mask_cards(hand)), reverse=True)
        given = sorted((exchange_strength(rules, c) for c in cards), reverse=True)
        if given != held[:due]:
            return f"seat {step.giver} must give their {due} highest card(s)"
    elif kind == EXCHANGE_ASK:
        if asked is None or len(asked) != due:
            return f"exchange {step.giver}->{step.receiver} must ask high or low for each card"
        remaining = C.mask_cards(hand)
        for card, ask in zip(cards, asked, strict=True):
            values = [ask_order(c) for c in remaining]
            want = max(values) if ask == HIGH else min(values)
            if ask_order(card) != want:
                return f"seat {step.giver} must give their {ask}est card when asked {ask}"
            remaining.remove(card)
    return None


def answer_ask(hand: int, ask: str, choose_bomb_reverse: bool = False) -> int:
    """The card a seed 004 giver hands over when asked ``ask``."""
    cards = C.mask_cards(hand)
    if ask == HIGH:
        top = max(ask_order(c) for c in cards)
        return max(c for c in cards if ask_order(c) == top)
    low = [c for c in cards if ask_order(c) == min(ask_order(c) for c in cards)]
    if choose_bomb_reverse and C.BOMB_REVERSE in low:
        return C.BOMB_REVERSE
    return low[0]


def highest(rules, hand: int, count: int) -> list[int]:
    cards = sorted(C.mask_cards(hand), key=lambda c: exchange_strength(rules, c), reverse=True)
    return cards[:count]
