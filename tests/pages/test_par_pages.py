"""Where club players see par (issue #31, "Where club players see it, without hands" and
"Explained"): the standings, a player's page, tonight's screen and the night's recap show
points against role par in words, every figure links to the Par help page, a season with
changed options says it has no role par (no zeros), and the pages' queries do not grow with
the league."""

import re

import pytest
from django.urls import reverse
from django.utils.html import escape

from gameplay.engine.options import preset
from league import par, services
from tests.league.factories import make_game, make_season, seated_ids
from tests.pages.test_query_counts import count, league_of

pytestmark = pytest.mark.django_db

HELP = reverse("league:par_help")


def presidents_deck_night(options=None):
    """Deal 1 leaves Ann President and Dan Turd; in deal 2 Dan goes out first, Ann third."""
    season = make_season(preset="presidents-deck", scoring_system="fixed-rounds",
                         scoring_deals=10, options=options or {})
    game = make_game(season=season, players=4)
    ids = seated_ids(game)
    for name, pk in zip(("Ann", "Bea", "Cy", "Dan"), ids, strict=True):
        game.seats.get(player_id=pk).player.__class__.objects.filter(pk=pk).update(name=name)
    services.deal_record(game=game, finishing_order=ids, transcript=None)
    services.deal_record(game=game, finishing_order=[ids[3], ids[1], ids[0], ids[2]],
                         transcript=None)
    return season, ids


def test_the_standings_show_each_players_points_against_par_linked_to_the_help():
    season, ids = presidents_deck_night()
    dan = par.season_pars(season).get(ids[3])

    page = client_get(reverse("league:season_detail", args=[season.pk]))

    assert f'title="{dan.words}">{dan.signed}</a>' in page
    assert f'Dan</bdi>: <a href="{HELP}">{dan.figure}</a>: {dan.because}' in page
    assert "started as Turd once and still finished first once" in dan.words
    assert "Ann</bdi>: " in page and "started as President once and finished third once" in page
    assert page.count(f'href="{HELP}"') >= 1 + 2 * 4  # the column heading, each figure, words


def test_a_player_page_shows_their_season_against_par():
    season, ids = presidents_deck_night()
    dan = par.season_pars(season).get(ids[3])

    page = client_get(reverse("league:player_detail", args=[ids[3]]))

    assert "Against role par" in page
    assert f'<a href="{HELP}">{dan.figure}</a>: {dan.because}' in page


def test_tonights_screen_shows_over_par_and_links_the_recap():
    season, ids = presidents_deck_night()
    dan = par.season_pars(season).get(ids[3])

    page = client_get(reverse("league:tonight", args=[season.pk]))
    news = _client.get(reverse("league:tonight_json", args=[season.pk])).json()

    assert f">{dan.signed}</a>" in page
    assert reverse("league:night_recap", args=[season.pk]) + "?night=" in page
    assert {t["name"]: t["over_par"] for t in news["totals"]}["Dan"] == round(dan.over, 2)


def test_the_recap_says_how_lucky_the_roles_were_and_how_each_played_against_them():
    season, ids = presidents_deck_night()
    pars = par.season_pars(season)

    page = client_get(reverse("league:night_recap", args=[season.pk]))

    dan, ann = pars.get(ids[3]), pars.get(ids[0])
    assert dan.luck < 0 < ann.luck  # a Turd's start is worth less than the table's mean
    assert "unlucky roles, worth" in dan.recap and "lucky roles, worth" in ann.recap
    assert f"Dan</bdi></strong>: {escape(dan.recap)}" in page
    assert f"Ann</bdi></strong>: {escape(ann.recap)}" in page
    # the split adds up: role luck + against par = points over the table's mean
    assert dan.luck + dan.over == pytest.approx(dan.points)
    # best against par first
    names = re.findall(r'<th scope="row"><a [^>]*><bdi>(\w+)</bdi>', page)
    assert names == sorted(names, key=lambda n: -pars.get(ids["Ann Bea Cy Dan".split().index(
        n)]).better)


def test_a_season_with_changed_options_says_it_has_no_role_par_and_shows_no_zeros():
    changed = {"pass_is_final": not preset("presidents-deck").pass_is_final}
    season, _ = presidents_deck_night(options=changed)

    standings = client_get(reverse("league:season_detail", args=[season.pk]))
    recap = client_get(reverse("league:night_recap", args=[season.pk]))

    for page in (standings, recap):
        assert "change options of the presidents-deck preset, so it has no role par" in page
        assert "over par:" not in page and "+0.0" not in page


def test_the_help_page_explains_role_par_with_a_worked_example():
    page = client_get(HELP)
    rows = {seat.name: seat for seat in par.worked_example()}

    assert "Role par: how it is computed" in page and "What it cannot see" in page
    assert "started as Turd, the worst role, and went out second, a climb credited" in page
    assert f"West is {rows['West'].over:.2f} against par" in page
    assert "(3 − " in page
    assert f"<td class=\"num\">{rows['North'].par:.2f}</td>" in page


@pytest.mark.parametrize("name", ["night_recap", "tonight"])
def test_the_par_pages_query_count_does_not_grow_with_players_and_deals(client, name):
    small, _, _ = league_of(players=4, deals=2)
    few = count(client, reverse(f"league:{name}", args=[small.season.pk]))
    big, _, _ = league_of(players=7, deals=12)
    many = count(client, reverse(f"league:{name}", args=[big.season.pk]))

    assert few == many


def test_the_help_page_reads_nothing(client):
    assert count(client, HELP) == count(client, HELP) <= 2


@pytest.fixture(autouse=True)
def _client_fixture(client):
    global _client
    _client = client


def client_get(address):
    response = _client.get(address)
    assert response.status_code == 200, address
    return response.content.decode()


def test_the_recap_of_a_night_that_is_not_a_date_is_refused_in_words():
    season, _ = presidents_deck_night()

    response = _client.get(reverse("league:night_recap", args=[season.pk]) + "?night=soon")

    assert response.status_code == 400
    assert "a night is a date written YYYY-MM-DD, not &#x27;soon&#x27;" in response.text


def test_a_players_page_reads_par_in_the_same_queries_whatever_their_seasons(client):
    """player_pars: two queries, whatever the number of seasons the player played."""
    counts = []
    for seasons in (1, 3):
        people = None
        for n in range(seasons):
            season = make_season(preset="presidents-deck", scoring_system="fixed-rounds",
                                 scoring_deals=10, club=people[0].clubs.first() if people
                                 else None)
            game = make_game(season=season, players=people or 4)
            people = [seat.player for seat in game.seats.order_by("number")]
            services.deal_record(game=game, finishing_order=seated_ids(game)[n:]
                                 + seated_ids(game)[:n], transcript=None)
        assert len(par.player_pars(people[0])) == seasons
        counts.append(count(client, reverse("league:player_detail", args=[people[0].pk])))

    assert counts[0] == counts[1]
