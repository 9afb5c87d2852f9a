"""Forms of the organiser pages: a deal's finishing order, and players leaving or joining.

The forms only read and check what was posted; the change itself is the services' job.
"""

import hashlib
import uuid

from django import forms
from django.conf import settings
from django.db import IntegrityError, transaction

from league import services
from league.errors import LeagueError
from league.models import IdempotentRequest

ORDINALS = {1: "1st", 2: "2nd", 3: "3rd"}


def ordinal(n: int) -> str:
    return ORDINALS.get(n, f"{n}th")


class FinishingOrderForm(forms.Form):
    """One select per finishing position over the players at the table; the page's script
    fills them as the organiser taps players in order."""

    token = forms.CharField(widget=forms.HiddenInput, max_length=64)

    def __init__(self, *args, seats, **kwargs):
        super().__init__(*args, **kwargs)
        self.players = {s.player_id: s.player for s in seats}
        choices = [("", "—")] + [(s.player_id, s.player.name) for s in seats]
        for position in range(1, len(seats) + 1):
            self.fields[f"place_{position}"] = forms.TypedChoiceField(
                label=f"{ordinal(position)} out", choices=choices, coerce=int,
                error_messages={"required": f"choose who finished {ordinal(position)}"})
        if not self.is_bound:
            self.initial["token"] = uuid.uuid4().hex

    def place_fields(self):
        return [self[name] for name in self.fields if name.startswith("place_")]

    def clean(self):
        data = super().clean()
        order = [data.get(f"place_{i}") for i in range(1, len(self.players) + 1)]
        if None in order:
            return data
        twice = sorted({self.players[p].name for p in order if order.count(p) > 1})
        if twice:
            raise forms.ValidationError(
                "each player finishes once; listed twice: " + ", ".join(twice))
        data["order"] = [self.players[p] for p in order]
        return data


def deal_record_once(*, game, finishing_order, by, token: str):
    """Record a deal once per form token: a second post of the same form (a double tap, a
    resent request) finds the token claimed and records nothing. Returns (deal number, whether
    this call recorded it). The claim is the API's IdempotentRequest row, taken in the deal's
    transaction under its unique (user, key) constraint."""
    key = f"page-deal:{token}"
    fingerprint = hashlib.sha256(f"deal {game.pk} {list(finishing_order)}".encode()).hexdigest()

    def replay(stored):
        if stored.fingerprint != fingerprint:
            raise LeagueError("this form was already used for another deal: "
                              "start the next deal from the page again")
        return stored.body["number"], False

    stored = IdempotentRequest.objects.filter(user=by, key=key).first()
    if stored is not None:
        return replay(stored)
    try:
        with transaction.atomic():
            claim = IdempotentRequest.objects.create(user=by, key=key, fingerprint=fingerprint,
                                                     status_code=0, body={})
            deal = services.deal_record(game=game, finishing_order=list(finishing_order), by=by)
            claim.status_code = 201
            claim.body = {"number": deal.number, "deal": deal.pk}
            claim.save(update_fields=["status_code", "body"])
            return deal.number, True
    except IntegrityError:
        stored = IdempotentRequest.objects.filter(user=by, key=key).first()
        if stored is None:
            raise
        return replay(stored)


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
