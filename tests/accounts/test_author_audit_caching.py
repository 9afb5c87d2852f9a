"""Pages and answers that hold a credential are never stored by a cache: the profile page
shows the API token (which opens the API as its user), the API's answers give a bot's secret
or a token. A browser's cache or back button kept them after the user signed out."""

import pytest
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from tests.api.conftest import client_for
from tests.league.factories import UserFactory

pytestmark = pytest.mark.django_db


def never_stored(response) -> bool:
    return "no-store" in response.get("Cache-Control", "")


@pytest.fixture
def ada():
    return UserFactory(username="ada", is_staff=False)


def test_the_profile_page_with_the_token_is_never_stored(client, ada):
    client.force_login(ada)
    page = client.get("/accounts/profile/")
    assert Token.objects.get(user=ada).key in page.content.decode()
    assert never_stored(page), page.get("Cache-Control")


def test_answers_with_a_secret_or_a_token_are_never_stored(ada, settings):
    settings.OUTSIDE_BOT_ALLOWED_HOSTS = ["bots.example.org"]
    api = client_for(ada)
    made = api.post("/api/v1/bots/", {"name": "ada-bot", "url": "https://bots.example.org/"},
                    format="json")
    assert made.status_code == 201 and never_stored(made), made.get("Cache-Control")
    replaced = api.post(f"/api/v1/bots/{made.json()['id']}/secret/")
    assert replaced.json()["secret"] and never_stored(replaced)
    rotated = api.post("/api/v1/tokens/rotate/")
    assert rotated.json()["token"] and never_stored(rotated)
    ada.set_password("a-long-password-9")  # (which signs the session out)
    ada.save()
    token = APIClient().post("/api/v1/tokens/", {"username": "ada",
                                                 "password": "a-long-password-9"}, format="json")
    assert token.json()["token"] and never_stored(token)
