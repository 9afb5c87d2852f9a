"""From the starters to rated ladder games, as authors would do it (issues #29 and #30): one
author takes an API token and registers, through the REST API, the three starter bots served
on 127.0.0.1 (Python and JavaScript over HTTP, the C one compiled and put behind HTTP by
``president serve``), each server given the secret its registration answered with, and uploads
the Python and JavaScript starters unchanged as hosted bots. A real worker of both the ladder's
queue and the hosted bots' queue, and a real beat, bring them in: nobody calls a service. All
five pass validation and play rated games, without a fault.

Run with DATABASE_URL=postgres://… (the worker needs the PostgreSQL test database).
"""

import shutil
import socket
import subprocess
import sys
import time

import pytest
from django.contrib.auth import get_user_model
from django.core.files.uploadedfile import SimpleUploadedFile
from rest_framework.test import APIClient

from bot_games.models import BotFault
from gameplay.engine import checker
from ladder.models import Entry, Game
from league.ratings import MODEL
from outside_bots.models import HOSTED
from tests.conftest import stop
from tests.kit.conftest import STARTERS, Running
from tests.tournaments.conftest import beat, tournament_queue, workers  # noqa: F401

pytestmark = [pytest.mark.integration, pytest.mark.django_db(transaction=True)]

SECONDS = 120
PASSWORD = "a long enough password"


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def compiled_c_starter(folder) -> str:
    binary = folder / "bot"
    subprocess.run(["cc", "-O2", "-o", str(binary), str(STARTERS / "c" / "bot.c")], check=True)
    return str(binary)


@pytest.fixture
def servers():
    started = []
    yield started
    for server in started:
        server.close()


def test_the_three_starters_by_url_and_two_uploads_pass_validation_and_play_rated_games(
        workers, beat, servers, tournament_queue, settings, tmp_path):  # noqa: F811
    missing = [tool for tool in ("cc", "node", "bwrap") if shutil.which(tool) is None]
    if missing:
        pytest.skip(f"{' and '.join(missing)} not installed: the C starter is compiled with "
                    "cc, the JavaScript one runs on node, hosted bots in bwrap")
    ports = {name: free_port() for name in ("py-http", "js-http", "c-http")}
    allowed = [f"127.0.0.1:{port}" for port in ports.values()]
    settings.OUTSIDE_BOT_ALLOWED_HOSTS = allowed
    get_user_model().objects.create_user("ada", password=PASSWORD)
    api = APIClient()
    token = api.post("/api/v1/tokens/", {"username": "ada", "password": PASSWORD})
    assert token.status_code == 201, token.content
    api.credentials(HTTP_AUTHORIZATION=f"Token {token.json()['token']}")

    secrets = {}
    for name, port in ports.items():
        made = api.post("/api/v1/bots/", {"name": name, "url": f"http://127.0.0.1:{port}/"},
                        format="json")
        assert made.status_code == 201, made.content
        secrets[name] = made.json()["secret"]
    for name, filename, runtime in (("py-hosted", "python/bot.py", "python"),
                                    ("js-hosted", "javascript/bot.js", "node")):
        code = SimpleUploadedFile(filename.split("/")[1], (STARTERS / filename).read_bytes())
        made = api.post("/api/v1/bots/", {"name": name, "code": code, "runtime": runtime},
                        format="multipart")
        assert made.status_code == 201, made.content
        assert made.json()["url"].startswith(HOSTED)

    python, node = sys.executable, shutil.which("node")
    servers.append(Running([python, str(STARTERS / "python" / "bot.py"), "--http",
                            str(ports["py-http"])], secret=secrets["py-http"]))
    servers.append(Running([node, str(STARTERS / "javascript" / "bot.js"), "--http",
                            str(ports["js-http"])], secret=secrets["js-http"]))
    servers.append(Running([python, "-m", "gameplay.kit", "serve", compiled_c_starter(tmp_path),
                            "--http", str(ports["c-http"]), f"--secret={secrets['c-http']}"]))

    hosted = f"{tournament_queue}-hosted"
    env = {"OUTSIDE_BOT_ALLOWED_HOSTS": ",".join(allowed), "CELERY_HOSTED_QUEUE": hosted,
           "LADDER_TICK_SECONDS": "1", "LADDER_REFERENCES": "random,greedy,heuristic",
           "LADDER_VALIDATION_OPPONENTS": "random,greedy,heuristic",
           "LADDER_DEALS_PER_GAME": "1", "LADDER_GAMES_IN_FLIGHT": "3"}
    scheduler = beat(**env)  # started first: it starts up while the worker does
    worker = workers(queues=f"{tournament_queue},{hosted}", **env)

    names = [*ports, "py-hosted", "js-hosted"]
    deadline = time.monotonic() + SECONDS
    while time.monotonic() < deadline:
        entries = Entry.objects.filter(name__in=names)
        paused = list(entries.filter(status=Entry.PAUSED).values_list("name", "reason"))
        assert not paused, f"paused: {paused}\nworker log:\n{worker.log()[-4000:]}"
        played = dict(entries.values_list("name", "games"))
        if len(played) == len(names) and all(games >= 1 for games in played.values()):
            break
        time.sleep(0.2)
    else:
        pytest.fail(f"entries {list(Entry.objects.values('name', 'status', 'reason', 'games'))}"
                    f"\nworker log:\n{worker.log()[-4000:]}\nbeat log:\n{scheduler.log()[-2000:]}")

    scheduler.process.terminate()  # both at once
    stop(worker.process)  # a warm shutdown: the game in hand is stored first
    stop(scheduler.process)
    for name in names:
        entry = Entry.objects.get(name=name)
        assert (entry.status, entry.reason) == (Entry.ACTIVE, ""), name
        assert entry.validation_game.status == Game.DONE, name
        assert entry.sigma < MODEL.sigma, name  # rated: its uncertainty narrowed
    assert not BotFault.objects.exists()
    for game in Game.objects.filter(status=Game.DONE):
        assert checker.check(game.bot_game.transcript)[0] == checker.VALID
