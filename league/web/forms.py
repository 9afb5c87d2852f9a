"""Forms of the organiser pages: a deal's finishing order, and players leaving or joining.

The forms only read and check what was posted; the change itself is the services' job.
"""

import hashlib
import uuid

from django import forms
from django.conf import settings

from league import idempotency, services
from league.errors import LeagueError

ORDINALS = {1: "1st", 2: "2nd", 3: "3rd"}


def ordinal(n: int) -> str:
    return ORDINALS.get(n, f"{n}th")


class FinishingOrderForm(forms.Form):
    """One select per finishing position over the players at the table; the page's script
    fills them as the organiser taps players in order. ``order`` is what was chosen, as the
    service takes it (player ids, first out first); whether it lists each seated player once
    is the service's to judge (services.finishing_order_check, deal_record)."""

    token = forms.CharField(widget=forms.HiddenInput, max_length=64)

    def __init__(self, *args, seats, **kwargs):
        super().__init__(*args, **kwargs)
        choices = [("", "—")] + [(s.player_id, s.player.name) for s in seats]
        for position in range(1, len(seats) + 1):
            self.fields[f"place_{position}"] = forms.IntegerField(
                label=f"{ordinal(position)} out", required=False,
                widget=forms.Select(choices=choices))
        if not self.is_bound:
            self.initial["token"] = uuid.uuid4().hex

    def place_fields(self):
        return [self[name] for name in self.fields if name.startswith("place_")]

    def clean(self):
        data = super().clean()
        data["order"] = [data[f.name] for f in self.place_fields()
                         if data.get(f.name) is not None]
        return data


def deal_record_once(*, game, finishing_order, by, token: str):
    """Record a deal once per form token: a second post of the same form (a double tap, a
    resent request) finds the token claimed and records nothing. Returns (deal number, whether
    this call recorded it). The token is claimed as the API claims its keys
    (league.idempotency)."""
    fingerprint = hashlib.sha256(f"deal {game.pk} {list(finishing_order)}".encode()).hexdigest()

    def record():
        deal = services.deal_record(game=game, finishing_order=list(finishing_order), by=by)
        return 201, {"number": deal.number, "deal": deal.pk}

    try:
        _, body, replayed = idempotency.once(user=by, key=f"page-deal:{token}",
                                             fingerprint=fingerprint, write=record)
    except idempotency.KeyReused as e:
        raise LeagueError("this form was already used for another deal: start the next deal "
                          "from the page again") from e
    return body["number"], not replayed


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
