"""The forms of the ladder's pages: their fields in the services' shape."""

from django import forms


class ChallengeForm(forms.Form):
    """An unrated challenge game: the author's bot against the opponents ticked."""

    opponents = forms.ModelMultipleChoiceField(
        queryset=None, widget=forms.CheckboxSelectMultiple, label="Opponents",
        error_messages={"required": "Tick at least one opponent.",
                        "invalid_choice": "%(value)s is not a bot on this ladder.",
                        "invalid_pk_value": "%(pk)s is not a bot's number."})

    def __init__(self, *args, opponents, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["opponents"].queryset = opponents
        self.fields["opponents"].label_from_instance = _label

    def clean_opponents(self):
        chosen = self.cleaned_data["opponents"]
        return sorted(chosen, key=lambda e: (-e.ordinal, e.pk))


def _label(entry) -> str:
    bot = entry.outside_bot
    who = "built-in" if entry.reference else bot.owner.get_username() if bot and bot.owner_id \
        else "no author"
    return f"{entry.name} ({who}, rating {entry.ordinal:.2f})"
