"""Roles by finishing order, rank shifting between deals, and who exchanges with whom.

RULES.md "Common to all" and "Players entering and leaving".
"""

import enum
from collections.abc import Hashable, Sequence
from typing import TypeVar

from gameplay.engine.errors import RuleViolation
from gameplay.engine.options import Options

P = TypeVar("P", bound=Hashable)


class Role(enum.StrEnum):
    PRESIDENT = "president"
    VICE_PRESIDENT = "vice-president"
    CITIZEN = "citizen"
    VICE_SCUM = "vice-scum"
    SCUM = "scum"


def role_name(role: Role, options: Options | None = None) -> str:
    """A role as players of the preset say it, one spelling each: President, Vice President,
    Citizen, and the preset's own words for the bottom two (school-scum's Vice-Scum and Scum,
    friday's Vice Idiot and Idiot, wild-jokers' Vice Bum and Bum, presidents-deck's Couch Potato
    and Turd; RULES.md "Common to all"). Without options, the school-scum words."""
    if role == Role.SCUM:
        return options.scum_name if options else Options.scum_name
    if role == Role.VICE_SCUM:
        return options.vice_scum_name if options else Options.vice_scum_name
    return _ROLE_NAMES[role]


def role_names(options: Options | None = None) -> dict[Role, str]:
    """Every role's name under these options, best role first (for a glossary or a page)."""
    return {role: role_name(role, options) for role in Role}


_ROLE_NAMES = {Role.PRESIDENT: "President", Role.VICE_PRESIDENT: "Vice President",
               Role.CITIZEN: "Citizen"}


def roles_by_position(players: int) -> list[Role]:
    """Each finishing position's role; with 2 or 3 players only President and Scum exist."""
    if players < 2:
        return [Role.PRESIDENT] * players
    if players <= 3:
        return [Role.PRESIDENT] + [Role.CITIZEN] * (players - 2) + [Role.SCUM]
    return ([Role.PRESIDENT, Role.VICE_PRESIDENT] + [Role.CITIZEN] * (players - 4)
            + [Role.VICE_SCUM, Role.SCUM])


def roles_of(finishing_order: Sequence[P]) -> dict[P, Role]:
    return dict(zip(finishing_order, roles_by_position(len(finishing_order)), strict=True))


def rank_shift(finishing_order: Sequence[P], *, leaving: Sequence[P] = (),
               joining: Sequence[P] = ()) -> list[tuple[P, Role]]:
    """The ranking carried into the next deal after players leave or join (best first).

    Leavers are removed and the others close ranks (the Vice President becomes President, the
    best neutral becomes Vice President; likewise from the bottom).  Joiners enter as neutral
    Citizens, placed just above the Vice-Scum, and give roles to nobody else.
    """
    order = list(finishing_order)
    if len(set(order)) != len(order):
        raise RuleViolation("a player appears twice in the finishing order")
    for player in leaving:
        if player not in order:
            raise RuleViolation(f"{player} cannot leave: not at the table")
    for player in joining:
        if player in order and player not in leaving:
            raise RuleViolation(f"{player} cannot join: already at the table")
    if len(set(joining)) != len(joining):
        raise RuleViolation("a player joins twice")
    ranked = [p for p in order if p not in leaving]
    roles = roles_by_position(len(ranked))
    ranking = list(zip(ranked, roles, strict=True))
    bottom = sum(1 for role in roles if role in (Role.VICE_SCUM, Role.SCUM))
    at = len(ranking) - bottom
    ranking[at:at] = [(p, Role.CITIZEN) for p in joining]
    if len(ranking) < 2:
        raise RuleViolation("a table needs at least 2 players")
    return ranking


def exchange_pairs(ranking: Sequence[tuple[P, Role]]) -> list[tuple[P, P, int]]:
    """The exchanges before a deal as (giver, receiver, cards), in the order they happen.

    RULES.md: the Scum gives, the President gives back, then the Vice-Scum gives and the Vice
    President gives back.
    """
    holder = {role: player for player, role in ranking if role != Role.CITIZEN}
    steps = []
    pairs = ((Role.SCUM, Role.PRESIDENT, 2), (Role.VICE_SCUM, Role.VICE_PRESIDENT, 1))
    for low, high, cards in pairs:
        if low in holder and high in holder:
            steps += [(holder[low], holder[high], cards), (holder[high], holder[low], cards)]
    return steps
