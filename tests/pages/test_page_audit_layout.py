"""Pages with awkward data in chromium, at 360 and 1280 px: a 40-letter name without a space,
seven at a table, a long season name. Nothing may stick out of its box or push the page
sideways, and a table of numbers keeps its numbers in view."""

from django.urls import reverse

from ladder.models import Entry
from ladder.models import Game as LadderGame
from ladder.models import Seat as LadderSeat
from league import services
from tests.league.factories import PlayerFactory, UserFactory, make_game, make_season, seated_ids
from tests.pages.test_accessibility import violations_by_page
from tests.pages.test_browser import bot_game, browser, pytestmark, signed_in  # noqa: F401
from tests.tournaments.helpers import small_tournament
from tournaments import services as tournaments

PHONE = {"width": 360, "height": 740}
DESKTOP = {"width": 1280, "height": 900}
LONG = "Maximilianvonhohenzollernsigmaringenxyzw"  # 40 letters, no space

# Each element matched by the selector that reaches past the right edge of its nearest
# ancestor matched by the box selector: "text: by how many px".
STICKING_OUT = """([selector, box]) => [...document.querySelectorAll(selector)].flatMap(e => {
  const over = e.getBoundingClientRect().right - e.closest(box).getBoundingClientRect().right;
  return over > 1 ? [`${e.textContent.trim().slice(0, 30)}: ${Math.round(over)} px`] : [];
})"""


def opened(browser, url, viewport):  # noqa: F811
    page = browser.new_page(viewport=viewport)
    page.goto(url)
    page.wait_for_load_state("load")
    return page


def test_a_seven_player_replay_with_a_long_name_fits_a_phone(browser, live_server):  # noqa: F811
    season = make_season(preset="presidents-deck")
    players = [PlayerFactory(name=name, clubs=[season.club]) for name in
               (LONG, "Zoë Ångström-Øvergård", "محمد عبد الرحمن", "Bea", "Cy", "Dee", "Eve")]
    game = make_game(season=season, players=players)
    deal = services.deal_record(game=game, transcript=bot_game("presidents-deck", 7, players=7))

    page = opened(browser, live_server.url + reverse("league:deal_replay", args=[deal.pk]),
                  PHONE)
    page.wait_for_selector("#step-hands .card")

    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    # Each seat's name, its card count and its cards stay on the felt, inside the seat.
    assert page.evaluate(STICKING_OUT, [".replay-hands .seat", ".table-felt"]) == []
    assert page.evaluate(STICKING_OUT, [".seat-head > *, .seat .card", ".seat"]) == []
    page.close()


def test_the_organisers_tables_fit_a_phone_with_a_long_name_at_a_table(browser, live_server,  # noqa: F811
                                                                       client):
    season = make_season(name="Printemps 2026 — saison régulière avec jokers")
    organiser = UserFactory(username="organiser")
    season.club.organisers.add(organiser)
    players = [PlayerFactory(name=name, clubs=[season.club]) for name in
               (LONG, "Zoë Ångström-Øvergård", "Bea", "Cy")]
    game = make_game(season=season, players=players)
    services.deal_record(game=game, finishing_order=seated_ids(game))
    ctx = signed_in(browser, live_server, client, organiser, viewport=PHONE)
    page = ctx.new_page()
    page.goto(live_server.url + reverse("league:organise_club", args=[season.club.pk]))

    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    assert page.evaluate(STICKING_OUT, [".table-card > *, .table-card .button", "main"]) == []
    ctx.close()


# The width of the box's table beyond what the box shows.
HIDDEN = """(box) => { const e = document.querySelector(box);
  return e.scrollWidth - e.clientWidth; }"""


def test_a_long_name_leaves_the_numbers_of_standings_and_sheets_in_view(browser, live_server):  # noqa: F811
    season = make_season(preset="classic")
    players = [PlayerFactory(name=name, clubs=[season.club]) for name in
               (LONG, "Zoë Ångström-Øvergård", "محمد عبد الرحمن", "Bea", "Cy", "Dee", "Eve")]
    game = make_game(season=season, players=players)
    services.deal_record(game=game, finishing_order=seated_ids(game))
    services.deal_record(game=game, finishing_order=seated_ids(game)[::-1])
    # Each page: its table, and the cells a name may be in (a heading, on the sheet).
    pages = {"standings": (reverse("league:season_detail", args=[season.pk]), "#standings",
                           "#standings td"),
             "all-time": (reverse("league:club_detail", args=[season.club.pk]), "#all-time",
                          "#all-time td"),
             "sheet": (reverse("league:game_detail", args=[game.pk]), "table",
                       "main table thead th")}

    for name, (url, table, cells) in pages.items():
        page = opened(browser, live_server.url + url, DESKTOP)
        # On a laptop the whole table is in view: nothing to scroll to.
        assert page.evaluate(HIDDEN, f".scroll:has({table})") <= 0, name
        page.set_viewport_size(PHONE)
        # On a phone the name takes at most half the width, and a few lines, not a letter a
        # line; the numbers scroll in beside it.
        boxes = page.evaluate("""(cells) => [...document.querySelectorAll(cells)].filter(
            e => e.textContent.includes('Maximilian')).map(e => e.getBoundingClientRect())
            .map(r => [r.width, r.height])""", cells)
        assert boxes and max(w for w, _ in boxes) <= PHONE["width"] / 2, name
        assert max(h for _, h in boxes) <= 160, name
        page.close()


def test_the_help_pages_tables_scroll_by_keyboard_on_a_phone(browser, live_server, client):  # noqa: F811
    """A table wider than the phone sits in a box the keyboard can scroll (axe's
    scrollable-region-focusable, serious)."""
    pages = {"par": reverse("league:par_help"), "rating": reverse("league:rating_help")}

    assert violations_by_page(browser, live_server, client, UserFactory(), pages,
                              scheme="light", viewport=PHONE) == {}


def test_the_ladder_table_shows_every_column_beside_a_long_bot_name_on_a_phone(
        browser, live_server):  # noqa: F811
    for n, name in enumerate(["a-very-long-bot-name-that-has-no-spaces-at-all-xy", "ada-2"]):
        Entry.objects.create(preset="classic", name=name, status=Entry.ACTIVE, games=3,
                             deals=6, rated_deals=6, firsts=n, positions=12, mu=25 - n)
    page = opened(browser, live_server.url + reverse("ladder:table"), PHONE)
    assert page.locator("#ladder tbody tr").count() == 2

    # The bot's column stays put while the others scroll under it: it must leave them room.
    page.locator(".scroll:has(#ladder)").evaluate("box => box.scrollLeft = box.scrollWidth")
    name = page.locator("#ladder tbody th.bot").first.bounding_box()
    status = page.locator("#ladder thead th").last.bounding_box()
    assert name["width"] <= PHONE["width"] / 2
    assert status["x"] >= name["x"] + name["width"]
    page.close()


def test_the_protocols_examples_are_read_whole_without_a_mouse(browser, live_server):  # noqa: F811
    """Its shell and JSON examples are wider than a phone (and one than a laptop); in a box that
    scrolls but takes no focus, the keyboard never reaches their ends (axe:
    scrollable-region-focusable, serious). They wrap instead."""
    for viewport in (PHONE, DESKTOP):
        page = opened(browser, live_server.url + reverse("bot_protocol"), viewport)
        hidden = page.evaluate("""() => [...document.querySelectorAll('pre')]
            .filter(e => e.scrollWidth > e.clientWidth).length""")
        assert page.locator("pre").count() > 5
        assert hidden == 0, viewport
        page.close()


def test_a_ladder_games_table_keeps_its_figures_beside_a_long_bot_name_on_a_phone(
        browser, live_server):  # noqa: F811
    game = LadderGame.objects.create(kind=LadderGame.RATED, preset="classic", seed=1, deals=2)
    for seat, name in enumerate(["a-very-long-bot-name-that-has-no-spaces-at-all-xy", "ada-2",
                                 "bob-1"]):
        entry = Entry.objects.create(preset="classic", name=name, status=Entry.ACTIVE)
        LadderSeat.objects.create(game=game, entry=entry, seat=seat, bot="random")
    page = opened(browser, live_server.url + reverse("ladder:game", args=[game.pk]), PHONE)

    name = page.locator("#seats tbody td:nth-child(2)").first.bounding_box()
    assert name["width"] <= PHONE["width"] / 2
    page.close()


def test_a_tournaments_tables_keep_their_figures_beside_a_long_bot_player_name(
        browser, live_server):  # noqa: F811
    cup = small_tournament("Cup", entrants=[(LONG, "random"), ("Greg", "greedy"),
                                            ("Rob", "random")], seats=3, games_per_table=1)
    tournaments.tournament_start(tournament=cup)
    page = opened(browser, live_server.url + reverse("gameplay:tournament", args=[cup.pk]), PHONE)

    for cells in ("#entrants td:first-child", "#standings td:nth-child(2)"):
        widths = page.evaluate(f"""() => [...document.querySelectorAll('{cells}')].filter(
            e => e.textContent.includes('{LONG}')).map(e => e.getBoundingClientRect().width)""")
        assert widths and 100 <= min(widths) and max(widths) <= PHONE["width"] / 2, cells
    page.close()
