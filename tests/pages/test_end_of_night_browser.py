"""The end of the night in Chromium at 360 × 740 (issue #28): one action on the night page,
one preview of every open table's winners (each by its own scoring system's rule for an
unfinished game), then time called on all of them; tonight's screen shows the night's
results."""

from django.urls import reverse

from league import nights, services
from league.models import Game
from tests.league.factories import PlayerFactory, UserFactory, make_season, seated_ids
from tests.pages.test_browser import browser, pytestmark, signed_in, visit  # noqa: F401
from tests.pages.test_browser_club_night import no_overflow
from tests.pages.test_browser_entry import PHONE


def test_the_end_of_the_night_calls_time_on_every_table(browser, live_server, client):  # noqa: F811
    season = make_season(preset="classic", scoring_system="first-to-eleven")
    organiser = UserFactory(username="organiser")
    season.club.organisers.add(organiser)
    people = [PlayerFactory(name=n, clubs=[season.club]) for n in
              ["Ann", "Ben", "Cai", "Dee", "Eve", "Fay", "Gus", "Hal", "Ivy", "Jo", "Kit"]]
    one, two, three = nights.night_confirm(season=season, tables=[
        (people[:4], 0), (people[4:8], 0), (people[8:], 0)])
    a, b, c, d = seated_ids(one)
    services.deal_record(game=one, finishing_order=[a, b, c, d])
    services.deal_record(game=one, finishing_order=[b, a, c, d])  # b: 3 + 4, a: 4 + 3
    services.deal_record(game=two, finishing_order=seated_ids(two))
    phone = signed_in(browser, live_server, client, organiser, **PHONE)
    page, problems = visit(browser, live_server.url + reverse("league:night", args=[season.pk]),
                           phone)
    page.get_by_role("link", name="End of the night: call time on every table…").tap()
    page.wait_for_selector("text=End the night?")
    rows = page.locator("#night-end tbody tr").all_inner_texts()
    assert rows == ["Round 1, table 1 (game 1)\tBen", "Round 1, table 2 (game 2)\tEve",
                    "Round 1, table 3 (game 3)\tno deal played: cancelled"]
    assert set(Game.objects.values_list("status", flat=True)) == {Game.OPEN}
    no_overflow(page)
    page.get_by_role("button", name="Call time on every table").tap()
    page.wait_for_selector("text=The night has ended")
    assert "The night's results" in page.content()
    assert dict(Game.objects.values_list("number", "status")) == {
        1: Game.FINISHED, 2: Game.FINISHED, 3: Game.CANCELLED}
    assert page.locator(".board-table").count() == 2
    assert problems == []
