"""The ladder in the admin: administrators look, nobody changes anything there (the services
are the one write path), organisers (staff) do not see it."""

import pytest

from ladder.models import Entry
from tests.league.factories import UserFactory

pytestmark = pytest.mark.django_db


def test_administrators_see_the_ladder_read_only_and_organisers_not_at_all(client):
    entry = Entry.objects.create(preset="classic", name="heuristic", reference=True,
                                 spec="heuristic", status=Entry.ACTIVE)
    client.force_login(UserFactory(username="root", is_superuser=True))
    assert "heuristic" in client.get("/admin/ladder/entry/").content.decode()
    assert client.get("/admin/ladder/game/").status_code == 200
    page = client.get(f"/admin/ladder/entry/{entry.pk}/change/")
    assert page.status_code == 200 and 'name="_save"' not in page.content.decode()
    assert client.get("/admin/ladder/entry/add/").status_code == 403

    client.force_login(UserFactory(username="organiser", is_staff=True))
    assert client.get("/admin/ladder/entry/").status_code == 403
