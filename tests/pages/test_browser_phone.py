"""The entry page, tonight's screen and the charts on a 360 × 740 phone (issue 28, "The phone"
and "Names and charts"): the name buttons, the order so far and the button that goes on
reachable with at most one scroll; a correction made by choosing each player's place; a
40-character name never making a page scroll sideways; right-to-left names isolated in
sentences; every chart's players in distinct colours with a legend, light and dark; a refused
form's first error focused. Screenshots with SCREENSHOTS=1."""

import os

from django.urls import reverse
from playwright.sync_api import TimeoutError as PlaywrightTimeout

from league import nights, rating_jobs, services
from league.rules import rating_scope
from tests.league.factories import PlayerFactory, UserFactory, make_game, make_season, seated_ids
from tests.pages.test_browser import (  # noqa: F401
    SCREENSHOTS,
    browser,
    pytestmark,
    signed_in,
)
from tests.pages.test_browser_entry import PHONE, open_entry, settle, small_targets, tap_order

FOLD = 740
LONG = "Wolfeschlegelsteinhausenbergerdorffvoral"  # 40 characters, no space
ARABIC = "عبد الرحمن"


def shoot(page, name, part=None):
    """The screen as the phone shows it (not the whole page: the action bar sits at its foot),
    or just ``part`` of it."""
    if os.environ.get("SCREENSHOTS"):
        (page.locator(part) if part else page).screenshot(path=str(SCREENSHOTS / f"{name}.png"))


def organised_season():
    """A friday season to 40 penalty points and the organiser of its club."""
    season = make_season(preset="friday", scoring_limit=40)
    organiser = UserFactory(username="organiser")
    season.club.organisers.add(organiser)
    return season, organiser


def box(page, selector):
    return page.locator(selector).bounding_box()


def visible_whole(page, selector, below=FOLD):
    """The element lies wholly inside the viewport, above ``below`` (the action bar's top),
    within 5 s (a loaded machine may lay the page out after its load event)."""
    try:
        page.wait_for_function(
            """([element, below]) => {
                const b = element.getBoundingClientRect();
                return b.top >= -1 && b.bottom <= below + 1;  // a pixel's rounding either way
            }""", arg=[page.locator(selector).element_handle(), below], timeout=5000)
    except PlaywrightTimeout:
        return False
    return True


def test_a_deal_of_five_takes_one_scroll_with_the_action_bar(browser, live_server, client):  # noqa: F811
    season, organiser = organised_season()
    # a club's names, not the factory's numbered ones (their length grows with the suite)
    game = make_game(season, [PlayerFactory(name=name, clubs=[season.club])
                              for name in ("Ann", "Ben", "Cai", "Dee", "Eve")])
    order = seated_ids(game)
    names = dict(game.seats.values_list("player_id", "player__name"))
    services.deal_record(game=game, finishing_order=order)  # deal 2 has an exchange to show
    ctx, page = open_entry(browser, live_server, client, organiser, game)

    # On arrival: what happens before the deal, the first name button and the action bar.
    bar = "#order-form .action-bar"
    assert visible_whole(page, bar)
    assert box(page, "#next")["y"] + box(page, "#next")["height"] <= FOLD
    first = box(page, "#taps button >> nth=0")
    assert first["y"] < FOLD
    # One scroll brings every name above the bar, which stays in view (sticky).
    page.locator("#taps").evaluate("e => e.scrollIntoView({block: 'start'})")
    assert page.evaluate("scrollY") <= FOLD
    bar_top = box(page, bar)["y"]
    assert visible_whole(page, bar)
    for i in range(5):
        assert visible_whole(page, f"#taps button >> nth={i}", below=bar_top)

    line = page.locator("#order-line")
    assert line.inner_text() == "Tap the players in the order they went out."
    tap_order(page, order[::-1][:2])
    assert line.inner_text() == (f"1 {names[order[4]]} · 2 {names[order[3]]} · 3 more to tap")
    page.evaluate("scrollTo(0, 0)")
    shoot(page, "enter-deal-bar")
    tap_order(page, order[::-1][2:])
    whole = " · ".join(f"{i} {names[p]}" for i, p in enumerate(order[::-1], start=1))
    assert line.inner_text() == whole
    # Tapped again, a player's place is free and nobody else moves; the next tap fills it.
    tap_order(page, [order[4]])
    assert line.inner_text() == whole.split(" · ", 1)[1] + " · 1 more to tap"
    tap_order(page, [order[4]])
    assert line.inner_text() == whole
    assert small_targets(page) == []
    assert page.evaluate("document.documentElement.scrollWidth") <= 360
    page.locator(bar).get_by_role("button", name="Show roles and exchange").tap()

    # The server's check: Confirm in view on arrival, with no scroll.
    page.wait_for_selector("text=Check deal 2")
    assert page.evaluate("scrollY") == 0
    assert visible_whole(page, ".confirm-form button.primary")
    page.get_by_role("button", name="Confirm deal 2").tap()
    page.wait_for_selector("text=Deal 2 recorded.")
    assert list(game.deal_set.get(number=2).places.order_by("position")
                .values_list("player_id", flat=True)) == order[::-1]
    settle(page)
    ctx.close()


def test_a_correction_swaps_two_players_by_choosing_a_place(browser, live_server, client):  # noqa: F811
    """Deal 1 went a, b, c, d but a and b were swapped: choosing b's place "1st" puts a 2nd,
    nothing else moves (the take-back taps shifted everyone up: b, c, d, a)."""
    game = make_game(season_kwargs={"preset": "friday", "scoring_limit": 20})
    organiser = UserFactory(username="organiser")
    game.season.club.organisers.add(organiser)
    a, b, c, d = seated_ids(game)
    names = dict(game.seats.values_list("player_id", "player__name"))
    services.deal_record(game=game, finishing_order=[a, b, c, d])
    services.deal_record(game=game, finishing_order=[a, b, c, d])
    ctx, page = open_entry(browser, live_server, client, organiser, game)
    page.locator("#deals summary").tap()
    page.get_by_role("link", name="Correct deal 1…").tap()
    page.wait_for_selector("text=Correct deal 1")

    picks = page.locator("#place-picks")
    assert picks.is_visible()
    # Each player's place chosen by its own button, the recorded one pressed.
    assert picks.get_by_role("button", name=f"{names[a]}: 1st out").get_attribute(
        "aria-pressed") == "true"
    picks.get_by_role("button", name=f"{names[b]}: 1st out").tap()
    pressed = [picks.get_by_role("button", name=f"{names[p]}: {place} out")
               .get_attribute("aria-pressed")
               for p, place in ((b, "1st"), (a, "2nd"), (c, "3rd"), (d, "4th"))]
    assert pressed == ["true"] * 4
    assert page.locator("#order-line").inner_text() == (
        f"1 {names[b]} · 2 {names[a]} · 3 {names[c]} · 4 {names[d]}")
    assert small_targets(page) == []
    assert page.evaluate("document.documentElement.scrollWidth") <= 360
    shoot(page, "enter-correct-places")

    page.get_by_role("button", name="Show roles and totals").tap()
    page.wait_for_selector("text=Deal 1 as corrected")
    assert visible_whole(page, "#correct form:has(button.primary) button.primary")
    page.get_by_role("button", name="Confirm the correction of deal 1").tap()
    page.wait_for_selector("text=Deal 1 corrected.")
    assert list(game.deal_set.get(number=1).places.order_by("position")
                .values_list("player_id", flat=True)) == [b, a, c, d]
    settle(page)
    ctx.close()


def test_a_forty_character_name_scrolls_no_page_sideways(browser, live_server, client):  # noqa: F811
    season, organiser = organised_season()
    long = PlayerFactory(name=LONG, clubs=[season.club])
    people = [long] + [PlayerFactory(clubs=[season.club]) for _ in range(3)]
    game, = nights.night_confirm(season=season, by=organiser, tables=[(people, 0)])
    services.deal_record(game=game, finishing_order=seated_ids(game)[::-1])
    ctx = signed_in(browser, live_server, client, organiser, **PHONE)
    page = ctx.new_page()
    for url in (reverse("league:night", args=[season.pk]),
                reverse("league:table_cards", args=[season.pk]),
                reverse("league:game_enter", args=[game.pk]),
                reverse("league:tonight", args=[season.pk]),
                reverse("league:player_detail", args=[long.pk])):
        page.goto(live_server.url + url)
        assert LONG in page.content()
        assert page.evaluate("document.documentElement.scrollWidth") <= 360, url

    # Tonight's screen: every table's points inside its card, beside the name wrapped whole.
    page.goto(live_server.url + reverse("league:tonight", args=[season.pk]))
    card = box(page, ".board-table")

    def inside(b):
        return card["x"] <= b["x"] and b["x"] + b["width"] <= card["x"] + card["width"]

    assert all(inside(cell.bounding_box())
               for cell in page.locator(".board-table td.num").all())
    name = page.locator(".board-table th[scope=row] bdi", has_text=LONG)
    assert name.inner_text() == LONG and inside(name.bounding_box())
    shoot(page, "tonight-long-name-phone")
    ctx.close()


def test_a_right_to_left_name_keeps_the_sentence_in_order(browser, live_server, client):  # noqa: F811
    season, organiser = organised_season()
    arabic = PlayerFactory(name=ARABIC, clubs=[season.club])
    ann = PlayerFactory(name="Ann", clubs=[season.club])
    others = [PlayerFactory(name=n, clubs=[season.club]) for n in ("Ben", "Cai")]
    game = make_game(season=season, players=[ann, *others, arabic])
    services.deal_record(game=game, finishing_order=[ann.pk, others[0].pk, others[1].pk,
                                                     arabic.pk])
    ctx, page = open_entry(browser, live_server, client, organiser, game)

    # "عبد الرحمن gives Ann 2 cards": each name isolated, so the bidi algorithm cannot carry
    # "gives" or the number across the Arabic name.
    sentence = page.locator("#next .exchange li").first  # the Idiot gives first
    assert sentence.locator("bdi").all_inner_texts() == [ARABIC, "Ann"]
    assert sentence.inner_text() == f"{ARABIC} gives Ann 2 cards"

    # The leave/join preview in words.
    page.locator("label.check", has_text=ARABIC).tap()
    page.get_by_role("button", name="Show the shifted roles").tap()
    page.wait_for_selector("text=Roles after the change")
    words = page.locator(".shift-words li").first
    assert ARABIC in words.locator("bdi").all_inner_texts()
    assert words.inner_text().startswith(f"{ARABIC} (Idiot) leaves: ")
    settle(page)
    ctx.close()


def chart_colours(page):
    return page.evaluate("""() => {
        const chart = Chart.getChart(document.getElementById('season-rating-chart'));
        return {legend: chart.options.plugins.legend.display !== false,
                lines: chart.data.datasets.map(d => [d.label, d.borderColor,
                                                     (d.borderDash || []).join(',')])};
    }""")


def test_every_player_on_the_season_chart_has_a_colour_of_their_own(
        browser, live_server, client):  # noqa: F811
    season = make_season(scoring_system="fixed-rounds", scoring_deals=20)
    for _ in range(2):
        game = make_game(season=season, players=5)
        ids = seated_ids(game)
        for i in range(5):
            services.deal_record(game=game, finishing_order=ids[i:] + ids[:i])
    rating_jobs.ratings_recompute(scope=rating_scope(season))
    url = live_server.url + reverse("league:season_detail", args=[season.pk])

    for scheme in ("light", "dark"):
        ctx = browser.new_context(viewport={"width": 800, "height": 900}, color_scheme=scheme)
        page = ctx.new_page()
        page.goto(url)
        chart = chart_colours(page)
        assert chart["legend"]
        assert len(chart["lines"]) == 10
        assert len({(colour, dash) for _, colour, dash in chart["lines"]}) == 10
        # a rating moves at a deal: straight lines between deals (curves overshot the points,
        # found by a walk-through) and whole deals on the axis (it read 1.5 deals)
        drawn = page.evaluate("""() => {
            const chart = Chart.getChart(document.getElementById('season-rating-chart'));
            return {tension: chart.data.datasets.map(d => d.tension),
                    ticks: chart.scales.x.ticks.map(t => t.value)};
        }""")
        assert set(drawn["tension"]) == {0}
        assert drawn["ticks"] and all(float(t).is_integer() for t in drawn["ticks"])
        if scheme == "dark":
            shoot(page, "season-chart-dark", part=".chart")
        ctx.close()


def test_a_refused_new_player_focuses_the_name_with_its_error(browser, live_server, client):  # noqa: F811
    organiser = UserFactory(username="organiser")
    season = make_season(preset="classic", scoring_limit=20)
    club = season.club
    club.organisers.add(organiser)
    for name in ("Ann", "Ben", "Cai", "Dee", "Eve", "Fay"):
        PlayerFactory(name=name, clubs=[club])
    ctx = signed_in(browser, live_server, client, organiser, **PHONE)
    page = ctx.new_page()

    # The organisers' club page: the players' form is below the tables and seasons.
    page.goto(live_server.url + reverse("league:organise_club", args=[club.pk]))
    field = page.get_by_label("New player's name")
    assert field.bounding_box()["y"] > FOLD
    field.fill("ann")
    page.get_by_role("button", name="Add", exact=True).tap()
    page.wait_for_selector("#add-error")
    assert field.evaluate("e => e === document.activeElement")
    assert visible_whole(page, "#add-error") and field.bounding_box()["y"] < FOLD

    # The club night's "Add and tick", under the list of who is here.
    page.goto(live_server.url + reverse("league:night", args=[season.pk]))
    page.get_by_label("Someone new? Their name").fill("ANN")
    page.get_by_role("button", name="Add and tick").tap()
    page.wait_for_selector("#night-error")
    assert page.evaluate("document.activeElement.id") == "new-name"
    assert visible_whole(page, "#night-error") and visible_whole(page, "#new-name")
    assert "Ann" in page.locator("#night-error").inner_text()
    ctx.close()
