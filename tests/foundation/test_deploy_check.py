import os
import subprocess
import sys

from django.core.management.utils import get_random_secret_key

from tests.conftest import PROJECT_DIR


def manage(*args, **env):
    """Run manage.py in a fresh process, as a deployment would, with only the given settings."""
    base_env = {
        name: value
        for name, value in os.environ.items()
        if name not in {"DEBUG", "SECRET_KEY", "ALLOWED_HOSTS", "DATABASE_URL"}
    }
    return subprocess.run(
        [sys.executable, "manage.py", *args],
        cwd=PROJECT_DIR,
        env={**base_env, "DJANGO_SETTINGS_MODULE": "config.settings.production", **env},
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_production_settings_pass_the_deploy_check_without_warnings():
    # A leading "$" once made django-environ look the key up as another variable's name.
    key = "$" + get_random_secret_key()[1:]

    result = manage(
        "check", "--deploy", "--fail-level", "WARNING", SECRET_KEY=key, ALLOWED_HOSTS="example.org"
    )

    assert result.returncode == 0, result.stderr
    assert "System check identified no issues (0 silenced)." in result.stdout


def test_production_settings_refuse_to_start_without_a_secret_key():
    result = manage("check", ALLOWED_HOSTS="example.org")

    assert result.returncode != 0
    assert "ImproperlyConfigured: Set the SECRET_KEY environment variable" in result.stderr


def test_production_static_files_collect_with_hashed_names(tmp_path):
    """WhiteNoise's manifest storage fails on any asset that points at a missing file (a
    vendored script's source map, say); production could not start then."""
    result = manage("collectstatic", "--noinput", SECRET_KEY=get_random_secret_key(),
                    ALLOWED_HOSTS="example.org", STATIC_ROOT=str(tmp_path))

    assert result.returncode == 0, result.stderr
    manifest = (tmp_path / "staticfiles.json").read_text()
    assert "league/vendor/chart.umd.min.js" in manifest
    assert list(tmp_path.glob("league/league.*.css.gz"))

