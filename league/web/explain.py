"""What the pages' numbers and words mean: the role glossary of each preset and how fast a
rating settles, for the help and rules pages (league.web.pages).

The glossary's words are one data table here. The preset's own names for the bottom roles
come from the engine's presets (``Options.scum_name``, ``vice_scum_name``); the rest is read
from docs/rules/<preset>.md's "Exchange" section and must move with it.
"""

from dataclasses import dataclass
from functools import cache

from gameplay.engine import options as engine_options
from gameplay.engine.options import PRESETS
from gameplay.engine.roles import Role, role_name
from gameplay.runner.figures import ordinal
from league.ratings import MODEL

WHO = {
    Role.PRESIDENT: "first out",
    Role.VICE_PRESIDENT: "second out (4 or more players)",
    Role.CITIZEN: "everyone between",
    Role.VICE_SCUM: "second to last out (4 or more players)",
    Role.SCUM: "last out",
}

# What each role does in the exchange before the next deal, by the preset's kind of exchange.
# {scum} and {vice_scum} are the preset's own names.
EXCHANGE = {
    engine_options.EXCHANGE_NONE: {
        Role.PRESIDENT: "No exchange in this preset.",
        Role.VICE_PRESIDENT: "No exchange in this preset.",
        Role.CITIZEN: "No exchange.",
        Role.VICE_SCUM: "No exchange in this preset.",
        Role.SCUM: "No exchange in this preset.",
    },
    engine_options.EXCHANGE_NAMED: {
        Role.PRESIDENT: "Names any 2 cards in the {scum}'s hand and takes them, then gives any "
                        "2 cards back.",
        Role.VICE_PRESIDENT: "Names any 1 card in the {vice_scum}'s hand and takes it, then "
                             "gives any 1 card back.",
        Role.CITIZEN: "No exchange.",
        Role.VICE_SCUM: "Gives the Vice President the 1 card it names; gets 1 card back.",
        Role.SCUM: "Gives the President the 2 cards it names; gets 2 cards back.",
    },
    engine_options.EXCHANGE_HIGHEST: {
        Role.PRESIDENT: "Gets the {scum}'s 2 highest cards, then gives any 2 cards back (not "
                        "the ones just received).",
        Role.VICE_PRESIDENT: "Gets the {vice_scum}'s highest card, then gives any 1 card back.",
        Role.CITIZEN: "No exchange.",
        Role.VICE_SCUM: "Gives the Vice President their highest card; gets 1 card back.",
        Role.SCUM: "Gives the President their 2 highest cards; gets 2 cards back.",
    },
    engine_options.EXCHANGE_ASK: {
        Role.PRESIDENT: "For each of 2 cards asks the {scum} \"high\" or \"low\" and gets the "
                        "{scum}'s highest or lowest card, then gives any 2 other cards back.",
        Role.VICE_PRESIDENT: "Asks the {vice_scum} \"high\" or \"low\" for 1 card, then gives "
                             "any 1 other card back.",
        Role.CITIZEN: "No exchange.",
        Role.VICE_SCUM: "Gives the Vice President its highest or lowest card, as asked; gets 1 "
                        "card back.",
        Role.SCUM: "Gives the President its highest or lowest card for each ask; gets 2 cards "
                   "back.",
    },
}

# What a role does besides the exchange, where a preset gives it more to do.
MORE = {
    ("friday", Role.SCUM): "Leads the next deal.",
    ("wild-jokers", Role.SCUM): "Deals the next deal.",
    ("wild-jokers", Role.PRESIDENT): "Jokers count as the highest cards when the {scum} gives.",
    ("presidents-deck", Role.PRESIDENT): "Leads the next deal.",
    ("presidents-deck", Role.VICE_PRESIDENT): "Names the direction of play for the next deal.",
}


@dataclass(frozen=True)
class RoleEntry:
    role: Role
    name: str
    who: str
    does: str


def glossary(preset: str) -> list[RoleEntry]:
    """The preset's roles, best first, with who gets each and what it does."""
    options = PRESETS[preset]
    names = {"scum": options.scum_name, "vice_scum": options.vice_scum_name}
    entries = []
    for role in Role:
        does = EXCHANGE[options.exchange][role]
        if (preset, role) in MORE:
            does += " " + MORE[(preset, role)]
        entries.append(RoleEntry(role=role, name=role_name(role, options), who=WHO[role],
                                 does=does.format(**names)))
    return entries


# Deal counts at which the help page shows how far a rating has settled.
SETTLING_MARKS = (1, 5, 10, 20, 50, 100, 200)


@dataclass(frozen=True)
class Settling:
    deals: int
    sigma: float
    average_rating: float  # mu - 3 sigma of a player of average skill (mu stays at the start)


@cache
def settling(players: int = 4) -> list[Settling]:
    """How σ shrinks with deals played, from the rating model itself: ``players`` equally
    strong players at one table, each finishing in every place in turn (the order rotates by
    one seat each deal), so every μ stays near the start and only σ moves."""
    ratings = [MODEL.rating() for _ in range(players)]
    rows = []
    for deal in range(1, max(SETTLING_MARKS) + 1):
        order = [(deal + i) % players for i in range(players)]
        rated = MODEL.rate([[ratings[i]] for i in order], ranks=list(range(1, players + 1)))
        for i, (rating,) in zip(order, rated, strict=True):
            ratings[i] = rating
        if deal in SETTLING_MARKS:
            sigma = sum(r.sigma for r in ratings) / players
            rows.append(Settling(deals=deal, sigma=sigma, average_rating=MODEL.mu - 3 * sigma))
    return rows


START_MU = MODEL.mu
START_SIGMA = MODEL.sigma


@cache
def last_in_first_deal(players: int = 4):
    """The rating (mu, sigma, mu - 3 sigma) of a new player who finishes last in their first
    deal at a table of ``players`` new players."""
    rated = MODEL.rate([[MODEL.rating()] for _ in range(players)],
                       ranks=list(range(1, players + 1)))
    last = rated[-1][0]
    return last.mu, last.sigma, ordinal(last.mu, last.sigma)
