"""An author pauses and resumes their own bot, on its page and through the API; nobody else
may (403), a bot that is not there is a 404, and a paused bot gets no new games."""

import pytest
from django.urls import reverse

from ladder import services
from ladder.models import Entry, Game
from tests.api.conftest import client_for
from tests.ladder.conftest import register
from tests.ladder.test_pages import text
from tests.ladder.test_services import commit, entry_of  # noqa: F401

pytestmark = pytest.mark.django_db


@pytest.fixture
def active(ladder_settings, servers, author, commit):  # noqa: F811
    (server,) = servers(1)
    bot = register(author, server)
    commit(services.bots_sync)
    entry = entry_of(bot)
    assert entry.status == Entry.ACTIVE
    return entry


def test_an_author_pauses_and_resumes_their_bot_on_its_page(client, active, author, other,
                                                            ladder_settings, commit):  # noqa: F811
    ladder_settings.LADDER_RESUME_COOLDOWN_SECONDS = 60
    page = reverse("ladder:bot", args=[active.pk])
    pause, resume = (reverse(f"ladder:{what}", args=[active.pk]) for what in ("pause", "resume"))

    client.force_login(other)
    assert "Pause: no new games" not in text(client.get(page))
    refused = client.post(pause)
    assert refused.status_code == 403 and "Only the author of ada-bot may pause" in text(refused)
    assert Entry.objects.get(pk=active.pk).status == Entry.ACTIVE

    client.force_login(author)
    shown = text(client.get(page))
    assert "Pause: no new games" in shown
    assert ("Since its last passed validation: 0 decisions in rated games, 0 faulty (paused at "
            "4 faulty, if that is 5% of them or more)") in shown
    answer = client.post(pause, follow=True)
    assert answer.redirect_chain[-1][0] == page and "ada-bot is paused" in text(answer)
    entry = Entry.objects.get(pk=active.pk)
    assert (entry.status, entry.reason, entry.pauses) == (Entry.PAUSED, "paused by its author", 0)
    assert "It may resume in 1 minute" in text(answer)
    assert "its author paused it" in text(answer)
    assert not commit(services.games_schedule)  # no new games while paused
    again = client.post(pause)
    assert again.status_code == 400 and "only an active or validating bot pauses" in text(again)
    early = client.post(resume)
    assert early.status_code == 400 and "ada-bot may resume in 1 minute" in text(early)

    ladder_settings.LADDER_RESUME_COOLDOWN_SECONDS = 0
    Entry.objects.filter(pk=active.pk).update(resume_after=None)
    answer = client.post(resume, follow=True)
    assert "plays a validation game again" in text(answer)
    assert Entry.objects.get(pk=active.pk).status == Entry.VALIDATING


def test_only_the_author_pauses_through_the_api(active, author, other):
    url = f"/api/v1/ladder/{active.pk}/pause/"
    assert client_for(None).post(url).status_code in (401, 403)
    refused = client_for(other).post(url)
    assert refused.status_code == 403 and "only the author of ada-bot" in refused.json()["detail"]
    assert Entry.objects.get(pk=active.pk).status == Entry.ACTIVE
    reference = Entry.objects.get(preset="classic", name="heuristic")
    assert client_for(author).post(f"/api/v1/ladder/{reference.pk}/pause/").status_code == 403
    assert client_for(author).post("/api/v1/ladder/999999/pause/").status_code == 404

    answer = client_for(author).post(url)

    assert answer.status_code == 200
    assert (answer.json()["status"], answer.json()["reason"]) == ("paused", "paused by its author")
    detail = client_for(author).get(f"/api/v1/ladder/{active.pk}/").json()
    assert detail["resume_after"] and detail["pauses"] == 0
    again = client_for(author).post(url)
    assert again.status_code == 400 and "only an active or validating bot pauses" in (
        again.json()["detail"])
    resumed = client_for(author).post(f"/api/v1/ladder/{active.pk}/resume/")
    assert resumed.status_code == 200 and resumed.json()["status"] == "validating"


def test_a_paused_bots_game_in_play_still_lands_and_no_new_one_starts(active, author,
                                                                      commit):  # noqa: F811
    (game_id,) = services.games_schedule()  # scheduled, its task not run yet
    services.entry_pause(entry=active, by=author)

    assert services.game_run(game_id=game_id)

    entry = Entry.objects.get(pk=active.pk)
    assert (entry.status, entry.games) == (Entry.PAUSED, 1)
    assert Game.objects.get(pk=game_id).status == Game.DONE
    assert not commit(services.games_schedule)
