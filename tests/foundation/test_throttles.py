"""The API answers 429 with Retry-After past its rates (REST_FRAMEWORK's throttles).

The test settings raise the rates so the suite's own heavy API tests are not throttled; these
tests lower them again. DRF reads the rates once, into SimpleRateThrottle.THROTTLE_RATES.
"""

import pytest
from rest_framework.test import APIClient
from rest_framework.throttling import SimpleRateThrottle

from tests.league.factories import UserFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def low_rates(monkeypatch):
    monkeypatch.setattr(SimpleRateThrottle, "THROTTLE_RATES", {"anon": "3/minute",
                                                               "user": "5/minute"})


def test_an_anonymous_client_past_the_rate_is_told_when_to_come_back(client, low_rates):
    for _ in range(3):
        assert client.get("/api/v1/clubs/").status_code == 200

    response = client.get("/api/v1/clubs/")

    assert response.status_code == 429
    assert 0 < int(response["Retry-After"]) <= 60
    assert "throttled" in response.json()["detail"].lower()


def test_a_signed_in_user_has_the_user_rate(low_rates):
    api = APIClient()
    api.force_authenticate(UserFactory())
    for _ in range(5):
        assert api.get("/api/v1/clubs/").status_code == 200
    assert api.get("/api/v1/clubs/").status_code == 429


def test_the_rates_are_set_in_the_settings():
    from django.conf import settings

    rest = settings.REST_FRAMEWORK
    assert "rest_framework.throttling.AnonRateThrottle" in rest["DEFAULT_THROTTLE_CLASSES"]
    assert set(rest["DEFAULT_THROTTLE_RATES"]) == {"anon", "user", "tokens"}
