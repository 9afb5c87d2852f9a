"""Every write operation of the schema, walked: whoever the data is not theirs is refused (401,
403 or 404 with a "detail") and nothing changes. A club's data is its organisers' (docs/api.md
"Who may do what"), a bot its author's, a table link records its own game's deals alone.

A new write operation fails test_every_write_operation_is_walked until it has a request here.
The league's writes by each kind of outsider, one by one, are in test_write_permissions.py;
this walks every operation with every outsider."""

import pytest
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from ladder import services as ladder
from ladder.models import Entry
from ladder.models import Game as LadderGame
from league import table_links
from league.models import Deal, Place, TableLink
from outside_bots import services as outside_bots
from outside_bots.models import OutsideBot
from tests.api.conftest import client_for
from tests.api.test_write_permissions import snapshot as league_rows
from tests.league.factories import PlayerFactory, UserFactory, make_game, seated_ids
from tournaments import services as tournaments

pytestmark = pytest.mark.django_db


@pytest.fixture
def world(game, organiser, settings):
    """Club A's open game with a deal, its season, a tournament and a table link; Ada's bot on
    the ladder; and another club's game with its own table link."""
    settings.OUTSIDE_BOT_ALLOWED_HOSTS = ["bots.example.org"]
    ada = UserFactory(username="ada", is_staff=False)
    bob = UserFactory(username="bob", is_staff=False)
    bots = {owner.username: outside_bots.outside_bot_create(
        name=f"{owner.username}-bot", url=f"https://bots.example.org/{owner.username}",
        owner=owner, by=owner) for owner in (ada, bob)}
    ladder.bots_sync()  # their games would be sent on commit, which a test never reaches
    entries = {name: Entry.objects.get(outside_bot=bot, preset="classic")
               for name, bot in bots.items()}
    other_game = make_game()
    other_organiser = UserFactory(username="other-organiser")
    other_game.season.club.organisers.add(other_organiser)
    players = seated_ids(game)
    return {
        "club": game.season.club_id, "season": game.season_id, "game": game.pk,
        "deal": game.deal_set.get().pk, "players": players, "player": players[0],
        "next": game.deal_set.count() + 1,
        "visitor": PlayerFactory(name="Visitor").pk,
        "tournament": tournaments.tournament_create(
            club=game.season.club, name="Cup", seats=3, games_per_table=1,
            entrants=[(n, "random") for n in ("R1", "R2", "R3")], by=organiser).pk,
        "link": (link := table_links.links_create(games=[game], by=organiser)[0]).pk,
        "own_link": link.token,
        "bot": bots["ada"].pk, "entry": entries["ada"].pk, "their_entry": entries["bob"].pk,
        "ada": ada, "bob": bob, "other_organiser": other_organiser,
        "other_link": table_links.links_create(games=[other_game], by=other_organiser)[0].token,
    }


def outsiders(world):
    """Everyone who must be refused, by what they are."""
    stranger = UserFactory(username="stranger", is_staff=False)
    linked, own_linked = APIClient(), APIClient()
    linked.credentials(HTTP_AUTHORIZATION=f"TableLink {world['other_link']}")
    own_linked.credentials(HTTP_AUTHORIZATION=f"TableLink {world['own_link']}")
    return {
        "anonymous": APIClient(),
        "signed-in stranger (session)": client_for(stranger),
        "organiser of another club (token)": client_for(world["other_organiser"], token=True),
        "author of another bot (token)": client_for(world["bob"], token=True),
        "table link of another game": linked,
        # A table's link records its game's deals, and does nothing else (docs/api.md).
        "table link of this game": own_linked,
    }


# (method, path template): the id the path names and a body the data's owner could send.
REQUESTS = {
    ("post", "/api/v1/bots/"): (None, lambda w: {"name": "new-bot",
                                                 "url": "https://bots.example.org/new"}),
    ("patch", "/api/v1/bots/{id}/"): ("bot", lambda w: {"description": "mine now"}),
    ("delete", "/api/v1/bots/{id}/"): ("bot", None),
    ("post", "/api/v1/bots/{id}/secret/"): ("bot", None),
    ("post", "/api/v1/clubs/"): (None, lambda w: {"name": "Mine"}),
    ("patch", "/api/v1/clubs/{id}/"): ("club", lambda w: {"name": "Renamed"}),
    ("post", "/api/v1/deals/"): (None, lambda w: {"game": w["game"], "number": w["next"],
                                                  "finishing_order": w["players"]}),
    ("put", "/api/v1/deals/{id}/"): ("deal", lambda w: {"finishing_order": w["players"][::-1]}),
    ("delete", "/api/v1/deals/{id}/"): ("deal", None),
    ("post", "/api/v1/games/"): (None, lambda w: {"season": w["season"],
                                                  "players": w["players"]}),
    ("post", "/api/v1/games/{id}/cancel/"): ("game", None),
    ("post", "/api/v1/games/{id}/reopen/"): ("game", None),
    ("post", "/api/v1/games/{id}/seat-change-preview/"): (
        "game", lambda w: {"leaving": w["players"][:1]}),
    ("post", "/api/v1/games/{id}/seat-changes/"): ("game", lambda w: {"leaving":
                                                                      w["players"][:1]}),
    ("post", "/api/v1/games/{id}/time-called/"): ("game", None),
    ("post", "/api/v1/ladder-games/"): (None, lambda w: {"entry": w["entry"],
                                                         "opponents": [w["their_entry"]]}),
    ("post", "/api/v1/ladder/{id}/new-version/"): ("entry", None),
    ("post", "/api/v1/ladder/{id}/pause/"): ("entry", None),
    ("post", "/api/v1/ladder/{id}/resume/"): ("entry", None),
    ("post", "/api/v1/outside-bots/"): (None, lambda w: {"name": "far-bot",
                                                         "url": "https://bots.example.org/far"}),
    ("patch", "/api/v1/outside-bots/{id}/"): ("bot", lambda w: {"enabled": False}),
    ("delete", "/api/v1/outside-bots/{id}/"): ("bot", None),
    ("post", "/api/v1/players/"): (None, lambda w: {"name": "Newcomer", "club": w["club"]}),
    ("patch", "/api/v1/players/{id}/"): ("player", lambda w: {"name": "Renamed"}),
    ("post", "/api/v1/players/{id}/join-club/"): ("visitor", lambda w: {"club": w["club"]}),
    ("post", "/api/v1/seasons/"): (None, lambda w: {"club": w["club"], "name": "Summer",
                                                    "starts_on": "2025-06-01"}),
    ("patch", "/api/v1/seasons/{id}/"): ("season", lambda w: {"name": "Renamed"}),
    ("post", "/api/v1/seasons/{id}/night-cancel-round/"): ("season", lambda w: {"round": 1}),
    ("post", "/api/v1/seasons/{id}/night-confirm/"): (
        "season", lambda w: {"tables": [{"players": w["players"]}], "while_in_play": True}),
    ("post", "/api/v1/seasons/{id}/night-end/"): ("season", None),
    ("post", "/api/v1/seasons/{id}/night-plan/"): ("season", lambda w: {"present":
                                                                        w["players"]}),
    ("post", "/api/v1/table-links/{id}/revoke/"): ("link", None),
    ("post", "/api/v1/tournaments/"): (None, lambda w: {
        "club": w["club"], "name": "Cup 2", "seats": 3, "games_per_table": 1,
        "entrants": [{"name": n, "bot": "random"} for n in ("R1", "R2", "R3")]}),
    ("post", "/api/v1/tournaments/{id}/cancel/"): ("tournament", None),
    ("post", "/api/v1/tournaments/{id}/resume/"): ("tournament", None),
    ("post", "/api/v1/tournaments/{id}/start/"): ("tournament", None),
}
# Whose alone a write is not: each user's own token (tests/accounts/test_tokens.py).
EVERYONES = {("post", "/api/v1/tokens/"), ("post", "/api/v1/tokens/rotate/")}
# Writes that make something new of the caller's own, which these outsiders may do.
THEIR_OWN = {
    ("post", "/api/v1/bots/"): {"signed-in stranger (session)",
                                "organiser of another club (token)",
                                "author of another bot (token)"},
    # staff status opens a club (docs/api.md "Who may do what")
    ("post", "/api/v1/clubs/"): {"organiser of another club (token)"},
    ("post", "/api/v1/deals/"): {"table link of this game"},
}
WRITE_METHODS = {"post", "put", "patch", "delete"}


def every_row():
    return (league_rows(),
            list(Deal.objects.values_list("id", "number", "transcript", "source")),
            list(Place.objects.values_list("deal_id", "player_id", "position")),
            list(TableLink.objects.values_list("id", "revoked_at")),
            list(OutsideBot.objects.values_list("id", "name", "url", "description", "enabled",
                                                "secret")),
            list(Entry.objects.values_list("id", "status", "version", "mu", "sigma")),
            LadderGame.objects.count(),
            list(Token.objects.values_list("user_id", "key")))


def test_every_write_operation_is_walked(organiser_client):
    schema = organiser_client.get("/api/schema/", {"format": "json"}).json()

    writes = {(method, path) for path, methods in schema["paths"].items()
              for method in methods if method in WRITE_METHODS}

    assert writes == set(REQUESTS) | EVERYONES


def send(client, write, world):
    method, template = write
    resource, make_body = REQUESTS[write]
    path = template.replace("{id}", str(world[resource])) if resource else template
    if make_body is None:
        return getattr(client, method)(path)
    return getattr(client, method)(path, make_body(world), format="json")


def owner_of(write, world, organiser):
    if write[1].startswith(("/api/v1/bots/", "/api/v1/ladder")):
        return world["ada"]
    if write[1].startswith("/api/v1/outside-bots/"):
        return UserFactory(username="root", is_superuser=True)
    return organiser


IDS = {"ids": lambda w: f"{w[0].upper()} {w[1]}"}


@pytest.mark.parametrize("write", sorted(REQUESTS), **IDS)
def test_each_request_here_reaches_its_owners_operation(world, organiser, write):
    """So a refusal below is for who asks, not for a body or id the operation cannot take."""
    answer = send(client_for(owner_of(write, world, organiser), token=True), write, world)

    assert answer.status_code in (200, 201, 204, 400, 409), answer.content
    assert answer.status_code != 400 or "detail" in answer.json(), answer.json()


@pytest.mark.parametrize("write", sorted(REQUESTS), **IDS)
def test_every_write_is_refused_to_whoever_it_is_not_theirs(world, write):
    answers = {}
    for who, client in outsiders(world).items():
        if who in THEIR_OWN.get(write, ()):
            continue
        before = every_row()
        answer = send(client, write, world)
        changed = every_row() != before
        answers[who] = (answer.status_code, "detail" in answer.json(), changed)

    refused = {who: a for who, a in answers.items()
               if a[0] in (401, 403, 404) and a[1] and not a[2]}
    assert answers == refused, answers
