"""The organisers' page that creates a bot tournament (/tournaments/clubs/<id>/new/): who may
use it, what it refuses and where it says so, and that it creates through the same
serializer and service as the API (tournaments.services.tournament_create)."""

import html
import re

import pytest
from django.test import Client
from django.urls import reverse

from league.models import AuditEntry
from outside_bots.models import OutsideBot
from tests.league.factories import PlayerFactory, UserFactory
from tests.tournaments.helpers import bot_club, small_tournament
from tournaments import services
from tournaments.errors import TournamentError
from tournaments.models import Tournament

pytestmark = pytest.mark.django_db


@pytest.fixture
def club():
    return bot_club()


@pytest.fixture
def organiser(club):
    user = UserFactory(username="olga", is_staff=False)
    club.organisers.add(user)
    return user


def url(club):
    return reverse("gameplay:tournament_create", args=[club.pk])


def posted(name="Spring cup", bots=(("Rita", "random", ""), ("Greg", "greedy", ""),
                                    ("Hugo", "heuristic", "")), **fields):
    """A post of the page's form: its defaults but for ``bots`` (name, bot, settings) and
    ``fields``."""
    data = {"name": name, "preset": "classic", "format": "round-robin", "seats": "3",
            "games_per_table": "2", "rounds": "1", "seed": "0",
            "scoring_system": "fixed-rounds", "scoring_deals": "1", "rows": str(len(bots)),
            "then": "create"}
    for i, (bot_name, bot, settings) in enumerate(bots):
        data.update({f"bot-{i}-name": bot_name, f"bot-{i}-bot": bot,
                     f"bot-{i}-settings": settings})
    data.update(fields)
    return data


def test_a_visitor_is_sent_to_log_in_and_a_stranger_is_refused(client, club):
    response = client.get(url(club))
    assert response.status_code == 302 and "/accounts/login/" in response["Location"]

    client.force_login(UserFactory(username="stranger", is_staff=False))
    response = client.get(url(club))
    assert response.status_code == 403
    assert "Only organisers of Bot club" in response.content.decode()
    assert client.post(url(club), posted()).status_code == 403
    assert not Tournament.objects.exists()
    assert client.get(reverse("gameplay:tournament_create", args=[999])).status_code == 404


def test_the_form_offers_defaults_that_create_with_a_name_alone(client, club, organiser):
    client.force_login(organiser)
    page = client.get(url(club)).content.decode()
    assert 'name="name"' in page and "Create the tournament" in page
    # each preset with its rules page
    assert reverse("league:rules", args=["friday"]) in page
    # the project's bots, montecarlo's settings explained
    assert '<option value="montecarlo"' in page and "playouts" in page
    # what it costs, counted by the service
    assert "20 games" in page


def test_create_makes_the_tournament_through_the_service_and_lands_on_its_page(
        client, club, organiser, django_capture_on_commit_callbacks):
    client.force_login(organiser)
    response = client.post(url(club), posted(bots=(
        ("Rita", "random", ""), ("Greg", "greedy", ""),
        ("Monty", "montecarlo", "playouts=20"), ("Hugo", "heuristic", ""), ("", "random", ""))))
    tournament = Tournament.objects.get()
    assert response.status_code == 302
    assert response["Location"] == tournament.get_absolute_url()
    assert tournament.club == club and tournament.name == "Spring cup"
    assert [(e.player.name, e.bot) for e in tournament.entrants.order_by("id")] == [
        ("Rita", "random"), ("Greg", "greedy"), ("Monty", "montecarlo:playouts=20"),
        ("Hugo", "heuristic")]
    assert (tournament.seats, tournament.games_per_table, tournament.total_games) == (3, 2, 8)
    assert tournament.status == Tournament.SCHEDULED
    assert AuditEntry.objects.filter(action="tournament created").count() == 1

    page = client.get(response["Location"]).content.decode()
    assert "Start tournament" in page and "Not started yet: 8 games to play." in page
    with django_capture_on_commit_callbacks(execute=True):  # no broker: played at once
        client.post(reverse("gameplay:tournament_start", args=[tournament.pk]))
    tournament.refresh_from_db()
    assert tournament.status == Tournament.FINISHED


def test_scoring_format_and_options_reach_the_tournament(client, club, organiser):
    client.force_login(organiser)
    client.post(url(club), posted(
        preset="friday", format="rating", rounds="3", seats="3", duplicate="on", seed="7",
        scoring_system="penalty", scoring_limit="5", scoring_deals=""))
    tournament = Tournament.objects.get()
    assert (tournament.preset, tournament.format, tournament.rounds, tournament.duplicate,
            tournament.seed) == ("friday", "rating", 3, True, 7)
    assert tournament.scoring == {"system": "penalty", "limit": 5}


def _refused(client, club, data, field_id):
    """The page again with a 400, the refusal at the field ``field_id``; nothing created."""
    response = client.post(url(club), data)
    page = response.content.decode()
    assert response.status_code == 400, page
    assert not Tournament.objects.exists()
    assert f'id="{field_id}_error"' in page
    return page


def test_every_refusal_is_shown_at_its_field_at_once(client, club, organiser):
    client.force_login(organiser)
    data = posted(bots=(("Rita", "random", ""), ("Greg", "chess-engine", ""),
                        ("Hugo", "heuristic", "")),
                  games_per_table="0", scoring_system="penalty", scoring_limit="1000",
                  scoring_deals="")

    response = client.post(url(club), data)

    assert response.status_code == 400
    assert not Tournament.objects.exists()
    errors = response.context["form"].errors
    assert set(errors) == {"games_per_table", "scoring_limit", "bot-1-bot"}, errors
    assert errors["scoring_limit"] == [
        "tournament scoring: scoring limit must be at most 100, not 1000"]
    assert errors["games_per_table"] == ["games per table must be at least 1"]
    assert "unknown bot" in errors["bot-1-bot"][0]


@pytest.mark.parametrize(("data", "field", "words"), [
    ({"name": "  "}, "id_name", "A tournament needs a name."),
    ({"name": "x" * 200}, "id_name", "A tournament's name is at most 88 characters"),
    ({"seats": "many"}, "id_seats", "Enter a whole number"),
    ({"seats": "5"}, "id_seats", "3 entrants cannot fill a table of 5"),
    ({"games_per_table": "0"}, "id_games_per_table", "games per table must be at least 1"),
    ({"games_per_table": "1000000"}, "id_games_per_table", "At most 10,000 games per table."),
    ({"scoring_deals": ""}, "id_scoring_deals", "fixed-rounds needs"),
    ({"bot-2-settings": "playouts=5000"}, "id_bot-2-settings", "heuristic takes no settings"),
    ({"bot-1-name": "Rita"}, "id_bot-1-name", "entered twice: Rita"),
    ({"scoring_system": ""}, "id_scoring_system", "Choose a scoring system."),
    ({"scoring_system": "most-tricks"}, "id_scoring_system",
     "There is no scoring system called most-tricks."),
    ({"seats": ""}, "id_seats", "Say how many bots sit at each table."),
    ({"games_per_table": ""}, "id_games_per_table", "Say how many games each table plays."),
    ({"rounds": ""}, "id_rounds", "Say how many rounds (1 for a round robin)."),
    ({"seed": ""}, "id_seed", "Give a seed: any whole number (0 will do)."),
    ({"preset": "poker"}, "id_preset", "There is no rules preset called poker."),
    ({"format": ""}, "id_format", "Choose a format."),
])
def test_wrong_input_is_refused_at_its_field_and_nothing_is_created(
        client, club, organiser, data, field, words):
    client.force_login(organiser)
    page = _refused(client, club, posted(**data), field)
    assert words in html.unescape(page)


def test_a_name_taken_in_the_club_is_refused_at_the_name(client, club, organiser):
    client.force_login(organiser)
    client.post(url(club), posted())
    page = client.post(url(club), posted(name="spring CUP")).content.decode()
    assert Tournament.objects.count() == 1
    assert 'id="id_name_error"' in page and "already has a tournament called" in page


def test_an_authors_bot_is_offered_to_its_author_and_refused_to_others(client, club,
                                                                       organiser):
    """The rule of tournaments.services: an author's bot is entered by its author or an
    administrator alone; the page offers each organiser only the bots they may enter, and a
    forged post is refused in the service's words."""
    author = UserFactory(username="mal", is_staff=False)
    for name, owner, enabled in [("mal-bot", author, True), ("olga-bot", organiser, True),
                                 ("house-bot", None, True), ("off-bot", None, False)]:
        OutsideBot.objects.create(name=name, name_key=name, owner=owner, enabled=enabled,
                                  url=f"https://bots.example.org/{name}")
    client.force_login(organiser)
    page = client.get(url(club)).content.decode()
    assert '<option value="outside:olga-bot">olga-bot (yours; plays classic)</option>' in page
    assert ('<option value="outside:house-bot">house-bot (registered by the site; plays '
            'classic)</option>') in page
    assert "mal-bot" not in page and "off-bot" not in page

    forged = posted(bots=(("Rita", "random", ""), ("Greg", "greedy", ""),
                          ("Mal", "outside:mal-bot", "")))
    page = _refused(client, club, forged, "id_bot-2-bot")
    assert "outside bot mal-bot is mal's: only its author or an administrator" in \
        html.unescape(page)


def test_count_and_more_rows_create_nothing(client, club, organiser):
    client.force_login(organiser)
    response = client.post(url(club), posted(then="count", seats="3", games_per_table="5"))
    assert response.status_code == 200 and not Tournament.objects.exists()
    assert "5 games" in response.content.decode()
    response = client.post(url(club), posted(then="more"))
    page = response.content.decode()
    assert response.status_code == 200 and not Tournament.objects.exists()
    assert 'name="bot-10-name"' in page and 'value="Hugo"' in page


def test_the_form_needs_its_csrf_token(club, organiser):
    client = Client(enforce_csrf_checks=True)
    client.force_login(organiser)
    assert client.post(url(club), posted()).status_code == 403
    assert not Tournament.objects.exists()


def test_the_clubs_pages_link_its_organisers_to_it(client, club, organiser):
    client.force_login(UserFactory(username="stranger", is_staff=False))
    assert url(club) not in client.get(reverse("league:club_detail", args=[club.pk])) \
        .content.decode()
    client.force_login(organiser)
    assert url(club) in client.get(reverse("league:club_detail", args=[club.pk])) \
        .content.decode()
    assert url(club) in client.get(reverse("league:organise_club", args=[club.pk])) \
        .content.decode()


def test_the_cost_has_a_rough_time_at_the_pace_of_the_clubs_last_tournament(
        client, club, organiser, django_capture_on_commit_callbacks):
    client.force_login(organiser)
    assert "At the pace of" not in client.get(url(club)).content.decode()
    with django_capture_on_commit_callbacks(execute=True):
        services.tournament_start(tournament=small_tournament("Last cup"))
    page = html.unescape(client.get(url(club)).content.decode())
    assert "20 games of 1 deal: 20 deals in all. At the pace of Last cup, the club's last " \
           "finished tournament (" in page


def test_a_bot_players_refusal_is_shown_at_its_row(client, club, organiser):
    """A person's name, or a name the league refuses, at the row that gave it."""
    PlayerFactory(name="Greta", clubs=[club])
    client.force_login(organiser)
    page = _refused(client, club, posted(**{"bot-1-name": "Greta"}), "id_bot-1-name")
    assert "Greta is a person, not a bot" in page
    page = _refused(client, club, posted(**{"bot-2-name": "Hu\u200bgo"}), "id_bot-2-name")
    assert "cannot hold invisible or text-direction control characters" in page


def test_no_bot_at_all_is_refused_beside_the_bots(client, club, organiser):
    client.force_login(organiser)
    page = _refused(client, club, posted(bots=(("", "random", ""),)), "id_bot-0-name")
    assert "not be empty" in page



@pytest.mark.parametrize(("refusal", "field_ids"), [
    (TournamentError("not like that", field="seats"), ["id_seats"]),
    (TournamentError("not like that", field="bot", entrants=(1,)), ["id_bot-2-bot"]),
    (TournamentError("not like that", field="name", entrants=(0, 2)),
     ["id_bot-0-name", "id_bot-3-name"]),
    (TournamentError("not like that"), []),
])
def test_a_refusal_is_shown_at_the_field_it_names_not_by_its_words(
        client, club, organiser, monkeypatch, refusal, field_ids):
    """The service says which field a refusal is about (entrants by their place in the list
    entered: the row below the empty one is entrant 1); its words may say anything. One that
    names no field is shown above the form."""
    def refuse(**data):
        raise refusal

    monkeypatch.setattr(services, "tournament_create", refuse)
    client.force_login(organiser)
    page = client.post(url(club), posted(bots=(
        ("Rita", "random", ""), ("", "random", ""), ("Greg", "greedy", ""),
        ("Hugo", "heuristic", "")))).content.decode()
    assert "not like that" in page
    assert sorted(re.findall(r'id="([^"]+)_error"', page)) == field_ids
