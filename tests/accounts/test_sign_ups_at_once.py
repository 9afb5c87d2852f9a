"""Sign-ups at the same instant on PostgreSQL (tests/api/conftest.py ``at_once``) with user
names that look alike: a look-alike is no unique key, so each sign-up checked the other's name
before either was written, and both accounts were made ("adabot" beside "adab0t" on the
ladder). One is made; the other gets the sign-up form again, naming the name taken."""

import pytest
from django.contrib.auth import get_user_model
from django.db import connection

from accounts import adapter
from tests.api.conftest import at_once, overlapping

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]

PASSWORD = "a long and right password"


@pytest.fixture
def racing():
    if connection.vendor != "postgresql":
        pytest.skip("SQLite runs one writer at a time; the race needs PostgreSQL")


def signing_up(username):
    def send(client):
        client.raise_request_exception = False  # a 500 is an answer to see, not a hang
        return client.post("/accounts/signup/", {
            "username": username, "email": f"{username}.{id(client)}@example.org",
            "password1": PASSWORD, "password2": PASSWORD}, format="multipart")
    return send


@pytest.mark.parametrize("names", [("adabot", "adab0t"), ("modem", "rnodem"),
                                   ("adabot", "ADABOT"), ("adabot", "adabot")],
                         ids=["zero", "rn", "case", "same"])
def test_two_sign_ups_of_names_alike_at_once_make_one_account(racing, monkeypatch, names):
    overlapping(monkeypatch, adapter, "checked_username")  # the sign-up form's check

    answers = at_once(None, *(signing_up(name) for name in names))

    assert sorted(a.status_code for a in answers) == [200, 302], \
        [a.content.decode()[-1500:] for a in answers]
    made = list(get_user_model().objects.values_list("username", flat=True))
    assert len(made) == 1 and made[0] in names, made
    refused = next(a for a in answers if a.status_code == 200).content.decode()
    other = next(name for name in names if name != made[0]) if names[0] != names[1] else made[0]
    taken = (f"A user named {made[0]} is registered, which looks the same as {other}.",
             "A user with that username already exists.")
    assert any(words in refused for words in taken), refused[-2000:]
    assert "name=\"username\"" in refused  # the form again, to choose another name
