"""The progress page, its JSON, and the admin's club scoping for tournaments."""

import re

import pytest
from django.contrib.auth import get_user_model
from django.urls import reverse

from tests.tournaments.helpers import bot_club, small_tournament
from tournaments import services
from tournaments.models import Tournament

pytestmark = pytest.mark.django_db


def test_progress_json_and_page(client, django_capture_on_commit_callbacks):
    tournament = small_tournament()
    data = client.get(f"/tournaments/{tournament.pk}/progress.json").json()
    assert data == {"status": "scheduled", "done": 0, "total": 16, "games_per_second": None,
                    "eta_seconds": None, "fraction": 0.0, "stalled": False, "may_resume": False,
                    "unplayed": 0, "unplayed_reason": "", "standings": [],
                    "said": "Not started yet: 16 games to play."}

    with django_capture_on_commit_callbacks(execute=True):
        services.tournament_start(tournament=tournament)
    data = client.get(f"/tournaments/{tournament.pk}/progress.json").json()
    assert (data["status"], data["done"], data["fraction"]) == ("finished", 16, 1.0)
    assert data["said"] == ("This tournament is finished: all 16 games were played. "
                            "The standings below are final.")

    page = client.get(tournament.get_absolute_url()).content.decode()
    assert '<progress id="progress-bar" max="16" value="16"' in page
    assert "progress.json" in page and "fetch(" in page
    assert "Greg" in page and "<code>greedy</code>" in page
    # every asset is served by the site itself (no CDN); a CSP nonce may spell "cdn" by chance
    assert not re.search(r'(src|href)="(https?:)?//', page)


def test_unknown_tournament_is_404(client):
    assert client.get("/tournaments/999/progress.json").status_code == 404


def _staff(name, club=None, superuser=False):
    user = get_user_model().objects.create_user(name, password="pw", is_staff=True,
                                                is_superuser=superuser)
    if club:
        club.organisers.add(user)
    return user


def test_only_the_clubs_organisers_see_and_act_on_its_tournaments(client):
    tournament = small_tournament()
    organiser = _staff("org", bot_club())
    stranger = _staff("other", bot_club("Other club"))

    client.force_login(stranger)
    assert client.get(f"/admin/gameplay/tournament/{tournament.pk}/change/").status_code == 302
    client.post("/admin/gameplay/tournament/",
                {"action": "cancel", "_selected_action": [tournament.pk]})
    tournament.refresh_from_db()
    assert tournament.status == Tournament.SCHEDULED

    client.force_login(organiser)
    assert client.get(f"/admin/gameplay/tournament/{tournament.pk}/change/").status_code == 200
    client.post("/admin/gameplay/tournament/",
                {"action": "cancel", "_selected_action": [tournament.pk]})
    tournament.refresh_from_db()
    assert tournament.status == Tournament.CANCELLED


def test_an_organiser_views_their_clubs_tournaments_in_the_admin_and_creates_on_the_page(
        client):
    """A walk-through: the admin offered a club's organiser "Bot tournaments + Add", a form
    taking raw JSON for options and scoring, and filtered the list by every club of the site.
    An organiser views their clubs' tournaments there and is sent to the new tournament page;
    nothing of another club shows."""
    tournament = small_tournament()
    other = services.tournament_create(
        club=bot_club("Other club"), name="Their cup", seats=3,
        entrants=[("Ann", "random"), ("Bea", "greedy"), ("Cy", "random")])
    client.force_login(_staff("org", tournament.club))

    index = client.get("/admin/").content.decode()
    assert "/admin/gameplay/tournament/add/" not in index
    listing = client.get("/admin/gameplay/tournament/").content.decode()
    assert "/admin/gameplay/tournament/add/" not in listing
    new = reverse("gameplay:tournament_create", args=[tournament.club.pk])
    assert f'<a href="{new}" class="addlink">New bot tournament of Bot club</a>' in listing
    assert "Cup" in listing and "Their cup" not in listing and "Other club" not in listing
    assert client.get("/admin/gameplay/tournament/add/").status_code == 403
    view = client.get(f"/admin/gameplay/tournament/{tournament.pk}/change/").content.decode()
    assert "View tournament" in view and 'name="_save"' not in view
    assert client.get(f"/admin/gameplay/tournament/{other.pk}/change/").status_code == 302


def test_admin_creates_a_tournament_through_the_service(client):
    club = bot_club()
    client.force_login(_staff("root", superuser=True))
    response = client.post("/admin/gameplay/tournament/add/", {
        "club": club.pk, "name": "Admin cup", "preset": "classic", "options": "{}",
        "scoring": '{"system": "fixed-rounds", "deals": 1}', "format": "round-robin",
        "seats": 3, "games_per_table": 2, "rounds": 1, "seed": 1, "batch_size": 5,
        "entrants_text": "A=random\nB=greedy\nC=heuristic"})
    assert response.status_code == 302
    tournament = Tournament.objects.get(name="Admin cup")
    assert tournament.total_games == 2
    assert list(tournament.entrants.values_list("bot", flat=True)) == [
        "random", "greedy", "heuristic"]


@pytest.mark.postgres
@pytest.mark.parametrize(("field", "value", "message"), [
    ("scoring", '{"system": "penalty", "limit": 1000000000}',
     "scoring limit must be at most 100, not 1000000000"),
    ("options", '{"jokers": 1000000000000000000000000000000}',
     "option &#x27;jokers&#x27; must be from 0 to 6"),
    ("entrants_text", "A=random\nB=greedy\nC=montecarlo:budget_ms=1e8",
     "montecarlo budget_ms must be from 1 to 2,000"),
])
def test_admin_refuses_numbers_the_engine_cannot_play_naming_them(client, field, value, message):
    club = bot_club()
    client.force_login(_staff("root", superuser=True))
    response = client.post("/admin/gameplay/tournament/add/", {
        "club": club.pk, "name": "Admin cup", "preset": "classic", "options": "{}",
        "scoring": '{"system": "fixed-rounds", "deals": 1}', "format": "round-robin",
        "seats": 3, "games_per_table": 2, "rounds": 1, "seed": 1, "batch_size": 5,
        "entrants_text": "A=random\nB=greedy\nC=heuristic", field: value}, follow=True)

    assert response.status_code == 200
    page = response.content.decode()
    assert message in page and "added successfully" not in page
    assert not Tournament.objects.exists()


def test_the_page_says_the_tournaments_format_in_a_sentence(client):
    """A walk-through read "round robin, tables of 4, 1 games per table; presidents-deck."
    (no capital, "1 games", the preset not linked to its rules, nothing of how long a game
    is) and "Live, per deal" above a finished tournament's standings."""
    tournament = small_tournament(games_per_table=1, preset="presidents-deck",
                                  scoring={"system": "fixed-rounds", "deals": 3})

    page = client.get(tournament.get_absolute_url()).content.decode()

    rules = reverse("league:rules", args=["presidents-deck"])
    assert ("<p>Round robin, tables of 3, 1 game per table, each game of 3 deals; "
            f'<a href="{rules}">presidents-deck rules</a>.') in page
    assert "Live, per deal" not in page


def test_the_clubs_page_lists_its_tournaments_finished_ones_too(
        client, django_capture_on_commit_callbacks):
    """A walk-through found a finished tournament's page (its final standings, its bots'
    faults) linked from nowhere: the club's page listed running tournaments only."""
    finished = small_tournament("Spring cup")
    with django_capture_on_commit_callbacks(execute=True):
        services.tournament_start(tournament=finished)
    scheduled = small_tournament("Summer cup")

    page = client.get(reverse("league:club_detail", args=[bot_club().pk])).content.decode()

    assert "<h2>Bot tournaments</h2>" in page
    assert f'<a href="{finished.get_absolute_url()}">Spring cup</a> · finished' in page
    assert f'<a href="{scheduled.get_absolute_url()}">Summer cup</a> · scheduled' in page
    assert page.index("Summer cup") < page.index("Spring cup")  # newest first
