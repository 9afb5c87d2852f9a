"""A club's name taken by another club between the admin form's check and the save (a club
named alike in any case at the same moment) is refused by the service (Conflict): the admin
sent the organiser back to an empty form, the name typed lost, the refusal a message at the
top. The form is now shown again with what was typed, the refusal at the name."""

import re

import pytest
from django.contrib.admin import site
from django.contrib.admin.models import LogEntry
from django.urls import reverse

from league import services
from league.admin import ClubAdmin
from league.models import AuditEntry, Club
from tests.league.factories import ClubFactory, UserFactory

pytestmark = pytest.mark.django_db

REFUSAL = ("there is already a club called &#x27;Ace Club&#x27;, named so at the same moment by "
           "another request (a club&#x27;s name is unique in any case); nothing was changed")


@pytest.fixture
def opened_meanwhile(monkeypatch):
    """"Ace Club" is opened by another request after the form's checks of the name (its
    clean_name and the model's unique name in any case) and the service's: all find it free,
    and the insert is refused. (It is written in the admin's transaction here, so it is rolled
    back with the refusal.)"""
    check = services.club_name_check
    calls = []

    def the_other_writes_after_the_services_check(**kwargs):
        calls.append(kwargs["name"])
        checked = check(**kwargs)
        if len(calls) == 2:
            Club.objects.create(name="Ace Club")
        return checked

    monkeypatch.setattr(services, "club_name_check", the_other_writes_after_the_services_check)
    return calls


def the_name_refused(page, typed):
    """The form shown again: the name field holding ``typed``, the refusal at it."""
    assert page.status_code == 200, page.headers.get("Location")
    html = page.content.decode()
    assert re.search(rf'<input [^>]*name="name" value="{typed}"', html), "the name was lost"
    errors = re.findall(r'<ul class="errorlist"[^>]*>(.*?)</ul>', html, re.S)
    assert errors == [f"<li>{REFUSAL}</li>"], errors
    assert html.count("there is already a club called") == 1  # not a message besides


def test_a_new_club_named_alike_meanwhile_shows_the_form_again_with_the_name(
        client, opened_meanwhile):
    client.force_login(UserFactory(is_superuser=True, is_staff=True))

    page = client.post(reverse("admin:league_club_add"), {"name": "ace club"})

    the_name_refused(page, "ace club")
    assert opened_meanwhile == ["ace club"] * 3  # the form's, the service's, after the insert
    assert not Club.objects.exists()
    assert not AuditEntry.objects.exists() and not LogEntry.objects.exists()


def test_a_club_renamed_alike_meanwhile_shows_the_form_again_with_the_name(
        client, opened_meanwhile):
    organiser = UserFactory(is_staff=True)
    club = ClubFactory(name="Spades")
    club.organisers.add(organiser)
    client.force_login(organiser)

    page = client.post(reverse("admin:league_club_change", args=[club.pk]), {"name": "ACE club"})

    the_name_refused(page, "ACE club")
    assert Club.objects.get(pk=club.pk).name == "Spades"
    assert not AuditEntry.objects.exists() and not LogEntry.objects.exists()


def test_shown_again_the_name_has_the_refusal_alone(rf):
    """Outside the test, the club opened meanwhile stays: the form shown again says the
    refusal at the name, not also the model's unique name at the top."""
    Club.objects.create(name="Ace Club")
    request = rf.post(reverse("admin:league_club_add"))
    request.user = UserFactory(is_superuser=True, is_staff=True)
    request.club_name_refused = "there is already a club called 'Ace Club', named so at once"

    form = ClubAdmin(Club, site).get_form(request)({"name": "ace club"})

    assert form.errors == {"name": [request.club_name_refused]}
