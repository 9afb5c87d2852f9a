"""The plan page's words about table sizes, as an organiser reads them while latecomers
arrive: the tables the plan made, not only the sizes asked for."""

import re

import pytest
from django.urls import reverse

from tests.league.factories import PlayerFactory, UserFactory, make_season

pytestmark = pytest.mark.django_db


@pytest.fixture
def organiser_of():
    season = make_season(preset="classic", scoring_limit=20)
    organiser = UserFactory(username="org")
    season.club.organisers.add(organiser)
    return season, organiser


def plan_words(client, season, people, low, high):
    query = "&".join(f"present={p.pk}" for p in people) + f"&low={low}&high={high}"
    page = client.get(reverse("league:night_plan", args=[season.pk]) + "?" + query)
    assert page.status_code == 200
    return re.search(r"<p>(\d+ people[^<]*)</p>", page.text).group(1)


def test_two_latecomers_are_told_they_sit_at_a_table_of_two(client, organiser_of):
    """Two people cannot sit at the 4 to 5 preferred: the page says the table of 2 it plans
    rather than 'tables of 4 to 5'."""
    season, organiser = organiser_of
    people = [PlayerFactory(name=f"P{i}", clubs=[season.club]) for i in range(2)]
    client.force_login(organiser)
    words = plan_words(client, season, people, 4, 5)
    assert words.startswith("2 people at 1 table of 2")
    assert "outside the 4 to 5 preferred" in words


def test_thirteen_people_are_told_their_tables_sizes(client, organiser_of):
    season, organiser = organiser_of
    people = [PlayerFactory(name=f"P{i}", clubs=[season.club]) for i in range(13)]
    client.force_login(organiser)
    words = plan_words(client, season, people, 4, 5)
    assert re.match(r"13 people at 3 tables: [45], [45] and [45] players\.", words)
    assert "preferred" not in words
