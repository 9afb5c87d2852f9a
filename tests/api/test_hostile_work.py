"""What a hostile client can make the server do for one request: no more than for a
well-behaved one."""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from rest_framework.test import APIClient

pytestmark = pytest.mark.django_db


def queries_for(url, accept):
    with CaptureQueriesContext(connection) as queries:
        answer = APIClient().get(url, HTTP_ACCEPT=accept)
    assert answer.status_code == 200, answer.content
    return len(queries), answer.content


def test_standings_rendered_once_are_not_rendered_again_for_each_accept_header(game):
    """The JSON standings are cached per way of rendering them; the cache was keyed by the whole
    Accept header, so each new junk parameter (``application/json; x=1``, ``x=2``…) computed and
    stored the standings again: as many copies as a client sent headers."""
    url = f"/api/v1/seasons/{game.season_id}/standings/"
    queries_for(url, "application/json")
    cached, body = queries_for(url, "application/json")

    for junk in range(3):
        assert queries_for(url, f"application/json; junk={junk}") == (cached, body)


def test_standings_indented_on_request_are_rendered_so(game):
    url = f"/api/v1/seasons/{game.season_id}/standings/"

    _, plain = queries_for(url, "application/json")
    _, indented = queries_for(url, "application/json; indent=2")

    assert b"\n" not in plain and b'\n  "season"' in indented
