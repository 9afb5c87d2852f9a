"""The forms of the ladder's pages: their fields in the services' shape."""

import re

from django import forms


def opponent_label(name: str, reference: bool, ordinal: float, author: str | None) -> str:
    """An opponent as the challenge form lists it: its name, author and rating."""
    who = "built-in" if reference else author or "no author"
    return f"{name} ({who}, rating {ordinal:.2f})"


class Opponents(forms.ModelMultipleChoiceField):
    def _check_values(self, value):
        # Only ids the database can hold are looked up: SQLite raised OverflowError on one
        # past its integers (PostgreSQL compares it); "²" is no number either.
        for pk in value:
            if not re.fullmatch(r"[0-9]{1,18}", str(pk)):
                raise forms.ValidationError(self.error_messages["invalid_pk_value"],
                                            code="invalid_pk_value", params={"pk": pk})
        return super()._check_values(value)


class ChallengeForm(forms.Form):
    """An unrated challenge game: the author's bot against the opponents ticked. The page
    writes its boxes itself (a ladder of hundreds of bots: Django's widget renders each box
    through a template)."""

    opponents = Opponents(
        queryset=None, label="Opponents",
        error_messages={"required": "Tick at least one opponent.",
                        "invalid_choice": "%(value)s is not a bot on this ladder.",
                        "invalid_pk_value": "%(pk)s is not a bot's number."})

    def __init__(self, *args, opponents, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["opponents"].queryset = opponents

    def clean_opponents(self):
        return sorted(self.cleaned_data["opponents"], key=lambda e: (-e.ordinal, e.pk))

    def chosen(self) -> set[str]:
        """The boxes ticked, as posted (to tick them again when the page is shown again)."""
        return set(self.data.getlist("opponents")) if self.is_bound else set()
