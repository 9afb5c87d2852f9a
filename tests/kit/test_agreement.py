"""``president validate`` agrees with the site's validation (the ladder's validation game, the
same code: gameplay.runner.validation) on a good bot and on each broken behaviour of the
outside-bot fault tests (tests/bots/test_outside.py's Server modes)."""

import re
from collections import defaultdict

import pytest

from gameplay.kit.cli import main
from ladder import services
from ladder.models import Entry
from tests.ladder.conftest import (  # noqa: F401
    author,
    faults_of,
    ladder_settings,
    register,
    servers,
)

pytestmark = pytest.mark.django_db

# The slow server answers in 500 ms: a timeout. Its challenge, answered at once, has this long
# too: 100 ms was missed by a loaded CI machine ("the ownership challenge was not answered").
SLOW_MS = 300
SLOW_BANK_MS = 500  # its time bank (both sides read the setting): empty by its third answer
DECISION_MS = 5000  # the others answer at once, however loaded the machine


def site(ladder_settings, server, author, django_capture_on_commit_callbacks):  # noqa: F811
    """The site's verdict: (passed, fault kinds by decision)."""
    ladder_settings.OUTSIDE_BOT_DECISION_MS = limit_ms(server)
    if server.mode == "slow":
        ladder_settings.OUTSIDE_BOT_OVERAGE_MS = SLOW_BANK_MS
    bot = register(author, server)
    with django_capture_on_commit_callbacks(execute=True):
        services.bots_sync()
    entry = Entry.objects.get(outside_bot=bot)
    kinds = defaultdict(set)
    for decision, kind in faults_of(entry).values_list("decision", "kind"):
        kinds[decision].add(kind)
    return entry.status == Entry.ACTIVE, dict(kinds)


def limit_ms(server):
    return SLOW_MS if server.mode == "slow" else DECISION_MS


def kit(server, capsys, ladder_settings):  # noqa: F811
    code = main(["validate", server.url, f"--secret={server.secrets[0]}",
                 "--deals", str(ladder_settings.LADDER_DEALS_PER_GAME),
                 "--decision-ms", str(limit_ms(server)),
                 "--against", ",".join(ladder_settings.LADDER_VALIDATION_OPPONENTS)])
    kinds = defaultdict(set)
    for kind, decision in re.findall(r"^  (\w+) x\d+, first at deal \d+, decision \d+ \((\w+)\)",
                                     capsys.readouterr().out, re.M):
        kinds[decision].add(kind)
    return code == 0, dict(kinds)


@pytest.mark.parametrize("mode,kind", [("good", None), ("slow", "timeout"),
                                       ("junk", "malformed"), ("huge", "oversized"),
                                       ("illegal", "illegal"), ("status", "error"),
                                       ("garbage", "malformed")])
def test_the_kit_and_the_site_validate_alike(mode, kind, ladder_settings, servers, author,  # noqa: F811
                                             capsys, django_capture_on_commit_callbacks):
    (server,) = servers(1)
    server.mode = mode
    on_site = site(ladder_settings, server, author, django_capture_on_commit_callbacks)
    in_kit = kit(server, capsys, ladder_settings)
    # every decision of the game is a play; the others depend on the roles the deals give
    assert on_site[0] == in_kit[0] == (kind is None)
    assert on_site[1].get("play") == in_kit[1].get("play") == ({kind} if kind else None)
