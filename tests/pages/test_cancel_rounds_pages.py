"""Rounds of a club night on its pages (league/web/nights.py): a plan link already confirmed
cannot confirm again, "New game, same table" stays in its round, a round in play is named
before the next is confirmed, and a game or round confirmed by mistake is cancelled."""

import html
import re
from urllib.parse import quote

import pytest
from django.urls import reverse

from league import nights, rounds, services
from league.models import AuditEntry, Game
from tests.league.factories import PlayerFactory, UserFactory, make_season, seated_ids
from tests.pages.test_night_pages import confirm_fields, plan_query, url

pytestmark = pytest.mark.django_db


@pytest.fixture
def night(client):
    """A season with eight players, its club's organiser signed in: (season, people)."""
    season = make_season(preset="classic", scoring_limit=20)
    organiser = UserFactory(username="org")
    season.club.organisers.add(organiser)
    client.force_login(organiser)
    return season, [PlayerFactory(name=f"P{i}", clubs=[season.club]) for i in range(8)]


def confirm_round(client, season, people, **fields):
    page = client.get(url("night_plan", season, plan_query(people, low=4, high=4, **fields)))
    return client.post(url("night_confirm", season), confirm_fields(page))


def table_one_ended(client, season, people):
    """Round 1 confirmed at two tables; table 1 played a deal and time was called on it."""
    confirm_round(client, season, people, round=1)
    first, second = Game.objects.order_by("number")
    services.deal_record(game=first, finishing_order=seated_ids(first))
    return services.game_time_called(game=first), second


def test_a_plan_link_confirmed_already_says_so_and_cannot_confirm_again(client, night):
    """Issue #28: reopening the round-1 plan link after confirming it and pressing Confirm
    created a second round over the one being played."""
    season, people = night
    link = url("night_plan", season, plan_query(people, low=4, high=4, round=1))
    first = confirm_fields(client.get(link))
    client.post(url("night_confirm", season), first)
    assert Game.objects.count() == 2
    again = client.get(link)  # the same link, opened again
    if "/night/confirm/" in again.text:  # on the old page: a fresh form, pressed
        client.post(url("night_confirm", season), confirm_fields(again))
    assert Game.objects.count() == 2
    assert "Round 1 was already confirmed" in again.text
    assert "/night/confirm/" not in again.text
    fields = {**first, "token": ["another"]}  # a copy of round 1's page, posted again
    answer = client.post(url("night_confirm", season), fields)
    assert answer.status_code == 409
    assert "round 1 was already confirmed" in answer.text
    assert Game.objects.count() == 2


def test_the_night_page_links_its_plan_to_the_round_it_plans(client, night):
    season, people = night
    answer = client.post(url("night", season), {
        "action": "plan", "present": [p.pk for p in people], "rounds": 1, "low": 4, "high": 4})
    assert "round=1" in answer["Location"]
    confirm_round(client, season, people, round=1)
    answer = client.post(url("night", season), {
        "action": "plan", "present": [p.pk for p in people], "rounds": 1, "low": 4, "high": 4})
    assert "round=2" in answer["Location"]


def test_new_game_same_table_stays_in_its_round(client, night):
    """Issue #28: "New game, same table" filed the new game as a new round, and the next
    round's presence list then ticked only that table."""
    season, people = night
    first, _ = table_one_ended(client, season, people)
    client.post(reverse("league:same_table", args=[first.pk]))
    again = Game.objects.get(number=3)
    assert seated_ids(again) == seated_ids(first)
    board = nights.night_board(season, rounds.night_of())
    assert len(board.rounds) == 1
    # the new game at table 1, listed with it
    assert [(t.game.number, t.table) for t in board.rounds[0]] == [(1, 1), (3, 1), (2, 2)]
    assert sorted(nights.night_ticks(season, rounds.night_of()).present) == sorted(
        p.pk for p in people)
    assert len(rounds.season_rounds(season)) == 1
    screen = client.get(url("tonight", season)).text  # the new game is table 1's too
    assert screen.count('-h">Table 1 <span') == 2 and screen.count('-h">Table 2 <span') == 1
    night_page = client.get(url("night", season))
    assert "Who is here for round 2?" in night_page.text
    assert len(re.findall(r'name="present" value="\d+" checked>', night_page.text)) == 8


def test_confirming_while_a_round_is_in_play_asks_first_naming_its_tables(client, night):
    season, people = night
    first, _ = table_one_ended(client, season, people)
    table_one = [seat.player for seat in first.seats.order_by("number")]
    page = client.get(url("night_plan", season, plan_query(table_one, low=4, high=4, round=2)))
    assert "Round 1 is still in play" in page.text
    assert "table 2 (game 2)" in page.text
    assert "<h1>Plan: round 2</h1>" in page.text and 'id="more-tables"' not in page.text
    fields = confirm_fields(page)
    refused = client.post(url("night_confirm", season), fields)
    assert refused.status_code == 409
    assert "round 1 is still in play: table 2 (game 2)" in refused.text
    # table 1's people play on: their table is round 2, not more tables of round 1
    assert "<h1>Start round 2 now?</h1>" in refused.text
    assert "Tonight's tables list the new ones as round 2." in refused.text
    assert "more tables" not in refused.text
    assert Game.objects.count() == 2
    fields["while_in_play"] = ["1"]
    client.post(url("night_confirm", season), fields)
    assert Game.objects.count() == 3


def test_a_round_that_seats_someone_still_playing_offers_the_way_not_a_confirm(client, night):
    """One person, one table: a plan seating people still at an open table offered "Confirm",
    which was then refused in words, and named the table once per person ("P4 at round 1,
    table 2 (game 2); P5 at round 1, table 2 (game 2); …"). The page names each table once
    with its people and offers what frees them (cancel an unplayed game, call time, enter
    who leaves) instead of a confirm; a confirm posted anyway is refused, naming each
    table once."""
    season, people = night
    _, second = table_one_ended(client, season, people)
    link = url("night_plan", season, plan_query(people, low=4, high=4, round=2))
    page = client.get(link)
    assert "/night/confirm/" not in page.text
    assert ('<a href="#still-playing">Not ready to confirm: 4 of these people are still at an '
            "open table.") in page.text  # said at the top of a long page too
    assert ">Round 2: to confirm once its people are free</h2>" in page.text
    notice = re.search(r'<div class="notice" id="still-playing">(.*?)</div>', page.text,
                       re.S).group(1)
    at_two = sorted(seat.player.name for seat in second.seats.select_related("player"))
    assert ("<strong>Round 2 cannot start yet:</strong> some of its players are still at an "
            "open table") in notice
    assert (f"<li><strong>Round 1, table 2 (game 2):</strong> <bdi>{at_two[0]}</bdi>, "
            f"<bdi>{at_two[1]}</bdi>, <bdi>{at_two[2]}</bdi> and <bdi>{at_two[3]}</bdi>: no "
            "deal has been played there yet") in notice
    assert notice.count("table 2 (game 2)") == 1 and "(game 1)" not in notice
    cancel = reverse("league:night_cancel_game", args=[season.pk, second.pk])
    assert f'href="{cancel}?next={quote(link, safe="")}">Cancel game 2…</a>' in notice
    assert 'id="in-play"' not in page.text  # no question will be asked: no confirm to press

    services.deal_record(game=second, finishing_order=seated_ids(second))
    notice = client.get(link).text
    assert (reverse("league:game_time_called", args=[second.pk]) + "?next="
            + quote(link, safe="") + '">Call time on game 2…') in notice
    assert (reverse("league:game_enter", args=[second.pk]) + "?next=" + quote(link, safe="")
            + '#seats">Enter who leaves at game 2') in notice
    assert "call time on it or enter their leaving there first." in notice

    ids = [str(p.pk) for p in people]
    fields = {"token": "t1", "round": ["2"], "table": [",".join(ids[:4]), ",".join(ids[4:])],
              "dealer": [ids[0], ids[4]]}
    for asked in ([], ["1"]):
        fields["while_in_play"] = asked
        refused = client.post(url("night_confirm", season), fields)
        assert refused.status_code == 409
        named = re.search(r"Nothing was created: (P\d), (P\d), (P\d) and (P\d) are still "
                          r"playing at round 1, table 2 \(game 2\): call time on it or enter "
                          "their leaving there first.", refused.text)
        assert set(named.groups()) == set(at_two)
        assert "anyway" not in refused.text
    assert Game.objects.count() == 2


def test_latecomers_while_a_round_plays_are_planned_as_more_of_its_tables(client, night):
    """Rounds are read from the games: latecomers' table started while round 1 plays is round
    1's table 3. The plan called it "Round 2"; it says what tonight's tables will show, and so
    does the question before it starts."""
    season, people = night
    confirm_round(client, season, people, round=1)
    late = [PlayerFactory(name=f"L{i}", clubs=[season.club]) for i in range(4)]
    page = client.get(url("night_plan", season, plan_query(late, low=4, high=4, round=2)))
    assert "<h1>Plan: more tables of round 1</h1>" in page.text
    assert "the new tables join round 1: tonight's tables will list them after its tables, " \
           "from table 3, not as round 2." in page.text
    assert ">More tables of round 1: to confirm now</h2>" in page.text
    assert "<h3>Table 3</h3>" in page.text and "<h3>Table 1</h3>" not in page.text
    assert "You will be asked before these tables start beside them." in page.text
    assert ">Confirm: start 1 more table of round 1</button>" in page.text
    fields = confirm_fields(page)
    asked = client.post(url("night_confirm", season), fields)
    assert asked.status_code == 409
    assert "<h1>Start 1 more table of round 1 now?</h1>" in asked.text
    assert "confirm again to start more tables of it anyway" in asked.text
    assert "as more tables of round 1: table 3." in asked.text
    assert ">Yes, start it anyway</button>" in asked.text
    assert 'class="error"' not in asked.text  # a question, not a fault
    fields["while_in_play"] = ["1"]
    night_page = client.post(url("night_confirm", season), fields, follow=True)
    assert [[t for _, t in tables] for tables in rounds.night_rounds(
        season, rounds.night_of())] == [[1, 2, 3]]
    assert "1 more table of round 1 confirmed: table 3 (game 3)." in night_page.text

    # Planned with a round after it: the pairs who meet again there met in round 1, not 2.
    later = client.get(url("night_plan", season, plan_query(
        [PlayerFactory(name=f"M{i}", clubs=[season.club]) for i in range(4)],
        low=4, high=4, round=2, rounds=2)))
    assert "<h1>Plan: more tables of round 1, then round 2</h1>" in later.text
    assert ("<bdi>M0</bdi> and <bdi>M1</bdi>: round 2, table 1; met before in round 1 "
            in later.text)


def test_a_game_with_no_deals_is_cancelled_from_the_night_page_after_a_preview(client, night):
    season, people = night
    confirm_round(client, season, people, round=1)
    first, second = Game.objects.order_by("number")
    night_page = client.get(url("night", season))
    cancel = reverse("league:night_cancel_game", args=[season.pk, second.pk])
    assert f'href="{cancel}"' in night_page.text
    preview = client.get(cancel)
    assert "Cancel game 2?" in preview.text and "P" in preview.text
    assert Game.objects.get(pk=second.pk).status == Game.OPEN  # a preview changes nothing
    answer = client.post(cancel)
    assert answer.status_code == 302
    assert Game.objects.get(pk=second.pk).status == Game.CANCELLED
    board = nights.night_board(season, rounds.night_of())
    assert [t.game.number for t in board.rounds[0]] == [1]
    assert AuditEntry.objects.filter(action="game cancelled").count() == 1
    tonight = client.get(url("tonight", season))
    for seat in second.seats.select_related("player"):
        assert seat.player.name not in tonight.text


def test_a_game_cancelled_from_the_plan_goes_back_to_the_plan(client, night):
    """"Cancel game 2…" offered on a plan that waits for its people went back to the night
    page, the plan and its swaps lost; it goes back to the plan, which can now confirm."""
    season, people = night
    _, second = table_one_ended(client, season, people)
    link = url("night_plan", season, plan_query(people, low=4, high=4, round=2))
    cancel = re.search(r'href="([^"]*)">Cancel game 2…</a>', client.get(link).text).group(1)
    cancel = html.unescape(cancel)
    assert cancel.startswith(reverse("league:night_cancel_game", args=[season.pk, second.pk]))
    asked = client.get(cancel)
    assert f'href="{html.escape(link)}">Keep it: go back</a>' in asked.text
    done = client.post(cancel, follow=True)
    assert done.redirect_chain[-1][0] == link
    assert Game.objects.get(pk=second.pk).status == Game.CANCELLED
    assert "/night/confirm/" in done.text and "Game 2 cancelled." in done.text
    for number, elsewhere in enumerate(("https://evil.example/", "//evil.example/"), 9):
        game = Game.objects.create(season=season, number=number, dealer=1)
        to = reverse("league:night_cancel_game", args=[season.pk, game.pk])
        assert client.post(to, {"next": elsewhere})["Location"] == url("night", season)


def test_a_game_with_deals_is_refused_with_a_conflict(client, night):
    season, people = night
    confirm_round(client, season, people, round=1)
    first = Game.objects.order_by("number").first()
    services.deal_record(game=first, finishing_order=seated_ids(first))
    answer = client.post(reverse("league:night_cancel_game", args=[season.pk, first.pk]))
    assert answer.status_code == 409
    assert "game 1 has 1 deal: a game that was played cannot be cancelled" in answer.text
    assert Game.objects.get(pk=first.pk).status == Game.OPEN


def test_a_round_confirmed_by_mistake_is_cancelled_whole(client, night):
    season, people = night
    confirm_round(client, season, people, round=1)
    for game in Game.objects.all():
        services.deal_record(game=game, finishing_order=seated_ids(game))
        services.game_time_called(game=game)
    confirm_round(client, season, people, round=2)
    cancel = reverse("league:night_cancel_round", args=[season.pk, 2])
    preview = client.get(cancel)
    assert "Cancel round 2?" in preview.text
    assert "Game 3" in preview.text and "Game 4" in preview.text
    client.post(cancel)
    assert list(Game.objects.filter(status=Game.CANCELLED).values_list("number", flat=True)
                .order_by("number")) == [3, 4]
    night_page = client.get(url("night", season))
    assert "Who is here for round 2?" in night_page.text
    assert len(rounds.season_rounds(season)) == 1


def test_only_the_clubs_organisers_cancel(client, night):
    season, people = night
    confirm_round(client, season, people, round=1)
    game = Game.objects.first()
    client.force_login(UserFactory(username="other"))
    answer = client.post(reverse("league:night_cancel_game", args=[season.pk, game.pk]))
    assert answer.status_code == 403
    answer = client.post(reverse("league:night_cancel_round", args=[season.pk, 1]))
    assert answer.status_code == 403
    assert not Game.objects.filter(status=Game.CANCELLED).exists()


def ticked_on(page):
    return {int(i) for i in re.findall(r'name="present" value="(\d+)" checked>', page.text)}


def test_a_cancelled_tables_people_are_still_here_for_the_next_round(client, night):
    """A round-1 table cancelled before its first deal: its people were seated, then the table
    was called off; they never left, so the next round's list ticks them (it left them out)."""
    season, people = night
    confirm_round(client, season, people, round=1)
    _, second = Game.objects.order_by("number")
    client.post(reverse("league:night_cancel_game", args=[season.pk, second.pk]))
    everyone = {p.pk for p in people}
    assert set(nights.night_ticks(season, rounds.night_of()).present) == everyone
    page = client.get(url("night", season))
    assert ticked_on(page) == everyone
    assert ("Ticked too: the people of game 2, cancelled before its first deal (they are still "
            "here).") in page.text


def test_a_cancelled_round_leaves_its_people_here(client, night):
    """Round 1 cancelled whole: everyone it seated is ticked for round 1 again."""
    season, people = night
    confirm_round(client, season, people, round=1)
    client.post(reverse("league:night_cancel_round", args=[season.pk, 1]))
    everyone = {p.pk for p in people}
    assert set(nights.night_ticks(season, rounds.night_of()).present) == everyone
    page = client.get(url("night", season))
    assert "Who is here for round 1?" in page.text and ticked_on(page) == everyone
    assert "Ticked: the people of games 1 and 2, cancelled before their first deal" in page.text


def test_a_cancelled_tables_player_who_left_elsewhere_is_not_ticked(client, night):
    """Someone of a cancelled table who then joined another table of the round and left it is
    gone: their leaving there decides."""
    season, people = night
    confirm_round(client, season, people, round=1)
    first, second = Game.objects.order_by("number")
    moved = second.seats.get(number=0).player
    services.game_cancel(game=second)
    services.deal_record(game=first, finishing_order=seated_ids(first))
    services.seat_change_apply(game=first, joining=[moved])
    services.deal_record(game=first, finishing_order=seated_ids(first))
    services.seat_change_apply(game=first, leaving=[moved])
    here = {p.pk for p in people} - {moved.pk}
    assert set(nights.night_ticks(season, rounds.night_of()).present) == here
    assert ticked_on(client.get(url("night", season))) == here
