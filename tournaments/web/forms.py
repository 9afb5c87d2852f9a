"""The form of the organisers' page that creates a bot tournament: its controls, what the page
shows of each choice, and where a refusal is shown. It only reads what was posted (whole
numbers as numbers); the API's serializer (tournaments.web.api.TournamentCreateSerializer)
and then tournaments.services.tournament_create judge it, as they judge the API's posts."""

from django import forms

from gameplay.bots import BUILT_IN, SETTINGS
from gameplay.engine.options import PRESETS
from gameplay.engine.scoring import parameters, system_named, systems
from league.errors import LeagueError
from league.web.organiser_forms import PRESET_LINES, SeasonForm
from outside_bots.models import OUTSIDE
from tournaments.models import Tournament, default_scoring

# The site's own bots in a line each (docs/bots.md "The built-in bots"): change them together.
BOT_LINES = {
    "random": "a random legal choice at every turn: the weakest, a baseline",
    "greedy": "always plays when it can, its lowest play",
    "heuristic": "plays as the seeds' strategy advice says: keeps its 2s and jokers for "
                 "taking tricks, leads low groups",
    "spender": "the heuristic that never passes while it can beat the pile",
    "hoarder": "the heuristic that never breaks a group and keeps its high cards to the end",
    "montecarlo": "plays out guessed hands before each move: the strongest and the slowest "
                  "(50 ms a decision unless told otherwise)",
}
# The entrants the page starts with: a name and Create plays these.
DEFAULT_BOTS = [("Random", "random"), ("Greedy", "greedy"), ("Heuristic", "heuristic"),
                ("Spender", "spender"), ("Hoarder", "hoarder")]
EMPTY_ROWS = 3  # rows left empty below them for more bots
MORE_ROWS = 8  # rows "More bot rows" adds
MOST_ROWS = 200  # the API's most entrants (league.api.serializers.TABLE_MAX)

FORMAT_LINES = {
    Tournament.ROUND_ROBIN: "every group of bots that can make a table plays: each meets "
                            "each other bot as often",
    Tournament.RATING: "rounds of tables of neighbours in the standings so far: for many "
                       "bots",
}


def settings_words(name: str) -> str:
    """What a built-in bot's settings field takes, from its bounds (gameplay.bots.SETTINGS)."""
    taken = SETTINGS[name]
    if not taken:
        return ""
    said = [f"{key} {bounds[1]:,}–{bounds[2]:,}" if bounds else key
            for key, bounds in taken.items()]
    return ", ".join(said)


def _whose(bot, by) -> str:
    if bot.owner_id is None:
        return "registered by the site"
    return "yours" if by is not None and bot.owner_id == by.pk else f"by {bot.owner}"


def _chosen(what: str) -> dict:
    """A choice's refusals: none chosen, or one the page does not offer (a forged post)."""
    return {"required": f"Choose {what}.",
            "invalid_choice": f"There is no {what.removeprefix('a ')} called %(value)s."}


class TournamentForm(forms.Form):
    """A tournament's name, preset, format, tables, scoring and entrants (``rows`` of a
    player name, a bot and its settings; a row without a name is left out)."""

    # Its refusals in the site's words; the name's and the numbers' bounds are the API
    # serializer's (tournaments.web.api).
    name = forms.CharField(label="Name", required=False)
    preset = forms.ChoiceField(label="Rules preset", widget=forms.RadioSelect,
                               choices=[(name, name) for name in PRESETS],
                               error_messages=_chosen("a rules preset"))
    format = forms.ChoiceField(label="Format", widget=forms.RadioSelect,
                               choices=Tournament.FORMAT_CHOICES,
                               error_messages=_chosen("a format"))
    seats = forms.IntegerField(label="Bots at each table", error_messages={
        "required": "Say how many bots sit at each table."})
    games_per_table = forms.IntegerField(label="Games at each table", error_messages={
        "required": "Say how many games each table plays."})
    rounds = forms.IntegerField(label="Rounds (rounds paired by rating only)", error_messages={
        "required": "Say how many rounds (1 for a round robin)."})
    duplicate = forms.BooleanField(
        label="Duplicate: each block of games at a table replays the same deals with the "
              "bots moved one seat on, so luck evens out", required=False)
    seed = forms.IntegerField(label="Seed", error_messages={
        "required": "Give a seed: any whole number (0 will do)."})
    scoring_system = forms.ChoiceField(label="Scoring", widget=forms.RadioSelect,
                                       choices=[(s.name, s.name) for s in systems()],
                                       error_messages=_chosen("a scoring system"))
    rows = forms.IntegerField(widget=forms.HiddenInput, required=False)

    error_summary = SeasonForm.error_summary  # each refusal once, with the fields it names

    def __init__(self, *args, by=None, bots=(), rows=None, **kwargs):
        """``bots``: the outside bots the organiser ``by`` may enter
        (tournaments.selectors.enterable_outside_bots)."""
        super().__init__(*args, **kwargs)
        self.by, self.bots = by, bots
        for name, parameter in parameters().items():
            self.fields[f"scoring_{name}"] = forms.IntegerField(label=parameter.label,
                                                                required=False)
        self.bot_choices = [("The site's bots", [(b, b) for b in BUILT_IN])]
        if bots:
            self.bot_choices.append(("Outside bots", [
                (OUTSIDE + bot.name, f"{bot.name} ({_whose(bot, by)}; plays "
                                     f"{', '.join(bot.presets)})") for bot in bots]))
        self.row_count = rows if rows is not None else self._posted_rows()
        for i in range(self.row_count):
            self.fields[f"bot-{i}-name"] = forms.CharField(
                label=f"Bot {i + 1}: player name", required=False)
            # The service judges the bot: a forged choice is refused in its words.
            self.fields[f"bot-{i}-bot"] = forms.CharField(
                label=f"Bot {i + 1}: bot", required=False,
                widget=forms.Select(choices=self.bot_choices))
            self.fields[f"bot-{i}-settings"] = forms.CharField(
                label=f"Bot {i + 1}: settings", required=False)
        self.fields["rows"].initial = self.row_count

    def _posted_rows(self) -> int:
        value = str(self.data.get("rows", "")) if self.is_bound else ""
        count = int(value) if value.isascii() and value.isdigit() and len(value) < 4 else 0
        return min(max(count, 1), MOST_ROWS)

    @classmethod
    def defaults(cls) -> dict:
        """The controls' values on a new page: a round robin of the site's five quick bots
        at tables of four, games of one deal."""
        scoring = default_scoring()
        initial = {"preset": "classic", "format": Tournament.ROUND_ROBIN, "seats": 4,
                   "games_per_table": 4, "rounds": 1, "seed": 0,
                   "scoring_system": scoring["system"],
                   **{f"scoring_{name}": value for name, value in scoring.items()
                      if name != "system"}}
        for i, (name, bot) in enumerate(DEFAULT_BOTS):
            initial.update({f"bot-{i}-name": name, f"bot-{i}-bot": bot})
        for i in range(len(DEFAULT_BOTS), len(DEFAULT_BOTS) + EMPTY_ROWS):
            initial[f"bot-{i}-bot"] = "montecarlo"
        return initial

    def with_more_rows(self):
        """This post again, unsaved, with MORE_ROWS more rows for bots."""
        return type(self)(self.data, by=self.by, bots=self.bots,
                          rows=min(self.row_count + MORE_ROWS, MOST_ROWS))

    # What the page shows

    def preset_choices(self):
        """Each preset's radio button with its line of words."""
        return [(radio, PRESET_LINES[radio.data["value"]]) for radio in self["preset"]]

    def format_choices(self):
        return [(radio, FORMAT_LINES[radio.data["value"]]) for radio in self["format"]]

    def scoring_choices(self):
        """Each scoring system's radio button with its words and its parameters."""
        return [(radio, system_named(radio.data["value"]).description,
                 system_named(radio.data["value"]).parameters) for radio in self["scoring_system"]]

    def scoring_bound_fields(self):
        return [self[f"scoring_{name}"] for name in parameters()]

    def bot_rows(self):
        """Each row's name, bot and settings fields."""
        return [(i + 1, self[f"bot-{i}-name"], self[f"bot-{i}-bot"], self[f"bot-{i}-settings"])
                for i in range(self.row_count)]

    @staticmethod
    def bot_lines():
        """Each of the site's bots with its line of words and the settings it takes."""
        return [(name, BOT_LINES[name], settings_words(name)) for name in BUILT_IN]

    # What the serializer and the service take

    def _entered(self) -> list[tuple[int, str, str]]:
        """(row, player name, bot spec) of each row with a name."""
        data, entered = self.cleaned_data, []
        for i in range(self.row_count):
            name = data.get(f"bot-{i}-name") or ""
            bot, settings = data.get(f"bot-{i}-bot") or "", data.get(f"bot-{i}-settings") or ""
            if not name.strip():
                continue
            if settings and bot.startswith(OUTSIDE):
                self.add_error(f"bot-{i}-settings",
                               "an outside bot takes no settings here: its author sets it up")
            entered.append((i, name, f"{bot}:{settings}" if settings else bot))
        return entered

    def tournament_fields(self) -> dict:
        """The post as the API's serializer takes it (its ``club`` added by the page)."""
        data = self.cleaned_data
        system = system_named(data["scoring_system"])
        scoring = {"system": system.name, **{
            p.name: data[f"scoring_{p.name}"] for p in system.parameters
            if data.get(f"scoring_{p.name}") is not None}}
        self.entered_rows = self._entered()
        return {"name": data["name"], "preset": data["preset"], "format": data["format"],
                "seats": data["seats"], "games_per_table": data["games_per_table"],
                "rounds": data["rounds"], "duplicate": data["duplicate"], "seed": data["seed"],
                "scoring": scoring,
                "entrants": [{"name": name, "bot": spec}
                             for _, name, spec in self.entered_rows]}

    def refuse_fields(self, errors: dict) -> None:
        """The serializer's refusals at the fields they are about."""
        for key, messages in errors.items():
            if key == "entrants" and isinstance(messages, list) and messages \
                    and isinstance(messages[0], dict):
                for (row, _, _), entrant in zip(self.entered_rows, messages, strict=True):
                    for part, said in entrant.items():
                        self.add_error(f"bot-{row}-{part if part == 'name' else 'bot'}",
                                       " ".join(map(str, said)))
                continue
            said = " ".join(map(str, messages)) if isinstance(messages, list) else str(messages)
            if key == "entrants":  # about them all: shown at the first
                self.add_error("bot-0-name", f"The bots: {said}")
            else:
                self.add_error(_FIELDS.get(key), said)

    def refuse(self, refused: LeagueError) -> None:
        """Each of the service's refusals at the field it is about (TournamentError.field),
        or above the form."""
        for refusal in refused.refusals:
            names = [name for name in self._fields_of(refusal) if name in self.fields]
            for name in names:
                self.add_error(name, refusal.message)
            if not names:
                self.add_error(None, refusal.message)

    def _fields_of(self, refusal: LeagueError) -> list[str]:
        field = getattr(refusal, "field", None)
        entrants = getattr(refusal, "entrants", ())
        if entrants:
            rows = [self.entered_rows[i] for i in entrants]
            if field == "name":
                return [f"bot-{row}-name" for row, _, _ in rows]
            # a bot with settings is refused for its settings, as a rule
            return [f"bot-{row}-settings" if self.cleaned_data.get(f"bot-{row}-settings")
                    else f"bot-{row}-bot" for row, _, _ in rows]
        if field and field.startswith("scoring."):  # a field of the scoring: "scoring.limit"
            return [f"scoring_{field.removeprefix('scoring.')}"]
        return [_FIELDS[field]] if field in _FIELDS else []


# The API's fields (TournamentCreateSerializer) at the form's controls.
_FIELDS = {"name": "name", "preset": "preset", "format": "format", "seats": "seats",
           "games_per_table": "games_per_table", "rounds": "rounds", "seed": "seed",
           "duplicate": "duplicate", "scoring": "scoring_system"}


def cost_words(games: int, scoring: dict, *, montecarlo: bool, pace=None) -> str:
    """What a tournament of ``games`` games will take, in a sentence or two; ``pace``: a
    finished tournament and its games a second (selectors.last_pace), for a rough time."""
    deals = scoring.get("deals")
    if scoring.get("system") == "fixed-rounds" and deals:
        said = (f"{games:,} game{'s' if games != 1 else ''} of {deals} "
                f"deal{'s' if deals != 1 else ''}: {games * deals:,} "
                f"deal{'s' if games * deals != 1 else ''} in all.")
    else:
        most = f", at most {deals} deals" if deals else ""
        said = (f"{games:,} game{'s' if games != 1 else ''}, each played until its scoring "
                f"ends it{most}.")
    if pace is not None:
        tournament, rate = pace
        said += (f" At the pace of {tournament}, the club's last finished tournament "
                 f"({rate:.1f} games a second), about {_duration(games / rate)}")
        said += (": montecarlo bots think for their budget at every decision, so their "
                 "number and settings change this a lot." if montecarlo else ".")
    elif montecarlo:
        said += " Montecarlo bots think for their budget at every decision: they take longest."
    return said


def _duration(seconds: float) -> str:
    if seconds < 90:
        return f"{max(round(seconds), 1)} second{'s' if round(seconds) > 1 else ''}"
    if seconds < 90 * 60:
        return f"{round(seconds / 60)} minutes"
    return f"{seconds / 3600:.1f} hours"
