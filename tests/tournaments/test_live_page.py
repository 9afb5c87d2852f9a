"""The live tournament page: standings with 95% intervals in the refreshing JSON, and cancel and
resume for the club's organisers only (issue #8, live tournament)."""

import pytest
from django.contrib.auth import get_user_model

from league.models import Place
from tests.tournaments.helpers import bot_club, small_tournament
from tests.tournaments.test_recovery import backdate
from tournaments import services
from tournaments.models import Tournament

pytestmark = pytest.mark.django_db


def _played(django_capture_on_commit_callbacks, **kwargs):
    tournament = small_tournament(**kwargs)
    with django_capture_on_commit_callbacks(execute=True):
        services.tournament_start(tournament=tournament)
    return tournament


def test_json_standings_carry_first_out_rates_and_intervals(client,
                                                            django_capture_on_commit_callbacks):
    tournament = _played(django_capture_on_commit_callbacks)
    data = client.get(f"/tournaments/{tournament.pk}/progress.json").json()
    rows = {r["name"]: r for r in data["standings"]}
    assert set(rows) == {"Rita", "Greg", "Rob", "Gil"}
    for name, row in rows.items():
        places = Place.objects.filter(deal__game__season=tournament.season, player__name=name)
        positions = list(places.values_list("position", flat=True))
        firsts = positions.count(1)
        assert row["first_rate"] == pytest.approx(firsts / len(positions))
        low, high = row["first_rate_ci"]
        assert 0 <= low <= row["first_rate"] <= high <= 1 and high - low > 0
        low, high = row["mean_position_ci"]
        assert low <= sum(positions) / len(positions) <= high


def test_page_shows_the_intervals_and_no_buttons_to_readers(client,
                                                            django_capture_on_commit_callbacks):
    tournament = _played(django_capture_on_commit_callbacks)
    page = client.get(tournament.get_absolute_url()).content.decode()
    assert "first out (95% CI)" in page and "mean position (95% CI)" in page
    assert "Cancel tournament" not in page


def _organiser(club):
    user = get_user_model().objects.create_user("org", password="pw")
    club.organisers.add(user)
    return user


def test_organiser_cancels_and_resumes(client):
    tournament = small_tournament()
    services.tournament_start(tournament=tournament)  # games wait for the on-commit enqueue
    client.force_login(_organiser(bot_club()))
    assert "Cancel tournament" in client.get(tournament.get_absolute_url()).content.decode()

    response = client.post(f"/tournaments/{tournament.pk}/cancel/", follow=True)
    assert Tournament.objects.get(pk=tournament.pk).status == Tournament.CANCELLED
    assert "cancelled" in response.content.decode()

    response = client.post(f"/tournaments/{tournament.pk}/cancel/", follow=True)
    assert "already cancelled" in response.content.decode()

    client.post(f"/tournaments/{tournament.pk}/resume/")
    assert Tournament.objects.get(pk=tournament.pk).status == Tournament.RUNNING


def _resume_form(client, tournament):
    page = client.get(tournament.get_absolute_url()).content.decode()
    form = page[page.index('id="resume-form"'):]
    return form[:form.index(">")]


def test_resume_is_offered_and_done_only_for_a_cancelled_or_stalled_tournament(client):
    """One rule (selectors.may_resume) for the page's button, its JSON and the service."""
    tournament = small_tournament()
    services.tournament_start(tournament=tournament)  # batches sent just now: not stalled
    client.force_login(_organiser(bot_club()))

    assert "hidden" in _resume_form(client, tournament)
    assert client.get(f"/tournaments/{tournament.pk}/progress.json").json()["may_resume"] is False
    batches = set(tournament.batches.values_list("pk", flat=True))
    response = client.post(f"/tournaments/{tournament.pk}/resume/", follow=True)
    assert "is running and its games are being played" in response.content.decode()
    assert set(tournament.batches.values_list("pk", flat=True)) == batches  # none sent again

    backdate(tournament, minutes=10)  # no sign of life since: stalled
    assert "hidden" not in _resume_form(client, tournament)
    assert client.get(f"/tournaments/{tournament.pk}/progress.json").json()["may_resume"] is True
    response = client.post(f"/tournaments/{tournament.pk}/resume/", follow=True)
    assert f"{tournament} resumed." in response.content.decode()

    services.tournament_cancel(tournament=Tournament.objects.get(pk=tournament.pk))
    assert "hidden" not in _resume_form(client, tournament)


@pytest.mark.parametrize("who", ["anonymous", "other club's organiser"])
def test_others_cannot_cancel(client, who):
    tournament = small_tournament()
    services.tournament_start(tournament=tournament)
    if who != "anonymous":
        client.force_login(_organiser(bot_club("Other club")))
    response = client.post(f"/tournaments/{tournament.pk}/cancel/")
    assert response.status_code == 403
    assert "Only organisers of" in response.content.decode()
    assert Tournament.objects.get(pk=tournament.pk).status == Tournament.RUNNING


def test_cancel_is_post_only(client):
    tournament = small_tournament()
    assert client.get(f"/tournaments/{tournament.pk}/cancel/").status_code == 405


def test_live_json_query_count_does_not_grow_with_the_tournament(
        client, django_capture_on_commit_callbacks):
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    counts = []
    for name, games in (("Small", 1), ("Large", 6)):
        tournament = _played(django_capture_on_commit_callbacks, name=name,
                             games_per_table=games)
        with CaptureQueriesContext(connection) as queries:
            client.get(f"/tournaments/{tournament.pk}/progress.json")
        counts.append(len(queries))
    assert counts[0] == counts[1]


def _buttons(page) -> dict[str, bool]:
    """Each organiser's button on the page: whether it shows (not hidden)."""
    shown = {}
    for form in page.split("<form")[1:]:
        form = form[:form.index("</form>")]
        name = form.split("<button")[1].split(">", 1)[1].split("<")[0]
        shown[name] = " hidden" not in form[:form.index(">")]
        assert "disabled" not in form, "a button is shown only when it does something"
    return shown


def test_a_finished_tournament_says_so_and_offers_no_button(client,
                                                           django_capture_on_commit_callbacks):
    """A walk-through saw a finished tournament's page keep its Cancel and Resume buttons,
    greyed out, and say only "finished: 16/16 games, …, ETA –"."""
    tournament = _played(django_capture_on_commit_callbacks)
    client.force_login(_organiser(bot_club()))

    page = client.get(tournament.get_absolute_url()).content.decode()

    assert _buttons(page) == {}
    assert "This tournament is finished: all 16 games were played" in page
    assert "The standings below are final." in page
    assert "ETA" not in page


def test_a_cancelled_tournament_offers_resume_alone_and_says_what_it_plays(client):
    tournament = small_tournament()
    services.tournament_start(tournament=tournament)  # its games wait for the on-commit send
    services.tournament_cancel(tournament=tournament)
    client.force_login(_organiser(bot_club()))

    page = client.get(tournament.get_absolute_url()).content.decode()

    assert _buttons(page) == {"Resume tournament": True}
    assert "This tournament was cancelled after 0 of 16 games." in page
    assert "Resume plays the 16 games left." in page


def test_a_tournament_cancelled_before_it_started_offers_nothing(client):
    tournament = small_tournament()
    services.tournament_cancel(tournament=tournament)
    client.force_login(_organiser(bot_club()))

    page = client.get(tournament.get_absolute_url()).content.decode()

    assert _buttons(page) == {}
    assert "This tournament was cancelled before it started." in page


def test_the_organiser_starts_a_scheduled_tournament_from_its_page(
        client, django_capture_on_commit_callbacks):
    """The page offered Cancel and a greyed Resume to a scheduled tournament, and no Start:
    only the API could start it."""
    tournament = small_tournament()
    client.force_login(_organiser(bot_club()))

    page = client.get(tournament.get_absolute_url()).content.decode()
    assert _buttons(page) == {"Start tournament": True, "Cancel tournament": True,
                              "Resume tournament": False}
    assert "Not started yet: 16 games to play." in page

    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(f"/tournaments/{tournament.pk}/start/", follow=True)
    assert f"{tournament} started." in response.content.decode()
    assert Tournament.objects.get(pk=tournament.pk).status == Tournament.FINISHED  # no broker
    response = client.post(f"/tournaments/{tournament.pk}/start/", follow=True)
    assert "only a scheduled tournament can start" in response.content.decode()


def test_a_running_tournament_offers_cancel_and_resume_once_stalled(client):
    tournament = small_tournament()
    services.tournament_start(tournament=tournament)
    client.force_login(_organiser(bot_club()))

    page = client.get(tournament.get_absolute_url()).content.decode()
    assert _buttons(page) == {"Cancel tournament": True, "Resume tournament": False}

    backdate(tournament, minutes=10)
    page = client.get(tournament.get_absolute_url()).content.decode()
    assert _buttons(page) == {"Cancel tournament": True, "Resume tournament": True}


def test_others_cannot_start(client):
    tournament = small_tournament()
    client.force_login(_organiser(bot_club("Other club")))
    assert client.post(f"/tournaments/{tournament.pk}/start/").status_code == 403
    assert Tournament.objects.get(pk=tournament.pk).status == Tournament.SCHEDULED
