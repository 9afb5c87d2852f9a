"""One finishing-order shape, judged by the service only (issue 17): the phone page's form,
its script's JSON and the API each turn their input into player ids, first out first, and
show the service's refusal in the service's words."""

import pytest
from django.urls import reverse

from league import services
from league.errors import LeagueError
from league.models import Deal
from tests.api.conftest import client_for
from tests.league.factories import UserFactory, make_game, seated_ids

pytestmark = pytest.mark.django_db


@pytest.fixture
def table():
    """A game of four and an organiser of its club."""
    game, user = make_game(), UserFactory(username="org")
    game.season.club.organisers.add(user)
    return game, user


def refusal(game, order):
    with pytest.raises(LeagueError) as refused:
        services.deal_record(game=game, finishing_order=order)
    return refused.value.message


def page_form(order):
    return {"token": "t1", "number": 1,
            **{f"place_{i}": p for i, p in enumerate(order, start=1)}}


@pytest.mark.parametrize("order", [
    pytest.param(lambda ids: [ids[0], ids[0], ids[1], ids[2]], id="listed twice"),
    pytest.param(lambda ids: ids[:3], id="wrong count"),
    pytest.param(lambda ids: [*ids[:3], 999_999], id="not seated"),
])
def test_every_ui_shows_the_services_refusal_in_its_words(client, table, order):
    game, organiser = table
    order = order(seated_ids(game))
    said = refusal(game, order)
    assert said.startswith("the finishing order of deal 1 must list each of the 4 seated")
    client.force_login(organiser)
    record = reverse("league:deal_record", args=[game.pk])

    preview = client.post(reverse("league:deal_preview", args=[game.pk]), page_form(order))
    confirm = client.post(record, page_form(order))
    script = client.post(record, page_form(order), headers={"Accept": "application/json"})
    api = client_for(organiser, token=True).post(
        "/api/v1/deals/", {"game": game.pk, "number": 1, "finishing_order": order},
        format="json")

    for answer in (preview, confirm):
        assert answer.status_code == 400 and said in answer.content.decode()
    assert script.status_code == 400 and script.json() == {"error": said}
    assert api.status_code == 400 and api.json() == {"detail": said}
    assert not Deal.objects.exists()


def test_neither_order_nor_transcript_is_the_services_refusal(table):
    game, _ = table
    with pytest.raises(LeagueError, match="give a finishing order or a transcript"):
        services.deal_record(game=game, finishing_order=None, transcript=None)
    assert not Deal.objects.exists()


def test_the_preview_check_is_the_records_check(table):
    game, _ = table
    ids = seated_ids(game)
    assert services.finishing_order_check(game=game, finishing_order=ids[::-1]) == ids[::-1]
    with pytest.raises(LeagueError) as refused:
        services.finishing_order_check(game=game, finishing_order=[ids[0], *ids[:3]])
    assert refused.value.message == refusal(game, [ids[0], *ids[:3]])
    assert not Deal.objects.exists()
