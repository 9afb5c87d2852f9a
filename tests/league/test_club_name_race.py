"""Clubs named alike in any case ("Ace Club", "ace club") opened at the same instant: the
service checks the name in any case, but both checks could pass before either was written,
and both clubs were made. The database's unique name in any case now refuses the second: a
409 (API) or the admin's error naming the club opened meanwhile, never a 500."""

import pytest
from django.db import IntegrityError, connection
from django.db.migrations.executor import MigrationExecutor
from django.urls import reverse

from league import services
from league.errors import Conflict, LeagueError
from league.models import AuditEntry, Club
from tests.api.conftest import at_once, client_for
from tests.league.factories import UserFactory

pytestmark = pytest.mark.django_db


def test_the_database_refuses_a_second_club_named_alike_in_any_case():
    Club.objects.create(name="Ace Club")

    with pytest.raises(IntegrityError):
        Club.objects.create(name="ace club")


def test_a_second_club_named_alike_is_refused_in_words():
    services.club_create(name="Ace Club")

    with pytest.raises(LeagueError, match="there is already a club called 'ACE CLUB'"):
        services.club_create(name="ACE CLUB")
    assert list(Club.objects.values_list("name", flat=True)) == ["Ace Club"]


def _opened_meanwhile(monkeypatch, name="Ace Club"):
    """The race step by step: ``name`` is opened by another request, but the service's check
    of the name ran before it was written (it finds it free); checked again after the insert
    is refused, the name is seen taken."""
    Club.objects.create(name=name)
    check = services.club_name_check
    calls = []

    def checked_before_the_other_wrote(*, name, club=None):
        calls.append(name)
        if len(calls) == 1:
            return services.name_checked(name, "a club")
        return check(name=name, club=club)

    monkeypatch.setattr(services, "club_name_check", checked_before_the_other_wrote)


def test_a_club_named_alike_between_its_check_and_its_write_is_refused_naming_it(
        monkeypatch):
    _opened_meanwhile(monkeypatch)

    with pytest.raises(Conflict, match="there is already a club called 'Ace Club'"):
        services.club_create(name="ace club")
    assert list(Club.objects.values_list("name", flat=True)) == ["Ace Club"]
    assert not AuditEntry.objects.exists()


def test_over_the_api_it_is_a_409_naming_the_club(monkeypatch):
    _opened_meanwhile(monkeypatch)

    answer = client_for(UserFactory(), token=True).post("/api/v1/clubs/", {"name": "ace club"},
                                                        format="json")

    assert answer.status_code == 409, answer.content
    assert answer.json() == {"detail": "there is already a club called 'Ace Club', named so at "
                                       "the same moment by another request (a club's name is "
                                       "unique in any case); nothing was changed"}
    assert Club.objects.count() == 1


def test_a_rename_to_a_name_taken_meanwhile_is_refused_naming_it(monkeypatch):
    club = Club.objects.create(name="Spades")
    _opened_meanwhile(monkeypatch)

    with pytest.raises(Conflict, match="there is already a club called 'Ace Club'"):
        services.club_update(club=club, name="ACE club")
    assert Club.objects.get(pk=club.pk).name == "Spades"


def test_in_the_admin_it_is_the_forms_error_naming_the_club(client, monkeypatch):
    """The admin's form checks the name (its clean_name and its constraints), the service
    checks it again, then the other club is written, then this one's insert. (The other is
    written in the admin's transaction here, so it is rolled back with the refusal.)"""
    check = services.club_name_check
    calls = []

    def the_other_writes_after_the_services_check(**kwargs):
        checked = check(**kwargs)
        calls.append(kwargs)
        if len(calls) == 2:
            Club.objects.create(name="Ace Club")
        return checked

    monkeypatch.setattr(services, "club_name_check", the_other_writes_after_the_services_check)
    client.force_login(UserFactory(is_superuser=True))

    page = client.post(reverse("admin:league_club_add"), {"name": "ace club"}, follow=True)

    assert page.status_code == 200
    assert "already a club called &#x27;Ace Club&#x27;, named so at the same moment" in page.text
    assert not Club.objects.filter(name="ace club").exists()


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_clubs_named_alike_in_any_case_sent_at_once_are_opened_once():
    """Four POSTs at the same instant made four clubs: each was checked free in any case
    before any was written."""
    if connection.vendor != "postgresql":
        pytest.skip("SQLite runs one writer at a time; the race needs PostgreSQL")
    founder = UserFactory(username="founder", is_staff=True)
    names = ["Ace Club", "ace club", "ACE CLUB", "aCe ClUb"]

    answers = at_once(founder, *(
        lambda client, name=name: client.post("/api/v1/clubs/", {"name": name}, format="json")
        for name in names))

    statuses = sorted(a.status_code for a in answers)
    assert statuses[0] == 201 and set(statuses[1:]) <= {400, 409}, [a.content for a in answers]
    (opened,) = Club.objects.values_list("name", flat=True)
    for answer in answers:
        if answer.status_code == 409:
            assert answer.json()["detail"].startswith(
                f"there is already a club called {opened!r}, named so at the same moment")
        elif answer.status_code == 400:
            assert answer.json()["name"][0].startswith("there is already a club called")


BEFORE = [("league", "0012_rating_stale")]
AFTER = [("league", "0013_club_name_unique_in_any_case")]


def _migrate(target):
    executor = MigrationExecutor(connection)
    executor.migrate(target)
    return executor.loader.project_state(target).apps.get_model("league", "Club")


@pytest.mark.django_db(transaction=True)
def test_the_migration_renames_clubs_named_alike_before_it_and_keeps_the_first():
    old = _migrate(BEFORE)
    first = old.objects.create(name="Ace Club").pk
    second = old.objects.create(name="ace club").pk
    third = old.objects.create(name="ACE CLUB").pk
    other = old.objects.create(name="Spades").pk
    # A name the renaming would have given, taken already.
    old.objects.create(name=f"ace club (club {second})")

    new = _migrate(AFTER)

    names = dict(new.objects.values_list("pk", "name"))
    assert names[first] == "Ace Club" and names[other] == "Spades"
    assert names[second] == f"ace club (club {second}, 2)"
    assert names[third] == f"ACE CLUB (club {third})"
    audit = new._meta.apps.get_model("league", "AuditEntry")
    assert sorted(audit.objects.filter(action="club renamed").values_list("club", "details")) \
        == [(second, {"name": ["ace club", f"ace club (club {second}, 2)"],
                      "why": "a club called 'Ace Club' was there first"}),
            (third, {"name": ["ACE CLUB", f"ACE CLUB (club {third})"],
                     "why": "a club called 'Ace Club' was there first"})]
    with pytest.raises(IntegrityError):
        new.objects.create(name="SPADES")
    _migrate(MigrationExecutor(connection).loader.graph.leaf_nodes())
