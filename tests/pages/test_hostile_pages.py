"""Hostile input to every HTML page: a walk over all URL patterns of config/urls.py (not the API,
which the schemathesis walks cover; of the admin only its login and index) with real ids, ids of
another club's or author's rows, 0 and a number too large for any id column, junk query strings
and junk form bodies, as an anonymous reader, a signed-in user, a bot author and a club's
organiser. No answer may be a 5xx or show a traceback. New pages are walked as they are added.

Each request runs in a transaction rolled back after it, so every one meets the same league.
"""

import time

import pytest
from django.db import connection, transaction
from django.test import Client
from django.urls import URLResolver, get_resolver, reverse

from ladder import services as ladder
from league import nights
from league import services as league
from league.models import AuditEntry
from league.web.organiser_forms import SeasonForm
from outside_bots import services as outside_bots
from tests.league.factories import (
    ClubFactory,
    PlayerFactory,
    UserFactory,
    make_game,
    make_season,
    seated_ids,
)
from tests.tournaments.helpers import ENTRANTS
from tournaments import services as tournaments

pytestmark = pytest.mark.django_db

TOO_BIG = "99999999999999999999"  # past any id column (bigint ends at 9223372036854775807)
# Percent-encoded as sent: a lone '%', format strings, NUL, bytes that are not UTF-8.
QUERY_JUNK = ["abc", "-1", "99999", TOO_BIG, "%25", "%25s", "%25(x)d", "%00", "%ff%fe"]
LONG = "x" * 10_000  # in one field or parameter at a time
QUERY_NAMES = ["page", "q", "order", "preset", "players", "night", "next", "undo", "revoke",
               "correct", "delete", "reopen", "present", "rounds", "low", "high", "seed",
               "round", "swap", "swap_a", "swap_b", "status", "owner", "version"]
# Every field the pages' forms post: each junk body gives each of them a junk value.
FIELDS = ["table", "dealer", "deal", "token", "number", *(f"place_{n}" for n in range(1, 7)),
          "leaving", "joining", "then", "while_in_play", "action", "name", "high", "low",
          "rounds", "present", "swap", "swap_a", "swap_b", "swap_round", "seed", "round",
          "next", "kept_offline", "secret_tag", "opponents", "text", "url", "presets",
          "preset", "description", "runtime", "scoring_system", "scoring_limit",
          "scoring_deals", "scoring_target", "starts_on", "ends_on", "format", "seats",
          "games_per_table", "bot-TOTAL_FORMS", "bot-0-bot", "bot-0-name", "bot-0-settings",
          "login", "password", "email", "username", "password1", "password2"]
FORM_JUNK = ["", "%(x)d", "\x00", TOO_BIG, "1e309"]


def junk_query() -> str:
    """Each parameter a page reads given a junk value (a different one for each)."""
    return "&".join(f"{name}={QUERY_JUNK[i % len(QUERY_JUNK)]}"
                    for i, name in enumerate(QUERY_NAMES))


def junk_form(turn: int) -> dict:
    """Every field a page's form posts, each given a junk value (which one, by ``turn``)."""
    return {name: FORM_JUNK[(i + turn) % len(FORM_JUNK)] for i, name in enumerate(FIELDS)}


# Only the admin's pages a visitor meets first: the rest is Django's own.
ADMIN = ["admin:login", "admin:index"]


def url_patterns(resolver=None, namespace=""):
    """(name, its keyword arguments) of every page, the API and the admin left out."""
    for pattern in (resolver or get_resolver()).url_patterns:
        if isinstance(pattern, URLResolver):
            prefix = str(pattern.pattern)
            if prefix.startswith(("api/", "admin/")):
                continue
            inner = f"{namespace}{pattern.namespace}:" if pattern.namespace else namespace
            yield from url_patterns(pattern, inner)
        elif not str(pattern.pattern).startswith(("api/", "admin/")):
            yield f"{namespace}{pattern.name or ''}", list(pattern.pattern.regex.groupindex)


@pytest.fixture
def league_of_two_clubs(settings):
    """Club A (organised by org, a round of two tables, a deal recorded, a tournament with a
    game played) and club B (its own organiser, a table, a deal); ada's and bob's outside bots
    on the ladder. The arguments of each page's URL for A's (and ada's) rows and for B's
    (and bob's)."""
    settings.RATELIMIT_ENABLE = False
    settings.AXES_ENABLED = False
    settings.OUTSIDE_BOT_ALLOWED_HOSTS = ["127.0.0.1:9"]

    def club_night(organiser_name, prefix, tables):
        season = make_season(scoring={"system": "penalty", "limit": 50})
        organiser = UserFactory(username=organiser_name, is_staff=False)
        season.club.organisers.add(organiser)
        players = [PlayerFactory(name=f"{prefix}{i}", clubs=[season.club])
                   for i in range(4 * tables)]
        games = nights.night_confirm(season=season, by=organiser, tables=[
            (players[4 * t:4 * t + 4], 0) for t in range(tables)])
        deal = league.deal_record(game=games[0], finishing_order=seated_ids(games[0]))
        return season, games[0], players[0], deal

    season_a, game_a, player_a, deal_a = club_night("org", "A", 2)
    season_b, game_b, player_b, deal_b = club_night("orgb", "B", 1)
    ada = UserFactory(username="ada", is_staff=False)
    bob = UserFactory(username="bob", is_staff=False)
    bots = [outside_bots.outside_bot_create(name=f"{owner.username}-1", owner=owner,
                                            url=f"http://127.0.0.1:9/{owner.username}",
                                            presets=["classic"])
            for owner in (ada, bob)]
    ladder.bots_sync()  # their entries, each with its validation game (not played)
    entries = [bot.ladder_entries.get() for bot in bots]
    ladder_games = [entry.seats.first().game_id for entry in entries]

    def tournament(season, name):
        return tournaments.tournament_create(
            club=season.club, name=name, entrants=ENTRANTS, seats=4, games_per_table=1,
            scoring={"system": "fixed-rounds", "deals": 1})

    cup, cup_b = tournament(season_a, "Cup"), tournament(season_b, "Cup B")
    cup.tables = [tournaments._tables_of_round(cup, 0)]
    seated, result = tournaments.tournament_game_play(tournament=cup, key=(0, 0, 0))
    played = tournaments.tournament_game_store(tournament=cup, key=(0, 0, 0), seated=seated,
                                               result=result)
    link_a, link_b = game_a.table_links.get(), game_b.table_links.get()

    def arguments(mine):
        pick = 0 if mine else 1
        return {
            "club_id": (season_a.club_id, season_b.club_id)[pick],
            "season_id": (season_a.pk, season_b.pk)[pick],
            "link_id": (link_a.pk, link_b.pk)[pick],
            "game_id": (game_a.pk, game_b.pk)[pick],
            "token": (link_a.token, link_b.token)[pick],
            "number": (1, 2)[pick],
            "player_id": (player_a.pk, player_b.pk)[pick],
            "deal_id": (deal_a.pk, deal_b.pk)[pick],
            "bot_id": bots[pick].pk,
            "entry_id": entries[pick].pk,
            "name": bots[pick].name,
            "page": ("classic", "no-such-page")[pick],
            "key": "abc", "uidb36": "1",
            # the same argument names for other things on some pages:
            "ladder:game_id": ladder_games[pick],
            "pk": (cup.pk, cup_b.pk)[pick],
            "gameplay:deal_replay:pk": played.pk,
            "bot_protocol_schema:name": ("hello", "no-such-message")[pick],
        }

    users = {"anonymous": None, "signed-in": UserFactory(username="plain", is_staff=False),
             "author": ada, "organiser": season_a.club.organisers.get()}
    return arguments, users


def page_urls(arguments):
    """(name, URL) of each page with A's ids, B's ids, 0 and a number past any id."""
    mine, theirs = arguments(True), arguments(False)

    def argument(values, name, key):
        for specific in (f"{name}:{key}", f"{name.split(':')[0]}:{key}"):
            if specific in values:
                return values[specific]
        return values[key]

    for name, keys in [*url_patterns(), *((n, []) for n in ADMIN)]:
        if not name:  # the favicon's redirect
            continue
        if not keys:
            yield name, "mine", reverse(name)
            continue
        numbers = [k for k in keys if k.endswith("id") or k in ("pk", "number")]
        yield name, "mine", reverse(name, kwargs={k: argument(mine, name, k) for k in keys})
        yield name, "theirs", reverse(name, kwargs={k: argument(theirs, name, k) for k in keys})
        for odd in ("0", TOO_BIG):
            yield name, odd, reverse(name, kwargs={
                k: odd if k in numbers else argument(mine, name, k) for k in keys})


@pytest.mark.parametrize("page", ["league:organise_club", "accounts:profile", "admin:index"])
def test_a_page_to_sign_in_for_with_an_address_too_long_to_come_back_to_says_so(client, page):
    """The sign-in redirect carries the page's address to come back to; past Django's longest
    redirect (16,384 characters) Django refused it with a bare "Bad Request (400)"."""
    page = reverse(page, args=[ClubFactory().pk] if page.startswith("league:") else [])
    address = f"{page}?q={'x' * 17_000}"

    answer = client.get(address)

    assert answer.status_code == 400
    assert (f"This page&#x27;s address ({len(address):,} characters) is too long to come back "
            "to after signing in: the address to sign in at, which carries it, may have at "
            "most 16,384 characters") in answer.text
    assert "Open the page without the text after" in answer.text
    assert client.get(f"{page}?q=short").status_code == 302  # to sign in, as before


@pytest.mark.slow
def test_no_page_answers_hostile_input_with_a_server_error(league_of_two_clubs, capsys):
    arguments, users = league_of_two_clubs
    clients = {}
    for who, user in users.items():
        clients[who] = Client(raise_request_exception=True)
        if user is not None:
            clients[who].force_login(user)
    failures, sent, started = [], 0, time.monotonic()

    def send(who, method, url, what, **kwargs):
        nonlocal sent
        sent += 1
        try:
            with transaction.atomic():
                answer = getattr(clients[who], method)(url, **kwargs)
                body = (b"".join(answer.streaming_content) if answer.streaming
                        else answer.content)
                transaction.set_rollback(True)
        except Exception as e:  # noqa: BLE001  (what the walk reports)
            failures.append(f"{method.upper()} {url} {what} as {who}: {e!r}"[:300])
            return
        if answer.status_code >= 500 or b"Traceback" in body:
            failures.append(f"{method.upper()} {url} {what} as {who}: {answer.status_code} "
                            f"{body[:200]!r}")

    for name, ids, url in page_urls(arguments):
        if ids != "mine":
            send("organiser", "get", url, f"with ids {ids}")
            if name != "account_logout":
                send("organiser", "post", url, f"with ids {ids}", data={"name": "x"})
            continue
        for who in ("anonymous", "signed-in", "organiser"):
            send(who, "get", url, "")
        send("organiser", "get", f"{url}?{junk_query()}", "with a junk query")
        send("author", "get", f"{url}?q={LONG}&page=1&page=x", "with a long ?q=")
        if name == "account_logout":
            continue
        send("anonymous", "post", url, "with no fields")
        send("signed-in", "post", url, "with junk fields", data=junk_form(0))
        for who in ("organiser", "author"):
            for turn in range(len(FORM_JUNK)):  # each field meets each junk value
                send(who, "post", url, f"with junk fields ({turn})", data=junk_form(turn))
        send("organiser", "post", url, "with a long name and text",
             data={"name": LONG, "text": LONG, "table": [LONG, "1"]})
        send("organiser", "post", url, "with bytes that are not UTF-8",
             data=b"name=%ff%fe&table=\xff", content_type="application/x-www-form-urlencoded")

    with capsys.disabled():
        print(f"\n{sent} requests in {time.monotonic() - started:.1f} s "
              f"on {connection.vendor}")
    assert failures == []


def test_saving_a_players_name_or_a_season_unchanged_records_no_change(client):
    """The rename form or the season's form sent as shown (a second click, a tab sent again)
    changes nothing: before, each wrote an audit row of a change with nothing in it ('player
    changed' or 'season changed', details {}) to the club's history."""
    season = make_season()
    organiser = UserFactory(username="olga", is_staff=False)
    season.club.organisers.add(organiser)
    player = PlayerFactory(name="Ann", clubs=[season.club])
    client.force_login(organiser)
    form = SeasonForm(initial=SeasonForm.initial_for(season=season))
    shown = {field.html_name: field.value() for field in form
             if field.value() not in (None, False)}

    renamed = client.post(reverse("league:organise_player_rename",
                                  args=[season.club_id, player.pk]), {"name": "Ann"})
    saved = client.post(reverse("league:organise_season_edit", args=[season.pk]), shown)

    assert renamed.status_code == saved.status_code == 302
    assert list(AuditEntry.objects.filter(
        action__in=["player changed", "season changed"]).values("action", "details")) == []
    assert client.post(reverse("league:organise_player_rename", args=[season.club_id, player.pk]),
                       {"name": "Anne"}).status_code == 302
    assert list(AuditEntry.objects.filter(action="player changed").values_list("details")) == [
        ({"name": ["Ann", "Anne"]},)]


def test_the_admins_seat_change_takes_an_id_past_any_column_as_no_one(client):
    """?leaving=<an id past any column> was a 500 on SQLite (OverflowError: Python int too
    large to convert to SQLite INTEGER); it is no one, as any other id of no player."""
    game = make_game()
    client.force_login(UserFactory(username="root", is_superuser=True))
    address = reverse("admin:league_game_seat_change", args=[game.pk])

    for asked in ({"leaving": TOO_BIG}, {"joining": TOO_BIG}, {"leaving": "0"}):
        assert client.get(address, asked).status_code == 302, asked
        assert client.post(address, {**asked, "confirm": "1"}).status_code == 302, asked
    assert game.seats.count() == 4
