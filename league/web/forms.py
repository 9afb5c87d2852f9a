"""Forms of the entry page (a deal's finishing order, players leaving or joining) and of the
replay upload.

The forms only read and check what was posted; the change itself, once per form token, is the
services' job (services.deal_record_once and its like).
"""

import uuid

from django import forms
from django.conf import settings

ORDINALS = {1: "1st", 2: "2nd", 3: "3rd"}
ID_MAX = 2**63 - 1


def ordinal(n: int) -> str:
    return ORDINALS.get(n, f"{n}th")


class FinishingOrderForm(forms.Form):
    """One select per finishing position over the players at the table; the page's script
    fills them as the organiser taps players in order. ``order`` is what was chosen, as the
    service takes it (player ids, first out first); whether it lists each seated player once
    is the service's to judge (services.finishing_order_check, deal_record)."""

    token = forms.CharField(label="The form's token", widget=forms.HiddenInput, max_length=64)

    def __init__(self, *args, seats, **kwargs):
        super().__init__(*args, **kwargs)
        choices = [("", "—")] + [(s.player_id, s.player.name) for s in seats]
        for position in range(1, len(seats) + 1):
            # An id within the database's integers (past them a query fails, not refuses).
            self.fields[f"place_{position}"] = forms.IntegerField(
                label=f"{ordinal(position)} out", required=False,
                widget=forms.Select(choices=choices), min_value=1, max_value=ID_MAX,
                error_messages={"min_value": "no player has this id",
                                "max_value": "no player has this id"})
        if not self.is_bound:
            self.initial["token"] = uuid.uuid4().hex

    def place_fields(self):
        return [self[name] for name in self.fields if name.startswith("place_")]

    def clean(self):
        data = super().clean()
        data["order"] = [data[f.name] for f in self.place_fields()
                         if data.get(f.name) is not None]
        return data


class DealEntryForm(FinishingOrderForm):
    """The next deal's finishing order, naming the deal it is for (``number``, the page's
    next deal when it was loaded or, kept offline, counted on from it): a deal entered on
    another phone meanwhile is refused, not stored twice (services.deal_record).
    ``kept_offline`` marks a deal kept in the phone's outbox while offline."""

    number = forms.IntegerField(label="The deal's number", widget=forms.HiddenInput,
                                min_value=1, max_value=1_000_000)
    kept_offline = forms.BooleanField(label="Kept offline", widget=forms.HiddenInput,
                                      required=False)

    def __init__(self, *args, number: int, **kwargs):
        super().__init__(*args, **kwargs)
        if not self.is_bound:
            self.initial["number"] = number


class TokenForm(forms.Form):
    """A form with nothing to fill but its token (a deal's deletion): posted twice, it acts
    once."""

    token = forms.CharField(label="The form's token", widget=forms.HiddenInput, max_length=64)

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        if not self.is_bound:
            self.initial["token"] = uuid.uuid4().hex


class SeatChangeForm(forms.Form):
    leaving = forms.TypedMultipleChoiceField(
        label="Leaving before the next deal", required=False, coerce=int,
        widget=forms.CheckboxSelectMultiple)
    joining = forms.TypedMultipleChoiceField(
        label="Joining before the next deal", required=False, coerce=int,
        widget=forms.CheckboxSelectMultiple)

    def __init__(self, *args, seated, candidates, **kwargs):
        super().__init__(*args, **kwargs)
        self.people = {p.pk: p for p in [*seated, *candidates]}
        self.fields["leaving"].choices = [(p.pk, p.name) for p in seated]
        self.fields["joining"].choices = [(p.pk, p.name) for p in candidates]

    def clean(self):
        data = super().clean()
        if not data.get("leaving") and not data.get("joining"):
            raise forms.ValidationError("choose a player who leaves or joins")
        data["leaving_players"] = [self.people[p] for p in data.get("leaving", [])]
        data["joining_players"] = [self.people[p] for p in data.get("joining", [])]
        return data


class TranscriptUploadForm(forms.Form):
    """A transcript uploaded or pasted, as ``raw`` bytes of at most
    settings.REPLAY_UPLOAD_MAX_BYTES (a refusal with code "too_large" otherwise)."""

    transcript = forms.FileField(label="Transcript file (JSON)", required=False)
    text = forms.CharField(label="…or paste the transcript", required=False,
                           widget=forms.Textarea(attrs={"rows": 6}))

    def clean(self):
        data = super().clean()
        limit = settings.REPLAY_UPLOAD_MAX_BYTES
        upload = data.get("transcript")
        if upload is not None:
            raw = upload.read(limit + 1)
        elif data.get("text", "").strip():
            raw = data["text"].encode()
        else:
            raise forms.ValidationError("choose a transcript file or paste one")
        if len(raw) > limit:
            raise forms.ValidationError(f"a transcript is at most {limit:,} bytes",
                                        code="too_large")
        data["raw"] = raw
        return data
