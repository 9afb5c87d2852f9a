"""Bot names are one name in any case and Unicode spelling (NFKC, then case folded), and no
bot takes a built-in bot's name (issue #29: a second account's LOWBALL beside lowball, an
outside montecarlo beside the built-in one). Rows made before are renamed by the migration."""

import unicodedata

import pytest
from django.db import IntegrityError, connection, transaction
from django.db.migrations.executor import MigrationExecutor

from gameplay.bots import BUILT_IN
from league.names import look_alike_keys
from outside_bots import services
from outside_bots.errors import OutsideBotError
from outside_bots.models import OutsideBot, name_key
from tests.api.conftest import client_for
from tests.league.factories import UserFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def lowball(settings):
    """The first author's bot, whose name the others try in other spellings."""
    settings.OUTSIDE_BOT_ALLOWED_HOSTS = ["bots.example.org"]
    ada = UserFactory(username="ada", is_staff=False)
    return services.outside_bot_create(name="lowball", url="https://bots.example.org/a",
                                       owner=ada)


@pytest.mark.parametrize("name", ["LOWBALL", "LowBall", "ｌｏｗｂａｌｌ", "ＬＯＷＢＡＬＬ"])
def test_another_spelling_of_a_registered_name_is_refused(lowball, name):
    bob = UserFactory(username="bob", is_staff=False)
    answer = client_for(bob).post("/api/v1/bots/", {
        "name": name, "url": "https://bots.example.org/b"}, format="json")
    assert answer.status_code == 400
    assert answer.json() == {"name": [
        f"{unicodedata.normalize('NFKC', name)} is taken: a bot named lowball is registered (a "
        "name is one name in any case or spelling)"]}
    assert OutsideBot.objects.count() == 1


@pytest.mark.parametrize("name", [*BUILT_IN, "MonteCarlo", "ＲＡＮＤＯＭ"])
def test_a_built_in_bots_name_is_refused(name, settings):
    settings.OUTSIDE_BOT_ALLOWED_HOSTS = ["bots.example.org"]
    ada = UserFactory(username="ada", is_staff=False)
    with pytest.raises(OutsideBotError, match="is a built-in bot's name"):
        services.outside_bot_create(name=name, url="https://bots.example.org/a", owner=ada)
    assert not OutsideBot.objects.exists()


def test_renaming_onto_another_spelling_is_refused(lowball):
    bob = UserFactory(username="bob", is_staff=False)
    bot = services.outside_bot_create(name="bob-bot", url="https://bots.example.org/b",
                                      owner=bob)
    with pytest.raises(OutsideBotError, match="Lowball is taken: a bot named lowball"):
        services.outside_bot_update(bot=bot, name="Lowball")
    bot.refresh_from_db()
    assert (bot.name, bot.name_key) == ("bob-bot", "bob-bot")


def test_the_database_keeps_one_bot_a_name_key(lowball):
    with pytest.raises(IntegrityError), transaction.atomic():
        OutsideBot.objects.create(name="LOWBALL", name_key=name_key("LOWBALL"),
                                  url="https://bots.example.org/c")


def _migrate(target):
    executor = MigrationExecutor(connection)
    executor.migrate([target])
    return executor.loader.project_state([target]).apps


def _migrate_to_now():
    """Every app to today's graph: going back, outside_bots took the migrations of other apps
    after it with it (ladder's Fault table came back, which stopped PostgreSQL's flush after
    the test and left the other tests of the process an old ladder)."""
    MigrationExecutor(connection).migrate(MigrationExecutor(connection).loader.graph.leaf_nodes())


@pytest.mark.django_db(transaction=True)
def test_the_migration_renames_duplicates_and_disables_a_second_bot_at_one_url():
    old = _migrate(("outside_bots", "0001_initial"))
    bot = old.get_model("outside_bots", "OutsideBot")
    rows = [("lowball", "http://127.0.0.1:18210"), ("LOWBALL", "http://127.0.0.1:18210/"),
            ("montecarlo", "https://bots.example.org/mc"),
            ("lowball-2", "https://bots.example.org/l2"),
            ("spy", "http://u:pw@bots.example.org/")]
    ids = [bot.objects.create(name=n, url=u, presets=["classic"]).pk for n, u in rows]

    # Secrets come in (0002); lowball's author replaces its secret, and a bot is registered.
    secrets = _migrate(("outside_bots", "0004_hosted_code"))
    secrets.get_model("league", "AuditEntry").objects.create(
        action="outside bot secret replaced", target="lowball")
    later = secrets.get_model("outside_bots", "OutsideBot").objects.create(
        name="later", name_key="later", url="https://bots.example.org/later",
        presets=["classic"]).pk

    _migrate_to_now()

    after = {b.pk: b for b in OutsideBot.objects.all()}
    assert [(after[i].name, after[i].url, after[i].enabled) for i in ids] == [
        ("lowball", "http://127.0.0.1:18210/", True),
        ("LOWBALL-3", "http://127.0.0.1:18210/", False),  # lowball-2 is a bot's name
        ("montecarlo-2", "https://bots.example.org/mc", True),
        ("lowball-2", "https://bots.example.org/l2", True),
        ("spy", "http://u:pw@bots.example.org/", False)]
    assert [after[i].name_key for i in ids] == [name_key(after[i].name) for i in ids]
    # 0006: each bot's look-alike keys, which a new name is looked up by.
    assert all({f: getattr(b, f) for f in look_alike_keys(b.name)} == look_alike_keys(b.name)
               for b in after.values())
    assert len({b.secret for b in after.values()}) == 6
    assert all(len(b.secret) == 43 for b in after.values())
    # 0005: whose author was never given its secret (My bots says it needs one).
    assert {b.name for b in after.values() if not b.secret_given} == {
        "LOWBALL-3", "montecarlo-2", "lowball-2", "spy"}
    assert after[later].secret_given and after[ids[0]].secret_given


@pytest.mark.parametrize("name", ["Iowball", "l0wball", "1owball", "lowbaIl"])
def test_a_name_that_looks_like_a_registered_one_is_refused(lowball, name):
    """Found by a security walk-through: "Iowball" (a capital i) showed on the ladder as
    lowball, a second bot posing as the first."""
    bob = UserFactory(username="bob", is_staff=False)
    answer = client_for(bob).post("/api/v1/bots/", {
        "name": name, "url": "https://bots.example.org/b"}, format="json")
    assert answer.status_code == 400
    assert answer.json() == {"name": [
        f"{name} is taken: a bot named lowball is registered, which looks the same (a name is "
        "one name in any case, spelling or look-alike letters)"]}
    assert OutsideBot.objects.count() == 1


@pytest.mark.parametrize("name", ["rand0m", "Greedy", "heurIstic", "rnontecarlo"])
def test_a_name_that_looks_like_a_built_in_bots_is_refused(name, settings):
    settings.OUTSIDE_BOT_ALLOWED_HOSTS = ["bots.example.org"]
    ada = UserFactory(username="ada", is_staff=False)
    with pytest.raises(OutsideBotError, match="is a built-in bot's name"):
        services.outside_bot_create(name=name, url="https://bots.example.org/a", owner=ada)
    assert not OutsideBot.objects.exists()


def test_names_that_only_share_letters_stay_apart(lowball):
    bob = UserFactory(username="bob", is_staff=False)
    for number, name in enumerate(["lowball-2", "highball", "lowbal", "owball"]):
        services.outside_bot_create(name=name, url=f"https://bots.example.org/{number}",
                                    owner=bob)
    assert OutsideBot.objects.count() == 5


def test_a_renamed_bots_old_name_no_longer_stands_in_the_way(lowball):
    """The look-alike keys follow the name: "Iowball" is free once lowball is highball."""
    services.outside_bot_update(bot=lowball, name="highball")
    bob = UserFactory(username="bob", is_staff=False)

    services.outside_bot_create(name="Iowball", url="https://bots.example.org/b", owner=bob)

    assert sorted(OutsideBot.objects.values_list("name", flat=True)) == ["Iowball", "highball"]
    with pytest.raises(OutsideBotError, match="a bot named highball is registered, which looks"):
        services.outside_bot_create(name="highbaIl", url="https://bots.example.org/c",
                                    owner=bob)


@pytest.mark.django_db(transaction=True)
def test_the_migration_writes_the_keys_again_reading_rn_as_m():
    old = _migrate(("outside_bots", "0006_look_alike_keys"))
    pk = old.get_model("outside_bots", "OutsideBot").objects.create(
        name="rnodem", name_key="rnodem", url="https://bots.example.org/r", presets=["classic"],
        look_casefolded="rnodem", look_upper="RNODEM", look_written="rnodem").pk  # as 0006 did

    _migrate_to_now()

    bot = OutsideBot.objects.get(pk=pk)
    assert (bot.look_casefolded, bot.look_written) == ("modem", "modem")
    assert {f: getattr(bot, f) for f in look_alike_keys("rnodem")} == look_alike_keys("rnodem")
