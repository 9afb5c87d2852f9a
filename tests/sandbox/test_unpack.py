"""Uploaded zips: bounded, plain files only; each refusal names what is wrong and nothing is
written outside the destination."""

import io
import stat
import zipfile

import pytest

from gameplay.bots.sandbox import BadUpload, unpack, unpack_upload


def _zip(*entries) -> bytes:
    """entries: (ZipInfo or name, bytes)."""
    data = io.BytesIO()
    with zipfile.ZipFile(data, "w", zipfile.ZIP_DEFLATED) as archive:
        for info, content in entries:
            archive.writestr(info, content)
    return data.getvalue()


def _special(name: str, mode: int) -> zipfile.ZipInfo:
    info = zipfile.ZipInfo(name)
    info.external_attr = mode << 16
    return info


def test_plain_files_unpack_readable_and_not_executable(tmp_path):
    executable = _special("run.sh", stat.S_IFREG | 0o4777)
    files = unpack_upload(_zip(("bot.py", b"x"), ("lib/a.py", b"y"), (executable, b"z")),
                          tmp_path / "code")
    assert files == ["bot.py", "lib/a.py", "run.sh"]
    assert (tmp_path / "code" / "lib" / "a.py").read_bytes() == b"y"
    assert stat.S_IMODE((tmp_path / "code" / "run.sh").stat().st_mode) == 0o644


@pytest.mark.parametrize("entry, words", [
    (("../evil.py", b"x"), "goes up with '..'"),
    (("lib/../../evil.py", b"x"), "goes up with '..'"),
    (("/etc/evil.py", b"x"), "is absolute"),
    (("C:/evil.py", b"x"), "is absolute"),
    (("lib\\..\\evil.py", b"x"), "backslash"),
    ((_special("link", stat.S_IFLNK | 0o777), b"/etc/passwd"), "holds a link"),
    ((_special("dev", stat.S_IFCHR | 0o666), b""), "device or special file"),
    ((_special("fifo", stat.S_IFIFO | 0o666), b""), "device or special file"),
    # found by a walk-through: said "cannot be unpacked (FileExistsError)"
    (("./bot.py", b"y"), "'./bot.py': the zip holds this path twice"),
    (("bot.py/", b""), "'bot.py': the zip holds it as a file and as a folder"),
    (("bot.py/lib.py", b""), "'bot.py': the zip holds it as a file and as a folder"),
])
def test_a_zip_with_a_dangerous_entry_is_refused_before_anything_is_written(tmp_path, entry,
                                                                             words):
    with pytest.raises(BadUpload, match=words):
        unpack_upload(_zip(("bot.py", b"x"), entry), tmp_path / "code")
    assert [p.name for p in tmp_path.iterdir()] == []


def test_a_bomb_of_compressed_zeros_stops_at_the_bound(tmp_path):
    bomb = _zip(("bot.py", b"x"), ("zeros", bytes(64 << 20)))
    assert len(bomb) < unpack.MAX_ZIP_BYTES  # small enough to be uploaded
    with pytest.raises(BadUpload, match="unpacks to over 8 MB"):
        unpack_upload(bomb, tmp_path / "code")
    assert sum(p.stat().st_size for p in (tmp_path / "code").iterdir()) <= \
        unpack.MAX_UNPACKED_BYTES


def test_a_bomb_that_lies_about_its_size_stops_at_the_bound_too(tmp_path):
    bomb = bytearray(_zip(("zeros", bytes(16 << 20))))
    # the central directory's uncompressed size (offset 24 of its entry) claims 1 byte
    central = bomb.rindex(b"PK\x01\x02")
    bomb[central + 24:central + 28] = (1).to_bytes(4, "little")
    with pytest.raises(BadUpload, match="zeros"):
        unpack_upload(bytes(bomb), tmp_path / "code")
    assert (tmp_path / "code" / "zeros").stat().st_size <= unpack.MAX_UNPACKED_BYTES


def test_too_many_files_too_big_or_not_a_zip(tmp_path):
    many = _zip(*[(f"f{i}.py", b"") for i in range(unpack.MAX_FILES + 1)])
    with pytest.raises(BadUpload, match="201 entries, over 200"):
        unpack_upload(many, tmp_path / "a")
    with pytest.raises(BadUpload, match="over 1024 KB"):
        unpack_upload(b"PK" + bytes(unpack.MAX_ZIP_BYTES), tmp_path / "b")
    with pytest.raises(BadUpload, match="not a zip file"):
        unpack_upload(b"print('hello')", tmp_path / "c")
    with pytest.warns(UserWarning, match="Duplicate name"):
        twice = _zip(("bot.py", b"x"), ("bot.py", b"y"))
    with pytest.raises(BadUpload, match="'bot.py': the zip holds this path twice"):
        unpack_upload(twice, tmp_path / "d")
