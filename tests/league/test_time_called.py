"""Time called at the end of the night (issue #19; docs/league.md "Time called"): the service,
the API action and the game page with its confirmation step."""

import pytest
from django.urls import reverse

from league import services
from league.errors import LeagueError
from league.models import AuditEntry, Game
from tests.api.conftest import client_for
from tests.league.factories import ClubFactory, UserFactory, make_game, seated_ids

pytestmark = pytest.mark.django_db


@pytest.fixture
def game():
    """Penalty to 6: after deals (a, b, c, d) and (b, a, c, d) a and b have 1 point, c 2, d 4."""
    game = make_game(season_kwargs={"scoring_limit": 6})
    a, b, c, d = seated_ids(game)
    services.deal_record(game=game, finishing_order=[a, b, c, d])
    services.deal_record(game=game, finishing_order=[b, a, c, d])
    return game


@pytest.fixture
def organiser(game):
    user = UserFactory(username="night-organiser")
    game.season.club.organisers.add(user)
    return user


def winners(game):
    return sorted(game.seats.filter(is_winner=True).values_list("player_id", flat=True))


def test_time_called_ends_the_game_with_the_systems_rule_and_an_audit_row(game, organiser):
    a, b, c, d = seated_ids(game)

    services.game_time_called(game=game, by=organiser)

    game.refresh_from_db()
    assert game.status == Game.FINISHED and game.time_called_at is not None
    assert winners(game) == sorted([a, b])  # penalty: fewest points, equal totals share
    assert dict(game.seats.values_list("player_id", "points")) == {a: 1, b: 1, c: 2, d: 4}
    entry = AuditEntry.objects.get(action="time called")
    assert entry.actor == organiser and sorted(entry.details["winners"]) == sorted(
        game.seats.filter(is_winner=True).values_list("player__name", flat=True))
    with pytest.raises(LeagueError, match="has ended: no more deals"):
        services.deal_record(game=game, finishing_order=[a, b, c, d])


def test_first_to_eleven_called_goes_to_the_better_finish_in_the_last_deal():
    game = make_game(season_kwargs={"scoring_system": "first-to-eleven"})
    a, b, c, d = seated_ids(game)
    services.deal_record(game=game, finishing_order=[a, b, c, d])
    services.deal_record(game=game, finishing_order=[b, a, c, d])

    services.game_time_called(game=game)

    assert winners(game) == [b]


def test_a_finished_game_or_one_with_no_deal_is_refused_and_nothing_changes(game):
    fresh = make_game()
    with pytest.raises(LeagueError, match="no deal has been played .* yet"):
        services.game_time_called(game=fresh)
    fresh.refresh_from_db()
    assert fresh.status == Game.OPEN and fresh.time_called_at is None

    services.game_time_called(game=game)
    called_at = Game.objects.get(pk=game.pk).time_called_at
    with pytest.raises(LeagueError, match="has already ended"):
        services.game_time_called(game=game)
    assert Game.objects.get(pk=game.pk).time_called_at == called_at
    assert AuditEntry.objects.filter(action="time called").count() == 1


def test_a_called_game_is_corrected_after_reopening_and_called_again(game):
    a, b, c, d = seated_ids(game)
    services.game_time_called(game=game)
    last = game.deal_set.get(number=2)

    services.game_reopen(game=game)
    services.deal_edit(deal=last, finishing_order=[a, b, c, d])
    assert Game.objects.get(pk=game.pk).status == Game.OPEN
    services.game_time_called(game=game)

    assert winners(game) == [a]
    assert Game.objects.get(pk=game.pk).status == Game.FINISHED


def test_the_api_lets_only_the_clubs_organisers_call_time(game, organiser):
    other = UserFactory(username="elsewhere")
    ClubFactory().organisers.add(other)
    url = f"/api/v1/games/{game.pk}/time-called/"

    refused = client_for(other, token=True).post(url)
    anonymous = client_for().post(url)
    assert refused.status_code == 403 and anonymous.status_code == 401
    assert Game.objects.get(pk=game.pk).status == Game.OPEN

    answer = client_for(organiser, token=True).post(url)
    again = client_for(organiser, token=True).post(url)

    assert answer.status_code == 200
    body = answer.json()
    assert body["status"] == "finished" and body["time_called_at"]
    a, b, c, d = seated_ids(game)
    assert {s["player"]: (s["points"], s["is_winner"]) for s in body["seats"]} == {
        a: (1, True), b: (1, True), c: (2, False), d: (4, False)}
    assert again.status_code == 400 and "has already ended" in again.json()["detail"]


def test_the_schema_has_the_time_called_action():
    schema = client_for().get("/api/schema/", {"format": "json"}).json()
    assert "post" in schema["paths"]["/api/v1/games/{id}/time-called/"]


def test_the_game_page_calls_time_after_a_confirmation_and_shows_the_winners(client, game,
                                                                           organiser):
    client.force_login(organiser)
    page = reverse("league:game_detail", args=[game.pk])
    confirm = reverse("league:game_time_called", args=[game.pk])
    names = dict(game.seats.values_list("player_id", "player__name"))
    a, b, *_ = seated_ids(game)

    assert confirm in client.get(page).text
    asked = client.get(confirm)
    assert asked.status_code == 200 and "the fewest penalty points win" in asked.text
    assert Game.objects.get(pk=game.pk).status == Game.OPEN  # asking changes nothing

    done = client.post(confirm, follow=True)

    assert done.redirect_chain[-1][0] == page
    assert any(f"Winners: <strong><bdi>{names[x]}</bdi>, <bdi>{names[y]}</bdi></strong>"
               in done.text for x, y in [(a, b), (b, a)])
    assert "Final totals" in done.text and "time called" in done.text
    assert confirm not in done.text  # no second call on a finished game


@pytest.mark.parametrize("who", ["anonymous", "other club's organiser"])
def test_the_page_refuses_who_does_not_organise_the_club(client, game, who):
    if who != "anonymous":
        other = UserFactory(username="elsewhere")
        ClubFactory().organisers.add(other)
        client.force_login(other)
    confirm = reverse("league:game_time_called", args=[game.pk])

    assert confirm not in client.get(reverse("league:game_detail", args=[game.pk])).text
    assert client.get(confirm).status_code == 403
    assert client.post(confirm).status_code == 403
    assert Game.objects.get(pk=game.pk).status == Game.OPEN


def test_deleting_every_deal_of_a_reopened_game_leaves_it_open(game):
    services.game_time_called(game=game)
    services.game_reopen(game=game)

    for deal in game.deal_set.order_by("-number"):
        services.deal_delete(deal=deal)

    game.refresh_from_db()
    assert game.status == Game.OPEN and game.time_called_at is None and winners(game) == []


def _from_the_page(client, page, game):
    """The "Call time…" link of ``page`` for ``game``, as the organiser's browser follows it."""
    import html
    import re

    confirm = reverse("league:game_time_called", args=[game.pk])
    links = re.findall(rf'href="({re.escape(confirm)}[^"]*)"', client.get(page).text)
    assert links, f"no call time link on {page}"
    return html.unescape(links[0])


@pytest.mark.parametrize("where", ["night", "plan", "club"])
def test_time_called_from_the_club_night_goes_back_there(client, game, organiser, where):
    """Called from the night page, its plan or the club's tonight's tables, the organiser
    lands back where they were, not on the game's page with no way back."""
    client.force_login(organiser)
    season = game.season
    page = reverse("league:night", args=[season.pk])
    if where == "club":
        page = reverse("league:organise_club", args=[season.club.pk])
    if where == "plan":
        present = "&".join(f"present={i}" for i in seated_ids(game))
        page = reverse("league:night_plan", args=[season.pk]) + f"?{present}&round=2"
    link = _from_the_page(client, page, game)

    asked = client.get(link)
    assert asked.status_code == 200
    assert f'href="{page}"'.replace("&", "&amp;") in asked.text  # the way back, not yet called
    done = client.post(link, follow=True)

    assert done.redirect_chain[-1][0] == page
    assert Game.objects.get(pk=game.pk).status == Game.FINISHED
    assert f"Time called: game {game.number} has ended." in done.text


@pytest.mark.parametrize("elsewhere", [
    "https://evil.example/league/", "//evil.example/league/", "/\\evil.example/",
    "javascript:alert(1)", " /league/"])
def test_time_called_goes_back_only_to_the_sites_own_pages(client, game, organiser, elsewhere):
    client.force_login(organiser)
    confirm = reverse("league:game_time_called", args=[game.pk])

    asked = client.get(confirm, {"next": elsewhere})
    assert "evil" not in asked.text and "javascript" not in asked.text
    done = client.post(confirm, {"next": elsewhere})

    assert done["Location"] == reverse("league:game_detail", args=[game.pk])
