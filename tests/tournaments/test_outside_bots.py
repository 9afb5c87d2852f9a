"""Outside bots registered by administrators and entered in tournaments as ``outside:<name>``:
only registered URLs are called, a raw URL cannot be entered, and a bot disabled after entry
is not called (its seat plays safe moves as faults)."""

from collections import Counter

import pytest
from prometheus_client.parser import text_string_to_metric_families

from bot_games.models import BotFault
from league.models import AuditEntry
from outside_bots import services as outside_bots
from outside_bots.errors import OutsideBotError
from outside_bots.models import OutsideBot
from tests.bots.test_outside import Server
from tests.league.factories import UserFactory
from tests.tournaments.helpers import ENTRANTS, small_tournament, tournament_faults
from tournaments import services
from tournaments.errors import TournamentError
from tournaments.models import Tournament

pytestmark = pytest.mark.django_db


@pytest.fixture
def server(settings):
    s = Server()
    settings.OUTSIDE_BOT_ALLOWED_HOSTS = [s.allowed]
    yield s
    s.close()


@pytest.fixture
def registered(server):
    return outside_bots.outside_bot_create(name="mine", url=server.url)


def entrants_with(spec):
    return [*ENTRANTS[:3], ("Outsider", spec)]


def test_a_registered_bot_is_entered_by_name_and_its_url_is_called(server, registered):
    tournament = small_tournament(entrants=entrants_with("outside:mine"))
    services.tournament_start(tournament=tournament)
    tournament.refresh_from_db()
    outsider = [e.player.name for e in tournament.entrants.order_by("id")].index("Outsider")
    key = next((0, t, 0) for t, table in enumerate(tournament.tables[0]) if outsider in table)

    seated, result = services.tournament_game_play(tournament=tournament, key=key)

    seat = seated.index(outsider)
    assert result.stats[seat].faults == []
    assert any(r["decision"] == "play" for r in server.requests)
    assert result.bots[seat] == "outside:mine"  # never the URL
    assert server.url not in str(result.transcript)
    assert tournament.entrants.get(player__name="Outsider").bot == "outside:mine"


def test_a_bot_disabled_after_entry_is_not_called_and_its_seat_plays_safe(server, registered):
    tournament = small_tournament(entrants=entrants_with("outside:mine"))
    services.tournament_start(tournament=tournament)
    tournament.refresh_from_db()
    outside_bots.outside_bot_update(bot=registered, enabled=False)
    outsider = [e.player.name for e in tournament.entrants.order_by("id")].index("Outsider")
    key = next((0, t, 0) for t, table in enumerate(tournament.tables[0]) if outsider in table)

    seated, result = services.tournament_game_play(tournament=tournament, key=key)

    faults = result.stats[seated.index(outsider)].faults
    assert faults and {f["kind"] for f in faults} == {"error"}
    assert "outside:mine is disabled" in faults[0]["message"]
    assert server.requests == []


@pytest.mark.postgres
def test_every_fault_of_a_tournament_game_is_stored_with_the_game(
        server, registered, django_capture_on_commit_callbacks):
    server.mode = "garbage"
    tournament = small_tournament(entrants=entrants_with("outside:mine"))
    with django_capture_on_commit_callbacks(execute=True):
        services.tournament_start(tournament=tournament)
    tournament.refresh_from_db()
    assert tournament.status == Tournament.FINISHED
    outsider = tournament.entrants.get(player__name="Outsider")

    faults = tournament_faults(tournament)
    # each decision the bot was asked is one stored fault, all of them the outsider's
    assert faults.count() == len(server.requests) > 0
    assert set(faults.values_list("player_name", flat=True)) == {outsider.player.name}
    assert Counter(faults.values_list("decision", flat=True))["play"] == sum(
        r["decision"] == "play" for r in server.requests)
    # with every game it sat in (3 of the 4 tables), at its seat there
    games = tournament.games.filter(game__seats__player=outsider.player).distinct()
    assert games.count() == 12
    for stored in games:
        seat = stored.game.seats.get(player=outsider.player).number
        mine = list(stored.bot_game.faults.all())
        assert mine and {f.seat for f in mine} == {seat}
        assert [f.number for f in mine] == list(range(1, len(mine) + 1))
        assert {(f.deal, f.kind, f.message) for f in mine} == {
            (0, "malformed", "the answer is not JSON")}
        assert mine[0].answer.startswith("\\x00garbage\\u202e {x")


def test_metrics_count_the_stored_faults_by_kind(
        server, registered, client, settings, django_capture_on_commit_callbacks):
    server.mode = "garbage"
    tournament = small_tournament(entrants=entrants_with("outside:mine"))
    with django_capture_on_commit_callbacks(execute=True):
        services.tournament_start(tournament=tournament)
    settings.METRICS_TOKEN = "scrape"

    scraped = client.get("/metrics", headers={"Authorization": "Bearer scrape"})

    assert scraped.status_code == 200
    counted = {
        sample.labels["kind"]: sample.value
        for family in text_string_to_metric_families(scraped.content.decode())
        if family.name == "president_outside_bot_faults" for sample in family.samples}
    stored = Counter(BotFault.objects.values_list("kind", flat=True))
    assert counted == stored and stored["malformed"] > 0


@pytest.mark.parametrize(("spec", "message"), [
    ("http://127.0.0.1:9/bot", "entered by its registered name, outside:NAME"),
    ("HTTP://127.0.0.1:9/bot", "entered by its registered name, outside:NAME"),
    ("outside:nobody", "no outside bot is registered as 'nobody'"),
])
def test_raw_urls_and_unknown_names_cannot_be_entered(registered, spec, message):
    with pytest.raises(TournamentError, match=message):
        small_tournament(entrants=entrants_with(spec))
    assert not Tournament.objects.exists()


def test_a_disabled_bot_cannot_be_entered(registered):
    outside_bots.outside_bot_update(bot=registered, enabled=False)

    with pytest.raises(TournamentError, match="outside bot 'mine' is disabled"):
        small_tournament(entrants=entrants_with("outside:mine"))


def test_a_bot_whose_host_is_no_longer_allowed_cannot_be_entered(server, registered, settings):
    settings.OUTSIDE_BOT_ALLOWED_HOSTS = ["bots.example.org"]
    settings.OUTSIDE_BOT_ALLOWED_PORTS = [server.port]

    with pytest.raises(TournamentError, match="not in OUTSIDE_BOT_ALLOWED_HOSTS"):
        small_tournament(entrants=entrants_with("outside:mine"))


@pytest.mark.parametrize(("fields", "message"), [
    ({"url": "http://10.0.0.1/bot"}, "url: host '10.0.0.1' is not in OUTSIDE_BOT_ALLOWED_HOSTS"),
    ({"url": "ftp://127.0.0.1/bot"}, "url: .*must be http"),
    ({"name": "two words"}, "name: "),
])
def test_registration_refuses_a_url_or_name_that_cannot_be_used(settings, fields, message):
    settings.OUTSIDE_BOT_ALLOWED_HOSTS = ["127.0.0.1"]

    with pytest.raises(OutsideBotError, match=message):
        outside_bots.outside_bot_create(**{"name": "mine", "url": "http://127.0.0.1/bot",
                                           **fields})
    assert not OutsideBot.objects.exists()
    assert not AuditEntry.objects.exists()


def test_registration_stores_the_url_scheme_in_lower_case(server):
    bot = outside_bots.outside_bot_create(name="mine", url=server.url.replace("http://", "HtTp://"))
    outside_bots.outside_bot_update(bot=bot, url=server.url.replace("http://", "HTTP://"))

    assert OutsideBot.objects.get().url == server.url


def test_an_entered_bot_keeps_its_name_and_is_disabled_rather_than_deleted(registered):
    small_tournament(entrants=entrants_with("outside:mine"))

    with pytest.raises(OutsideBotError, match="keeps its name"):
        outside_bots.outside_bot_update(bot=registered, name="renamed")
    with pytest.raises(OutsideBotError, match="disable it instead"):
        outside_bots.outside_bot_delete(bot=registered)
    outside_bots.outside_bot_update(bot=registered, enabled=False, description="retired")

    registered.refresh_from_db()
    assert (registered.name, registered.enabled, registered.description) == (
        "mine", False, "retired")


def test_a_bot_never_entered_is_renamed_and_deleted_with_an_audit_trail(registered):
    outside_bots.outside_bot_update(bot=registered, name="yours")
    outside_bots.outside_bot_delete(bot=OutsideBot.objects.get(name="yours"))

    assert not OutsideBot.objects.exists()
    assert list(AuditEntry.objects.order_by("id").values_list("action", flat=True)) == [
        "outside bot registered", "outside bot changed", "outside bot removed"]


def test_only_superusers_manage_outside_bots_in_the_admin(client, registered):
    from django.contrib.auth import get_user_model

    from tests.tournaments.helpers import bot_club

    users = get_user_model().objects
    organiser = users.create_user("org", password="pw", is_staff=True)
    bot_club().organisers.add(organiser)
    client.force_login(organiser)
    assert client.get("/admin/outside_bots/outsidebot/").status_code == 403
    client.post("/admin/outside_bots/outsidebot/add/", {"name": "sneaky", "url": registered.url,
                                                     "enabled": "on"})
    assert list(OutsideBot.objects.values_list("name", flat=True)) == ["mine"]

    client.force_login(users.create_superuser("root", password="pw"))
    refused = client.post("/admin/outside_bots/outsidebot/add/", {
        "name": "far", "url": "http://10.0.0.1/bot", "enabled": "on"})
    assert "is not in OUTSIDE_BOT_ALLOWED_HOSTS" in refused.content.decode()
    near = registered.url + "?near"  # another URL of the server: a URL is registered once
    client.post("/admin/outside_bots/outsidebot/add/", {"name": "near", "url": near,
                                                     "enabled": "on"})
    assert OutsideBot.objects.get(name="near").url == near
    assert AuditEntry.objects.filter(action="outside bot registered", actor__username="root",
                                     target="near").exists()


def test_the_tournament_page_api_and_bot_page_show_the_faults(
        server, registered, client, django_capture_on_commit_callbacks):
    import re

    server.mode = "garbage"
    tournament = small_tournament(entrants=entrants_with("outside:mine"), games_per_table=1)
    with django_capture_on_commit_callbacks(execute=True):
        services.tournament_start(tournament=tournament)
    stored = tournament_faults(tournament)
    total = stored.count()
    assert total == len(server.requests) > 0

    page = client.get(tournament.get_absolute_url()).content.decode()
    rows = {m[0]: m[1:] for m in re.findall(
        r"<tr><td>(\w+)</td>.*?<td class=\"faults\">(\d+)</td><td>(\d+)</td><td>(\d+)</td>\s*"
        r"<td>(\d+)</td><td>(\d+)</td><td>(\d+)</td></tr>", page, re.S)}
    assert rows == {"Rita": ("0",) * 6, "Greg": ("0",) * 6, "Rob": ("0",) * 6,
                    "Outsider": (str(total), "0", "0", str(total), "0", "0")}
    assert 'href="/tournaments/outside-bots/mine/"' in page

    body = client.get(f"/api/v1/tournaments/{tournament.pk}/").json()
    faults = {e["player_name"]: e["faults"] for e in body["entrants"]}
    assert faults["Outsider"] == {"total": total, "timeout": 0, "error": 0,
                                  "malformed": total, "oversized": 0, "illegal": 0}
    assert faults["Rita"]["total"] == 0
    listed = client.get("/api/v1/tournaments/").json()["results"][0]["entrants"]
    assert [e["faults"] for e in listed] == [e["faults"] for e in body["entrants"]]

    bot_page = client.get("/tournaments/outside-bots/mine/").content.decode()
    assert f"<td>{total}</td><td>0</td><td>0</td>\n      <td>{total}</td>" in bot_page
    assert bot_page.count("the answer is not JSON") == min(total, 100)
    assert "<code>\\x00garbage\\u202e {xxx" in bot_page
    assert server.url not in bot_page and server.url not in page
    assert client.get("/tournaments/outside-bots/nobody/").status_code == 404


def test_an_entrant_whose_settings_are_now_refused_plays_safe_as_faults(
        django_capture_on_commit_callbacks):
    tournament = small_tournament(games_per_table=1)
    # entered before bot settings were bounded: a decision would take a day
    tournament.entrants.filter(player__name="Rita").update(bot="montecarlo:budget_ms=1e8")
    with django_capture_on_commit_callbacks(execute=True):
        services.tournament_start(tournament=tournament)

    tournament.refresh_from_db()
    assert tournament.status == Tournament.FINISHED
    faults = tournament_faults(tournament)
    assert set(faults.values_list("player_name", "kind")) == {("Rita", "error")}
    assert "montecarlo budget_ms must be from 1 to 2,000" in faults.first().message


def test_an_authors_bot_is_entered_by_its_author_or_an_administrator_alone(server):
    """Found by a security walk-through: any club's organiser entered another author's bot,
    which locked its name and its removal for its author and had the site call their URL."""
    author, organiser = UserFactory(username="mal"), UserFactory(username="olga")
    admin = UserFactory(username="root", is_superuser=True)
    outside_bots.outside_bot_create(name="mal-bot", url=server.url, owner=author)

    with pytest.raises(TournamentError, match="outside bot mal-bot is mal's: only its author"):
        small_tournament("Olga cup", entrants=entrants_with("outside:mal-bot"), by=organiser)
    assert not Tournament.objects.exists()
    small_tournament("Mal cup", entrants=entrants_with("outside:mal-bot"), by=author)
    small_tournament("Root cup", entrants=entrants_with("outside:mal-bot"), by=admin)
    assert Tournament.objects.count() == 2
