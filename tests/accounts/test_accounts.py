"""Accounts for people who are not organisers (django-allauth): sign-up, log-in, log-out,
password reset by email, and a profile that shows and replaces the API token; failed logins on
allauth's form are throttled by django-axes as on the admin's."""

import importlib
import re

import pytest
from allauth.account.models import EmailAddress
from axes.models import AccessAttempt
from django.conf import settings
from django.contrib.auth import get_user_model
from django.core import mail
from django.core.cache import cache
from django.test import Client
from rest_framework.authtoken.models import Token

from accounts.models import NameKeys
from league.names import look_alike_keys
from tests.league.factories import ClubFactory, UserFactory

pytestmark = pytest.mark.django_db

PASSWORD = "a long and right password"
User = get_user_model()


def sign_up(client, username="ada", email="ada@example.org", password=PASSWORD):
    return client.post("/accounts/signup/", {"username": username, "email": email,
                                             "password1": password, "password2": password})


def log_in(client, password=PASSWORD, username="ada"):
    return client.post("/accounts/login/", {"login": username, "password": password})


def shown_token(client):
    page = client.get("/accounts/profile/")
    assert page.status_code == 200
    return re.search(r'<code id="token">(\w+)</code>', page.content.decode()).group(1)


def test_sign_up_log_in_and_the_profile_shows_the_token_that_rotating_replaces(client):
    assert sign_up(client).status_code == 302
    client.post("/accounts/logout/")
    assert client.get("/accounts/profile/").status_code == 302  # signed out: to the log-in

    assert log_in(client, "wrong").status_code == 200  # the form again, not signed in
    assert client.get("/accounts/profile/").status_code == 302
    assert log_in(client)["Location"] == "/accounts/profile/"

    token = shown_token(client)
    assert Token.objects.get(user__username="ada").key == token
    # The token works on the API.
    assert client.get("/api/v1/bots/", HTTP_AUTHORIZATION=f"Token {token}").status_code == 200

    assert client.post("/accounts/profile/token/").status_code == 302
    rotated = shown_token(client)
    assert rotated != token
    assert Token.objects.get(user__username="ada").key == rotated
    client.logout()
    assert client.get("/api/v1/bots/", HTTP_AUTHORIZATION=f"Token {token}").status_code == 401
    assert client.get("/api/v1/bots/", HTTP_AUTHORIZATION=f"Token {rotated}").status_code == 200


def test_rotating_takes_a_post_from_a_signed_in_user(client):
    sign_up(client)
    token = shown_token(client)
    assert client.get("/accounts/profile/token/").status_code == 405
    client.logout()
    assert client.post("/accounts/profile/token/").status_code == 302
    assert Token.objects.get(user__username="ada").key == token


def test_a_password_reset_by_the_emailed_link(client):
    sign_up(client)
    assert client.post(confirmation_link()).status_code == 302  # the address is verified
    client.post("/accounts/logout/")
    mail.outbox.clear()

    assert client.post("/accounts/password/reset/",
                       {"email": "ada@example.org"}).status_code == 302
    assert len(mail.outbox) == 1 and mail.outbox[0].to == ["ada@example.org"]
    link = re.search(r"https?://[^/\s]+(/accounts/password/reset/key/\S+)",
                     mail.outbox[0].body).group(1)
    form = client.get(link, follow=True)  # allauth moves the key into the session
    new = "another long new password"
    assert client.post(form.redirect_chain[-1][0] if form.redirect_chain else link,
                       {"password1": new, "password2": new}).status_code == 302

    assert log_in(client).status_code == 200  # the old password no longer signs in
    assert log_in(client, new).status_code == 302


def test_the_right_password_after_the_limit_of_wrong_ones_is_refused(client):
    sign_up(client)
    client.post("/accounts/logout/")
    for _ in range(settings.AXES_FAILURE_LIMIT - 1):
        assert log_in(client, "wrong").status_code == 200
    assert log_in(client, "wrong").status_code == 429  # the limit reached: locked out
    # Counted by axes (not allauth's own limit, which is off), under the username.
    assert AccessAttempt.objects.get(username="ada").failures_since_start == \
        settings.AXES_FAILURE_LIMIT

    assert log_in(client).status_code == 429
    assert client.get("/accounts/profile/").status_code == 302  # not signed in
    # The admin's login counts the same failures for the same username.
    assert client.post("/admin/login/?next=/admin/",
                       {"username": "ada", "password": PASSWORD}).status_code == 429


def test_the_pages_follow_the_site_layout(client):
    for url in ("/accounts/signup/", "/accounts/login/", "/accounts/password/reset/"):
        page = client.get(url)
        assert page.status_code == 200
        text = page.content.decode()
        assert 'class="site-header"' in text and "league.css" in text
        assert "<style" not in text and "style=" not in text


def test_an_organiser_finds_the_clubs_they_organise_on_their_profile(client):
    organiser = UserFactory(username="olga")
    mine = ClubFactory(name="Thursday Club")
    ClubFactory(name="Other Club")
    mine.organisers.add(organiser)
    client.force_login(organiser)

    page = client.get("/accounts/profile/").content.decode()

    assert f'href="/league/clubs/{mine.pk}/organise/"' in page
    assert "Organise Thursday Club" in page and "Other Club" not in page


@pytest.fixture
def behind_the_proxy(settings):
    """As in production: one HTTPS proxy in front, every request arrives from its address and
    carries the client's in X-Forwarded-For (appended to whatever the client sent)."""
    settings.REST_FRAMEWORK = {**settings.REST_FRAMEWORK, "NUM_PROXIES": 1}
    cache.clear()  # allauth counts in the cache
    yield
    cache.clear()


def through_the_proxy(client, client_address, sent=None):
    forwarded = f"{sent}, {client_address}" if sent else client_address
    client.defaults.update(REMOTE_ADDR="10.0.0.2", HTTP_X_FORWARDED_FOR=forwarded)
    return client


def test_many_failed_log_ins_from_elsewhere_do_not_stop_a_users_right_one(behind_the_proxy,
                                                                           settings):
    ada = through_the_proxy(Client(), "198.51.100.7")
    sign_up(ada)
    ada.post("/accounts/logout/")

    settings.ACCOUNT_RATE_LIMITS = {**settings.ACCOUNT_RATE_LIMITS, "login": "10/m/ip"}
    attacker = Client()
    answers = [log_in(through_the_proxy(attacker, "203.0.113.66", sent=f"192.0.2.{n}"),
                      "wrong", username=f"guess-{n}").status_code for n in range(12)]
    assert answers[:10] == [200] * 10 and answers[-1] == 429  # the attacker's address is
    # limited after 10 log-ins a minute (allauth's 30 by default), whatever it claims to be
    others = [log_in(through_the_proxy(Client(), f"203.0.113.{n}"), "wrong",
                     username="ada").status_code for n in range(1, 6)]
    assert others == [200] * 5  # five addresses, one failure each: no lock-out of ada

    assert log_in(ada)["Location"] == "/accounts/profile/"


def reset_links(client, email):
    mail.outbox.clear()
    assert client.post("/accounts/password/reset/", {"email": email}).status_code == 302
    return [(m.to, link) for m in mail.outbox for link in re.findall(
        r"https?://[^/\s]+(/accounts/password/reset/key/\S+)", m.body)]


def confirmation_link():
    """The link of the address confirmation mailed at sign-up."""
    return re.search(r"https?://[^/\s]+(/accounts/confirm-email/\S+)",
                     next(m.body for m in mail.outbox if "confirm-email" in m.body)).group(1)


def test_a_sign_up_with_an_address_in_use_is_refused_whatever_its_case(client):
    sign_up(client)
    client.post("/accounts/logout/")

    again = sign_up(client, username="mallory", email="ADA@Example.org")

    assert again.status_code == 200 and "already registered" in again.content.decode()
    assert not User.objects.filter(username="mallory").exists()


def test_an_account_made_in_the_admin_gets_its_reset_link_and_keeps_its_address(client):
    admin = UserFactory(username="root", is_superuser=True)
    client.force_login(admin)
    added = client.post("/admin/auth/user/add/", {
        "username": "eve", "password1": PASSWORD, "password2": PASSWORD,
        "usable_password": "true"})
    assert added.status_code == 302, added.content.decode()[:2000]
    eve = User.objects.get(username="eve")
    changed = client.post(f"/admin/auth/user/{eve.pk}/change/", {
        "username": "eve", "email": "Eve@Example.org", "is_active": "on",
        "date_joined_0": "2026-01-01", "date_joined_1": "00:00:00"})
    assert changed.status_code == 302, changed.content.decode()[:2000]
    client.logout()

    assert [to for to, _ in reset_links(client, "eve@example.org")] == [["eve@example.org"]]
    taken = sign_up(client, username="mallory", email="eve@example.org")
    assert taken.status_code == 200 and "already registered" in taken.content.decode()


def test_reset_links_go_only_to_a_verified_address(client):
    sign_up(client)
    confirmation = confirmation_link()
    client.post("/accounts/logout/")
    assert reset_links(client, "ada@example.org") == []  # not confirmed yet

    assert client.post(confirmation).status_code == 302

    assert [to for to, _ in reset_links(client, "ada@example.org")] == [["ada@example.org"]]


def test_accounts_made_before_get_their_address_verified_unless_it_is_shared():
    from django.apps import apps
    migration = importlib.import_module(
        "accounts.migrations.0001_addresses_of_accounts_made_by_administrators")
    UserFactory(username="old", email="Old@Example.org")
    UserFactory(username="twin-1", email="twin@example.org")
    UserFactory(username="twin-2", email="TWIN@example.org")
    UserFactory(username="none", email="")

    migration.addresses_given(apps, None)

    assert list(EmailAddress.objects.values_list("user__username", "email", "verified",
                                                 "primary")) == [
        ("old", "old@example.org", True, True)]


def test_the_admin_refuses_an_address_another_account_has(client):
    sign_up(client)
    client.post("/accounts/logout/")
    eve = UserFactory(username="eve", email="")
    client.force_login(UserFactory(username="root", is_superuser=True))

    changed = client.post(f"/admin/auth/user/{eve.pk}/change/", {
        "username": "eve", "email": "ADA@example.org", "is_active": "on",
        "date_joined_0": "2026-01-01", "date_joined_1": "00:00:00"})

    assert changed.status_code == 200 and "another account has this address" in \
        changed.content.decode()
    eve.refresh_from_db()
    assert eve.email == "" and not EmailAddress.objects.filter(user=eve).exists()


@pytest.mark.parametrize("look_alike", ["ＡＤＡ", "ａda"])
def test_a_user_name_that_is_anothers_in_another_spelling_is_refused_as_taken(client,
                                                                              look_alike):
    """Fullwidth letters are the same name (Unicode NFKC), as they are in bot names: "ａda"
    was a second author shown as "ａda" beside ada's bots on the ladder."""
    UserFactory(username="ada", is_staff=False)

    page = sign_up(client, username=look_alike, email="mallory@example.org")

    assert page.status_code == 200
    assert "A user with that username already exists." in page.content.decode()
    assert list(User.objects.values_list("username", flat=True)) == ["ada"]


@pytest.mark.parametrize("username", ["Zoë", "José", "田中", "田中さくら", "Łukasz", "Дмитрий"])
def test_a_user_name_may_be_in_any_alphabet(client, username):
    """Club members and bot authors are called Zoë, José and 田中: a name is letters of any
    alphabet, digits and @ . + - _ (Django's UnicodeUsernameValidator)."""
    UserFactory(username="ada", is_staff=False)

    assert sign_up(client, username=username, email="new@example.org").status_code == 302
    assert sorted(User.objects.values_list("username", flat=True)) == sorted(["ada", username])


def test_zoe_and_zoë_are_two_names(client):
    """"ë" is not an "e" in Unicode's confusables table: the two read differently."""
    assert sign_up(client, username="zoe", email="zoe@example.org").status_code == 302
    client.post("/accounts/logout/")

    assert sign_up(client, username="Zoë", email="zoe.too@example.org").status_code == 302
    assert sorted(User.objects.values_list("username", flat=True)) == ["Zoë", "zoe"]


@pytest.mark.parametrize(("username", "letter"), [
    ("\u0430da", "\u0430 (Cyrillic) looks like a Latin letter"),
    ("\u0391da", "\u0391 (Greek) looks like a Latin letter"),
    ("ad\u0430", "\u0430 (Cyrillic) looks like a Latin letter")])
def test_a_user_name_mixing_alphabets_to_pose_as_another_is_refused(client, username, letter):
    """Cyrillic "а" (U+0430) and Greek "Α" look like Latin "a" and "A": an author named
    "аda" would pass for ada on the ladder, whether or not ada is registered yet."""
    UserFactory(username="ada", is_staff=False)

    page = sign_up(client, username=username, email="mallory@example.org")

    assert page.status_code == 200
    assert (f"{username} mixes alphabets: {letter}. A user name keeps to one alphabet where "
            "its letters could be read as another&#x27;s.") in page.content.decode()
    assert list(User.objects.values_list("username", flat=True)) == ["ada"]


def test_a_name_in_another_alphabet_that_looks_like_a_users_is_refused(client):
    """All Cyrillic, mixing nothing, "аео" still reads as the Latin "aeo" of a user."""
    UserFactory(username="aeo", is_staff=False)

    page = sign_up(client, username="\u0430\u0435\u043e", email="mallory@example.org")

    assert page.status_code == 200
    assert ("A user named aeo is registered, which looks the same as \u0430\u0435\u043e."
            in page.content.decode())
    assert list(User.objects.values_list("username", flat=True)) == ["aeo"]


def test_an_rn_that_reads_as_an_m_is_refused_for_a_user_name(client):
    """Found by a security walk-through: "rnodem" passed beside modem's bots on the ladder."""
    UserFactory(username="modem", is_staff=False)

    page = sign_up(client, username="rnodem", email="mallory@example.org")

    assert "A user named modem is registered, which looks the same as rnodem." in (
        page.content.decode())
    assert list(User.objects.values_list("username", flat=True)) == ["modem"]


@pytest.mark.parametrize("look_alike", ["adaI", "ada1"])
def test_a_user_name_that_looks_like_anothers_is_refused(client, look_alike):
    """Found by a security walk-through: "adaI" with a capital i stood beside adal's bots on
    the ladder as adal; user names are compared as bot names are (league.names)."""
    UserFactory(username="adal", is_staff=False)

    page = sign_up(client, username=look_alike, email="mallory@example.org")

    assert page.status_code == 200
    assert (f"A user named adal is registered, which looks the same as {look_alike}."
            in page.content.decode())
    assert list(User.objects.values_list("username", flat=True)) == ["adal"]


def test_user_names_that_only_share_letters_stay_apart(client):
    UserFactory(username="adal", is_staff=False)

    page = sign_up(client, username="adai", email="bea@example.org")

    assert page.status_code == 302
    assert sorted(User.objects.values_list("username", flat=True)) == ["adai", "adal"]


def admin_client(client):
    client.force_login(UserFactory(username="root", is_superuser=True))
    return client


@pytest.mark.parametrize(("username", "refusal"), [
    ("adaI", "A user named adal is registered, which looks the same as adaI."),
    ("\u0430dal", "\u0430dal mixes alphabets: \u0430 (Cyrillic) looks like a Latin letter."),
    ("ＡＤＡＬ", "A user with that username already exists.")])
def test_the_admin_adds_no_user_a_sign_up_would_refuse(client, username, refusal):
    UserFactory(username="adal", is_staff=False)

    added = admin_client(client).post("/admin/auth/user/add/", {
        "username": username, "password1": PASSWORD, "password2": PASSWORD,
        "usable_password": "true"})

    assert added.status_code == 200 and refusal in added.content.decode()
    assert sorted(User.objects.values_list("username", flat=True)) == ["adal", "root"]


def test_the_admin_renames_a_user_only_to_a_name_nobody_else_looks_like(client):
    UserFactory(username="adal", is_staff=False)
    eve = UserFactory(username="eve", email="", is_staff=False)

    def rename(name):
        return admin_client(client).post(f"/admin/auth/user/{eve.pk}/change/", {
            "username": name, "is_active": "on",
            "date_joined_0": "2026-01-01", "date_joined_1": "00:00:00"})

    refused = rename("adaI")
    assert refused.status_code == 200
    assert "A user named adal is registered, which looks the same as adaI." in \
        refused.content.decode()
    assert rename("Evé").status_code == 302
    assert rename("Evé").status_code == 302  # its own name is no other's
    client.logout()

    # The look-alike keys follow the rename: "eve" is free again, "Evé" is taken.
    assert sign_up(client, username="eve", email="eve@example.org").status_code == 302
    client.post("/accounts/logout/")
    page = sign_up(client, username="evé", email="e2@example.org")
    assert page.status_code == 200 and "A user with that username already exists." in \
        page.content.decode()


def test_every_user_has_the_look_alike_keys_of_their_name():
    """Kept wherever a user is saved (sign-up, admin, createsuperuser, a factory), so a
    sign-up's look-alike check is one indexed query (accounts.models.NameKeys)."""
    ada = UserFactory(username="adaI")
    ada.username = "Ada"
    ada.save()

    keys = NameKeys.objects.get(user=ada)
    assert {f: getattr(keys, f) for f in look_alike_keys("Ada")} == look_alike_keys("Ada")


def test_the_keys_are_written_again_reading_rn_as_m():
    from django.apps import apps
    migration = importlib.import_module("accounts.migrations.0003_keys_read_rn_as_m")
    user = UserFactory(username="rnodem")
    NameKeys.objects.filter(user=user).update(look_casefolded="rnodem", look_written="rnodem")

    migration.keys_written_again(apps, None)

    keys = NameKeys.objects.get(user=user)
    assert (keys.look_casefolded, keys.look_written) == ("modem", "modem")


def test_users_made_before_get_their_look_alike_keys():
    from django.apps import apps
    migration = importlib.import_module("accounts.migrations.0002_namekeys")
    users = [UserFactory(username=name) for name in ("ada", "Zoë", "田中")]
    NameKeys.objects.all().delete()

    migration.keys_given(apps, None)

    assert sorted(NameKeys.objects.values_list("user__username", flat=True)) == sorted(
        u.username for u in users)
    assert all({f: getattr(k, f) for f in look_alike_keys(k.user.username)}
               == look_alike_keys(k.user.username) for k in NameKeys.objects.all())
