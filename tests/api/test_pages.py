"""The API's pages (plumbing.api.pagination): a page number that is not a whole number from 1 is
refused with 400 naming ``page`` (DRF answered 404 "Invalid page."), a page past the end is a
404 saying how many pages there are, and the schema says pages start at 1."""

import pytest
from rest_framework.test import APIClient

from ladder.models import Entry
from tests.league.factories import ClubFactory

pytestmark = pytest.mark.django_db

# A league list (DEFAULT_PAGINATION_CLASS, 50 a page) and the ladder's two (their own sizes).
LISTS = ["/api/v1/clubs/", "/api/v1/games/", "/api/v1/ladder/", "/api/v1/ladder-games/"]


@pytest.mark.parametrize("path", LISTS)
@pytest.mark.parametrize("page", ["abc", "0", "-1", "1.5", "²", "٣", " 1", "00"])
def test_a_page_that_is_not_a_whole_number_from_1_is_refused_naming_it(path, page):
    answer = APIClient().get(path, {"page": page})

    assert answer.status_code == 400, answer.content
    assert answer.json() == {"page": [f"a whole number from 1, not {page!r}"]}


@pytest.mark.parametrize("path", LISTS)
def test_a_page_past_the_end_says_how_many_pages_there_are(path):
    answer = APIClient().get(path, {"page": "2"})

    assert answer.status_code == 404, answer.content
    assert answer.json() == {"detail": "there is no page 2: there is 1 page"}


def test_a_league_list_past_its_last_page():
    ClubFactory.create_batch(51)  # 50 a page

    assert APIClient().get("/api/v1/clubs/", {"page": "2"}).json()["count"] == 51
    answer = APIClient().get("/api/v1/clubs/", {"page": "3"})

    assert answer.status_code == 404
    assert answer.json() == {"detail": "there is no page 3: there are 2 pages"}


@pytest.mark.parametrize("page", ["4", "04", "9" * 5000])
def test_the_ladder_past_its_last_page(page):
    Entry.objects.bulk_create(Entry(preset="classic", name=f"bot-{i}", status=Entry.ACTIVE)
                              for i in range(3))

    answer = APIClient().get("/api/v1/ladder/", {"page": page, "page_size": "1"})

    assert answer.status_code == 404
    assert answer.json() == {"detail": f"there is no page {page.lstrip('0')[:40]}: there are "
                                       "3 pages"}


def test_a_page_within_the_list_and_no_page_at_all_are_answered():
    Entry.objects.bulk_create(Entry(preset="classic", name=f"bot-{i}", status=Entry.ACTIVE)
                              for i in range(3))

    for query, names in [({"page": "3"}, ["bot-2"]), ({"page": "003"}, ["bot-2"]),
                         ({"page": "last"}, ["bot-2"]), ({"page": ""}, ["bot-0"]), ({}, ["bot-0"])]:
        answer = APIClient().get("/api/v1/ladder/", {**query, "page_size": "1", "order": "rating"})
        assert answer.status_code == 200, (query, answer.content)
        assert [r["name"] for r in answer.json()["results"]] == names, query


def test_the_schema_says_pages_start_at_1():
    schema = APIClient().get("/api/schema/", {"format": "json"}).json()

    pages = {f"{method} {path}": parameter["schema"]
             for path, operations in schema["paths"].items()
             for method, operation in operations.items()
             for parameter in operation.get("parameters", []) if parameter["name"] == "page"}
    assert {"get /api/v1/clubs/", "get /api/v1/ladder/", "get /api/v1/ladder-games/"} <= set(pages)
    assert all(page == {"type": "integer", "minimum": 1} for page in pages.values()), pages
