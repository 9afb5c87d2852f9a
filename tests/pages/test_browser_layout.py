"""How pages lay out in Debian's chromium, where a rule of league.css is what a person sees:
the deals kept on a phone, shown on a refused entry page, the sign-up form, a club night's
plan and its page once ended, long names on tonight's screen."""

from django.urls import reverse

from league import nights, rounds, services
from tests.league.factories import (
    PlayerFactory,
    UserFactory,
    make_game,
    make_season,
    seated_ids,
)
from tests.pages.test_browser import browser, pytestmark, signed_in  # noqa: F401

PHONE = {"width": 360, "height": 740}
DESKTOP = {"width": 1280, "height": 900}

# Deals kept by outbox.js in each of the states it shows (league/static/league/outbox.js).
KEPT = """(page) => localStorage.setItem('league-outbox', JSON.stringify(
  ['held', 'conflict', 'refused'].map((state, i) => ({
    key: 'k' + i, page: page, url: page + 'deal/', fields: {}, state: state, number: i + 2,
    game: 'Game 1', order: 'Ann, Ben, Cai, Dee', reason: 'time was called on game 1'}))))"""

# Each button of a kept deal: how far its left edge is from its item's, and whether it starts
# below the item's words (not beside them).
BUTTONS = """() => [...document.querySelectorAll('#outbox-list li')].map(li => {
  const button = li.querySelector('button').getBoundingClientRect();
  const words = li.firstChild.nodeType === Node.TEXT_NODE ? li.firstChild : li.firstElementChild;
  const range = document.createRange(); range.selectNodeContents(words);
  return [li.className, Math.round(button.left - li.getBoundingClientRect().left),
          button.top >= range.getBoundingClientRect().bottom - 1]; })"""


def test_the_deals_kept_on_a_phone_line_their_buttons_up_under_their_words(browser, live_server):  # noqa: F811
    """A refused entry page at 1280 px showed its Dismiss and Discard buttons indented by half
    a letter, one beside the end of its sentence (its line grown to the button's height)."""
    entry = reverse("league:game_enter", args=[make_game().pk])
    for viewport in (PHONE, DESKTOP):
        page = browser.new_page(viewport=viewport)
        page.goto(live_server.url + entry)  # refused: nobody signed in
        page.evaluate(KEPT, entry)
        page.reload()
        page.locator("#outbox-list li.refused").wait_for()
        assert page.evaluate(BUTTONS) == [["held", 0, True], ["conflict", 0, True],
                                          ["refused", 0, True]], viewport
        page.close()


FIELDS = """() => [...document.querySelectorAll('form input:not([type=hidden])')].map(i => {
  const box = i.getBoundingClientRect();
  return [i.name, Math.round(box.left), Math.round(box.width)]; })"""


def test_the_sign_up_form_lines_its_fields_up_under_their_labels(browser, live_server):  # noqa: F811
    """The sign-up form (django-allauth's) put each field beside its label, so its four fields
    started and ended where their labels' words did, the refusals between them."""
    UserFactory(username="adal")
    page = browser.new_page(viewport=PHONE)
    page.goto(live_server.url + reverse("account_signup"))
    page.fill("#id_username", "adaI")  # like adal's name: refused
    page.fill("#id_email", "ada@example.org")
    page.fill("#id_password1", "short")  # too short: refused
    page.fill("#id_password2", "short")
    page.get_by_role("button", name="Sign Up").click()
    page.locator(".errorlist").first.wait_for()
    fields = page.evaluate(FIELDS)
    assert [name for name, _, _ in fields] == ["username", "email", "password1", "password2"]
    assert {(left, width) for _, left, width in fields} == {(16, 328)}  # the page's width
    label = page.locator("label[for=id_username]").bounding_box()
    assert page.locator("#id_username").bounding_box()["y"] > label["y"] + label["height"] - 1
    page.close()


# How far each notice under a round's planned tables starts below them, in px.
GAPS = """() => [...document.querySelectorAll('.plan-tables + .notice')].map(notice =>
  [notice.id, Math.round(notice.getBoundingClientRect().top
                         - notice.previousElementSibling.getBoundingClientRect().bottom)])"""


def test_a_plans_notices_stand_apart_from_its_tables(browser, live_server, client):  # noqa: F811
    """The plan of more tables of a round in play set "Round 1 is still in play" against the
    foot of the last table's card, and "Round 2 cannot start yet" the same way."""
    season = make_season(preset="classic", scoring_limit=20)
    organiser = UserFactory(username="organiser")
    season.club.organisers.add(organiser)
    people = [PlayerFactory(name=f"P{i}", clubs=[season.club]) for i in range(12)]
    nights.night_confirm(season=season, tables=[(people[:4], 0), (people[4:8], 0)])
    plan = reverse("league:night_plan", args=[season.pk])
    ctx = signed_in(browser, live_server, client, organiser, viewport=DESKTOP)
    page = ctx.new_page()
    for present, notice in ((people[8:], "in-play"), (people[2:10], "still-playing")):
        page.goto(live_server.url + plan + "?low=4&high=4&round=2&"
                  + "&".join(f"present={p.pk}" for p in present))
        assert page.evaluate(GAPS) == [[notice, 16]]  # the page's space between blocks
    ctx.close()


def test_the_ended_nights_two_buttons_line_up(browser, live_server, client):  # noqa: F811
    """After 'End of the night', the night page's notice offered 'The night's results' across a
    phone and 'Each player's night against par' under it a third narrower."""
    season = make_season(preset="classic", scoring_limit=20)
    organiser = UserFactory(username="organiser")
    season.club.organisers.add(organiser)
    people = [PlayerFactory(name=f"P{i}", clubs=[season.club]) for i in range(4)]
    game, = nights.night_confirm(season=season, tables=[(people, 0)])
    services.deal_record(game=game, finishing_order=seated_ids(game))
    nights.night_end(season=season, night=rounds.night_of(), by=organiser)
    for viewport in (PHONE, DESKTOP):
        ctx = signed_in(browser, live_server, client, organiser, viewport=viewport)
        page = ctx.new_page()
        page.goto(live_server.url + reverse("league:night", args=[season.pk]))
        boxes = [page.get_by_role("link", name=name).bounding_box() for name in (
            "The night's results", "Each player's night against par")]
        if viewport is PHONE:  # one under the other, the notice's width
            assert [(b["x"], b["width"]) for b in boxes] == [(boxes[0]["x"], boxes[0]["width"])] * 2
            assert boxes[1]["y"] > boxes[0]["y"] + boxes[0]["height"]
        else:  # side by side
            assert boxes[0]["y"] == boxes[1]["y"] and boxes[0]["height"] == boxes[1]["height"]
        ctx.close()


# A button's words: the space between them and its box's top and bottom edges, and whether
# each of its lines is centred, in px.
WORDS = """(button) => {
  const box = button.getBoundingClientRect(), range = document.createRange();
  range.selectNodeContents(button);
  const lines = [...range.getClientRects()], words = range.getBoundingClientRect();
  return [lines.length > 1, Math.round(words.top - box.top) >= 4,
          Math.round(box.bottom - words.bottom) >= 4,
          lines.every(l => Math.abs((l.left - box.left) - (box.right - l.right)) <= 2)]; }"""


def test_a_button_of_two_lines_keeps_its_words_off_its_edges_and_centred(
        browser, live_server, client):  # noqa: F811
    """On a 360 px phone the club page's 'Organise …: seasons, players, tonight's tables' and
    the plan's 'Confirm: start 1 more table of round 1' wrapped to two lines touching the
    button's top and bottom edges, the link's lines flush left."""
    season = make_season(preset="classic", scoring_limit=20)
    organiser = UserFactory(username="organiser")
    season.club.organisers.add(organiser)
    people = [PlayerFactory(name=f"P{i}", clubs=[season.club]) for i in range(8)]
    nights.night_confirm(season=season, tables=[(people[:4], 0)])
    ctx = signed_in(browser, live_server, client, organiser, viewport=PHONE)
    page = ctx.new_page()
    page.goto(live_server.url + reverse("league:club_detail", args=[season.club.pk]))
    organise = page.get_by_role("link", name=f"Organise {season.club.name}")
    assert organise.evaluate(WORDS) == [True, True, True, True]
    page.goto(live_server.url + reverse("league:night_plan", args=[season.pk])
              + "?low=4&high=4&round=2&" + "&".join(f"present={p.pk}" for p in people[4:]))
    confirm = page.get_by_role("button", name="Confirm: start 1 more table of round 1")
    assert confirm.evaluate(WORDS) == [True, True, True, True]
    ctx.close()


# The elements wider than the viewport, or reaching past its right edge, and the boxes whose
# words run past them (cut off, or scrolling sideways).
TOO_WIDE = """() => [...document.body.querySelectorAll('*')].filter(e => {
    const box = e.getBoundingClientRect();
    return box.width > innerWidth || box.right > innerWidth + 0.5
        || (e.scrollWidth > e.clientWidth + 1 && getComputedStyle(e).overflowX !== 'visible');
  }).map(e => e.tagName + (e.id ? '#' + e.id : '') + '.' + e.className)"""

# The names of tonight's screen: each name's width to wrap in, and its words (split at spaces
# and after hyphens) broken over lines though they fit that width.
NAMES = """() => [...document.querySelectorAll('.tonight tbody th bdi')].map(bdi => {
    const cell = bdi.closest('th'), style = getComputedStyle(cell);
    const room = cell.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
    const text = bdi.firstChild, broken = [];
    for (const m of text.data.matchAll(/[^ -]+-?/g)) {
      const r = document.createRange();
      r.setStart(text, m.index); r.setEnd(text, m.index + m[0].length);
      const rects = [...r.getClientRects()];
      const width = rects.reduce((sum, c) => sum + c.width, 0);
      if (new Set(rects.map(c => Math.round(c.top))).size > 1 && width <= room)
        broken.push(m[0]);
    }
    return [text.data, Math.round(room), broken]; })"""

LONG_NAMES = ["Maximiliana Featherstonehaugh-Worthington",
              "Maximiliankarlfriedrichvonundzuhohenbergs"]  # 40 letters


def test_tonights_screen_wraps_long_names_between_words_on_a_phone(
        browser, live_server):  # noqa: F811
    """At 360 px tonight's screen broke 'Maximiliana Featherstonehaugh-Worthington' and a
    40-letter word anywhere, a letter or two a line, beside the six columns of the night's
    totals."""
    season = make_season(preset="classic", scoring_limit=20)
    people = [PlayerFactory(name=name, clubs=[season.club])
              for name in [*LONG_NAMES, "Ann", "Ben", "Chloé", "Dee", "Eve", "Fay"]]
    games = nights.night_confirm(season=season, tables=[(people[:4], 0), (people[4:], 0)])
    for game in games:
        services.deal_record(game=game, finishing_order=seated_ids(game))
    page = browser.new_page(viewport=PHONE)
    page.goto(live_server.url + reverse("league:tonight", args=[season.pk]))
    for viewport in (PHONE, DESKTOP):
        page.set_viewport_size(viewport)
        assert page.evaluate(TOO_WIDE) == [], viewport
        assert page.evaluate("document.documentElement.scrollWidth") <= viewport["width"]
        for name, room, broken in page.evaluate(NAMES):
            assert broken == [], (viewport, name)
            # on a phone, the width of the screen for it: words, not a letter or two a line
            assert viewport != PHONE or room >= 200, name
    page.close()


def test_tonights_screen_on_a_laptop_keeps_a_long_surname_whole_in_its_table_card(
        browser, live_server):  # noqa: F811
    """At 1280 px the table cards were 19rem, narrower than their big type needs: 'Maximiliana
    Featherstonehaugh-Worthington' was set 'Featherston / ehaugh- / Worthingto / n' with half
    the screen empty beside the cards."""
    season = make_season(preset="classic", scoring_limit=20)
    people = [PlayerFactory(name=name, clubs=[season.club])
              for name in [LONG_NAMES[0], "Ann", "Ben", "Chloé", "Dee", "Eve", "Fay", "Gus"]]
    games = nights.night_confirm(season=season, tables=[(people[:4], 0), (people[4:], 0)])
    for game in games:
        services.deal_record(game=game, finishing_order=seated_ids(game))
    page = browser.new_page(viewport=DESKTOP)
    page.goto(live_server.url + reverse("league:tonight", args=[season.pk]))
    for viewport in (DESKTOP, {"width": 1920, "height": 1080}):
        page.set_viewport_size(viewport)
        cards = page.evaluate(NAMES.replace(".tonight tbody th bdi", ".board-table tbody th bdi"))
        assert [(name, broken) for name, _, broken in cards if broken] == [], viewport
        lines = page.evaluate("""() => [...document.querySelectorAll('.board-table tbody th bdi')]
            .filter(b => b.textContent.startsWith('Maximiliana')).map(b => {
              const r = document.createRange(); r.selectNodeContents(b.firstChild);
              return new Set([...r.getClientRects()].map(c => Math.round(c.top))).size; })""")
        assert lines[0] <= 3, viewport  # Maximiliana / Featherstonehaugh- / Worthington
        # both tables of the round side by side
        tops = page.locator(".board-table").evaluate_all(
            "cards => cards.map(c => Math.round(c.getBoundingClientRect().top))")
        assert tops[0] == tops[1], viewport
        assert page.evaluate(TOO_WIDE) == []
    page.close()


def test_who_is_here_on_a_phone_keeps_a_long_surname_whole(
        browser, live_server, client):  # noqa: F811
    """At 360 px the night's present list set 'Maximiliana Featherstonehaugh-Worthington' in
    a column of 8rem, 'Maximilian / a Feathersto / nehaugh- / Worthingt / on': a long name takes
    two columns (the row, on a phone), and breaks only at its spaces and hyphens."""
    season = make_season(preset="classic", scoring_limit=20)
    organiser = UserFactory(username="org")
    season.club.organisers.add(organiser)
    for name in [LONG_NAMES[0], "Sigrún Ólafsdóttir", "Ann", "Ben", "Chloé", "Dee", "Eve"]:
        PlayerFactory(name=name, clubs=[season.club])
    ctx = signed_in(browser, live_server, client, organiser, viewport=PHONE)
    page = ctx.new_page()
    page.goto(live_server.url + reverse("league:night", args=[season.pk]))
    names = page.evaluate(NAMES.replace(".tonight tbody th bdi", ".present-list label > span")
                          .replace("closest('th')", "closest('span')"))
    assert len(names) == 7
    assert [(name, broken) for name, _, broken in names if broken] == []
    lines = page.evaluate("""() => [...document.querySelectorAll('.present-list label > span')]
        .filter(s => s.textContent.startsWith('Maximiliana')).map(s => {
          const r = document.createRange(); r.selectNodeContents(s.firstChild);
          return new Set([...r.getClientRects()].map(c => Math.round(c.top))).size; })""")
    assert lines[0] <= 3  # Maximiliana / Featherstonehaugh- / Worthington
    ann = page.get_by_label("Ann", exact=True).bounding_box()
    ben = page.get_by_label("Ben", exact=True).bounding_box()
    assert ann["y"] == ben["y"]  # short names still two a row
    assert page.evaluate(TOO_WIDE) == []
    ctx.close()
