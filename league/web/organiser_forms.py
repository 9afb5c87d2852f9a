"""Forms of the organiser pages: a season's rules and scoring as labelled controls, and a
player's name. They read and check what was posted, the engine judging the rules
(``gameplay.engine.options.preset``, ``gameplay.engine.scoring.Scoring``); the change itself is
the services' job (league.services.season_create, season_update, player_create, player_update).

The words for each preset are here, one line each, written from docs/rules/*.md and
/work/shared/RULES.md: change them together. An option's words are in its specification
(``gameplay.engine.options.OPTIONS``); each scoring system's words and parameters are its own
(gameplay.engine.scoring).
"""

import json

from django import forms

from gameplay.engine.errors import PresidentError
from gameplay.engine.options import OPTIONS, PRESETS
from gameplay.engine.options import preset as preset_options
from gameplay.engine.scoring import Scoring, parameters, system_named, systems
from league.models import Player, Season, default_scoring

# Each preset in a line of words: its seed's house rules (docs/rules/<preset>.md).
PRESET_LINES = {
    "school-scum": "School rules (seed 000): two decks and four jokers; the 3♣ leads every deal; "
                   "whoever passes sits out the trick; consec, eight below, 69 and KKK; the "
                   "President names the 2 cards they take from the Scum.",
    "friday": "Friday Afternoons (seed 001): one deck; beat with a higher rank and at least as "
              "many cards; a 2 ends the trick at once; the Idiot gives their 2 highest cards "
              "and leads the next deal.",
    "classic": "The plain game (seed 002): one deck, twos high; a single can be beaten by a "
               "higher group of any size, a group only by a higher one of the same size; no "
               "exchange.",
    "modern": "Classic with three changes (seed 002): twos low, an equal rank beats, and more "
              "cards beat fewer whatever their rank; no exchange.",
    "wild-jokers": "Wild jokers (seed 003): one deck and 2 jokers that stand for any rank; twos "
                   "low; the 2♣ leads; plays of 1 to 4 cards; the Bum gives their 2 highest "
                   "cards and deals next.",
    "presidents-deck": "The numbered deck (seed 004): four each of 1–12 with bombs and "
                       "doppelgängers; an equal rank skips the next player; the President asks "
                       "the Turd for high or low cards and leads next.",
}

# Each option's label, from its specification.
OPTION_LABELS = {name: spec.label for name, spec in OPTIONS.items()}
DECKS_USUAL = "the preset's own"

def option_fields(preset: str) -> tuple[str, ...]:
    """The options a season of ``preset`` can change: the numbered deck takes none of the
    standard deck's (the engine refuses them with it)."""
    return tuple(name for name, spec in OPTIONS.items() if spec.taken_by(preset))


def scoring_field(refusal: PresidentError) -> list[str]:
    """The form's field of the engine's refusal of a scoring (its ``field``, "limit":
    scoring_limit), as the season API's."""
    return [f"scoring_{refusal.field}"] if refusal.field else []


def _option_field(spec) -> forms.Field:
    if spec.kind is bool:
        return forms.BooleanField(label=spec.label, help_text=spec.help, required=False)
    return forms.IntegerField(label=spec.label, help_text=spec.help, required=False,
                              min_value=spec.least, max_value=spec.most)


class SeasonForm(forms.Form):
    """A season's name, dates, preset with its options, and scoring. The option controls show
    the values of ``shown_preset``: a post that picks another preset (without the page's
    script, which resets them at once) is shown again with that preset's values, not saved."""

    name = forms.CharField(label="Name", max_length=Season._meta.get_field("name").max_length)
    starts_on = forms.DateField(label="Starts on", widget=forms.DateInput(attrs={"type": "date"}))
    ends_on = forms.DateField(label="Ends on (optional)", required=False,
                              widget=forms.DateInput(attrs={"type": "date"}))
    preset = forms.ChoiceField(label="Rules preset", widget=forms.RadioSelect,
                               choices=[(name, name) for name in PRESETS])
    # read by shown() and preset_switched() only: an unknown value is as if not sent
    shown_preset = forms.CharField(widget=forms.HiddenInput, required=False)
    decks = forms.TypedChoiceField(
        label=OPTIONS["decks"].label, required=False, coerce=int, empty_value=None,
        help_text=OPTIONS["decks"].help,
        choices=[("", DECKS_USUAL)] + [(n, str(n)) for n in range(OPTIONS["decks"].least,
                                                                  OPTIONS["decks"].most + 1)])
    jokers = forms.IntegerField(label=OPTIONS["jokers"].label, required=False,
                                min_value=OPTIONS["jokers"].least,
                                max_value=OPTIONS["jokers"].most)
    scoring_system = forms.ChoiceField(label="Scoring", widget=forms.RadioSelect)

    def __init__(self, *args, rules_fixed: bool = False, **kwargs):
        super().__init__(*args, **kwargs)
        self._add_scoring_fields()
        for name, spec in OPTIONS.items():
            if name not in self.fields:
                self.fields[name] = _option_field(spec)
        self.rules_fixed = rules_fixed
        if rules_fixed:  # a season with recorded deals keeps its rules (season_update)
            for name in self.rules_field_names():
                self.fields[name].disabled = True
                self.fields[name].required = False
        for name in OPTIONS:
            self.fields[name].widget.attrs["data-option"] = name
        self.shown_preset_name = self.shown()

    def _add_scoring_fields(self):
        """The registered systems' radio buttons, and a control for each parameter any of
        them takes (one per name: systems that share a name share its control)."""
        self.fields["scoring_system"].choices = [(s.name, s.name) for s in systems()]
        for name, parameter in parameters().items():
            self.fields[f"scoring_{name}"] = forms.IntegerField(
                label=parameter.label, required=False, min_value=parameter.least,
                max_value=parameter.most)

    @staticmethod
    def rules_field_names():
        return ["preset", *OPTIONS, "scoring_system",
                *(f"scoring_{name}" for name in parameters())]

    @classmethod
    def initial_for(cls, *, season: Season | None = None, preset: str = "classic") -> dict:
        """The controls' values for a season (or a new one of ``preset``)."""
        if season is not None:
            from league.rules import options_of

            options = options_of(season)
            initial = {"name": season.name, "starts_on": season.starts_on,
                       "ends_on": season.ends_on, "preset": season.preset,
                       "scoring_system": season.scoring["system"],
                       **{f"scoring_{name}": season.scoring.get(name) for name in parameters()}}
        else:
            options = PRESETS[preset]
            initial = {"preset": preset, "scoring_system": default_scoring()["system"]}
        initial["shown_preset"] = options.preset
        initial.update({name: getattr(options, name) for name in OPTIONS})
        return initial

    def shown(self) -> str:
        """The preset whose values the option controls show."""
        if self.is_bound:
            value = self.data.get("shown_preset") or self.data.get("preset")
        else:
            value = self.initial.get("shown_preset")
        return value if value in PRESETS else "classic"

    def option_rows(self):
        """Each option's field, whether only a standard deck takes it, the presets that take
        it (space-separated; empty: every preset) and whether it is hidden (not taken by the
        preset shown)."""
        shown = self.shown()
        return [(self[name], not spec.taken_by("presidents-deck"), " ".join(spec.presets or ()),
                 not spec.taken_by(shown)) for name, spec in OPTIONS.items()]

    @property
    def preset_defaults_json(self) -> str:
        """Each preset's option values, for the page's script to set when a preset is picked."""
        return json.dumps({name: {option: getattr(options, option) for option in OPTIONS}
                           for name, options in PRESETS.items()})

    @property
    def scoring_parameters_json(self) -> str:
        return json.dumps({system.name: [p.name for p in system.parameters]
                           for system in systems()})

    def scoring_bound_fields(self):
        return [self[f"scoring_{name}"] for name in parameters()]

    def preset_switched(self) -> bool:
        """A post that picked a preset other than the one the option controls show."""
        if not self.is_bound or self.rules_fixed:
            return False
        shown, picked = self.data.get("shown_preset"), self.data.get("preset")
        return shown in PRESETS and picked in PRESETS and picked != shown

    def refuse(self, message: str, fields=()) -> None:
        """A refusal shown at the ``fields`` it is about (the options, by name, and the
        season's fields: a LeagueError's ``options`` and ``field``), or above the form when
        none."""
        names = [n for n in dict.fromkeys(fields) if n in self.fields]
        for name in names:
            self.add_error(name, message)
        if not names:
            self.add_error(None, message)

    def error_summary(self):
        """Each refusal once, with the fields it names (label and id) in the form's order."""
        summary = {message: [] for message in self.non_field_errors()}
        for field in self:
            for message in field.errors:
                summary.setdefault(message, []).append(field)
        return list(summary.items())

    def clean(self):
        """The options and the scoring, each judged by the engine once its own controls are
        read, whatever the other fields: every refusal is said at once."""
        data = super().clean()
        if self.rules_fixed:
            return data
        preset = data.get("preset")
        if preset is not None and all(name in data for name in option_fields(preset)):
            overrides = {name: data[name] for name in option_fields(preset)}
            for name in ("decks", "jokers"):
                if overrides.get(name, 0) is None:  # left empty: the preset's own
                    del overrides[name]
            try:
                data["options"] = preset_options(preset, **overrides).overrides()
            except PresidentError as e:
                self.refuse(e.message, e.options)
        if "scoring_system" not in data:
            return data
        system = system_named(data["scoring_system"])  # one of the form's choices
        taken = {p.name for p in system.parameters}
        if all(f"scoring_{name}" in data for name in taken):
            try:  # another system's parameters, left filled, are not taken
                data["scoring"] = Scoring(system.name, **{
                    name: data[f"scoring_{name}"] for name in taken}).to_dict()
            except PresidentError as e:
                self.refuse(e.message, scoring_field(e))
        return data

    def season_fields(self) -> dict:
        """What the services take (of a form refused: what was read): the rules only when they
        may change."""
        data = self.cleaned_data
        names = ["name", "starts_on", "ends_on"]
        if not self.rules_fixed:
            names += ["preset", "options", "scoring"]
        return {name: data[name] for name in names if name in data}

    def refuse_all(self, refused) -> None:
        """A service's refusal, each of the refusals it says together (LeagueError.refusals)
        at its fields."""
        for refusal in refused.refusals:
            self.refuse(refusal.message, (*refusal.options, refusal.field))

    def refuse_unsaid(self, refusals) -> None:
        """The league's ``refusals`` of a form refused already, each at its fields unless one
        of them is refused already (the form's word on it comes first)."""
        for refusal in refusals:
            fields = (*refusal.options, refusal.field)
            names = [n for n in fields if n in self.fields]
            if not any(self.has_error(name) for name in names):
                self.refuse(refusal.message, fields)

    def with_preset_shown(self):
        """This post again, unsaved, its option controls reset to the newly picked preset's
        values (the rest as posted)."""
        initial = {name: self.data.get(name) for name in
                   ("name", "starts_on", "ends_on", "scoring_system",
                    *(f"scoring_{name}" for name in parameters()))}
        initial.update(self.initial_for(preset=self.data["preset"]))
        initial["scoring_system"] = (self.data.get("scoring_system")
                                     or default_scoring()["system"])
        return type(self)(initial=initial)

    def preset_choices(self):
        """Each preset's radio button with its line of words."""
        return [(radio, PRESET_LINES[radio.data["value"]]) for radio in self["preset"]]

    def scoring_choices(self):
        """Each scoring system's radio button with its words and its parameters."""
        return [(radio, system_named(radio.data["value"]).description,
                 system_named(radio.data["value"]).parameters) for radio in self["scoring_system"]]


class PlayerNameForm(forms.Form):
    name = forms.CharField(label="Name", max_length=Player._meta.get_field("name").max_length,
                           strip=False)  # league.services.name_checked strips and checks
