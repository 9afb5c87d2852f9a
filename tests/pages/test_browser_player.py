"""A player's page in Debian's chromium: at 360 px each game of the games list was named
"Club 3 – Season 8 – game 30" and wrapped to four lines, fifty games a page."""

from django.urls import reverse

from league.models import Club
from tests.league.factories import PlayerFactory, make_game, make_season
from tests.pages.test_browser import browser, pytestmark  # noqa: F401

# The games table's rows as [kind, words, lines]: a season's heading row or a game's row, its
# first cell's words and how many lines they take.
ROWS = """() => [...document.querySelectorAll('#games tbody tr')].map(tr => {
  const cell = tr.firstElementChild, r = document.createRange();
  r.selectNodeContents(cell);
  const lines = new Set([...r.getClientRects()].map(b => Math.round(b.top))).size;
  return [cell.tagName === 'TH' ? 'season' : 'game', cell.innerText.trim(), lines]; })"""


def test_a_players_games_are_listed_under_their_season_one_line_each(browser, live_server):  # noqa: F811
    ada = PlayerFactory(name="Ada")
    seasons = []
    for name in ("Thursday Night Cards Club", "Saint Mary's Parish Hall Players"):
        club = Club.objects.create(name=name)
        ada.clubs.add(club)
        season = make_season(club=club, name="Autumn season 2025")
        seasons.append(season)
        for _ in range(2):
            make_game(season=season, players=[ada] + [PlayerFactory(clubs=[club])
                                                      for _ in range(3)])
    for viewport in ({"width": 360, "height": 740}, {"width": 1280, "height": 900}):
        page = browser.new_page(viewport=viewport)
        page.goto(live_server.url + reverse("league:player_detail", args=[ada.pk]))
        rows = page.evaluate(ROWS)
        assert [(kind, words) for kind, words, _ in rows] == [
            ("season", "Saint Mary's Parish Hall Players – Autumn season 2025"),
            ("game", "game 2"), ("game", "game 1"),
            ("season", "Thursday Night Cards Club – Autumn season 2025"),
            ("game", "game 2"), ("game", "game 1")], viewport
        assert {lines for kind, _, lines in rows if kind == "game"} == {1}, viewport
        assert page.get_by_role("link", name="Thursday Night Cards Club – Autumn season 2025") \
            .get_attribute("href") == reverse("league:season_detail", args=[seasons[0].pk])
        assert page.evaluate("document.documentElement.scrollWidth") <= viewport["width"]
        page.close()
