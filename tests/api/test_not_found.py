"""What is not there under /api/ answers 404 in the API's error shape, JSON naming what was
asked for: a route that does not exist, and an id that is not a number."""

import pytest
from django.test import Client, RequestFactory
from django.urls import reverse
from django.views.defaults import server_error

from tests.api.conftest import client_for
from tests.league.factories import UserFactory

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("method, path", [
    ("get", "/api/v1/no-such-thing/"),
    ("get", "/api/v2/clubs/"),
    ("get", "/api/"),
    ("post", "/api/v1/clubs/1/no-such-action/"),
    ("post", "/api/v1/ladder/abc/resume/"),
    ("get", "/api/v1/ladder/abc/"),
    ("get", "/api/v1/ladder-games/abc/"),
    ("patch", "/api/v1/bots/²/"),
])
def test_what_is_not_there_under_the_api_answers_json_404(method, path):
    client = client_for(UserFactory(username="ada", is_staff=False), token=True)

    answer = getattr(client, method)(path)

    assert answer.status_code == 404
    assert answer["Content-Type"] == "application/json"
    assert set(answer.json()) == {"detail"}
    assert f"no such route: {path}" in answer.json()["detail"]


def test_a_route_miss_names_the_path_and_where_the_routes_are():
    answer = client_for().get("/api/v1/no-such-thing/")

    assert answer.json() == {"detail": "no such route: /api/v1/no-such-thing/ (the API's "
                                       "routes are listed at /api/v1/ and in /api/docs/)"}


def test_an_id_past_any_column_is_no_such_row():
    answer = client_for().get(f"/api/v1/clubs/{10**30}/")

    assert answer.status_code == 404 and answer.json() == {"detail": f"there is no club {10**30}"}


@pytest.mark.parametrize("path, said", [
    ("/api/v1/ladder/999999/", "there is no entry 999999"),
    ("/api/v1/games/999999/", "there is no game 999999"),
    ("/api/v1/deals/999999/", "there is no deal 999999"),
])
def test_a_row_that_is_not_there_is_said_in_words(path, said):
    """Not in the model's class name ("No Entry matches the given query.", found by a docs
    walk-through)."""
    answer = client_for().get(path)

    assert answer.status_code == 404 and answer.json() == {"detail": said}


def test_a_page_that_is_not_there_stays_a_page():
    answer = client_for().get("/league/no-such-page/")

    assert answer.status_code == 404 and answer["Content-Type"].startswith("text/html")


@pytest.mark.parametrize("path, said", [
    ("/no/such/page/", "There is nothing at /no/such/page/"),
    ("/league/players/999999/", "There is nothing at /league/players/999999/"),
    ("/accounts/bots/999999/", "You have no bot 999999: My bots lists yours."),
])
def test_what_is_not_there_on_the_site_is_the_sites_page_in_words(client, path, said):
    """Found by a walk-through: Django's bare "Not Found" page, without the site around it, or
    the model's words ("No OutsideBot matches the given query.") under DEBUG."""
    client.force_login(UserFactory(username="ada", is_staff=False))

    answer = client.get(path)

    assert answer.status_code == 404
    page = " ".join(answer.content.decode().split())
    assert said in page and "President League" in page and "matches the given query" not in page


def test_a_server_error_is_the_sites_page_in_words():
    """Django's bare "Server Error (500)" had no menu and no way back."""
    answer = server_error(RequestFactory().get("/league/"))

    page = " ".join(answer.content.decode().split())
    assert answer.status_code == 500
    assert "Something went wrong on our side" in page and "President League" in page


def test_a_form_sent_without_its_security_check_is_refused_in_words(db):
    """A phone left open on a form past its session sent a bare "CSRF verification failed"."""
    answer = Client(enforce_csrf_checks=True).post(reverse("account_login"),
                                                   {"login": "ada", "password": "x"})

    page = " ".join(answer.content.decode().split())
    assert answer.status_code == 403
    assert "The form was not sent" in page and "reload the page" in page
    assert "President League" in page and "CSRF" not in page


@pytest.mark.parametrize("method", ["get", "patch", "delete"])
def test_a_bot_that_is_not_yours_or_not_there_is_said_in_words(method):
    """An author's bots are read through their own list: "there is no such row 999999" spoke
    the database's words (found by a security walk-through), the same for a bot that is
    another author's, which the answer does not tell apart."""
    client = client_for(UserFactory(username="ada", is_staff=False), token=True)

    answer = getattr(client, method)("/api/v1/bots/999999/")

    assert answer.status_code == 404
    assert answer.json() == {"detail": "there is no bot of yours 999999"}
