"""What the league's pages say with awkward data: a season with no game, a game of one deal."""

import re

import pytest
from django.urls import reverse

from league import services
from tests.league.factories import ClubFactory, UserFactory, make_game, make_season, seated_ids
from tests.tournaments.helpers import small_tournament
from tournaments import services as tournaments
from tournaments.models import TournamentGame

pytestmark = pytest.mark.django_db


def page(client, url):
    answer = client.get(url)
    assert answer.status_code == 200
    return answer.content.decode()


def words(html):
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", "", html))


def test_a_season_with_no_game_says_so(client):
    season = make_season()

    text = words(page(client, reverse("league:season_detail", args=[season.pk])))

    assert "0 games" not in text
    assert "No game yet." in text
    assert "No rating yet" in text  # under the ratings table's headings


def test_a_game_of_one_deal_is_not_one_deals(client):
    game = make_game(players=4)
    services.deal_record(game=game, finishing_order=seated_ids(game))

    text = words(page(client, reverse("league:season_detail", args=[game.season.pk])))

    assert f"Game {game.number}: open, 1 deal" in text and "1 deals" not in text


def test_a_right_to_left_club_name_keeps_its_count_of_seasons_after_it(client):
    """Unisolated, "نادي الورق · 0 seasons" is shown as "0 · نادي الورق seasons": the number
    joins the right-to-left name."""
    club = ClubFactory(name="نادي الورق")

    html = page(client, reverse("home"))

    link = f'<a href="{reverse("league:club_detail", args=[club.pk])}">{club.name}</a>'
    assert f"<bdi>{link}</bdi> · 0 seasons" in html


def test_a_bot_clubs_page_does_not_say_no_game_was_played_after_its_tournament(
        client, django_capture_on_commit_callbacks):
    cup = small_tournament("Cup", games_per_table=1)
    with django_capture_on_commit_callbacks(execute=True):
        tournaments.tournament_start(tournament=cup)
    assert TournamentGame.objects.filter(tournament=cup).exists()

    text = words(page(client, reverse("league:club_detail", args=[cup.club.pk])))

    assert "No game played yet." not in text
    assert "its bot tournaments' games are on their pages" in text


def test_a_signed_in_visitor_refused_an_organisers_page_is_offered_a_way_on(client):
    season = make_season()
    client.force_login(UserFactory(username="not-an-organiser"))

    answer = client.get(reverse("league:organise_club", args=[season.club.pk]))

    assert answer.status_code == 403
    html = answer.content.decode()
    assert f'<a class="button" href="{reverse("home")}">Home</a>' in html


def title(html):
    return re.search(r"<title>(.*?)</title>", html, re.S).group(1).strip()


@pytest.mark.parametrize(("address", "expected"), [
    (reverse("league:rules_index"), "Rules of President, as the League plays them"),
    (reverse("league:rules", args=["common"]), "Rules common to every preset"),
    (reverse("league:rules", args=["classic"]), "classic rules"),
])
def test_a_rules_pages_title_says_rules_once(client, address, expected):
    assert title(page(client, address)) == f"{expected} – President League"


def test_a_refused_searchs_title_is_not_the_whole_search(client):
    answer = client.get(reverse("league:player_search"), {"q": "x" * 120})

    assert answer.status_code == 400
    assert len(title(answer.content.decode())) < 80


def test_the_ladders_title_is_its_heading(client):
    html = page(client, reverse("ladder:table") + "?preset=friday")

    assert title(html) == "Bot ladder: friday – President League"
    assert "<h1>Bot ladder: friday</h1>" in html


def test_logging_in_and_signing_up_are_called_as_the_menu_calls_them(client):
    """The menu says "Log in"; the page it opens said "Sign In", its tab "Sign In", and the
    sign-up page's tab "Signup"."""
    login = page(client, reverse("account_login"))
    signup = page(client, reverse("account_signup"))

    assert title(login) == "Log in – President League"
    assert re.search(r"<h1>\s*Log in\s*</h1>", login)
    assert "Sign In" not in login
    assert title(signup) == "Sign up – President League"


def test_a_season_with_no_deal_does_not_link_its_transcripts(client):
    season = make_season()
    export = reverse("league:export_transcripts", args=[season.pk])
    assert client.get(export).status_code == 404  # nothing to export yet

    html = page(client, reverse("league:season_detail", args=[season.pk]))

    assert f'href="{export}"' not in html
    assert f'href="{reverse("league:export_standings", args=[season.pk])}"' in html
