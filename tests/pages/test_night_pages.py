"""The club night's pages (league/web/nights.py): organisers only, who is here, the plan with a
swap, confirming a round once, refusals in words that store nothing, and tonight's standings
(public) with its JSON news."""

import datetime
import re
from urllib.parse import parse_qs, urlsplit

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone

from league import nights, rounds, services
from league.models import AuditEntry, Game, Player
from tests.league.factories import (
    PlayerFactory,
    UserFactory,
    make_game,
    make_season,
    seated_ids,
)

pytestmark = pytest.mark.django_db


@pytest.fixture
def season():
    return make_season(preset="classic", scoring_limit=20)


@pytest.fixture
def organiser(season):
    user = UserFactory(username="org")
    season.club.organisers.add(user)
    return user


@pytest.fixture
def people(season):
    return [PlayerFactory(name=f"P{i}", clubs=[season.club]) for i in range(9)]


def url(name, season, query=""):
    return reverse(f"league:{name}", args=[season.pk]) + query


def plan_query(people, **fields):
    query = "&".join(f"present={p.pk}" for p in people)
    return "?" + query + "".join(f"&{k}={v}" for k, v in fields.items())


def confirm_fields(page):
    """The confirm form's fields as the plan page shows them."""
    form = re.search(r'<form method="post" action="[^"]*/night/confirm/">(.*?)</form>',
                     page.text, re.S).group(1)
    fields = {}
    for name, value in re.findall(r'name="(\w+)" value="([^"]*)"', form):
        fields.setdefault(name, []).append(value)
    return fields


# Who may see what


@pytest.mark.parametrize("name", ["night", "night_plan"])
def test_the_organiser_pages_ask_a_reader_to_log_in(client, season, name):
    page = client.get(url(name, season))
    assert page.status_code == 302 and "/accounts/login/" in page["Location"]


@pytest.mark.parametrize("name", ["night", "night_plan", "night_confirm"])
def test_someone_not_organising_the_club_is_told_why(client, season, people, name):
    client.force_login(UserFactory(username="stranger"))
    page = (client.post if name == "night_confirm" else client.get)(
        url(name, season, plan_query(people)), {"table": "1,2,3", "dealer": "1", "token": "t"}
        if name == "night_confirm" else None)
    assert page.status_code == 403
    assert f"Only organisers of {season.club} run its club nights" in page.text
    assert not Game.objects.exists()


def test_tonight_is_public(client, season):
    page = client.get(url("tonight", season))
    assert page.status_code == 200
    assert "No table has started tonight yet." in page.text
    news = client.get(url("tonight_json", season)).json()
    assert news["tables"] == [] and news["done"] is False


# Who is here, and a new player


def test_the_night_page_offers_every_club_player(client, season, organiser, people):
    client.force_login(organiser)
    page = client.get(url("night", season))
    assert page.status_code == 200
    for player in people:
        assert f'value="{player.pk}"> <span>{player.name}</span></label>' in page.text
    assert "Who is here for round 1?" in page.text


def test_the_night_page_says_who_still_sits_at_an_open_table_and_where(
        client, season, organiser, people):
    """Gus still sits at an open table of another season of the club (the same room): the
    present list marks Gus as playing and says where, naming that season."""
    client.force_login(organiser)
    gus = PlayerFactory(name="Gus", clubs=[season.club])
    other = make_season(club=season.club, name="Winter")
    nights.night_confirm(season=other, tables=[([gus, *people[:3]], 0)])
    page = client.get(url("night", season))
    assert ('<input type="checkbox" aria-describedby="still-playing" name="present" '
            f'value="{gus.pk}"> <span>Gus <small>(playing)</small></span></label>') in page.text
    assert ('<p class="hint" id="still-playing">Still at an open table: <bdi>Gus</bdi>, '
            "<bdi>P0</bdi>, <bdi>P1</bdi> and <bdi>P2</bdi> at round 1, table 1 (game 1) of "
            "Winter. A new round") in page.text  # each table named once
    assert f'value="{people[5].pk}"> <span>P5</span></label>' in page.text


def test_a_new_player_is_added_inline_and_ticked_with_those_ticked_before(
        client, season, organiser, people):
    client.force_login(organiser)
    page = client.post(url("night", season), {
        "action": "add_player", "name": "  Zoë ", "present": [people[0].pk, people[1].pk],
        "rounds": "2", "low": "4", "high": "5"}, follow=True)
    zoe = Player.objects.get(name="Zoë")
    assert list(zoe.clubs.all()) == [season.club]
    assert "Zoë added to" in page.text
    for player in (people[0], people[1], zoe):
        assert f'value="{player.pk}" checked> <span>{player.name}</span>' in page.text
    assert f'value="{people[2].pk}"> ' in page.text
    assert 'value="2" aria-describedby="rounds-hint"' in page.text


def test_a_name_the_club_has_already_is_refused(client, season, organiser, people):
    client.force_login(organiser)
    page = client.post(url("night", season), {"action": "add_player", "name": "p3"})
    assert page.status_code == 400
    assert "already" in page.text and "P3" in page.text
    assert Player.objects.count() == 9


def test_a_name_the_club_has_already_says_what_to_do_and_ticks_that_player(
        client, season, organiser, people):
    """Typing the name of a player the club has (the organiser did not see them in the list)
    was refused with no way on: the refusal says to tick them or to tell a newcomer apart,
    and ticks the club's player, everyone ticked before staying ticked."""
    client.force_login(organiser)
    page = client.post(url("night", season), {
        "action": "add_player", "name": "p3", "present": [people[0].pk], "rounds": "2"})
    assert page.status_code == 400
    assert ("already has a player called &#x27;P3&#x27;: ticked above, if P3 is who came; "
            "someone new of that name needs a name that tells them apart") in page.text
    for player in (people[0], people[3]):
        assert f'value="{player.pk}" checked> <span>{player.name}</span>' in page.text
    assert f'value="{people[1].pk}"> ' in page.text
    assert Player.objects.count() == 9


# Planning: refusals in words, nothing stored


@pytest.mark.parametrize(("present", "message"), [
    (lambda people: [people[0].pk, 999999], "has the id 999999"),
    (lambda people: [people[0].pk, people[1].pk, people[0].pk], "listed twice: P0"),
    (lambda people: ["x1"], "players present must be whole numbers"),
    (lambda people: [people[0].pk], "1 person cannot be split into tables of 2 to 12"),
    (lambda people: [], "No one is present to seat"),
])
def test_planning_refuses_bad_choices_in_words_and_keeps_the_ticks(
        client, season, organiser, people, present, message):
    client.force_login(organiser)
    before = AuditEntry.objects.count()
    page = client.post(url("night", season), {"action": "plan", "present": present(people),
                                              "rounds": "1"})
    assert page.status_code == 400
    assert message in page.text
    assert f'value="{people[0].pk}"{" checked" if present(people)[:1] == [people[0].pk] else ""}>' \
        in page.text
    assert not Game.objects.exists() and AuditEntry.objects.count() == before


@pytest.mark.parametrize(("field", "value", "message"), [
    ("seed", "-5", "The plan&#x27;s seed must be a whole number from 0 to 2147483647; "
                   "&#x27;-5&#x27; is not one"),
    ("round", "x", "The round must be a whole number from 1 to 10000; &#x27;x&#x27; is not one"),
    ("rounds", "1.5", "The number of rounds must be a whole number from 1 to 10; "
                      "&#x27;1.5&#x27; is not one"),
])
def test_a_number_that_is_not_one_the_plan_takes_says_what_it_must_be(
        client, season, organiser, people, field, value, message):
    """Not "must be whole numbers" of one value, nor of -5 (which is a whole number)."""
    client.force_login(organiser)
    page = client.get(url("night_plan", season, plan_query(people, **{field: value})))
    assert page.status_code == 400 and message in page.text


def test_the_plan_page_refuses_what_the_form_would_have(client, season, organiser, people):
    client.force_login(organiser)
    page = client.get(url("night_plan", season, plan_query(people[:1] * 2)))
    assert page.status_code == 400
    assert "No plan: listed twice: P0." in page.text
    page = client.get(url("night_plan", season, plan_query(people, rounds=11)))
    assert page.status_code == 400 and "The number of rounds must be 1 to 10, not 11" in page.text
    page = client.get(url("night_plan", season, plan_query(people, low=5, high=4)))
    assert page.status_code == 400 and "is larger than the largest" in page.text


def test_planning_shows_the_tables_seat_order_first_dealers_and_repeats(
        client, season, organiser, people):
    client.force_login(organiser)
    answer = client.post(url("night", season), {
        "action": "plan", "present": [p.pk for p in people], "rounds": "2", "low": "4",
        "high": "5"})
    assert answer.status_code == 302
    page = client.get(answer["Location"])
    assert page.status_code == 200
    expected = nights.night_plan(season=season, present=people, rounds=2, preferred=(4, 5))
    assert "Round 1: to confirm now" in page.text and "Round 2 (a preview)" in page.text
    shown = [[re.findall(r"<li><button[^>]*><bdi>([^<]+?)</bdi></button>"
                         r"( <strong[^>]*>deals first</strong>)?</li>", ol)]
             for ol in re.findall(r'<div class="plan-table"><h3>Table \d+</h3>\s*<ol>(.*?)</ol>',
                                  page.text, re.S)]
    assert shown == [[[(p.name, " <strong class=\"deals-first\">deals first</strong>"
                        if p == t.dealer else "") for p in t.seats]]
                     for r in expected.rounds for t in r.tables]
    fields = confirm_fields(page)
    assert fields["table"] == [",".join(str(p.pk) for p in t.seats)
                               for t in expected.rounds[0].tables]
    assert fields["dealer"] == [str(t.dealer.pk) for t in expected.rounds[0].tables]
    assert sorted(len(t.split(",")) for t in fields["table"]) == [4, 5]
    assert f'<strong id="repeats">{expected.score.repeats}</strong>' in page.text
    assert not Game.objects.exists()


def test_a_swap_exchanges_two_seats_and_is_shown_again(client, season, organiser, people):
    client.force_login(organiser)
    plain = client.get(url("night_plan", season, plan_query(people, low=4, high=5)))
    tables = [t.split(",") for t in confirm_fields(plain)["table"]]
    a, b = tables[0][0], tables[1][0]
    swapped = client.get(url("night_plan", season, plan_query(
        people, low=4, high=5, swap_round=0, swap_a=a, swap_b=b)))
    assert swapped.status_code == 200
    after = [t.split(",") for t in confirm_fields(swapped)["table"]]
    assert after[0][0] == b and after[1][0] == a
    assert after[0][1:] == tables[0][1:] and after[1][1:] == tables[1][1:]
    assert "Undo the swaps" in swapped.text


def test_swapping_someone_with_themselves_says_so_at_the_swap_form(
        client, season, organiser, people):
    """The same person chosen twice in "Swap two people" showed the plan again as if swapped,
    saying nothing: the plan is shown as it was, with a 400 and the reason at the form."""
    client.force_login(organiser)
    plain = client.get(url("night_plan", season, plan_query(people, low=4, high=5)))
    a = confirm_fields(plain)["table"][0].split(",")[0]
    page = client.get(url("night_plan", season, plan_query(
        people, low=4, high=5, swap_round=0, swap_a=a, swap_b=a)))
    assert page.status_code == 400
    name = Player.objects.get(pk=a).name
    assert (f'<p class="error" role="alert" id="swap-error">{name} was chosen twice: choose two '
            f"different people to swap.</p>") in page.text
    assert 'id="swap-a" name="swap_a" aria-invalid="true" aria-describedby="swap-error"' in (
        page.text)
    assert confirm_fields(page)["table"] == confirm_fields(plain)["table"]
    assert "Undo the swaps" not in page.text


# Confirming a round


def test_confirm_creates_the_round_once_and_lists_its_tables(client, season, organiser, people):
    client.force_login(organiser)
    page = client.get(url("night_plan", season, plan_query(people, rounds=2, low=4, high=5)))
    fields = confirm_fields(page)
    answer = client.post(url("night_confirm", season), fields)
    assert answer.status_code == 302
    assert parse_qs(urlsplit(answer["Location"]).query)["rounds"] == ["1"]
    again = client.post(url("night_confirm", season), fields)  # a double tap
    assert again.status_code == 302
    games = list(Game.objects.order_by("number"))
    assert len(games) == 2
    for game, table, dealer in zip(games, fields["table"], fields["dealer"], strict=True):
        assert [str(i) for i in seated_ids(game)] == table.split(",")
        assert str(seated_ids(game)[game.dealer]) == dealer
    night = client.get(answer["Location"])
    assert "already confirmed" in night.text
    assert "Round 1 confirmed: table 1 (game 1), table 2 (game 2)." in night.text
    for i, game in enumerate(games, 1):
        assert (f'href="{reverse("league:game_enter", args=[game.pk])}">Enter results: '
                f"round 1, table {i}</a>") in night.text
    assert "Who is here for round 2?" in night.text
    for player in people:  # everyone still seated is ticked for the next round
        assert f'value="{player.pk}" checked>' in night.text


@pytest.mark.parametrize(("fields", "message"), [
    ({"table": ["1,2"], "dealer": []}, "each table needs its players and its first dealer"),
    ({"table": ["999999,999998,999997"], "dealer": ["999999"]}, "has the id 999999"),
    ({"table": ["one,two,three"], "dealer": ["1"]}, "Players must be whole numbers"),
    ({"table": ["P0,P1,P2,P3", "P3,P4,P5"], "dealer": ["P0", "P4"]}, "listed twice: P3"),
    ({"table": ["P0,P1,P2,P3", "P4"], "dealer": ["P0", "P4"]}, "cannot play classic"),
    ({"table": ["P0,P1,P2,P3"], "dealer": ["P5"]}, "first dealer must sit at that table"),
])
def test_confirm_refuses_bad_tables_in_words_and_creates_nothing(
        client, season, organiser, people, fields, message):
    ids = {p.name: str(p.pk) for p in people}

    def named(text):
        return re.sub(r"P\d", lambda m: ids[m.group(0)], text)

    client.force_login(organiser)
    page = client.post(url("night_confirm", season), {
        "token": "t1", "table": [named(t) for t in fields["table"]],
        "dealer": [named(d) for d in fields["dealer"]]})
    assert page.status_code == 400
    assert "Nothing was created:" in page.text and message in page.text
    assert not Game.objects.exists()


def test_the_next_round_takes_leavers_and_late_arrivals_into_account(
        client, season, organiser, people):
    """Round 1 seats P0-P7; P3 leaves during it, P8 arrives: round 2 is planned for them
    and meets as few round-1 pairs again as it can."""
    client.force_login(organiser)
    first = confirm_fields(client.get(url("night_plan", season,
                                          plan_query(people[:8], low=4, high=4))))
    client.post(url("night_confirm", season), first)
    game = Game.objects.filter(seats__player=people[3]).get()
    services.deal_record(game=game, finishing_order=seated_ids(game))
    services.seat_change_apply(game=game, leaving=[people[3]])
    night = client.get(url("night", season))
    ticked = {int(i) for i in re.findall(r'value="(\d+)" checked>', night.text)}
    assert ticked == {p.pk for p in people[:8]} - {people[3].pk}

    now = [p for p in people if p.pk != people[3].pk]  # P8 arrives
    for game in Game.objects.all():  # time is called on round 1 (everyone plays round 2)
        if not game.deal_set.exists():
            services.deal_record(game=game, finishing_order=seated_ids(game))
        services.game_time_called(game=game)
    second = confirm_fields(client.get(url("night_plan", season,
                                           plan_query(now, low=4, high=4))))
    client.post(url("night_confirm", season), second)
    board = nights.night_board(season, rounds.night_of())
    assert len(board.rounds) == 2
    seated = [s.player_id for t in board.rounds[1] for s in t.seats]
    assert sorted(seated) == sorted(p.pk for p in now)
    # Round 1's tables of 4 and 3 (P3 gone) and the newcomer make round 2's two tables of 4:
    # at best 3 pairs sit together again (one from each old table split 2 + 1 or 2 + 2, and
    # one more either way), and the plan finds that.
    met = {}
    for number, played in enumerate(rounds.season_rounds(season)):
        for table in played.tables:
            for i, x in enumerate(table.seats):
                for y in table.seats[i + 1:]:
                    met.setdefault(frozenset((x, y)), []).append(number)
    assert sum(numbers == [0, 1] for numbers in met.values()) == 3


def test_the_night_page_says_who_is_ticked_as_the_round_stands(client, season, organiser,
                                                                people):
    """While round 1 plays, its people "sit at a table of round 1 now"; once time is called on
    every table one by one (not by "End of the night"), they played in it and sit nowhere."""
    client.force_login(organiser)
    games = nights.night_confirm(season=season, tables=[(people[:4], 0), (people[4:8], 1)])
    playing = client.get(url("night", season)).text
    for game in games:
        services.deal_record(game=game, finishing_order=seated_ids(game))
        services.game_time_called(game=game)
    ended = client.get(url("night", season)).text

    assert "Ticked: who sits at a table of round 1 now." in playing
    assert "sits at a table" not in ended
    assert "Ticked: who played in round 1, as all its tables have ended." in ended


def test_the_next_round_ticks_a_table_still_playing_when_the_last_round_began(
        client, season, organiser, people):
    """Round 2 started anyway while round-1 table 2 played on: planning round 3 ticks that
    table's people too (they sit right there), not P3, who went home after table 1 ended."""
    client.force_login(organiser)
    one, two = nights.night_confirm(season=season, tables=[(people[:4], 0), (people[4:8], 0)])
    for game in (one, two):
        services.deal_record(game=game, finishing_order=seated_ids(game))
    services.game_time_called(game=one)
    nights.night_confirm(season=season, tables=[(people[:3], 0)], while_in_play=True)
    night = client.get(url("night", season))
    assert "Who is here for round 3?" in night.text
    ticked = {int(i) for i in re.findall(r'name="present" value="(\d+)" checked>', night.text)}
    assert ticked == {p.pk for p in people[:3] + people[4:8]}
    assert f"Ticked too: the people of game {two.number}, still playing when round 2 began." \
        in night.text


# Tonight's standings


def test_tonight_shows_each_table_and_the_night_totals(client, season, organiser, people):
    games = nights.night_confirm(season=season, tables=[(people[:4], 0), (people[4:8], 1)])
    a, b = games
    services.deal_record(game=a, finishing_order=seated_ids(a))
    services.deal_record(game=a, finishing_order=seated_ids(a)[::-1])
    services.deal_record(game=b, finishing_order=seated_ids(b))
    services.game_time_called(game=b)
    news = client.get(url("tonight_json", season)).json()
    tables = {t["game"]: t for t in news["tables"]}
    assert tables[a.number]["state"] == "playing" and tables[a.number]["deals"] == 2
    assert tables[b.number]["state"] == "time called"
    points = {s.player.name: s.points for g in games for s in g.seats.select_related("player")}
    assert {p["name"]: p["points"] for t in news["tables"] for p in t["players"]} == points
    assert {t["name"]: t["points"] for t in news["totals"]} == points
    # Penalty scoring: fewest points lead; at table a everyone has 1 or 2 after two deals.
    fewest = min(s.points for s in a.seats.all())
    assert {p["name"] for p in tables[a.number]["players"] if p["leading"]} == {
        s.player.name for s in a.seats.select_related("player") if s.points == fewest}
    winner = b.seats.get(is_winner=True).player.name
    assert news["totals"][0]["name"] == winner and news["totals"][0]["wins"] == 1
    page = client.get(url("tonight", season))
    assert "The night so far" in page.text and 'data-url="' in page.text
    assert news["html"].strip() in page.text
    services.game_time_called(game=a)
    assert client.get(url("tonight_json", season)).json()["done"] is True
    assert "The night's results" in client.get(url("tonight", season)).text


def test_tonight_names_a_past_night_and_refuses_a_bad_date(client, season, people):
    game = nights.night_confirm(season=season, tables=[(people[:4], 0)])[0]
    yesterday = timezone.now() - datetime.timedelta(days=1)
    Game.objects.filter(pk=game.pk).update(created_at=yesterday)
    assert client.get(url("tonight_json", season)).json()["tables"] == []
    night = rounds.night_of(yesterday).isoformat()
    past = client.get(url("tonight_json", season, f"?night={night}")).json()
    assert [t["game"] for t in past["tables"]] == [game.number]
    bad = client.get(url("tonight", season, "?night=yesterday"))
    assert bad.status_code == 400 and "a night is a date written YYYY-MM-DD" in bad.text


def test_a_night_runs_past_midnight():
    late = timezone.make_aware(datetime.datetime(2026, 3, 6, 1, 30))
    early = timezone.make_aware(datetime.datetime(2026, 3, 6, 7, 0))
    assert rounds.night_of(late) == datetime.date(2026, 3, 5)
    assert rounds.night_of(early) == datetime.date(2026, 3, 6)


def test_tonight_reads_the_same_number_of_rows_for_two_tables_or_six(client, season):
    def queries():
        with CaptureQueriesContext(connection) as ctx:
            assert client.get(url("tonight_json", season)).status_code == 200
        return len(ctx)

    people = [PlayerFactory(name=f"Q{i}", clubs=[season.club]) for i in range(24)]
    for game in nights.night_confirm(season=season, tables=[(people[:4], 0), (people[4:8], 0)]):
        services.deal_record(game=game, finishing_order=seated_ids(game))
    two = queries()
    for game in nights.night_confirm(season=season, while_in_play=True, tables=[
            (people[i:i + 4], 0) for i in range(8, 24, 4)]):
        services.deal_record(game=game, finishing_order=seated_ids(game))
        services.deal_record(game=game, finishing_order=seated_ids(game)[::-1])
    assert queries() == two


@pytest.mark.parametrize("night", ["9999-12-31", "0001-01-01"])
def test_tonight_refuses_a_night_at_the_ends_of_the_calendar_naming_it(client, season, night):
    page = client.get(url("tonight", season, f"?night={night}"))
    news = client.get(url("tonight_json", season, f"?night={night}"))

    assert page.status_code == news.status_code == 400
    assert f"no club night can be shown for {night}" in page.text
    assert news.json()["error"].startswith(f"no club night can be shown for {night}")
    for first_or_last in ("0002-01-01", "9998-12-31"):
        assert client.get(url("tonight_json", season, f"?night={first_or_last}")).json()[
            "tables"] == []


def test_a_name_longer_than_a_name_can_be_is_refused_and_nothing_stored(
        client, season, organiser, people):
    client.force_login(organiser)
    page = client.post(url("night", season), {"action": "add_player", "name": "x" * 300})
    assert page.status_code == 400
    assert "a player&#x27;s name is at most 100 characters, not 300" in page.text
    assert 'aria-invalid="true" aria-describedby="night-error"' in page.text  # at the field
    assert Player.objects.count() == 9


def test_a_name_that_looks_like_one_the_club_has_is_refused(client, season, organiser, people):
    client.force_login(organiser)
    anna = services.player_create(name="Anna", clubs=[season.club])
    page = client.post(url("night", season), {"action": "add_player", "name": "\u0410nna"})
    assert page.status_code == 400
    assert "already has a player called &#x27;Anna&#x27;" in page.text
    assert list(Player.objects.filter(name__endswith="nna")) == [anna]


# A bot tournament's season has no club nights


NIGHT_ADDRESSES = [  # every club-night address of a season (league/web/urls.py), as each is used
    ("get", "night", []), ("get", "night_plan", []), ("post", "night_confirm", []),
    ("get", "table_cards", []), ("get", "tonight", []), ("get", "night_recap", []),
    ("get", "night_end", []), ("post", "night_end", []),
    ("get", "night_cancel_round", [1]), ("post", "night_cancel_round", [1]),
    ("get", "night_cancel_game", ["game"]), ("post", "night_cancel_game", ["game"]),
]


@pytest.mark.parametrize("method,name,more", NIGHT_ADDRESSES,
                         ids=[f"{m}-{n}" for m, n, _ in NIGHT_ADDRESSES])
def test_a_bot_tournaments_season_refuses_its_club_night_pages_up_front(
        client, method, name, more):
    """Found by a colleague: the season page offers a tournament's season no club night, but
    its addresses typed by hand still opened (the night page, its plan, tonight, the table
    cards…), only refusing once a round was planned. Each now says why at once and links the
    tournament; nothing is created."""
    from tests.tournaments.helpers import small_tournament

    tournament = small_tournament()
    season = tournament.season
    game = make_game()  # of another season: the address needs a game
    organiser = UserFactory(username="org")
    season.club.organisers.add(organiser)
    client.force_login(organiser)
    games = Game.objects.count()
    address = reverse(f"league:{name}",
                      args=[season.pk, *(game.pk if m == "game" else m for m in more)])

    page = getattr(client, method)(address)

    assert page.status_code == 404, address
    said = " ".join(page.content.decode().split())
    assert ("A bot tournament&#x27;s season has no club nights: the games of this season are "
            f"played and stored by the bot tournament {tournament.name}.") in said
    assert f'href="{tournament.get_absolute_url()}">The tournament {tournament.name}</a>' in said
    assert Game.objects.count() == games


def test_a_bot_tournaments_season_has_no_tonight_json(client):
    from tests.tournaments.helpers import small_tournament

    tournament = small_tournament()

    news = client.get(url("tonight_json", tournament.season))

    assert news.status_code == 404
    assert news.json()["error"].startswith("A bot tournament's season has no club nights")
    assert news.json()["tournament"] == tournament.get_absolute_url()
