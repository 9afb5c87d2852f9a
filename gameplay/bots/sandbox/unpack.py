"""Unpacking an uploaded zip of a bot's source, within bounds and only as plain files.

Refused, each with a message naming the entry: more than MAX_ZIP_BYTES, more than MAX_FILES
entries, more than MAX_UNPACKED_BYTES unpacked (counted while unpacking, whatever sizes the
zip declares, so a bomb of compressed zeros stops at the bound), absolute paths, ``..``,
links, devices and other special files, encrypted entries.  What is unpacked is readable by
the sandbox's uid and nothing is executable.
"""

import io
import os
import stat
import zipfile
from pathlib import Path, PurePosixPath

MAX_ZIP_BYTES = 1 << 20
MAX_FILES = 200
MAX_UNPACKED_BYTES = 8 << 20
CHUNK = 64 * 1024


class BadUpload(ValueError):
    """An upload that cannot be a bot's code; the message says what is wrong."""


def _path(info: zipfile.ZipInfo) -> PurePosixPath:
    name = info.filename
    if "\\" in name or "\x00" in name:
        raise BadUpload(f"{name!r}: a path in the zip has a backslash or NUL")
    path = PurePosixPath(name)
    if path.is_absolute() or (path.parts and ":" in path.parts[0]):
        raise BadUpload(f"{name!r}: a path in the zip is absolute")
    if ".." in path.parts:
        raise BadUpload(f"{name!r}: a path in the zip goes up with '..'")
    if not path.parts:
        raise BadUpload("an entry in the zip has no name")
    kind = stat.S_IFMT(info.external_attr >> 16)
    if kind == stat.S_IFLNK:
        raise BadUpload(f"{name!r}: the zip holds a link; only plain files are taken")
    if kind not in (0, stat.S_IFREG, stat.S_IFDIR):
        raise BadUpload(f"{name!r}: the zip holds a device or special file; only plain files "
                        "are taken")
    if info.flag_bits & 0x1:
        raise BadUpload(f"{name!r}: the zip holds an encrypted file")
    return path


def _one_entry_a_path(infos: list[zipfile.ZipInfo], paths: list[PurePosixPath]) -> None:
    """Refuse a file the zip holds twice, or as a file and as a folder."""
    files, folders = set(), set()
    for info, path in zip(infos, paths, strict=True):
        if info.is_dir():
            folders.add(path)
        elif path in files:
            raise BadUpload(f"{info.filename!r}: the zip holds this path twice")
        else:
            files.add(path)
        folders.update(path.parents)
    for path in sorted(files & folders):
        raise BadUpload(f"'{path}': the zip holds it as a file and as a folder")


def unpack_upload(data: bytes, dest: str | Path) -> list[str]:
    """Unpack the zip ``data`` into the empty or new directory ``dest``; return the files'
    paths.  Raises BadUpload (and leaves what it unpacked so far for the caller to delete)."""
    if len(data) > MAX_ZIP_BYTES:
        raise BadUpload(f"the zip is over {MAX_ZIP_BYTES // 1024} KB")
    try:
        archive = zipfile.ZipFile(io.BytesIO(data))
    except (zipfile.BadZipFile, ValueError) as error:
        raise BadUpload(f"not a zip file ({error})") from None
    infos = archive.infolist()
    if len(infos) > MAX_FILES:
        raise BadUpload(f"the zip holds {len(infos)} entries, over {MAX_FILES}")
    paths = [_path(info) for info in infos]  # every entry checked before one is written
    _one_entry_a_path(infos, paths)
    dest = Path(dest)
    dest.mkdir(exist_ok=True)
    dest.chmod(0o755)
    left, files = MAX_UNPACKED_BYTES, []
    for info, path in zip(infos, paths, strict=True):
        try:
            left = _write(archive, info, dest.joinpath(*path.parts), len(path.parts), left)
        except (OSError, zipfile.BadZipFile, EOFError) as error:
            raise BadUpload(f"{info.filename!r}: cannot be unpacked ({type(error).__name__})") \
                from None
        if not info.is_dir():
            files.append(str(path))
    return files


def _write(archive: zipfile.ZipFile, info: zipfile.ZipInfo, target: Path, depth: int,
           left: int) -> int:
    """Write one entry (a file, or a folder); return the unpacked bytes still allowed."""
    for folder in reversed(target.parents[:depth - 1]):
        folder.mkdir(exist_ok=True)
        folder.chmod(0o755)
    if info.is_dir():
        target.mkdir(exist_ok=True)
        target.chmod(0o755)
        return left
    fd = os.open(target, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW, 0o600)
    os.fchmod(fd, 0o644)
    with os.fdopen(fd, "wb") as out, archive.open(info) as source:
        while chunk := source.read(min(CHUNK, left + 1)):
            left -= len(chunk)
            if left < 0:
                raise BadUpload(f"{info.filename!r}: the zip unpacks to over "
                                f"{MAX_UNPACKED_BYTES >> 20} MB")
            out.write(chunk)
    return left
