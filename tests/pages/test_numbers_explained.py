"""Numbers explained: the ratings help, mean positions to two decimals, the rules of each
preset on the site with its role glossary, linked from its seasons."""

from html import unescape

import pytest
from django.urls import reverse

from gameplay.engine.options import PRESETS
from league import rating_jobs, services
from league.ratings import MODEL
from league.web.explain import START_SIGMA, last_in_first_deal, settling
from tests.league.factories import make_game, seated_ids

pytestmark = pytest.mark.django_db

RULE_PAGES = ["common", "scoring", *PRESETS]


def text_of(response):
    return " ".join(unescape(response.content.decode()).split())


def test_the_ratings_help_explains_the_rating_from_the_model_itself(client):
    text = text_of(client.get(reverse("league:rating_help")))

    assert "OpenSkill</a>'s Plackett–Luce model" in text and "rating = μ − 3σ" in text
    assert "Why a rating can be negative" in text
    mu, sigma, rating = last_in_first_deal()
    assert rating < 0  # what the paragraph explains
    assert f"a rating of {rating:.2f}" in text
    rows = text.split('<table id="settling">')[1].split("</table>")[0]
    assert f"<tr><td>0</td><td>{START_SIGMA:.2f}</td><td>0.00</td></tr>" in rows
    for row in settling():
        assert f"<tr><td>{row.deals}</td><td>{row.sigma:.2f}</td>" in rows
    # σ shrinks deal after deal: the figures are the model's, not invented.
    sigmas = [row.sigma for row in settling()]
    assert sigmas == sorted(sigmas, reverse=True) and sigmas[0] < MODEL.sigma
    half = next(r.deals for r in settling() if r.sigma <= START_SIGMA / 2)
    assert f"half its start by about {half} deals" in text


def test_every_rating_on_the_pages_links_to_the_help(client):
    game = make_game()
    ids = seated_ids(game)
    services.deal_record(game=game, finishing_order=ids)
    rating_jobs.ratings_recompute(scope=f"season:{game.season.pk}")
    rating_jobs.ratings_recompute(scope="all-time")
    help_url = reverse("league:rating_help")

    for url in (reverse("league:season_detail", args=[game.season.pk]),
                reverse("league:player_detail", args=[ids[0]]),
                reverse("league:club_detail", args=[game.season.club.pk])):
        assert help_url in client.get(url).content.decode(), url
    player_page = text_of(client.get(reverse("league:player_detail", args=[ids[0]])))
    assert "Rating now: <strong>" in player_page and "after 1 deal." in player_page


def test_the_player_page_shows_mean_position_with_two_decimals(client):
    game = make_game(season_kwargs={"scoring_limit": 20})
    a, b, c, d = seated_ids(game)
    for order in ([a, b, c, d], [b, a, c, d], [a, c, b, d], [a, b, c, d], [b, c, a, d],
                  [a, b, c, d], [a, b, c, d]):
        services.deal_record(game=game, finishing_order=order)

    page = text_of(client.get(reverse("league:player_detail", args=[a])))
    standings = text_of(client.get(reverse("league:season_detail", args=[game.season.pk])))

    # a finished 1, 2, 1, 1, 3, 1, 1: 10 / 7 = 1.43, as the standings say (the page said 1).
    assert "<td>7</td> <td>1.43</td>" in page
    assert "<td>1.43</td>" in standings


@pytest.mark.parametrize("page", RULE_PAGES)
def test_the_rules_of_each_preset_are_on_the_site(client, page):
    response = client.get(reverse("league:rules", args=[page]))

    assert response.status_code == 200
    text = text_of(response)
    assert "<article class=\"rules\"> <h1>" in text
    # Links between the rules files lead to their pages on the site.
    if page not in ("common",):
        assert f'href="{reverse("league:rules", args=["common"])}"' in text
    assert '.md"' not in text
    # Each rule's tests are set apart in small print, the rule itself first.
    assert '<span class="tested">Tested by <code>tests/engine/' in text
    assert "— tested by" not in text and "— <span" not in text


def test_the_rules_index_lists_every_preset(client):
    text = text_of(client.get(reverse("league:rules_index")))
    assert "<table>" in text
    for preset in PRESETS:
        assert f'href="{reverse("league:rules", args=[preset])}"' in text


def test_an_unknown_rules_page_is_a_404_naming_the_pages(client):
    response = client.get(reverse("league:rules", args=["poker"]))
    assert response.status_code == 404
    assert "There is no rules page 'poker'; the pages are " in text_of(response)


def test_the_rules_render_no_raw_html(client, tmp_path, monkeypatch, settings):
    from league.web import pages

    (tmp_path / "README.md").write_text("# Index\n")
    (tmp_path / "evil.md").write_text(
        "# Evil\n\n<script>alert(1)</script>\n\n[x](javascript:alert(1)) [c](README.md)\n")
    monkeypatch.setattr(pages, "RULES_DIR", tmp_path)
    pages.rules_pages.cache_clear()
    pages.rules_html.cache_clear()
    try:
        text = client.get(reverse("league:rules", args=["evil"])).content.decode()
    finally:
        pages.rules_pages.cache_clear()
        pages.rules_html.cache_clear()

    assert "<script>alert(1)" not in text and "&lt;script&gt;alert(1)" in text
    assert 'href="javascript:' not in text
    assert f'href="{reverse("league:rules_index")}"' in text


@pytest.mark.parametrize("preset,scum,vice_scum", [
    ("classic", "Scum", "Vice-Scum"), ("friday", "Idiot", "Vice Idiot"),
    ("wild-jokers", "Bum", "Vice Bum"), ("presidents-deck", "Turd", "Couch Potato"),
    ("school-scum", "Scum", "Vice-Scum"), ("modern", "Scum", "Vice-Scum")])
def test_each_preset_has_a_role_glossary_in_its_own_names(client, preset, scum, vice_scum):
    text = text_of(client.get(reverse("league:rules", args=[preset])))
    glossary = text.split('<dl class="glossary">')[1].split("</dl>")[0]

    names = [dt.split(" <span")[0] for dt in glossary.split("<dt>")[1:]]
    assert names == ["President", "Vice President", "Citizen", vice_scum, scum]
    if not PRESETS[preset].has_exchange:
        assert glossary.count("No exchange in this preset.") == 4
    else:
        assert f"the {scum}'s" in glossary  # what the President takes, in the preset's name


def test_the_glossary_says_what_each_exchange_does():
    from league.web.explain import glossary

    friday = {e.role.value: e.does for e in glossary("friday")}
    assert friday["scum"] == ("Gives the President their 2 highest cards; gets 2 cards back. "
                              "Leads the next deal.")
    school = {e.role.value: e.does for e in glossary("school-scum")}
    assert school["president"].startswith("Names any 2 cards in the Scum's hand")
    deck = {e.role.value: e.does for e in glossary("presidents-deck")}
    assert '"high" or "low"' in deck["president"] and "Turd" in deck["president"]
    assert glossary("wild-jokers")[-1].does.endswith("Deals the next deal.")


def test_a_season_links_to_the_rules_of_its_preset(client):
    game = make_game(season_kwargs={"preset": "wild-jokers"})
    season = game.season
    rules = reverse("league:rules", args=["wild-jokers"])

    assert f'href="{rules}"' in client.get(reverse("league:season_detail", args=[season.pk])).text
    assert f'href="{rules}"' in client.get(reverse("league:club_list")).text
    assert f'href="{rules}"' in client.get(reverse("league:club_detail",
                                                   args=[season.club.pk])).text
