"""The live tournament page in Debian's chromium while a real Celery worker plays (issue #8).

The worker opens the PostgreSQL test database (as in tests/tournaments/test_workers.py), so on
SQLite these tests skip; `make test` runs them in its PostgreSQL pass. Its screenshot:
`SCREENSHOTS=1 DATABASE_URL=postgres://… .venv/bin/pytest -m browser tests/pages`.
"""

import shutil
import time
from pathlib import Path

import pytest
from django.conf import settings
from django.urls import reverse

from tests.league.factories import UserFactory
from tests.pages.test_browser import CHROMIUM, browser, shoot, signed_in  # noqa: F401
from tests.tournaments.conftest import tournament_queue, workers  # noqa: F401
from tests.tournaments.helpers import bot_club, small_tournament
from tests.tournaments.test_workers import START_TASK
from tournaments import selectors
from tournaments.models import Tournament

pytestmark = [
    pytest.mark.browser,
    pytest.mark.integration,
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(not shutil.which("chromium") and not Path(CHROMIUM).exists(),
                       reason="Debian's chromium is not installed (.ci/run installs it)"),
    pytest.mark.skipif("postgresql" not in settings.DATABASES["default"]["ENGINE"],
                       reason="the worker process needs the PostgreSQL test database: run "
                              "with DATABASE_URL=postgres://… (make test does)"),
]

WATCH_SECONDS = 30
# 4 tables of 3 from 4 entrants, in batches of 2 games. Random and greedy bots alone play 30
# games a second, which a fast machine could finish between two of the page's once-a-second
# refreshes; the Monte Carlo bot's time budget per decision gives the tournament a few seconds
# on any machine.
ENTRANTS = [("Rita", "random"), ("Greg", "greedy"), ("Rob", "random"),
            ("Monty", "montecarlo:budget_ms=10")]
GAMES_PER_TABLE = 6


def wait_until_drained(worker, seconds=WATCH_SECONDS):
    """Until the worker's queue is empty and the worker runs and holds no task."""
    queue = worker.app.conf.task_default_queue
    inspect = worker.app.control.inspect(destination=[worker.node_name], timeout=2)
    deadline = time.monotonic() + seconds
    with worker.app.connection_for_write() as connection:
        client = connection.default_channel.client
        while time.monotonic() < deadline:
            busy = [t for tasks in (inspect.active() or {"?": ["?"]}).values() for t in tasks]
            held = [t for tasks in (inspect.reserved() or {"?": ["?"]}).values() for t in tasks]
            if not client.llen(queue) and not busy and not held:
                return
            time.sleep(0.1)
    pytest.fail(f"the worker's queue did not drain in {seconds} s:\n{worker.log()}")


def live_tournament(name):
    return small_tournament(name, entrants=ENTRANTS, games_per_table=GAMES_PER_TABLE,
                            batch_size=2)


def read_progress(page) -> dict:
    return page.evaluate("""() => ({
        status: document.getElementById('progress').dataset.status,
        done: Number(document.getElementById('progress-done').textContent),
        total: Number(document.getElementById('progress-total').textContent),
        bar: document.getElementById('progress-bar').value,
        rate: document.getElementById('progress-rate').textContent,
        rows: document.querySelectorAll('#standings tr').length,
        standings: document.getElementById('standings').innerText,
        marker: window.stillThisPage === true,
    })""")


def watch(page, until, worker):
    """Samples of the page's progress, taken until ``until(sample)`` holds."""
    samples = []
    deadline = time.monotonic() + WATCH_SECONDS
    while time.monotonic() < deadline:
        samples.append(read_progress(page))
        if until(samples[-1]):
            return samples
        page.wait_for_timeout(100)
    pytest.fail(f"the page stopped at {samples[-1]}; worker log:\n{worker.log()}")


@pytest.fixture
def organiser():
    user = UserFactory(username="organiser")
    bot_club().organisers.add(user)
    return user


def open_live_page(browser, live_server, client, user, tournament):  # noqa: F811
    page = signed_in(browser, live_server, client, user).new_page()
    page.goto(live_server.url + reverse("gameplay:tournament", args=[tournament.pk]))
    # Gone if the page is ever reloaded or left: the refresh must happen in place.
    page.evaluate("window.stillThisPage = true")
    return page


def test_the_live_page_advances_while_a_worker_plays(browser, live_server, client, workers,  # noqa: F811
                                                     organiser):
    tournament = live_tournament("Live cup")
    total = tournament.total_games
    page = open_live_page(browser, live_server, client, organiser, tournament)
    first = read_progress(page)
    assert (first["status"], first["done"], first["total"]) == ("scheduled", 0, total)
    assert "No game played yet." in first["standings"]
    cancel = page.get_by_role("button", name="Cancel tournament")
    assert cancel.is_enabled()

    worker = workers()
    worker.app.send_task(START_TASK, args=[tournament.pk])
    shot = False

    def finished(sample):
        nonlocal shot
        if not shot and 0 < sample["done"] < total and sample["rows"] == 4:
            shoot(page, "tournament-live")
            shot = True
        return sample["status"] == "finished"

    samples = watch(page, finished, worker)

    dones = [s["done"] for s in samples]
    bars = [s["bar"] for s in samples]
    assert dones == sorted(dones) and bars == sorted(bars), "progress never goes back"
    # Seen part-way, then complete: the page followed the worker rather than jumping once.
    assert any(0 < d < total for d in dones), dones
    assert {s["status"] for s in samples} >= {"running", "finished"}
    last = samples[-1]
    assert last["done"] == last["bar"] == total
    assert selectors.tournament_progress(tournament=tournament).done == total
    assert "games/s" in last["rate"]
    assert last["rows"] == 4
    for name, _ in ENTRANTS:
        assert name in last["standings"]
    assert "[" in last["standings"], "standings show their 95% intervals"
    assert all(s["marker"] for s in samples), "the page was reloaded or left"
    # A finished tournament can no longer be cancelled nor resumed: its buttons go, and the
    # page says it is finished, without reload.
    assert cancel.is_hidden()
    assert page.get_by_role("button", name="Resume tournament").is_hidden()
    assert page.locator("#progress-status").inner_text() == "Finished"
    assert "This tournament is finished" in page.locator("#progress-said").inner_text()
    page.context.close()


def test_the_organiser_cancels_from_the_live_page(browser, live_server, client, workers,  # noqa: F811
                                                  organiser):
    tournament = live_tournament("Stopped cup")
    total = tournament.total_games
    page = open_live_page(browser, live_server, client, organiser, tournament)
    worker = workers()
    worker.app.send_task(START_TASK, args=[tournament.pk])
    watch(page, lambda s: s["done"] >= 3, worker)

    page.get_by_role("button", name="Cancel tournament").click()
    page.wait_for_selector("text=Stopped cup cancelled.")
    assert page.locator("#progress-status").inner_text() == "Cancelled"
    assert page.get_by_role("button", name="Cancel tournament").count() == 0
    assert page.get_by_role("button", name="Resume tournament").is_visible()

    # The worker stops before its next game: at most the game it was playing still lands.
    # A solo-pool worker answers a ping only between tasks, so once it answers, that game is in.
    assert worker.app.control.ping(destination=[worker.node_name], timeout=10), worker.log()
    stopped_at = selectors.tournament_progress(tournament=tournament).done
    # Every batch still queued is delivered and stops before its first game, storing nothing.
    wait_until_drained(worker)
    assert selectors.tournament_progress(tournament=tournament).done == stopped_at < total
    assert Tournament.objects.get(pk=tournament.pk).status == Tournament.CANCELLED
    page.reload()
    assert page.locator("#progress-done").inner_text() == str(stopped_at)
    page.context.close()
