"""The site served as in production for a bench (bench/web.py, bench/night.py): as `make serve`
runs it, config.settings.production under gunicorn with sync workers and its access log
(to stdout, thrown away here), static files collected for WhiteNoise, on loopback."""

import contextlib
import os
import secrets
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
BIN = Path(sys.executable).parent
PROXY_HEADERS = {"X-Forwarded-Proto": "https"}  # what the HTTPS proxy in front adds


@dataclass
class Server:
    url: str  # http://127.0.0.1:<port>
    port: int
    process: subprocess.Popen
    worker: subprocess.Popen | None


@contextlib.contextmanager
def production_server(database_url, cache_url, workers, port=0, broker_url=None, worker=None,
                      settings=None):
    """gunicorn serving the site on ``port`` (0: a free one), once /healthz answers; stopped on
    leaving. Without ``broker_url`` the site has no Celery broker (nothing is enqueued).
    ``settings``: more environment variables for the site (bench/web.py's throttle).
    ``worker``, a command (bench/night.py's Celery worker), runs with the site's environment:
    started before gunicorn is waited for, so it is up by then too, and stopped first."""
    port = port or free_port()
    with tempfile.TemporaryDirectory() as static_root:
        env = {
            **os.environ,
            "DJANGO_SETTINGS_MODULE": "config.settings.production",
            "SECRET_KEY": secrets.token_urlsafe(50),
            "ALLOWED_HOSTS": "127.0.0.1",
            "DATABASE_URL": database_url,
            "CACHE_URL": cache_url,
            "STATIC_ROOT": static_root,
            "LOG_LEVEL": "WARNING",
            **(settings or {}),
        }
        if broker_url:
            env["CELERY_BROKER_URL"] = broker_url
        else:
            env.pop("CELERY_BROKER_URL", None)
        subprocess.run(
            [BIN / "python", "manage.py", "collectstatic", "--noinput", "-v", "0"],
            env=env,
            cwd=ROOT,
            check=True,
        )
        process = subprocess.Popen(
            [
                BIN / "gunicorn",
                "config.wsgi",
                "--bind",
                f"127.0.0.1:{port}",
                "--workers",
                str(workers),
                "--access-logfile",
                "-",
                "--log-level",
                "warning",
            ],
            env=env,
            cwd=ROOT,
            stdout=subprocess.DEVNULL,
        )
        server = Server(f"http://127.0.0.1:{port}", port, process, None)
        try:
            if worker:
                server.worker = subprocess.Popen(
                    worker, env=env, cwd=ROOT, stdout=subprocess.DEVNULL
                )
            wait_until_up(server)
            yield server
        finally:
            for each in (server.worker, process):
                if each:
                    each.terminate()
                    each.wait(timeout=60)


def free_port():
    """A port nothing listens on now (another process may take it before gunicorn does)."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_until_up(server):
    url = server.url + "/healthz"
    for _ in range(300):
        if server.process.poll() is not None:
            sys.exit(f"gunicorn exited with status {server.process.returncode}")
        try:
            with urllib.request.urlopen(
                urllib.request.Request(url, headers=PROXY_HEADERS), timeout=30
            ):
                return
        except (urllib.error.URLError, ConnectionError):
            time.sleep(0.1)
    sys.exit(f"the server did not answer {url} within 30 s")
