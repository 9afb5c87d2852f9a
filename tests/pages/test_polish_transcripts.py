"""A tournament's page links its transcripts once it has stored a game: before, the download
answered 404 ("has no transcripts: its tournament has stored no game yet"), as a season's page
already does (test_page_audit_words)."""

import re

import pytest
from django.urls import reverse

from tests.pages.test_browser import browser  # noqa: F401
from tests.tournaments.helpers import small_tournament
from tournaments import services as tournaments

TRANSCRIPTS = re.compile(r'<span id="transcripts"( hidden)?>; every game\'s transcript: '
                         r'<a href="(?P<href>[^"]+)">transcripts.jsonl</a></span>')


def transcripts_link(html):
    """The link's address and whether it shows."""
    found = TRANSCRIPTS.search(html)
    assert found, "no transcripts link on the page"
    return found["href"], found[1] is None


@pytest.mark.django_db
def test_an_unplayed_tournament_does_not_show_its_transcripts_link(client):
    cup = small_tournament("Cup", games_per_table=1)
    export = reverse("league:export_transcripts", args=[cup.season.pk])
    assert client.get(export).status_code == 404  # nothing to download yet

    href, shown = transcripts_link(client.get(cup.get_absolute_url()).text)

    assert href == export and not shown


@pytest.mark.django_db
def test_a_tournament_with_a_stored_game_shows_its_transcripts_link(
        client, django_capture_on_commit_callbacks):
    cup = small_tournament("Cup", games_per_table=1)
    with django_capture_on_commit_callbacks(execute=True):
        tournaments.tournament_start(tournament=cup)

    href, shown = transcripts_link(client.get(cup.get_absolute_url()).text)

    assert shown
    assert client.get(href).status_code == 200


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_the_link_shows_on_the_open_page_once_a_game_is_stored(browser, live_server):  # noqa: F811
    """The page refreshes its progress every second while the games are played; the first
    stored game shows the link without a reload. The progress is the server's, with one game
    said done (no worker plays here)."""
    cup = small_tournament("Cup", games_per_table=1)
    stored = []  # what the progress says is done beyond the server's count

    def progress(route):
        answer = route.fetch()
        route.fulfill(response=answer, json={**answer.json(), "done": len(stored)})

    page = browser.new_page()
    page.route("**/progress.json", progress)
    problems = []
    page.on("pageerror", lambda e: problems.append(f"uncaught: {e}"))
    with page.expect_response("**/progress.json"):  # a refresh, nothing stored yet
        page.goto(live_server.url + cup.get_absolute_url())
    link = page.get_by_role("link", name="transcripts.jsonl", include_hidden=True)
    assert link.is_hidden()

    stored.append(1)

    link.wait_for(state="visible", timeout=5000)
    assert not problems
    page.close()
