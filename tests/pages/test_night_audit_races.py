"""Two table phones of one night writing at the same instant, on PostgreSQL (real threads, each
with its own connection): one person still sits at one table."""


import pytest
from django.db import connection
from django.urls import reverse

from league import services
from league.models import Seat
from tests.api.conftest import at_once, overlapping
from tests.league.factories import PlayerFactory
from tests.league.test_table_links import confirmed_round

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]


def test_two_table_phones_joining_one_latecomer_at_once_seat_her_once(monkeypatch):
    """Nia arrives; the phones of tables 1 and 2 both enter her joining at the same moment.
    Each checked the other table before either wrote: she sat at both open tables. The check
    waits (up to a second) for the other phone's to be made too, so the two always overlap
    unless one phone's change waits for the other's."""
    if connection.vendor != "postgresql":
        pytest.skip("row locks are PostgreSQL's: run with DATABASE_URL=postgres://")
    overlapping(monkeypatch, services, "seated_elsewhere")
    organiser, games = confirmed_round(tables=2, size=4)
    for game in games:
        services.deal_record(game=game, number=1, by=organiser, finishing_order=list(
            game.seats.order_by("number").values_list("player_id", flat=True)))
    nia = PlayerFactory(name="Nia", clubs=[games[0].season.club])

    def joining_nia(game):
        link = reverse("league:table_link_open", args=[game.table_links.get().token])
        at = reverse("league:seat_change", args=[game.pk])

        def send(phone):
            phone.get(link)
            return phone.post(at, {"joining": [nia.pk]})
        return send

    answers = at_once(None, *(joining_nia(game) for game in games))

    assert sorted(a.status_code for a in answers) == [302, 400]
    assert Seat.objects.filter(player=nia, left_before__isnull=True).count() == 1
