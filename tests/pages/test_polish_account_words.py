"""allauth's pages a visitor reaches in the site's words and sentence case: the menu's "Log
in" and "Log out", "Sign up", not allauth's "Sign Up", "Sign Out", "Password Reset", "Change
Password" or "Confirm Email Address" (the log-in page was put right in 72bd0f5)."""

import re

import pytest
from allauth.account.forms import default_token_generator
from allauth.account.models import EmailAddress, EmailConfirmationHMAC
from allauth.account.utils import user_pk_to_url_str
from django.urls import reverse

from tests.league.factories import UserFactory

pytestmark = pytest.mark.django_db

TITLE_CASE = re.compile(r"Sign (Up|In|Out)|Signup|Password Reset|Change Password|Bad Token"
                        r"|Confirm Email|Email Address|Reset My|Add Email|Make Primary"
                        r"|Re-send Verification")


def seen(client, url):
    """The page's heading, which its tab says too; no allauth words in title case."""
    answer = client.get(url, follow=True)
    assert answer.status_code == 200
    html = answer.content.decode()
    found = TITLE_CASE.search(html)
    assert found is None, f"{url} says {found[0]!r}"
    heading = re.search(r"<h1>\s*(.*?)\s*</h1>", html, re.S)[1]
    assert re.search(r"<title>\s*(.*?)\s*</title>", html, re.S)[1] == \
        f"{heading} – President League"
    return heading


@pytest.fixture
def ann(client):
    user = UserFactory(username="ann", email="ann@example.org")
    EmailAddress.objects.create(user=user, email=user.email, primary=True, verified=False)
    return user


def test_signing_up(client):
    assert seen(client, reverse("account_signup")) == "Sign up"


def test_resetting_a_password(client, ann):
    key = reverse("account_reset_password_from_key",
                  args=[user_pk_to_url_str(ann), default_token_generator.make_token(ann)])
    bad_key = reverse("account_reset_password_from_key", args=[user_pk_to_url_str(ann), "x-y"])

    assert seen(client, reverse("account_reset_password")) == "Reset your password"
    assert seen(client, reverse("account_reset_password_done")) == "Password reset sent"
    assert seen(client, key) == "Choose a new password"
    assert seen(client, bad_key) == "Link no longer valid"
    assert seen(client, reverse("account_reset_password_from_key_done")) == "Password changed"


def test_confirming_an_email_address(client, ann):
    key = EmailConfirmationHMAC(EmailAddress.objects.get(user=ann)).key

    for url in (reverse("account_confirm_email", args=[key]),
                reverse("account_confirm_email", args=["not-a-key"])):
        assert seen(client, url) == "Confirm your email address"


def test_an_accounts_own_pages(client, ann):
    client.force_login(ann)

    assert seen(client, reverse("account_logout")) == "Log out"
    assert seen(client, reverse("account_change_password")) == "Change your password"
    assert seen(client, reverse("account_email")) == "Email addresses"
