"""Many authors acting at the same instant on PostgreSQL (tests/api/conftest.py ``at_once``):
two registrations of one URL or of names alike, two tabs of one author changing one bot, and
two uploads of one hosted bot. One of each is written, the others refused in words, never a
500 and never written twice."""

import threading

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile

from ladder import services as ladder
from ladder.models import Entry, Version
from outside_bots import models, services
from outside_bots.models import OutsideBot, hosted_code
from tests.api.conftest import at_once, overlapping
from tests.league.factories import UserFactory

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]

URL = "https://bots.example.org/play"


@pytest.fixture
def racing(settings):
    from django.db import connection
    if connection.vendor != "postgresql":
        pytest.skip("SQLite runs one writer at a time; the race needs PostgreSQL")
    settings.OUTSIDE_BOT_ALLOWED_HOSTS = ["bots.example.org"]
    return settings


def as_author(user, send):
    def signed_in(client):
        client.force_login(user)
        return send(client)
    return signed_in


def test_two_authors_registering_one_url_at_once_register_it_once(racing):
    authors = [UserFactory(username=f"author{i}", is_staff=False) for i in range(4)]

    answers = at_once(None, *(as_author(user, lambda c, i=i: c.post(
        "/api/v1/bots/", {"name": f"bot-{i}", "url": URL}, format="json"))
        for i, user in enumerate(authors)))

    statuses = sorted(a.status_code for a in answers)
    assert statuses == [201, 400, 400, 400], [a.content for a in answers]
    assert OutsideBot.objects.filter(url=URL).count() == 1
    for refused in (a for a in answers if a.status_code == 400):
        assert "registered" in str(refused.json()), refused.content


@pytest.mark.parametrize("names", [
    ["ada-bot", "Ada-Bot", "ADA-BOT", "ada-BOT"],  # one name in any case
    ["adabot", "adab0t", "ADAB0T", "adabot"],  # look-alike letters: a zero for an o
    ["modem-bot", "rnodem-bot", "MODEM-BOT", "rnodern-bot"],  # rn for m
], ids=["case", "zero", "rn"])
def test_names_alike_registered_by_authors_at_once_are_registered_once(racing, names,
                                                                      monkeypatch):
    """A look-alike is no unique key: each registration checked the others' names before any
    was written, and 'adabot' and 'adab0t' were both registered (three of the 'rn' four)."""
    overlapping(monkeypatch, models, "checked_name", parties=len(names))  # the service's check
    authors = [UserFactory(username=f"author{i}", is_staff=False) for i in range(len(names))]

    answers = at_once(None, *(as_author(user, lambda c, i=i, name=name: c.post(
        "/api/v1/bots/", {"name": name, "url": f"{URL}/{i}"}, format="json"))
        for i, (user, name) in enumerate(zip(authors, names, strict=True))))

    statuses = sorted(a.status_code for a in answers)
    assert statuses == [201] + [400] * (len(names) - 1), [a.content for a in answers]
    assert OutsideBot.objects.count() == 1


def test_a_cyrillic_letter_in_a_name_is_refused_in_words(racing):
    answer = at_once(UserFactory(is_staff=False), lambda c: c.post(
        "/api/v1/bots/", {"name": "ad\u0430-bot", "url": URL}, format="json"))[0]

    assert answer.status_code == 400 and "name" in answer.json(), answer.content
    assert not OutsideBot.objects.exists()


def test_two_bots_renamed_to_names_alike_at_once_take_it_once(racing, monkeypatch):
    overlapping(monkeypatch, models, "checked_name")
    ada, bob = (UserFactory(username=n, is_staff=False) for n in ("ada", "bob"))
    bots = [services.outside_bot_create(name=n, url=f"{URL}/{n}", owner=u)
            for n, u in (("first", ada), ("second", bob))]

    answers = at_once(None, *(as_author(user, lambda c, pk=bot.pk, name=name: c.patch(
        f"/api/v1/bots/{pk}/", {"name": name}, format="json"))
        for user, bot, name in ((ada, bots[0], "lowbot"), (bob, bots[1], "l0wbot"))))

    assert sorted(a.status_code for a in answers) == [200, 400], [a.content for a in answers]
    assert sorted(OutsideBot.objects.values_list("name", flat=True)) in (
        ["lowbot", "second"], ["first", "l0wbot"])


def test_two_uploads_of_one_hosted_bot_at_once_are_two_versions_in_order(racing):
    ada = UserFactory(username="ada", is_staff=False)
    bot = services.outside_bot_create(name="hosted-bot", owner=ada, runtime="python",
                                      code=hosted_code(b"print('v1')\n", "bot.py", "python"))
    ladder.bots_sync()
    entry = Entry.objects.get(outside_bot=bot)
    ladder.game_fail(game_id=entry.validation_game_id, reason="not played here")

    def upload(n):
        return lambda c: c.patch(f"/api/v1/bots/{bot.pk}/", {
            "code": SimpleUploadedFile("bot.py", f"print('v{n}')\n".encode())},
            format="multipart")

    answers = at_once(ada, upload(2), upload(3))
    ladder.bots_sync()

    assert [a.status_code for a in answers] == [200, 200], [a.content for a in answers]
    bot.refresh_from_db()
    entry.refresh_from_db()
    numbers = list(Version.objects.filter(entry=entry).order_by("started_at", "pk")
                   .values_list("number", flat=True))
    assert numbers == sorted(set(numbers)) and entry.version == numbers[-1], numbers
    assert Version.objects.get(entry=entry, number=entry.version).url == bot.url



CHANGES = {
    "remove": lambda c, pk: c.delete(f"/api/v1/bots/{pk}/"),
    "rename": lambda c, pk: c.patch(f"/api/v1/bots/{pk}/", {"name": "ada-bot-2"},
                                    format="json"),
    "secret": lambda c, pk: c.post(f"/api/v1/bots/{pk}/secret/"),
    "page remove": lambda c, pk: c.post(f"/accounts/bots/{pk}/delete/"),
    "page edit": lambda c, pk: c.post(f"/accounts/bots/{pk}/", {
        "name": "ada-bot-2", "url": URL, "presets": ["classic"]}),
    "page secret": lambda c, pk: c.post(f"/accounts/bots/{pk}/secret/"),
}
SERVICES = {"rename": "outside_bot_update", "edit": "outside_bot_update",
            "secret": "outside_bot_secret_rotate", "remove": "outside_bot_delete"}


def removed_first(monkeypatch, other: str) -> None:
    """Both tabs' views find the bot; then the removal is made and committed, and only then
    does the other tab's service (``other``) run."""
    both_found, removed = threading.Barrier(2, timeout=5), threading.Event()
    remove, change = services.outside_bot_delete, getattr(services, other)

    def removing(**kwargs):
        both_found.wait()
        try:
            return remove(**kwargs)
        finally:
            removed.set()

    def changing(**kwargs):
        both_found.wait()
        removed.wait(timeout=5)
        return change(**kwargs)

    monkeypatch.setattr(services, "outside_bot_delete", removing)
    if other != "outside_bot_delete":
        monkeypatch.setattr(services, other, changing)
    else:  # two removals: the second waits for the first's
        done = threading.Lock()

        def removing_once(**kwargs):
            both_found.wait()
            if not done.acquire(blocking=False):
                removed.wait(timeout=5)
                return remove(**kwargs)
            try:
                return remove(**kwargs)
            finally:
                removed.set()

        monkeypatch.setattr(services, "outside_bot_delete", removing_once)


@pytest.mark.parametrize("first, second", [
    ("remove", "remove"), ("page remove", "remove"), ("remove", "rename"),
    ("remove", "secret"), ("page remove", "page edit"), ("page remove", "page secret")])
def test_a_bot_removed_in_one_tab_while_another_changes_it_is_a_404_in_words(
        racing, monkeypatch, first, second):
    """Both tabs found the bot, the removal went first, and the other tab's service found no
    row to lock: a 500 (DoesNotExist), on the pages as in the API."""
    ada = UserFactory(username="ada", is_staff=False)
    bot = services.outside_bot_create(name="ada-bot", url=URL, owner=ada)
    removed_first(monkeypatch, SERVICES[second.removeprefix("page ")])

    def send(what):
        def sending(client):
            client.raise_request_exception = False
            return what, CHANGES[what](client, bot.pk)
        return sending

    answers = at_once(ada, send(first), send(second))
    statuses = sorted((a.status_code, what) for what, a in answers)

    assert [s for s, _ in statuses] in ([204, 404], [302, 404]), statuses
    if first.removeprefix("page ") != second.removeprefix("page "):
        assert statuses[1][1] == second, statuses  # the removal went first
    late = next(a for _, a in answers if a.status_code == 404).content.decode()
    assert f"there is no bot {bot.pk} any more: it was removed at the same moment" in late, late
    assert not OutsideBot.objects.filter(pk=bot.pk).exists()


def test_two_authors_registering_one_url_on_my_bots_at_once_register_it_once(racing):
    authors = [UserFactory(username=f"author{i}", is_staff=False) for i in range(2)]

    answers = at_once(None, *(as_author(user, lambda c, i=i: c.post(
        "/accounts/bots/new/", {"name": f"bot-{i}", "url": URL, "presets": ["classic"]}))
        for i, user in enumerate(authors)))

    assert sorted(a.status_code for a in answers) == [200, 400], [a.status_code for a in answers]
    refused = next(a for a in answers if a.status_code == 400).content.decode()
    assert "registered" in refused and URL in refused, refused[-2000:]
    assert OutsideBot.objects.filter(url=URL).count() == 1
