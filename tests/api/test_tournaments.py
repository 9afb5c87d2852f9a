"""Tournaments through the API: a club's organisers cancel, resume and start them."""

import pytest

from gameplay.models import Tournament
from tests.api.conftest import client_for
from tests.league.factories import ClubFactory, UserFactory
from tests.tournaments.helpers import small_tournament

pytestmark = pytest.mark.django_db


@pytest.fixture
def tournament(db):
    return small_tournament()


@pytest.fixture
def tournament_organiser(tournament):
    user = UserFactory(username="cup-organiser")
    tournament.club.organisers.add(user)
    return client_for(user, token=True)


def test_anyone_reads_a_tournament_and_its_progress(tournament):
    from rest_framework.test import APIClient

    body = APIClient().get(f"/api/v1/tournaments/{tournament.pk}/progress/").json()

    assert body == {"status": "scheduled", "done": 0, "total": tournament.total_games,
                    "fraction": 0.0, "games_per_second": None, "eta_seconds": None}


def test_an_organiser_cancels_and_the_league_refusal_shows_as_it_is(tournament,
                                                                    tournament_organiser):
    cancelled = tournament_organiser.post(f"/api/v1/tournaments/{tournament.pk}/cancel/")
    again = tournament_organiser.post(f"/api/v1/tournaments/{tournament.pk}/cancel/")
    resumed = tournament_organiser.post(f"/api/v1/tournaments/{tournament.pk}/resume/")

    assert cancelled.status_code == 200 and cancelled.json()["status"] == "cancelled"
    assert again.status_code == 400 and "already cancelled" in again.json()["detail"]
    assert resumed.status_code == 400 and "cancelled before it started" in \
        resumed.json()["detail"]


@pytest.mark.parametrize("operation", ["start", "cancel", "resume"])
def test_outsiders_may_not_start_cancel_or_resume(tournament, operation):
    other = UserFactory(username="other-organiser")
    ClubFactory().organisers.add(other)
    nobody = UserFactory(username="no-rights", is_staff=False)
    from rest_framework.test import APIClient

    for client, expected in ((client_for(other), 403), (client_for(other, token=True), 403),
                             (client_for(nobody, token=True), 403), (APIClient(), 401)):
        response = client.post(f"/api/v1/tournaments/{tournament.pk}/{operation}/")
        assert response.status_code == expected
        assert Tournament.objects.get(pk=tournament.pk).status == Tournament.SCHEDULED
