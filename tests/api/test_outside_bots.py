"""Outside bots through the API: administrators (superusers) register, change and remove them;
everyone else, a club's own organisers included, is refused and changes nothing."""

import pytest

from league.models import AuditEntry
from outside_bots import services as outside_bots
from outside_bots.models import OutsideBot
from tests.api.conftest import client_for
from tests.league.factories import UserFactory
from tests.tournaments.helpers import small_tournament

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def allowed_hosts(settings):
    settings.OUTSIDE_BOT_ALLOWED_HOSTS = ["bots.example.org"]


@pytest.fixture
def admin():
    return client_for(UserFactory(username="root", is_superuser=True), token=True)


@pytest.fixture
def bot(db):

    return outside_bots.outside_bot_create(name="far-bot", url="https://bots.example.org/play",
                                       description="plays far away")


def snapshot():
    return (list(OutsideBot.objects.values_list("id", "name", "url", "description", "enabled")),
            AuditEntry.objects.count())


def test_an_administrator_registers_lists_changes_and_removes_a_bot(admin):
    created = admin.post("/api/v1/outside-bots/", {
        "name": "far-bot", "url": "https://bots.example.org/play"}, format="json")
    bot_id = created.json()["id"]
    listed = admin.get("/api/v1/outside-bots/", {"enabled": "true"})
    changed = admin.patch(f"/api/v1/outside-bots/{bot_id}/", {"enabled": False,
                                                             "description": "resting"},
                          format="json")
    removed = admin.delete(f"/api/v1/outside-bots/{bot_id}/")

    assert created.status_code == 201, created.json()
    assert created.json() | {"created_at": None} == {
        "id": bot_id, "name": "far-bot", "url": "https://bots.example.org/play",
        "description": "", "enabled": True, "created_at": None}
    assert [b["name"] for b in listed.json()["results"]] == ["far-bot"]
    assert changed.status_code == 200
    assert (changed.json()["enabled"], changed.json()["description"]) == (False, "resting")
    assert removed.status_code == 204
    assert not OutsideBot.objects.exists()
    assert list(AuditEntry.objects.order_by("id").values_list("action", "actor__username")) == [
        ("outside bot registered", "root"), ("outside bot changed", "root"),
        ("outside bot removed", "root")]


@pytest.mark.parametrize(("body", "answer"), [
    ({"url": "https://10.0.0.1/play"},
     {"url": ["host '10.0.0.1' is not in OUTSIDE_BOT_ALLOWED_HOSTS and is a private address"]}),
    ({"url": "ftp://bots.example.org/"},
     {"url": ["an outside bot's URL must be http(s)://host/…, not 'ftp://bots.example.org/'"]}),
    ({"name": "far bot"}, "name"),
    ({"name": "Far-Bot"}, {"name": ["Far-Bot is taken: a bot named far-bot is registered (a "
                                    "name is one name in any case or spelling)"]}),
])
def test_a_bad_bot_names_the_field_and_changes_nothing(admin, bot, body, answer):
    before = snapshot()

    response = admin.post("/api/v1/outside-bots/", {
        "name": "near-bot", "url": "https://bots.example.org/near", **body}, format="json")

    assert response.status_code == 400
    if isinstance(answer, str):
        assert list(response.json()) == [answer]
    else:
        assert response.json() == answer
    assert snapshot() == before


def test_a_bot_entered_in_a_tournament_keeps_its_name_and_is_disabled_not_removed(admin, bot):
    small_tournament(entrants=[("A", "random"), ("B", "random"), ("Far", "outside:far-bot")])
    before = snapshot()

    renamed = admin.patch(f"/api/v1/outside-bots/{bot.pk}/", {"name": "other"}, format="json")
    removed = admin.delete(f"/api/v1/outside-bots/{bot.pk}/")

    assert renamed.status_code == removed.status_code == 400
    assert "so it keeps its name" in renamed.json()["detail"]
    assert removed.json() == {"detail": "outside bot 'far-bot' is entered in tournaments; "
                                        "disable it instead"}
    assert snapshot() == before


OPERATIONS = {
    "list": lambda c, bot: c.get("/api/v1/outside-bots/"),
    "read": lambda c, bot: c.get(f"/api/v1/outside-bots/{bot.pk}/"),
    "register": lambda c, bot: c.post("/api/v1/outside-bots/", {
        "name": "mine", "url": "https://bots.example.org/mine"}, format="json"),
    "change": lambda c, bot: c.patch(f"/api/v1/outside-bots/{bot.pk}/",
                                     {"url": "https://bots.example.org/mine"}, format="json"),
    "remove": lambda c, bot: c.delete(f"/api/v1/outside-bots/{bot.pk}/"),
}


@pytest.mark.parametrize("operation", OPERATIONS)
@pytest.mark.parametrize("who", ["organiser of another club (session)",
                                 "organiser of another club (token)", "token without rights",
                                 "anonymous", "organiser of the bots' club"])
def test_everyone_but_administrators_is_refused_and_nothing_changes(bot, outsider_clients,
                                                                    operation, who):
    from tests.tournaments.helpers import bot_club

    if who == "organiser of the bots' club":
        user = UserFactory(username="bots-organiser")
        bot_club().organisers.add(user)
        client = client_for(user, token=True)
    else:
        client = outsider_clients[who]
    before = snapshot()

    response = OPERATIONS[operation](client, bot)

    assert response.status_code == (401 if who == "anonymous" else 403)
    assert "url" not in response.json() and "detail" in response.json()
    assert snapshot() == before
