"""Seating you can read (issue #28): the plan lists which pairs meet again and where, and states
the fewest repeats possible (docs/seating.md "A lower bound on repeats") beside its own."""

import pytest
from django.urls import reverse

from league import nights
from league.seating import History, Round, Table, repeats, score
from tests.league.factories import PlayerFactory, UserFactory, make_season

pytestmark = pytest.mark.django_db


def test_repeats_name_each_pair_meeting_again_with_its_table_and_back_to_back():
    history = History.from_rounds([Round(0, (Table((1, 2, 3), 1), Table((4, 5), 4)))])
    plan = [Round(1, (Table((5, 4), 5), Table((1, 2, 6), 6))),
            Round(2, (Table((1, 3, 6), 1), Table((2, 4, 5), 2)))]
    found = repeats(plan, history)
    assert [(r.pair, r.round, r.table, r.earlier, r.back_to_back) for r in found] == [
        ((4, 5), 1, 0, (0,), True), ((1, 2), 1, 1, (0,), True),
        ((1, 3), 2, 0, (0,), False), ((1, 6), 2, 0, (1,), True),
        ((4, 5), 2, 1, (0, 1), True)]
    assert len(found) == score(plan, history).repeats


def test_thirteen_people_over_three_rounds_reach_the_fewest_possible():
    """docs/seating.md's benchmark: 13 people at 4+4+5 over 3 rounds, bound 8, reached."""
    season = make_season()
    people = [PlayerFactory(name=f"P{i:02}", clubs=[season.club]) for i in range(13)]
    plan = nights.night_plan(season=season, present=people, rounds=3, preferred=(4, 5))
    assert plan.fewest_repeats == 8
    assert len(plan.repeats) == plan.score.repeats >= 8
    for r in plan.repeats:  # each met before tonight in an earlier round of the plan
        assert r.earlier and max(r.earlier) < r.round and 1 <= r.table <= 3
        assert r.back_to_back == (r.round - 1 in r.earlier)
        table = plan.rounds[r.round - 1].tables[r.table - 1]
        assert r.a in table.seats and r.b in table.seats
    assert sum(r.back_to_back for r in plan.repeats) == plan.score.back_to_back


def test_the_plan_page_lists_the_repeats_and_the_fewest_possible(client):
    season = make_season()
    organiser = UserFactory(username="org")
    season.club.organisers.add(organiser)
    people = [PlayerFactory(name=f"P{i:02}", clubs=[season.club]) for i in range(13)]
    client.force_login(organiser)
    query = "?" + "&".join(f"present={p.pk}" for p in people) + "&rounds=3&low=4&high=5"
    page = client.get(reverse("league:night_plan", args=[season.pk]) + query)
    plan = nights.night_plan(season=season, present=people, rounds=3, preferred=(4, 5))
    assert '<strong id="fewest-repeats">8</strong>' in page.text
    assert page.text.count("<li", page.text.index('class="meet-again"')) >= len(plan.repeats)
    first = plan.repeats[0]
    assert (f"<bdi>{first.a}</bdi> and <bdi>{first.b}</bdi>: round {first.round}, "
            f"table {first.table}; met before in round {first.earlier[0]}") in page.text
    assert page.text.count("back to back</strong>") == plan.score.back_to_back
    assert "tap-hint" in page.text and 'src="/static/league/plan.js"' in page.text
