"""A hostile client asking for an API token: refused in words, never a 500."""

import pytest
from axes.models import AccessAttempt
from rest_framework.test import APIClient

from tests.league.factories import UserFactory

pytestmark = pytest.mark.django_db


@pytest.mark.postgres  # django-axes keeps a failed login's username in 255 characters
def test_a_username_longer_than_any_is_refused_before_a_login_is_tried():
    """PostgreSQL answered 500: the failed login's record could not hold it."""
    UserFactory(username="ada")

    answer = APIClient().post("/api/v1/tokens/", {"username": "a" * 300, "password": "x"},
                              format="json")

    assert answer.status_code == 400, answer.content
    assert answer.json() == {"username": ["Ensure this field has no more than 150 characters."]}
    assert not AccessAttempt.objects.exists()
