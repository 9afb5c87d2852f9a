"""The sandbox: one bot process, for one game, inside bubblewrap (``bwrap``) under rlimits.

What it allows and refuses, and why, is in docs/sandbox.md.  In short: new user, PID, IPC,
UTS, cgroup and network namespaces (no network at all, not even the host's loopback); a uid
that is not root; a read-only view of the interpreter, its shared libraries (and Python's
standard library), and the bot's own files at ``/bot``; a small private ``/tmp``; nothing else
of the host's file system; an empty environment.  ``prlimit`` bounds memory, CPU time,
processes, file size and open files; the parent bounds what it reads and how long it waits.

A root worker runs each sandbox under a fresh uid of its own, so RLIMIT_NPROC (counted per uid)
counts only that game's processes; any other worker runs it under its own uid with the limit
raised by the processes it already has (a weaker bound, docs/sandbox.md).
"""

import atexit
import fcntl
import functools
import math
import os
import random
import re
import shutil
import signal
import subprocess
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

SEARCH_PATH = "/usr/bin:/bin"  # tools and runtimes come from the distribution, never a venv
INSIDE_UID = 1000
UID_FIRST, UID_COUNT = 100_000_000, 1 << 24  # where a root worker picks each sandbox's uid
GRACE_S = 0.1  # how long a bot has to exit by itself once its stdin is closed
KILL_WAIT_S = 5.0  # how long bwrap has to reap a killed bot (the kernel kills its processes)
STDIN_PIPE_BYTES = 1 << 20  # room for every request a bot that reads them will ever have
HINT_BYTES = 4096  # the end of stderr read for an out-of-memory message and its last line
LAST_LINE_MAX = 200  # characters of its stderr's last line kept with the fault
OUT_OF_MEMORY = (b"MemoryError", b"out of memory", b"Cannot allocate memory", b"bad_alloc")


class SandboxUnavailable(RuntimeError):
    """This machine cannot sandbox a bot, so it must not run one."""


@dataclass(frozen=True)
class Limits:
    """What one hosted bot may use in one game."""

    memory_mb: int | None = None  # address space of each process (None: the runtime's)
    cpu_s: float = 20.0  # the game's CPU time bank, all its processes together
    processes: int = 32  # processes and threads
    file_mb: int = 1  # the largest file it may write, its stderr included
    open_files: int = 64
    tmp_mb: int = 8  # its private /tmp
    stderr_kept: int = 16 * 1024  # bytes of stderr kept for the author


LIMITS = Limits()


@dataclass(frozen=True)
class Runtime:
    command: str  # the interpreter, found on SEARCH_PATH
    flags: tuple[str, ...]
    entry: str  # the file an uploaded directory starts from
    memory_mb: int  # V8 reserves far more address space than it uses
    kit: bool = False  # the author's kit importable, at /kit


RUNTIMES = {
    # -s: no user site; -S: no site-packages (the standard library, the bot's folder and the
    # kit only); -u: unbuffered
    "python": Runtime("python3", ("-s", "-S", "-B", "-u"), "bot.py", 512, kit=True),
    "node": Runtime("node", ("--max-old-space-size=256",), "bot.js", 2048),
}
# The author's kit (gameplay.kit, docs/kit.md) and the packages it imports: plain Python a
# Python bot may use, as the Python starter does.
GAMEPLAY = Path(__file__).resolve().parents[2]
KIT_PACKAGES = ("bots", "engine", "kit", "runner")


def _tool(name: str) -> str:
    path = shutil.which(name, path=SEARCH_PATH)
    if path is None:
        package = {"bwrap": "bubblewrap", "prlimit": "util-linux"}.get(name, name)
        raise SandboxUnavailable(f"{name} is not installed (Debian package {package}): this "
                                 "machine cannot sandbox hosted bots, so it refuses to run them")
    return path


@functools.cache
def runtime_paths(name: str) -> tuple[str, tuple[str, ...]]:
    """The runtime's interpreter (its real path) and the directories it reads."""
    runtime = RUNTIMES[name]
    binary = os.path.realpath(_tool(runtime.command))
    listing = subprocess.run(["ldd", binary], capture_output=True, text=True, timeout=30,
                             env={}).stdout
    dirs = {os.path.dirname(lib) for lib in re.findall(r"(/\S+) \(0x", listing)}
    if name == "python":  # /usr/bin/python3.11 -> /usr/lib/python3.11
        dirs.add(str(Path(binary).parent.parent / "lib" / Path(binary).name))
    return binary, tuple(sorted(dirs))


_checked = False


def check() -> None:
    """Raise SandboxUnavailable unless bwrap can make its namespaces here (tried once)."""
    global _checked
    if _checked:
        return
    user, _ = _user(0)
    probe = [_tool("bwrap"), *_namespaces(), "--ro-bind", "/usr", "/usr",
             "--symlink", "usr/lib", "/lib", "--symlink", "usr/lib64", "/lib64", "/usr/bin/true"]
    _tool("prlimit")
    done = subprocess.run(probe, capture_output=True, env={}, timeout=30, **user)
    if done.returncode != 0:
        why = done.stderr.decode(errors="replace").strip()[:300]
        raise SandboxUnavailable(f"bwrap cannot create its namespaces here ({why}): check "
                                 "that unprivileged user namespaces are allowed")
    _checked = True


def available() -> bool:
    try:
        check()
    except SandboxUnavailable:
        return False
    return True


def _namespaces() -> list[str]:
    return ["--unshare-user", "--unshare-pid", "--unshare-ipc", "--unshare-net",
            "--unshare-uts", "--unshare-cgroup-try", "--uid", str(INSIDE_UID),
            "--gid", str(INSIDE_UID), "--hostname", "bot", "--die-with-parent", "--new-session",
            # the bot is the namespace's init, bwrap's own child: bwrap reaps it, so when it
            # ends nothing is left to the host's init; when it ends, the kernel kills the rest
            "--as-pid-1", "--cap-drop", "ALL",
            # no user namespace of its own inside: they are much of the kernel's attack surface
            "--disable-userns"]


def _user(processes: int) -> tuple[dict, int]:
    """Popen's user arguments and the RLIMIT_NPROC that leaves the bot ``processes``."""
    if os.geteuid() == 0:
        uid = random.randrange(UID_FIRST, UID_FIRST + UID_COUNT)
        return {"user": uid, "group": uid, "extra_groups": []}, processes
    return {}, _tasks_of(os.getuid()) + processes


def _tasks_of(uid: int) -> int:
    count = 0
    for pid in filter(str.isdigit, os.listdir("/proc")):
        try:
            status = Path(f"/proc/{pid}/status").read_text()
        except OSError:
            continue
        fields = dict(line.split(":", 1) for line in status.splitlines() if ":" in line)
        if int(fields["Uid"].split()[0]) == uid:
            count += int(fields["Threads"])
    return count


def _tree_cpu(pid: int) -> float:
    """CPU seconds of a process and all its live descendants (and the dead ones they reaped)."""
    ticks, todo = 0, [pid]
    while todo:
        p = todo.pop()
        try:
            stat = Path(f"/proc/{p}/stat").read_text()
            for task in os.listdir(f"/proc/{p}/task"):
                todo += map(int, Path(f"/proc/{p}/task/{task}/children").read_text().split())
        except (OSError, ValueError):
            continue  # it ended meanwhile
        fields = stat.rpartition(")")[2].split()
        ticks += sum(int(f) for f in fields[11:15])  # utime, stime, cutime, cstime
    return ticks / os.sysconf("SC_CLK_TCK")


def _in_words(code: int, stderr_tail: bytes, memory_mb: int, stderr_full: int | None) -> str:
    """How a bot's process ended (bwrap reports death by signal N as exit code 128 + N)."""
    if code < 0 or code > 128:
        number = -code if code < 0 else code - 128
        try:
            name = signal.Signals(number).name
        except ValueError:
            name = f"signal {number}"
        words = {"SIGXCPU": f"killed by {name}: over its CPU time limit",
                 "SIGXFSZ": f"killed by {name}: wrote a file over its size limit"}.get(
            name, f"killed by {name}")
    else:
        words = f"exited with code {code}"
    if any(hint in stderr_tail for hint in OUT_OF_MEMORY):
        words += f" (out of memory: its limit is {memory_mb} MB)"
    if stderr_full:
        words += f" (its stderr reached the {stderr_full} MB file size limit)"
    return words


class Jail:
    """One bot process in the sandbox: ``start``, then ``stop`` ends it and all it started,
    keeping how it ended (``ended``), its CPU time and the start of its stderr."""

    def __init__(self, code: Path, runtime: str, *, entry: str | None = None,
                 args: tuple[str, ...] = (), limits: Limits = LIMITS):
        if runtime not in RUNTIMES:
            raise ValueError(f"runtime must be one of {', '.join(RUNTIMES)}, not {runtime!r}")
        check()
        self.code = Path(code)
        self.runtime = RUNTIMES[runtime]
        self.runtime_name = runtime
        self.entry = entry or (self.code.name if self.code.is_file() else self.runtime.entry)
        if self.code.is_dir() and not (self.code / self.entry).is_file():
            raise ValueError(f"the bot has no {self.entry} to start from")
        self.args = tuple(args)
        self.limits = limits
        self.memory_mb = limits.memory_mb or self.runtime.memory_mb
        self.process: subprocess.Popen | None = None
        self.ended: str | None = None  # set when it ended by itself
        self.last_line: bytes | None = None  # then the last line of its stderr, if any
        self.cpu_s = 0.0
        self.stderr = b""
        self._stderr = None
        self.home: Path | None = None  # the copy of its files, its /bot, for this game
        self.uid: int | None = None  # the game's own uid, where a root worker chose one

    def command(self, home: Path, nproc: int) -> list[str]:
        binary, dirs = runtime_paths(self.runtime_name)
        limits = self.limits
        cpu = math.ceil(limits.cpu_s)
        bounds = [_tool("prlimit"), f"--as={self.memory_mb << 20}", f"--cpu={cpu}:{cpu + 1}",
                  f"--nproc={nproc}", f"--fsize={limits.file_mb << 20}",
                  f"--nofile={limits.open_files}", "--core=0", "--"]
        mounts = [arg for d in (binary, *dirs) for arg in ("--ro-bind", d, d)]
        if self.runtime.kit:
            mounts += ["--ro-bind", str(kit_copy()), "/kit", "--setenv", "PYTHONPATH", "/kit"]
        return [*bounds, _tool("bwrap"), *_namespaces(), "--clearenv",
                "--setenv", "PATH", "/usr/bin", "--setenv", "HOME", "/tmp",
                "--setenv", "LANG", "C.UTF-8", *mounts,
                "--proc", "/proc", "--dev", "/dev", "--remount-ro", "/dev",
                "--size", str(limits.tmp_mb << 20), "--tmpfs", "/tmp",
                "--ro-bind", str(home), "/bot",
                "--chdir", "/bot", "--remount-ro", "/",
                "--", binary, *self.runtime.flags, f"/bot/{self.entry}", *self.args]

    def start(self) -> subprocess.Popen:
        user, nproc = _user(self.limits.processes)
        self.uid = user.get("user")
        self.home = _stage(self.code)
        self._stderr = tempfile.TemporaryFile()
        try:
            # env={}: bwrap's own environment would show in the sandbox's /proc
            self.process = subprocess.Popen(
                self.command(self.home, nproc), stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                stderr=self._stderr, env={}, start_new_session=True, **user)
        except OSError:
            shutil.rmtree(self.home)
            self._stderr.close()
            raise
        # A bot that answers without reading its requests would fill the pipe and block the
        # worker's next write forever: writes never block, and one that cannot be made is a
        # fault that stops the bot.
        stdin = self.process.stdin.fileno()
        fcntl.fcntl(stdin, fcntl.F_SETPIPE_SZ, STDIN_PIPE_BYTES)
        os.set_blocking(stdin, False)
        self.ended = self.last_line = None
        return self.process

    def running(self) -> bool:
        return self.process is not None and self._reap(0) is None

    def cpu_seconds(self) -> float:
        """CPU time used so far by everything in the sandbox."""
        if self.running():
            self.cpu_s = max(self.cpu_s, _tree_cpu(self.process.pid))
        return self.cpu_s

    def stop(self) -> None:
        """Close its stdin and give it GRACE_S to exit; otherwise kill it: it is its PID
        namespace's init, so the kernel kills all it started, and bwrap reaps it and exits.
        bwrap's process group is killed too, in case bwrap itself does not end."""
        process = self.process
        if process is None:
            return
        self.cpu_seconds()
        try:
            process.stdin.close()
        except OSError:
            pass
        if self._reap(GRACE_S) is None:
            for pid in _children(process.pid):
                _kill(pid, signal.SIGKILL)
            if self._reap(KILL_WAIT_S) is None:
                _kill(-process.pid, signal.SIGKILL)
                self._reap(None)
        else:
            size = self._stderr.seek(0, os.SEEK_END)
            self._stderr.seek(max(0, size - HINT_BYTES))
            full = self.limits.file_mb if size >= self.limits.file_mb << 20 else None
            tail = self._stderr.read()
            self.ended = _in_words(process.returncode, tail, self.memory_mb, full)
            lines = tail.rstrip().rsplit(b"\n", 1)
            self.last_line = lines[-1].strip()[:LAST_LINE_MAX * 4] or None
        process.stdout.close()
        self._stderr.seek(0)
        self.stderr = self._stderr.read(self.limits.stderr_kept)
        self._stderr.close()
        shutil.rmtree(self.home)
        self.process = None

    def _reap(self, timeout: float | None) -> int | None:
        """The exit code once the process ended (reaping it, counting its CPU time), waiting
        up to ``timeout`` seconds (None: until it ends)."""
        process = self.process
        deadline = None if timeout is None else time.monotonic() + timeout
        while process.returncode is None:
            pid, status, usage = os.wait4(process.pid, 0 if timeout is None else os.WNOHANG)
            if pid:
                process.returncode = os.waitstatus_to_exitcode(status)
                self.cpu_s = max(self.cpu_s, usage.ru_utime + usage.ru_stime)
            elif time.monotonic() >= deadline:
                break
            else:
                time.sleep(0.002)
        return process.returncode


def _stage(code: Path) -> Path:
    """A copy of the bot's files that the sandbox's uid may read (the originals may sit in
    folders it cannot enter), plain files and folders only."""
    home = Path(tempfile.mkdtemp(prefix="hosted-bot-"))
    home.chmod(0o755)
    sources = [code] if code.is_file() else sorted(code.rglob("*"))
    for source in sources:
        target = home / (source.name if source == code else source.relative_to(code))
        if source.is_symlink():
            continue  # rglob does not enter linked folders either
        if source.is_dir():
            target.mkdir()
            target.chmod(0o755)
        elif source.is_file():
            shutil.copyfile(source, target)
            target.chmod(0o644)
    return home


@functools.cache
def kit_copy() -> Path:
    """The kit's Python sources in a folder the sandbox's uid may read (the project's may sit
    in folders it cannot enter), made once per worker process."""
    root = Path(tempfile.mkdtemp(prefix="hosted-kit-"))
    atexit.register(_remove_kit, root, os.getpid())
    package = root / "gameplay"
    package.mkdir()
    shutil.copyfile(GAMEPLAY / "__init__.py", package / "__init__.py")
    for name in KIT_PACKAGES:
        if (GAMEPLAY / name).is_dir():
            shutil.copytree(GAMEPLAY / name, package / name, symlinks=True,
                            ignore=shutil.ignore_patterns("*.py[co]", "__pycache__", "*.so",
                                                          "*.c", "sandbox"))
    for path in (root, *root.rglob("*")):
        path.chmod(0o755 if path.is_dir() else 0o644)
    return root


def _remove_kit(root: Path, maker: int) -> None:
    if os.getpid() == maker:  # not a forked worker child exiting while others still use it
        shutil.rmtree(root, ignore_errors=True)


def _children(pid: int) -> list[int]:
    try:
        return [int(p) for p in Path(f"/proc/{pid}/task/{pid}/children").read_text().split()]
    except OSError:
        return []


def _kill(pid: int, sig: int) -> None:
    try:
        os.kill(pid, sig)
    except ProcessLookupError:
        pass
