"""An upload whose zip nests folders thousands deep: refused naming the entry, before anything
is unpacked. Unpacked, its tree broke the clean-up of the folder it was checked in (shutil's
rmtree recurses a level a frame: RecursionError), so the registration answered 500 and left
the tree behind in the web server's temporary folder, at every try."""

import tempfile

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile

from outside_bots.models import OutsideBot
from tests.accounts.test_hosted_uploads import zipped
from tests.api.conftest import client_for
from tests.league.factories import UserFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def temporary(tmp_path, monkeypatch):
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    return tmp_path


@pytest.mark.parametrize("depth", [2000, 33])
def test_a_zip_nested_too_deep_is_refused_and_leaves_nothing(temporary, depth):
    deep = "/".join(["d"] * depth) + "/x.py"
    answer = client_for(UserFactory(username="ada", is_staff=False)).post(
        "/api/v1/bots/", {"name": "ada-bot", "runtime": "python", "code": SimpleUploadedFile(
            "bot.zip", zipped({"bot.py": b"print(1)\n", deep: b"x"}))}, format="multipart")

    assert answer.status_code == 400, answer.content[:300]
    assert "folders deep" in " ".join(answer.json()["code"])
    assert not OutsideBot.objects.exists()
    assert list(temporary.iterdir()) == []


def test_folders_as_deep_as_a_project_has_are_taken(temporary):
    nested = "/".join(["d"] * 32) + "/x.py"
    answer = client_for(UserFactory(username="ada", is_staff=False)).post(
        "/api/v1/bots/", {"name": "ada-bot", "runtime": "python", "code": SimpleUploadedFile(
            "bot.zip", zipped({"bot.py": b"print(1)\n", nested: b"x"}))}, format="multipart")

    assert answer.status_code == 201, answer.content[:300]
