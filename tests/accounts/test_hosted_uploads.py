"""A hosted bot's upload on "My bots" and at /api/v1/bots/ (docs/sandbox.md "Uploads"): a single
source file or a zip with the runtime's entry at its top. An upload no runtime here runs is
refused at the upload, at the code field, naming what it is and what runs, and nothing is
stored; it never waits for its validation game to fail."""

import io
import zipfile

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile

from accounts.forms import BotForm
from outside_bots.models import OutsideBot
from tests.api.conftest import client_for
from tests.league.factories import UserFactory

pytestmark = pytest.mark.django_db

PYTHON = b"import sys\nfor line in sys.stdin:\n    pass\n"
C = b"#include <stdio.h>\nint main(void) { return 0; }\n"


@pytest.fixture
def author():
    return UserFactory(username="ada", is_staff=False)


def zipped(files: dict[str, bytes]) -> bytes:
    packed = io.BytesIO()
    with zipfile.ZipFile(packed, "w") as archive:
        for name, data in files.items():
            archive.writestr(name, data)
    return packed.getvalue()


def upload(author, filename, data, **fields):
    return client_for(author).post("/api/v1/bots/", {
        "name": "ada-bot", "code": SimpleUploadedFile(filename, data), **fields},
        format="multipart")


RUNS = ("hosted bots run Python 3 (bot.py) or Node.js (bot.js) and compile nothing: upload "
        "one of those, or a zip with it at the top; a bot in another language is served by "
        "you and registered by its URL")


@pytest.mark.parametrize(("filename", "data", "runtime", "words"), [
    ("bot.c", C, "python", f"bot.c is C source; {RUNS}"),
    ("bot.c", C, "node", f"bot.c is C source; {RUNS}"),
    ("bot.cpp", C, "python", f"bot.cpp is C++ source; {RUNS}"),
    ("bot.tar.gz", b"\x1f\x8b\x08\x00 a gzip", "python", f"bot.tar.gz is a tar archive; {RUNS}"),
    ("bot.txt", PYTHON, "python", f"bot.txt is neither bot.py nor bot.js; {RUNS}"),
    ("bot", b"\x7fELF\x02\x01\x01\x00\xff\xfe", "python",
     f"bot is neither bot.py nor bot.js; {RUNS}"),
    ("bot.py", b"\x7fELF\x02\x01\x01\x00\xff\xfe", "python",
     f"bot.py is not text (a compiled program?); {RUNS}"),
    ("bot.zip", zipped({"bot.c": C}), "python",
     f"no bot.py at the top of the zip: a python bot starts from it; bot.c is C source; "
     f"{RUNS}"),
    ("bot.zip", zipped({"bot.js": b"1"}), "python",
     "no bot.py at the top of the zip: a python bot starts from it; bot.js: a Node.js file, "
     "and the runtime chosen is Python 3"),
], ids=["c as python", "c as node", "c++", "tar", "txt", "binary", "binary named .py",
        "zip of c", "zip of js as python"])
def test_an_upload_no_runtime_runs_is_refused_at_the_code_field_on_both_ways_in(
        client, author, filename, data, runtime, words):
    answer = upload(author, filename, data, runtime=runtime)
    assert (answer.status_code, answer.json()) == (400, {"code": [words]})

    form = BotForm({"name": "ada-bot", "presets": ["classic"], "runtime": runtime},
                   {"code": SimpleUploadedFile(filename, data)})
    assert not form.is_valid()
    assert dict(form.errors) == {"code": [words]}
    assert not OutsideBot.objects.exists()


@pytest.mark.parametrize(("filename", "data", "runtime"), [
    ("my_bot.py", PYTHON, "python"),
    ("bot.js", b"process.stdin.on('data', () => {})\n", "node"),
    ("bot.zip", zipped({"bot.py": PYTHON, "helper.c": C, "data/x.json": b"{}"}), "python"),
])
def test_a_source_file_or_zip_the_runtime_runs_is_taken(author, filename, data, runtime):
    answer = upload(author, filename, data, runtime=runtime)
    assert answer.status_code == 201, answer.json()
    assert OutsideBot.objects.get().runtime == runtime



def test_code_without_a_runtime_names_the_runtimes_to_choose_from(author):
    answer = upload(author, "bot.py", PYTHON)
    assert (answer.status_code, answer.json()) == (
        400, {"runtime": ["which runtime runs the code: python or node"]})
    assert not OutsideBot.objects.exists()


def test_a_hosted_bots_answer_has_no_secret_and_it_has_none_to_replace(author):
    """A hosted bot is run in the sandbox, never called over signed HTTP: a secret in its
    answer would be one its author has no use for."""
    made = upload(author, "bot.py", PYTHON, runtime="python")
    assert made.status_code == 201
    assert made.json()["secret"] is None
    bot = OutsideBot.objects.get()

    replaced = client_for(author).post(f"/api/v1/bots/{bot.pk}/secret/")
    assert (replaced.status_code, replaced.json()["detail"]) == (
        400, "ada-bot is hosted: the site runs its code in the sandbox and never calls it "
             "over HTTP, so it has no secret")
    assert OutsideBot.objects.get().secret == bot.secret

    page = client_for(author).post(f"/accounts/bots/{bot.pk}/secret/", follow=True)
    assert "it has no secret" in page.content.decode()
    assert OutsideBot.objects.get().secret == bot.secret


def test_an_http_bots_answer_still_holds_its_secret(author, settings):
    settings.OUTSIDE_BOT_ALLOWED_HOSTS = ["bots.example.org"]
    made = client_for(author).post("/api/v1/bots/", {"name": "ada-bot",
                                                     "url": "https://bots.example.org/"})
    assert made.status_code == 201
    assert made.json()["secret"] == OutsideBot.objects.get().secret


def test_the_schema_says_a_hosted_bot_has_no_secret(client):
    schema = client.get("/api/schema/", {"format": "json"}).json()
    secret = schema["components"]["schemas"]["BotSecret"]["properties"]["secret"]
    assert secret["nullable"] is True and "null for a hosted bot" in secret["description"]
