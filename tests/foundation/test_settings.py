import importlib
import sys

import pytest
from django.core.exceptions import ImproperlyConfigured

from config.celery_app import app as celery_app
from tests.conftest import PROJECT_DIR

ENVIRONMENT = ("DATABASE_URL", "CELERY_BROKER_URL", "CELERY_RESULT_BACKEND", "SECRET_KEY",
               "DEBUG", "ALLOWED_HOSTS")


@pytest.fixture
def load_settings(monkeypatch):
    """Import a settings module afresh under exactly the given environment variables."""

    def load(module, **env):
        for name in ENVIRONMENT:
            monkeypatch.delenv(name, raising=False)
        for name, value in env.items():
            monkeypatch.setenv(name, value)
        for name in [name for name in sys.modules if name.startswith("config.settings.")]:
            monkeypatch.delitem(sys.modules, name)
        return importlib.import_module(f"config.settings.{module}")

    return load


def test_tasks_run_eagerly_and_propagate_errors_without_a_broker(load_settings):
    settings = load_settings("local")

    assert settings.CELERY_BROKER_URL is None
    assert settings.CELERY_TASK_ALWAYS_EAGER is True
    assert settings.CELERY_TASK_EAGER_PROPAGATES is True


def test_an_empty_broker_url_counts_as_unset(load_settings):
    assert load_settings("local", CELERY_BROKER_URL="").CELERY_TASK_ALWAYS_EAGER is True


def test_tasks_go_to_the_broker_and_results_default_to_it(load_settings):
    settings = load_settings("local", CELERY_BROKER_URL="redis://broker:6379/0")

    assert settings.CELERY_TASK_ALWAYS_EAGER is False
    assert settings.CELERY_RESULT_BACKEND == "redis://broker:6379/0"


def test_result_backend_can_differ_from_the_broker(load_settings):
    settings = load_settings(
        "local",
        CELERY_BROKER_URL="redis://broker:6379/0",
        CELERY_RESULT_BACKEND="redis://results:6379/1",
    )

    assert settings.CELERY_RESULT_BACKEND == "redis://results:6379/1"


def test_database_defaults_to_sqlite_in_the_project_dir(load_settings):
    database = load_settings("local").DATABASES["default"]

    assert database["ENGINE"] == "django.db.backends.sqlite3"
    assert database["NAME"] == str(PROJECT_DIR / "db.sqlite3")


def test_database_url_is_parsed(load_settings):
    settings = load_settings("local", DATABASE_URL="postgres://league:pw@db.internal:5433/pl")

    assert settings.DATABASES["default"] == {
        **settings.DATABASES["default"],
        "ENGINE": "django.db.backends.postgresql",
        "NAME": "pl",
        "USER": "league",
        "PASSWORD": "pw",
        "HOST": "db.internal",
        "PORT": 5433,
    }


def test_debug_and_allowed_hosts_are_read_from_the_environment(load_settings):
    settings = load_settings("local", DEBUG="false", ALLOWED_HOSTS="a.example,b.example")

    assert settings.DEBUG is False
    assert settings.ALLOWED_HOSTS == ["a.example", "b.example"]


def test_local_defaults_to_debug_on_localhost(load_settings):
    settings = load_settings("local")

    assert settings.DEBUG is True
    assert settings.ALLOWED_HOSTS == ["localhost", "127.0.0.1"]


def test_production_ignores_debug_from_the_environment(load_settings):
    settings = load_settings(
        "production", DEBUG="true", SECRET_KEY="x" * 50, ALLOWED_HOSTS="example.org"
    )

    assert settings.DEBUG is False


def test_secret_key_is_taken_as_given_even_with_a_leading_dollar(load_settings):
    key = "$HOME" + "x" * 45

    settings = load_settings("production", SECRET_KEY=key, ALLOWED_HOSTS="example.org")

    assert settings.SECRET_KEY == key


@pytest.mark.parametrize("missing", ["SECRET_KEY", "ALLOWED_HOSTS"])
def test_production_requires_secret_key_and_allowed_hosts(load_settings, missing):
    env = {"SECRET_KEY": "x" * 50, "ALLOWED_HOSTS": "example.org"}
    del env[missing]

    with pytest.raises(ImproperlyConfigured, match=missing):
        load_settings("production", **env)


def test_celery_app_reads_the_celery_settings():
    assert celery_app.main == "president_league"
    assert celery_app.conf.task_acks_late is True
    assert celery_app.conf.task_reject_on_worker_lost is True
    assert celery_app.conf.worker_prefetch_multiplier == 1
    assert celery_app.conf.task_serializer == "json"
    assert celery_app.conf.accept_content == ["json"]
