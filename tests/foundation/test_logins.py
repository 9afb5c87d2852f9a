"""Logins resist guessing: django-axes refuses a username from an address after
AXES_FAILURE_LIMIT wrong passwords, even when the right one follows (docs/operations.md)."""

import pytest
from django.conf import settings

from tests.league.factories import UserFactory

pytestmark = pytest.mark.django_db

PASSWORD = "a long and right password"


@pytest.fixture
def organiser():
    user = UserFactory(username="organiser")
    user.set_password(PASSWORD)
    user.save()
    return user


def admin_login(client, password, username="organiser"):
    return client.post("/admin/login/?next=/admin/",
                       {"username": username, "password": password})


def signed_in(client):
    return client.get("/admin/").status_code == 200


def test_the_right_password_after_the_limit_of_wrong_ones_is_refused(client, organiser):
    for _ in range(settings.AXES_FAILURE_LIMIT - 1):
        assert admin_login(client, "wrong").status_code == 200  # the form again, with its error
    assert admin_login(client, "wrong").status_code == 429  # the limit reached: locked out

    response = admin_login(client, PASSWORD)

    assert response.status_code == 429
    assert not signed_in(client)


def test_a_right_password_before_the_limit_signs_in_and_clears_the_failures(client, organiser):
    for _ in range(settings.AXES_FAILURE_LIMIT - 1):
        admin_login(client, "wrong")

    assert admin_login(client, PASSWORD).status_code == 302
    assert signed_in(client)

    client.logout()
    # The count started again: as many failures as before still leave the door open.
    for _ in range(settings.AXES_FAILURE_LIMIT - 1):
        admin_login(client, "wrong")
    assert admin_login(client, PASSWORD).status_code == 302


def test_a_locked_out_username_does_not_lock_out_another(client, organiser):
    UserFactory(username="treasurer").set_password(PASSWORD)
    for _ in range(settings.AXES_FAILURE_LIMIT):
        admin_login(client, "wrong")

    assert admin_login(client, "wrong", username="treasurer").status_code == 200
