"""What the entry page says about roles: each role in the preset's words, the check of a
finishing order by position (so the phone can show it offline), and a leave/join said in words.

Pure functions over the engine's roles (gameplay/engine/roles.py); the page's view renders them.
Sentences come back as safe HTML with each name in <bdi>, so that a right-to-left name cannot
carry the words around it out of order.
"""

from django.utils.html import format_html, format_html_join

from gameplay.engine.options import Options
from gameplay.engine.roles import Role, exchange_pairs, role_name, roles_by_position
from gameplay.engine.rules.leading import next_dealer

RANK = list(Role)  # best first


def by_position(players: int, options: Options) -> dict:
    """The roles and the next exchange of any finishing order at a table of this size, by
    position (0 = first out): the engine's own answer, for the page's script to apply to the
    players tapped when the server cannot be asked."""
    roles = roles_by_position(players)
    return {
        "roles": [role_name(role, options) for role in roles],
        "exchanges": exchange_pairs(list(zip(range(players), roles, strict=True))),
        "exchange_in_preset": options.has_exchange,
    }


def dealers_after(seats, options: Options) -> dict:
    """Who deals after a deal at this table, by who dealt it and who went out last (player ids
    as text): the engine's rule (``next_dealer``, which reads no more of the finishing order)
    for each such pair, for the page's script to say who deals after the deals kept on the
    phone when the server cannot be asked. ``seats``: the Seat rows at the table."""
    numbers = sorted(s.number for s in seats)
    player = {s.number: str(s.player_id) for s in seats}
    return {player[dealer]: {
        player[last]: player[next_dealer(options, numbers, dealer,
                                         [*(n for n in numbers if n != last), last])]
        for last in numbers} for dealer in numbers}


def bdi(name) -> str:
    """A name isolated from the sentence around it (HTML)."""
    return format_html("<bdi>{}</bdi>", name)


def listed(parts) -> str:
    """Parts of a sentence (HTML) in a list: "a", "a and b", "a, b and c"."""
    parts = list(parts)
    if len(parts) == 1:
        return parts[0]
    return format_html("{} and {}", format_html_join(", ", "{}", ((p,) for p in parts[:-1])),
                       parts[-1])


def names(people) -> str:
    """People in words (HTML, each name isolated): "Ada", "Ada and Bob", "Ada, Bob and Cy"."""
    return listed(bdi(p) for p in people)


def shift_words(before, after, *, leaving, joining, options: Options) -> list[str]:
    """Each change of a leave/join said in words, from the ranking carried into the next deal
    (``before``) to the shifted one (``after``), both (player, Role) best first (RULES.md,
    "Players entering and leaving")."""
    name = {role: role_name(role, options) for role in Role}
    was = dict(before)
    now = dict(after)
    staying = [p for p, _ in before if p not in leaving]
    ranked = len(staying)
    lines = []
    if leaving:
        changes = []
        for player in staying:
            old, new = was[player], now[player]
            if old == new:
                continue
            way = "up" if RANK.index(new) < RANK.index(old) else "down"
            why = (f", as only {ranked} players stay from the last deal and with {ranked} "
                   f"there is no {name[old]}" if new == Role.CITIZEN else "")
            changes.append(format_html("{} moves {} from {} to {}{}", bdi(player), way,
                                       name[old], name[new], why))
        verb = "leaves" if len(leaving) == 1 else "leave"
        who = listed(format_html("{} ({})", bdi(p), name[was[p]]) for p in leaving)
        lines.append(format_html("{} {}: {}.", who, verb,
                                 format_html_join("; ", "{}", ((c,) for c in changes))
                                 if changes else "everyone else keeps their role"))
    if joining:
        verb = "joins" if len(joining) == 1 else "join"
        below = [role for role in (Role.VICE_SCUM, Role.SCUM) if role in now.values()]
        where = f", just above the {name[below[0]]}" if below else ""
        missing = [name[r] for r in (Role.VICE_PRESIDENT, Role.VICE_SCUM) if r not in now.values()]
        until = (f", so there is no {' or '.join(missing)} until the next deal is played"
                 if len(after) >= 4 and missing else "")
        lines.append(format_html("{} {} as {}{}: a newcomer takes no role from anyone{}.",
                                 names(joining), verb,
                                 "a Citizen" if len(joining) == 1 else "Citizens", where, until))
    return lines
