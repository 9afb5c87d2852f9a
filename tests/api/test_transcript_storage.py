"""A deal's transcript is stored with the format's fields only, and a NUL character in one is a
400 naming it, not a database error on PostgreSQL (issue #16)."""

import copy

import pytest

from league import services
from league.errors import LeagueError
from league.models import Deal
from tests.api.test_deals import one_deal_transcript, snapshot

pytestmark = [pytest.mark.django_db, pytest.mark.postgres]


def padded(transcript):
    """The transcript with fields the format does not have, at every level."""
    t = copy.deepcopy(transcript)
    t["padding"] = "x" * 1000
    t["deals"][0]["notes"] = {"long": "y" * 1000}
    t["deals"][0]["moves"][0]["comment"] = "z"
    if t["deals"][0].get("exchanges"):
        t["deals"][0]["exchanges"][0]["why"] = "w"
    return t


def test_only_the_formats_fields_are_stored_and_served(game, organiser_client):
    transcript = one_deal_transcript(game)

    response = organiser_client.post("/api/v1/deals/", {"game": game.pk, "number": 2,
                                                        "transcript": padded(transcript)},
                                     format="json")

    assert response.status_code == 201, response.json()
    assert response.json()["transcript"] == transcript
    assert Deal.objects.get(pk=response.json()["id"]).transcript == transcript
    listed = organiser_client.get(f"/api/v1/deals/?game={game.pk}").json()["results"]
    assert listed[-1]["transcript"] == transcript


def test_a_correction_keeps_only_the_formats_fields_too(game):
    transcript = one_deal_transcript(game)
    deal = game.deal_set.get()

    services.deal_edit(deal=deal, transcript=padded(transcript))

    assert Deal.objects.get(pk=deal.pk).transcript == transcript


@pytest.mark.parametrize("where", ["unknown field", "known field's key", "card"])
def test_a_nul_character_anywhere_is_a_400_naming_it(game, organiser_client, where):
    transcript = one_deal_transcript(game)
    if where == "unknown field":
        transcript["note"] = "a\u0000b"
    elif where == "known field's key":
        transcript["deals"][0]["moves"][0]["\u0000"] = 1
    else:
        transcript["deals"][0]["hands"][0][0] += "\u0000"
    before = snapshot(game)

    response = organiser_client.post("/api/v1/deals/", {"game": game.pk, "number": 2,
                                                        "transcript": transcript},
                                     format="json", HTTP_IDEMPOTENCY_KEY="nul-1")

    assert response.status_code == 400
    assert "NUL" in str(response.json())
    assert snapshot(game) == before


def test_the_service_refuses_a_nul_for_every_caller(game):
    transcript = one_deal_transcript(game)
    transcript["deals"][0]["moves"][0]["comment"] = "\u0000"

    with pytest.raises(LeagueError, match="NUL character"):
        services.deal_record(game=game, transcript=transcript)
