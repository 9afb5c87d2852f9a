"""Who deals, who leads and in which direction (RULES.md "Common to all" and each preset)."""

from collections.abc import Sequence

from gameplay.engine import cards as C
from gameplay.engine.options import (
    LEAD_CHOSEN,
    LEAD_LEFT_OF_DEALER,
    LEAD_LEFT_THEN_SCUM,
    LEAD_THREE_OF_CLUBS,
    LEAD_TWO_OF_CLUBS,
    Options,
)

THREE_OF_CLUBS = 3 * 4 + C.CLUBS
TWO_OF_CLUBS = 2 * 4 + C.CLUBS


def next_dealer(options: Options, seats: Sequence[int], dealer: int,
                finishing_order: Sequence[int]) -> int:
    """The next deal's dealer among ``seats``, the seats at the table for it in clockwise
    order: the next seat left of the last dealer, who may have left the table (RULES.md
    "Common to all"); with ``scum_deals_next`` the last deal's last out if still at the table
    (seed 003: the last deal's Bum deals)."""
    if options.scum_deals_next and finishing_order[-1] in seats:
        return finishing_order[-1]
    return next((s for s in seats if s > dealer), seats[0])


def fixed_leader(options: Options, players: int, dealer: int, hands: list[int],
                 previous_order: list[int] | None) -> tuple[int | None, int | None]:
    """(leader, opening card) where the rules fix them; leader None where a player chooses.

    The opening card is one the deal's first lead must include (seed 000: the 3♣).
    """
    left = (dealer + 1) % players
    if options.lead == LEAD_THREE_OF_CLUBS:
        holder = _first_holder(hands, THREE_OF_CLUBS, dealer)
        return (left, None) if holder is None else (holder, THREE_OF_CLUBS)
    if options.lead == LEAD_TWO_OF_CLUBS:
        holder = _first_holder(hands, TWO_OF_CLUBS, dealer)
        return (left if holder is None else holder), None
    if options.lead == LEAD_LEFT_THEN_SCUM and previous_order:
        return previous_order[-1], None
    if options.lead == LEAD_CHOSEN:
        return (previous_order[0] if previous_order else None), None
    assert options.lead in (LEAD_LEFT_OF_DEALER, LEAD_LEFT_THEN_SCUM)
    return left, None


def direction_chooser(options: Options, players: int, dealer: int,
                      previous_order: list[int] | None) -> int | None:
    """The seat that names the direction (seed 004), or None where play is always clockwise."""
    if options.lead != LEAD_CHOSEN:
        return None
    if not previous_order:
        return dealer
    return previous_order[1] if players >= 4 else previous_order[0]



def _first_holder(hands: list[int], card: int, dealer: int) -> int | None:
    n = len(hands)
    for step in range(1, n + 1):
        seat = (dealer + step) % n
        if hands[seat] >> (card * 8) & 0xFF:
            return seat
    return None
