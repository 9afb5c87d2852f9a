"""A bot's secret replaced twice at once: two tabs of its author (or a tab and the API) both
showing the bot, both clicking "Replace its secret". The click made against a secret that was
replaced meanwhile is refused (409) in words naming when, changing nothing, so the secret the
other answer showed is the one in use; before, both answered 200 with different secrets and
the first one's was already stale, with nothing saying so."""

import hashlib
import re

import pytest
from django.db import connection

from league.models import AuditEntry
from outside_bots import services
from outside_bots.models import OutsideBot, hosted_code
from tests.api.conftest import at_once, client_for, overlapping
from tests.league.factories import UserFactory

URL = "https://bots.example.org/play"
REFUSED = "this click changed nothing"


@pytest.fixture
def author(db, settings):
    settings.OUTSIDE_BOT_ALLOWED_HOSTS = ["bots.example.org"]
    return UserFactory(username="ada", is_staff=False)


@pytest.fixture
def bot(author):
    return services.outside_bot_create(name="ada-bot", url=URL, owner=author)


def page_tag(client, bot) -> str:
    """The tag the bot's page's "Replace its secret" form carries, as a tab loaded it."""
    page = client.get(f"/accounts/bots/{bot.pk}/").content.decode()
    form = re.search(r'<form method="post" action="/accounts/bots/\d+/secret/">.*?</form>',
                     page, re.S).group(0)
    return re.search(r'name="secret_tag" value="([^"]+)"', form).group(1)


def shown_secret(page) -> str:
    return re.search(r'<textarea id="secret"[^>]*>([^<]+)</textarea>',
                     page.content.decode()).group(1)


@pytest.mark.django_db
def test_the_page_carries_a_tag_of_the_secret_that_is_neither_it_nor_its_hash(client, author,
                                                                               bot):
    client.force_login(author)
    tag = page_tag(client, bot)

    assert bot.secret not in tag and tag != hashlib.sha256(bot.secret.encode()).hexdigest()
    assert tag == bot.secret_tag
    # The list's form for a bot that needs a secret carries it too.
    OutsideBot.objects.filter(pk=bot.pk).update(secret_given=False)
    listing = client.get("/accounts/bots/").content.decode()
    assert f'name="secret_tag" value="{tag}"' in listing


@pytest.mark.django_db
def test_a_click_on_a_page_shown_before_the_secret_was_replaced_is_refused_in_words(
        client, author, bot):
    client.force_login(author)
    stale = page_tag(client, bot)
    other_tab = client.post(f"/accounts/bots/{bot.pk}/secret/", {"secret_tag": stale})
    in_use = shown_secret(other_tab)
    replaced = AuditEntry.objects.filter(action="outside bot secret replaced").count()

    refused = client.post(f"/accounts/bots/{bot.pk}/secret/", {"secret_tag": stale})

    said = refused.content.decode()
    at = AuditEntry.objects.filter(action="outside bot secret replaced").first().at
    assert refused.status_code == 409, said[-2000:]
    assert (f"the secret of ada-bot was replaced at {at:%H:%M} UTC, in another tab or by the "
            f"API; {REFUSED}") in said.replace("&#x27;", "'")
    assert in_use not in said  # the refusal shows no secret
    bot.refresh_from_db()
    assert bot.secret == in_use
    assert AuditEntry.objects.filter(action="outside bot secret replaced").count() == replaced
    # The refusal is the bot's page, its form tagged with the secret in use: replace it again
    # there, and the form saves the bot rather than replacing the secret.
    assert page_tag(client, bot) == re.search(
        r'name="secret_tag" value="([^"]+)"', said).group(1)
    assert f'action="/accounts/bots/{bot.pk}/"' in said
    again = client.post(f"/accounts/bots/{bot.pk}/secret/", {"secret_tag": bot.secret_tag})
    bot.refresh_from_db()
    assert again.status_code == 200 and shown_secret(again) == bot.secret != in_use


@pytest.mark.django_db
def test_the_api_takes_the_tag_its_get_answers_and_refuses_a_stale_one(author, bot):
    api = client_for(author, token=True)
    tag = api.get(f"/api/v1/bots/{bot.pk}/").json()["secret_tag"]
    assert tag == bot.secret_tag and bot.secret not in tag

    first = api.post(f"/api/v1/bots/{bot.pk}/secret/", {"secret_tag": tag}, format="json")
    assert first.status_code == 200 and first.json()["secret_tag"] != tag
    refused = api.post(f"/api/v1/bots/{bot.pk}/secret/", {"secret_tag": tag}, format="json")

    assert refused.status_code == 409, refused.content
    assert "the secret of ada-bot was replaced at" in refused.json()["detail"]
    assert "nothing was changed" in refused.json()["detail"]
    bot.refresh_from_db()
    assert bot.secret == first.json()["secret"]
    # A client sending no tag replaces it as before.
    plain = api.post(f"/api/v1/bots/{bot.pk}/secret/")
    bot.refresh_from_db()
    assert plain.status_code == 200 and plain.json()["secret"] == bot.secret
    assert api.post(f"/api/v1/bots/{bot.pk}/secret/", {"tag": "x"},
                    format="json").status_code == 400


@pytest.mark.django_db
def test_a_hosted_bot_has_no_tag(author):
    bot = services.outside_bot_create(name="hosted-bot", owner=author, runtime="python",
                                      code=hosted_code(b"print(1)\n", "bot.py", "python"))
    api = client_for(author, token=True)
    assert api.get(f"/api/v1/bots/{bot.pk}/").json()["secret_tag"] is None


@pytest.fixture
def racing(transactional_db, settings):
    if connection.vendor != "postgresql":
        pytest.skip("SQLite runs one writer at a time; the race needs PostgreSQL")
    settings.OUTSIDE_BOT_ALLOWED_HOSTS = ["bots.example.org"]


@pytest.mark.postgres
def test_two_tabs_replacing_the_secret_at_once_give_one_secret_and_one_refusal(racing,
                                                                               monkeypatch):
    ada = UserFactory(username="ada", is_staff=False)
    bot = services.outside_bot_create(name="ada-bot", url=URL, owner=ada)
    tag = page_tag(client_for(ada), bot)  # both tabs show the page
    overlapping(monkeypatch, services, "_locked")  # both clicks reach the service at once

    answers = at_once(ada, *(lambda c: c.post(f"/accounts/bots/{bot.pk}/secret/",
                                              {"secret_tag": tag}),) * 2)

    assert sorted(a.status_code for a in answers) == [200, 409], \
        [a.content.decode()[-500:] for a in answers]
    shown = next(a for a in answers if a.status_code == 200)
    refused = next(a for a in answers if a.status_code == 409).content.decode()
    bot.refresh_from_db()
    assert shown_secret(shown) == bot.secret
    assert REFUSED in refused and bot.secret not in refused


@pytest.mark.postgres
def test_a_tab_and_the_api_replacing_the_secret_at_once_give_one_secret(racing, monkeypatch):
    ada = UserFactory(username="ada", is_staff=False)
    bot = services.outside_bot_create(name="ada-bot", url=URL, owner=ada)
    tag = page_tag(client_for(ada), bot)
    assert client_for(ada).get(f"/api/v1/bots/{bot.pk}/").json()["secret_tag"] == tag
    overlapping(monkeypatch, services, "_locked")

    answers = at_once(ada, lambda c: ("page", c.post(f"/accounts/bots/{bot.pk}/secret/",
                                                     {"secret_tag": tag})),
                      lambda c: ("api", c.post(f"/api/v1/bots/{bot.pk}/secret/",
                                               {"secret_tag": tag}, format="json")))

    statuses = sorted(a.status_code for _, a in answers)
    assert statuses == [200, 409], [(w, a.content.decode()[-300:]) for w, a in answers]
    what, shown = next((w, a) for w, a in answers if a.status_code == 200)
    bot.refresh_from_db()
    assert (shown.json()["secret"] if what == "api" else shown_secret(shown)) == bot.secret
