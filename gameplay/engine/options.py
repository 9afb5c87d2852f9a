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

STANDARD_DECK = ("school-scum", "friday", "classic", "modern", "wild-jokers")


@dataclass(frozen=True)
class OptionSpec:
    """One house-rule option a season or a transcript may set by name (TRANSCRIPT.md
    "ruleset"): everything the engine, the season form and the playout kernel know of it.

    ``Options`` holds its value in the field of the same name, whose default is ``default``.
    ``presets`` are those that take it (the others keep their own value: the numbered deck
    takes none of the standard deck's options).  ``kernel`` says whether montecarlo's playout
    kernel plays the option at every value; otherwise only at ``default``, and a table with
    another value searches in Python.  ``inference`` likewise says whether montecarlo's
    reading of the other seats' moves (``gameplay.bots.inference``) knows the option at every
    value; otherwise, at another value, montecarlo samples hands without it.  A new option is
    the engine's alone until the kernel and the inference are taught it."""

    name: str
    kind: type  # bool or int
    default: Any
    label: str  # in the players' words (RULES.md, TRANSCRIPT.md "ruleset")
    help: str = ""
    presets: tuple[str, ...] | None = None  # None: every preset
    kernel: bool = False
    inference: bool = False
    least: int = 0  # a whole number's range, whatever the table
    most: int = 0
    range_note: str = ""  # why the range is what it is, in the refusal's words

    def taken_by(self, preset: str) -> bool:
        return self.presets is None or preset in self.presets


def _standard_switch(name: str, label: str) -> OptionSpec:
    """A house rule of the standard deck, off unless turned on, that the kernel and the
    inference know."""
    return OptionSpec(name, bool, False, label, presets=STANDARD_DECK, kernel=True,
                      inference=True)


# The options, in the order the season form shows them.
OPTIONS: dict[str, OptionSpec] = {spec.name: spec for spec in (
    OptionSpec("decks", int, None, "Decks in the pack",
               help="The preset's own is 1 deck; school-scum plays with 2, and the numbered deck "
                    "takes 2 above 10 players.",
               kernel=True, inference=True, least=1, most=MOST_DECKS),
    OptionSpec("jokers", int, 0, "Jokers in the pack (at most two a deck)",
               presets=STANDARD_DECK, kernel=True, inference=True, least=0, most=2 * MOST_DECKS,
               range_note="two a deck"),
    OptionSpec("two_high", bool, True, "Twos are the highest rank (off: twos are the lowest)",
               presets=STANDARD_DECK, kernel=True, inference=True),
    OptionSpec("equal_rank_allowed", bool, False, "An equal rank beats (a 5 on a 5)",
               kernel=True, inference=True),
    OptionSpec("any_larger_set", bool, False,  # the inference reads no larger sets
               "More cards beat fewer, whatever their rank (three 3s on two Kings)", kernel=True),
    OptionSpec("pass_is_final", bool, False, "Whoever passes sits out the rest of the trick",
               kernel=True, inference=True),
    _standard_switch("revolution", "Revolution: four of a kind reverses the order of the ranks "
                                   "until the deal ends or another four is played"),
    OptionSpec("blind", bool, False,
               "Blind President, for 2 players: each also plays from a face-down pile",
               presets=STANDARD_DECK),  # neither the kernel nor the inference has blind piles
    _standard_switch("consec", "Consec: after three plays of rising ranks in a row, each play "
                               "must be one rank higher"),
    _standard_switch("eight_below", "Eight below: after 8s the next play must be lower than 8"),
    _standard_switch("sixty_nine", "69: 9s played on 6s make every later play of the trick "
                                   "face cards, twice as many"),
    _standard_switch("kkk", "KKK: after three Kings every later play of the trick is three red "
                            "cards"),
    # (the inference refuses wild jokers by the wild card itself: without jokers none is wild)
    _standard_switch("jokers_wild", "Jokers are wild: a joker stands for any rank"),
)}

# The names as the engine was built, for readers of a fixed list (the engine and the forms read
# OPTIONS, which also holds a specification registered later, as the tests' toy option).
PUBLIC_OPTIONS = tuple(OPTIONS)
STANDARD_DECK_OPTIONS = tuple(name for name, spec in OPTIONS.items()
                              if not spec.taken_by("presidents-deck"))


def _default(name: str) -> Any:
    return OPTIONS[name].default


@dataclass(frozen=True)
class Options:
    preset: str
    # Overridable by name.
    decks: int | None = _default("decks")  # None: the preset's default for the table size
    jokers: int = _default("jokers")
    two_high: bool = _default("two_high")
    equal_rank_allowed: bool = _default("equal_rank_allowed")
    any_larger_set: bool = _default("any_larger_set")
    pass_is_final: bool = _default("pass_is_final")
    revolution: bool = _default("revolution")
    blind: bool = _default("blind")
    consec: bool = _default("consec")
    eight_below: bool = _default("eight_below")
    sixty_nine: bool = _default("sixty_nine")
    kkk: bool = _default("kkk")
    jokers_wild: bool = _default("jokers_wild")
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
        return {name: getattr(self, name) for name in OPTIONS
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
            raise OptionsError(f"decks must be 1, 2 or 3, not {decks}", options=("decks",))
        own = PRESETS[self.preset]
        not_taken = [name for name, spec in OPTIONS.items() if not spec.taken_by(self.preset)
                     and getattr(self, name) != getattr(own, name)]
        if not_taken:
            deck = "the presidents deck" if self.presidents_deck else self.preset
            raise OptionsError(f"{', '.join(not_taken)} cannot be used with {deck}",
                               options=not_taken)
        if not self.presidents_deck and not 0 <= self.jokers <= 2 * decks:
            raise OptionsError(_jokers_refused(self.jokers, decks), options=("jokers", "decks"))
        if self.blind:
            if players != 2:
                raise OptionsError("blind is played by exactly 2 players", options=("blind",))
            if self.jokers_wild:
                raise OptionsError("blind cannot be combined with wild jokers",
                                   options=("blind", "jokers_wild"))
        size = (54 if self.presidents_deck else 52) * decks + (0 if self.presidents_deck
                                                                else self.jokers)
        if players > size:
            raise OptionsError(f"{players} players are too many for a pack of {size} cards")


_COUNTED = {1: "one", 2: "two", 3: "three"}


def _jokers_refused(jokers: int, decks: int) -> str:
    """In the players' words: "Jokers: one deck holds at most 2 jokers; choose 0 to 2, or play
    with 2 decks" (a deck holds two)."""
    held = (f"Jokers: {_COUNTED.get(decks, decks)} deck{'s hold' if decks > 1 else ' holds'} at "
            f"most {2 * decks} jokers, not {jokers}; choose 0 to {2 * decks}")
    more = -(-jokers // 2)  # the decks that hold them
    if decks < more <= MOST_DECKS:
        return f"{held}, or play with {more} decks"
    return held


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

def preset(name: str, **overrides: Any) -> Options:
    """The named preset with some public options overridden, checked for unknown names."""
    if not isinstance(name, str) or name not in PRESETS:
        raise OptionsError(f"unknown preset {name!r}; presets are {', '.join(PRESETS)}")
    for option, value in overrides.items():
        if option not in OPTIONS:
            raise OptionsError(f"unknown option {option!r}; options are {', '.join(OPTIONS)}")
        _check_value(OPTIONS[option], value)
    return dataclasses.replace(PRESETS[name], **overrides)


def _check_value(spec: OptionSpec, value: Any) -> None:
    name = spec.name
    if spec.kind is bool and not isinstance(value, bool):
        raise OptionsError(f"option {name!r} takes true or false, not {value!r}", options=(name,))
    if spec.kind is int:
        if not isinstance(value, int) or isinstance(value, bool):
            raise OptionsError(f"option {name!r} takes a whole number, not {value!r}",
                               options=(name,))
        # checked here too, whatever the table: a season's options are read without one
        if not spec.least <= value <= spec.most:
            note = f" ({spec.range_note})" if spec.range_note else ""
            raise OptionsError(f"option {name!r} must be from {spec.least} to {spec.most}{note}, "
                               f"not {value}", options=(name,))


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
