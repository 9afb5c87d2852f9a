"""A ladder bot's versions and the live ladder in chromium at 360 px (issue #29): the bot's
chart draws a mark where version 2 played its first game, and the table puts a game that lands
in place by itself (league/live.js), with no console error, no Content-Security-Policy violation
and nothing wider than the phone."""

from datetime import UTC, datetime

from django.urls import reverse

from ladder.models import Entry, Game, RatingPoint, Version
from ladder.web import views
from tests.pages.test_browser import browser, pytestmark, visit  # noqa: F401

PHONE = {"width": 360, "height": 740}


def _two_versions() -> Entry:
    entry = Entry.objects.create(preset="classic", name="twice", reference=True, spec="random",
                                 status=Entry.ACTIVE, version=2, games=1, deals=2,
                                 rated_deals=6)
    Version.objects.create(entry=entry, number=2, url="", started_at=datetime.now(UTC),
                           reason="its author's new version")
    for deals, version in ((2, 1), (4, 1), (6, 2)):
        game = Game.objects.create(kind=Game.RATED, preset="classic", status=Game.DONE, seed=1,
                                   deals=2)
        RatingPoint.objects.create(entry=entry, game=game, at=datetime.now(UTC), mu=25.0 + deals,
                                   sigma=8.0 - deals, ordinal=1.0 + deals, deals=deals,
                                   version=version)
    return entry


def test_the_chart_marks_version_2_and_the_table_refreshes_itself(browser, live_server,  # noqa: F811
                                                                  monkeypatch):
    monkeypatch.setattr(views, "LIVE_SECONDS", 1)
    entry = _two_versions()
    ctx = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True)

    page, problems = visit(browser, live_server.url + reverse("ladder:bot", args=[entry.pk]),
                           ctx)
    chart = "Chart.getChart('ladder-rating-chart')"
    assert page.evaluate(f"{chart}.config.plugins.map(p => p.id)") == ["versionLines"]
    assert page.evaluate(f"{chart}.data.datasets[0].pointRadius") == [0, 0, 6]
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]

    page, more = visit(browser, live_server.url + reverse("ladder:table") + "?preset=classic",
                       ctx)
    problems += more
    assert page.locator("#ladder tbody tr").count() == 1
    Entry.objects.filter(pk=entry.pk).update(games=5)
    page.wait_for_function("() => document.querySelector('#ladder tbody tr td:nth-child(5)')"
                           ".textContent === '5'", timeout=10_000)
    assert "Updated" in page.locator("#ladder-status").text_content()
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    assert problems == []
