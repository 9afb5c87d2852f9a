"""Rule options and the six presets of RULES.md.

``Options`` is one frozen dataclass.  The first group of fields are the options a transcript may
override by name (TRANSCRIPT.md); the second group is fixed by the preset's family and is not
overridable from a transcript, because it is what makes the family what it is.
"""

import dataclasses
from dataclasses import dataclass
from typing import Any

from gameplay.engine.errors import OptionsError

# How the count of a play must relate to the last play's count.
SAME_COUNT = "same"  # seeds 000, 003, 004: the count the trick was led with
AT_LEAST = "at_least"  # seed 001: at least the last play's count
SINGLE_TAKES_ANY = "single_takes_any"  # seed 002: a single is beaten by any count, groups by same

# Who leads a deal.
LEAD_THREE_OF_CLUBS = "three_of_clubs"  # seed 000
LEAD_LEFT_THEN_SCUM = "left_then_scum"  # seed 001: left of dealer, later the Idiot
LEAD_LEFT_OF_DEALER = "left_of_dealer"  # seed 002
LEAD_TWO_OF_CLUBS = "two_of_clubs"  # seed 003
LEAD_CHOSEN = "chosen"  # seed 004: dealer names the first, later the President

# How the exchange picks cards.
EXCHANGE_NONE = "none"  # seed 002
EXCHANGE_NAMED = "named"  # seed 000: the President names any cards of the Scum's
EXCHANGE_HIGHEST = "highest"  # seeds 001, 003: the Scum gives the highest
EXCHANGE_ASK = "ask"  # seed 004: high/low asks

MOST_DECKS = 3  # a pack is at most three decks (and two jokers a deck)

STANDARD_DECK_OPTIONS = ("jokers", "two_high", "revolution", "blind", "consec", "eight_below",
                         "sixty_nine", "kkk", "jokers_wild")
PUBLIC_OPTIONS = ("decks", "jokers", "two_high", "equal_rank_allowed", "any_larger_set",
                  "pass_is_final", "revolution", "blind", "consec", "eight_below", "sixty_nine",
                  "kkk", "jokers_wild")


@dataclass(frozen=True)
class Options:
    preset: str
    # Overridable by name.
    decks: int | None = None  # None: the preset's default for the table size
    jokers: int = 0
    two_high: bool = True
    equal_rank_allowed: bool = False
    any_larger_set: bool = False
    pass_is_final: bool = False
    revolution: bool = False
    blind: bool = False
    consec: bool = False
    eight_below: bool = False
    sixty_nine: bool = False
    kkk: bool = False
    jokers_wild: bool = False
    # Fixed by the family.
    presidents_deck: bool = False
    count_rule: str = SAME_COUNT
    top_rank_ends_trick: bool = False
    single_top_beats_groups: bool = False
    max_play: int | None = None
    lead: str = LEAD_LEFT_OF_DEALER
    exchange: str = EXCHANGE_NONE
    scum_deals_next: bool = False
    skip_on_equal: bool = False
    bombs: bool = False
    doppelgangers: bool = False
    scum_name: str = "Scum"
    vice_scum_name: str = "Vice-Scum"

    @property
    def has_exchange(self) -> bool:
        """Whether cards change hands between deals under these options."""
        return self.exchange != EXCHANGE_NONE

    def overrides(self) -> dict[str, Any]:
        """The public options that differ from the preset, as a transcript writes them."""
        base = PRESETS[self.preset]
        return {name: getattr(self, name) for name in PUBLIC_OPTIONS
                if getattr(self, name) != getattr(base, name)}

    def decks_for(self, players: int) -> int:
        if self.decks is not None:
            return self.decks
        if self.presidents_deck:
            return 1 if players <= 10 else 2  # seed 004: more than 10 players, two decks
        return 1

    def validate(self, players: int) -> None:
        """Raise OptionsError for a table these options cannot be played at."""
        if not isinstance(players, int) or isinstance(players, bool) or players < 2:
            raise OptionsError(f"players must be a whole number of at least 2, not {players!r}")
        decks = self.decks_for(players)
        if not 1 <= decks <= MOST_DECKS:
            raise OptionsError(f"decks must be 1, 2 or 3, not {decks}")
        if self.presidents_deck:
            standard_only = [name for name in STANDARD_DECK_OPTIONS if getattr(self, name)]
            if standard_only:
                raise OptionsError(f"{', '.join(standard_only)} cannot be used with the "
                                   "presidents deck")
        elif not 0 <= self.jokers <= 2 * decks:
            raise OptionsError(f"jokers must be between 0 and {2 * decks} with {decks} deck(s), "
                               f"not {self.jokers}")
        if self.blind:
            if players != 2:
                raise OptionsError("blind is played by exactly 2 players")
            if self.jokers_wild:
                raise OptionsError("blind cannot be combined with wild jokers")
        size = (54 if self.presidents_deck else 52) * decks + (0 if self.presidents_deck
                                                                else self.jokers)
        if players > size:
            raise OptionsError(f"{players} players are too many for a pack of {size} cards")


PRESETS: dict[str, Options] = {
    # seed 000
    "school-scum": Options(preset="school-scum", decks=2, jokers=4, pass_is_final=True,
                           consec=True, eight_below=True, sixty_nine=True, kkk=True,
                           lead=LEAD_THREE_OF_CLUBS, exchange=EXCHANGE_NAMED),
    # seed 001
    "friday": Options(preset="friday", count_rule=AT_LEAST, top_rank_ends_trick=True,
                      single_top_beats_groups=True, lead=LEAD_LEFT_THEN_SCUM,
                      exchange=EXCHANGE_HIGHEST, scum_name="Idiot", vice_scum_name="Vice Idiot"),
    # seed 002
    "classic": Options(preset="classic", count_rule=SINGLE_TAKES_ANY),
    "modern": Options(preset="modern", count_rule=SINGLE_TAKES_ANY, two_high=False,
                      equal_rank_allowed=True, any_larger_set=True),
    # seed 003
    "wild-jokers": Options(preset="wild-jokers", jokers=2, two_high=False, equal_rank_allowed=True,
                           jokers_wild=True, max_play=4, lead=LEAD_TWO_OF_CLUBS,
                           exchange=EXCHANGE_HIGHEST, scum_deals_next=True, scum_name="Bum",
                           vice_scum_name="Vice Bum"),
    # seed 004
    "presidents-deck": Options(preset="presidents-deck", decks=None, two_high=False,
                               presidents_deck=True, equal_rank_allowed=True, skip_on_equal=True,
                               bombs=True, doppelgangers=True, lead=LEAD_CHOSEN,
                               exchange=EXCHANGE_ASK, scum_name="Turd",
                               vice_scum_name="Couch Potato"),
}

_BOOLEAN = {name for name in PUBLIC_OPTIONS if name not in ("decks", "jokers")}


def preset(name: str, **overrides: Any) -> Options:
    """The named preset with some public options overridden, checked for unknown names."""
    if not isinstance(name, str) or name not in PRESETS:
        raise OptionsError(f"unknown preset {name!r}; presets are {', '.join(PRESETS)}")
    for option, value in overrides.items():
        if option not in PUBLIC_OPTIONS:
            raise OptionsError(f"unknown option {option!r}; "
                               f"options are {', '.join(PUBLIC_OPTIONS)}")
        if option in _BOOLEAN and not isinstance(value, bool):
            raise OptionsError(f"option {option!r} takes true or false, not {value!r}")
        whole = isinstance(value, int) and not isinstance(value, bool)
        if option in ("decks", "jokers") and not whole:
            raise OptionsError(f"option {option!r} takes a whole number, not {value!r}")
        # checked here too, whatever the table: a season's options are read without one
        if option == "decks" and not 1 <= value <= MOST_DECKS:
            raise OptionsError(f"option 'decks' must be from 1 to {MOST_DECKS}, not {value}")
        if option == "jokers" and not 0 <= value <= 2 * MOST_DECKS:
            raise OptionsError(f"option 'jokers' must be from 0 to {2 * MOST_DECKS} (two a "
                               f"deck), not {value}")
    return dataclasses.replace(PRESETS[name], **overrides)


def from_ruleset(ruleset: Any) -> Options:
    """Read a transcript's ``ruleset``: a preset name or ``{"preset": …, "options": {…}}``."""
    if isinstance(ruleset, str):
        return preset(ruleset)
    if isinstance(ruleset, dict):
        unknown = set(ruleset) - {"preset", "options"}
        if unknown:
            raise OptionsError(f"unknown ruleset field(s) {sorted(unknown)}")
        options = ruleset.get("options", {})
        if not isinstance(options, dict):
            raise OptionsError("ruleset options must be an object")
        return preset(ruleset.get("preset"), **options)
    raise OptionsError("ruleset must be a preset name or {\"preset\": …, \"options\": {…}}")


def to_ruleset(options: Options) -> str | dict[str, Any]:
    overrides = options.overrides()
    return {"preset": options.preset, "options": overrides} if overrides else options.preset
