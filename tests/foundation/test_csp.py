"""Every page and the API docs carry a strict Content-Security-Policy: our origin only, and
inline scripts and styles only with the request's nonce (settings CONTENT_SECURITY_POLICY)."""

import re

import pytest
from django.urls import reverse

from league import services
from tests.league.factories import make_game, seated_ids
from tests.pages.test_reads import transcript_for
from tests.tournaments.helpers import small_tournament
from tests.tournaments.test_replays import stored_game

pytestmark = pytest.mark.django_db


def policy(response) -> dict[str, list[str]]:
    header = response["Content-Security-Policy"]
    return {name: values for name, *values in (part.split() for part in header.split(";"))}


def nonce_of(response) -> str:
    (nonce,) = re.findall(r"'nonce-([^']+)'", policy(response)["script-src"][-1])
    return nonce


@pytest.fixture
def pages():
    game = make_game()
    a = seated_ids(game)[0]
    deal = services.deal_record(game=game, transcript=transcript_for(4))
    tournament = small_tournament()
    stored = stored_game(tournament)
    return ["/", reverse("league:club_list"),
            reverse("league:season_detail", args=[game.season.pk]),
            reverse("league:game_detail", args=[game.pk]),
            reverse("league:player_detail", args=[a]),
            reverse("league:deal_replay", args=[deal.pk]),
            reverse("league:replay_upload"),
            reverse("gameplay:tournament", args=[tournament.pk]),
            reverse("gameplay:deal_replay", args=[stored.pk, 1]),
            "/api/docs/", "/admin/login/"]


def test_pages_and_the_api_docs_allow_only_our_own_origin(client, pages):
    for url in pages:
        response = client.get(url)
        assert response.status_code == 200, url
        directives = policy(response)
        assert directives["default-src"] == ["'self'"], url
        assert directives["object-src"] == ["'none'"]
        assert directives["frame-ancestors"] == ["'none'"]
        for kind in ("script-src", "style-src"):
            assert directives[kind][0] == "'self'"
            assert "'unsafe-inline'" not in directives[kind], url


def test_inline_scripts_and_styles_carry_the_nonce_and_no_element_has_a_style(client, pages):
    for url in pages:
        response = client.get(url)
        html = response.text
        # Data blocks (json_script) are not run, so the policy does not apply to them.
        inline = re.findall(r"<(script|style)(?![^>]*\b(?:src=|type=\"application/json))([^>]*)>",
                            html)
        if inline:
            nonce = nonce_of(response)
            for tag, attributes in inline:
                assert f'nonce="{nonce}"' in attributes, (url, tag, attributes)
        assert not re.search(r"<[^>]+\sstyle=", html), url


def test_each_request_gets_its_own_nonce(client):
    url = "/api/docs/"
    assert nonce_of(client.get(url)) != nonce_of(client.get(url))
