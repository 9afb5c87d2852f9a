"""Settings shared by every environment; what differs between machines comes from the env."""

import os
from pathlib import Path

import environ
from django.core.exceptions import ImproperlyConfigured

BASE_DIR = Path(__file__).resolve().parent.parent.parent

env = environ.Env()


def secret_key(default=None):
    """SECRET_KEY exactly as given.

    Not through django-environ, which reads a value starting with "$" as the name of another
    variable: one random key in fifty starts with "$".
    """
    key = os.environ.get("SECRET_KEY", default)
    if key is None:
        raise ImproperlyConfigured("Set the SECRET_KEY environment variable")
    return key


DEBUG = env.bool("DEBUG", default=False)
ALLOWED_HOSTS = env.list("ALLOWED_HOSTS", default=[])

DATABASES = {"default": env.db("DATABASE_URL", default=f"sqlite:///{BASE_DIR / 'db.sqlite3'}")}
# A connection kept between requests or tasks is checked before reuse (after a database
# outage the first use would fail otherwise).
DATABASES["default"]["CONN_HEALTH_CHECKS"] = True
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    # Write-ahead log: readers do not block the writer, and a commit appends to the log
    # instead of syncing the whole file to disk (SQLite's recommended setting for a server).
    DATABASES["default"].setdefault("OPTIONS", {}).setdefault(
        "init_command", "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;")
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "rest_framework",
    "rest_framework.authtoken",
    "django_filters",
    "drf_spectacular",
    "drf_spectacular_sidecar",
    "django_celery_beat",
    "gameplay",
    "league",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
]

ROOT_URLCONF = "config.urls"
WSGI_APPLICATION = "config.wsgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
            ],
        },
    },
]

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": f"django.contrib.auth.password_validation.{name}"}
    for name in (
        "UserAttributeSimilarityValidator",
        "MinimumLengthValidator",
        "CommonPasswordValidator",
        "NumericPasswordValidator",
    )
]

LANGUAGE_CODE = "en-us"
TIME_ZONE = "UTC"
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATIC_ROOT = env.path("STATIC_ROOT", default=BASE_DIR / "staticfiles")

# The API (league/api/, docs/api.md): sessions for the pages, tokens for scripts; everyone
# reads, a club's organisers write (league.api.permissions); a LeagueError answers 400.
REST_FRAMEWORK = {
    "DEFAULT_SCHEMA_CLASS": "drf_spectacular.openapi.AutoSchema",
    # Token first: a request with no credentials is answered 401 with WWW-Authenticate.
    "DEFAULT_AUTHENTICATION_CLASSES": [
        "rest_framework.authentication.TokenAuthentication",
        "rest_framework.authentication.SessionAuthentication",
    ],
    "DEFAULT_PERMISSION_CLASSES": ["league.api.permissions.OrganiserWritesOthersRead"],
    "DEFAULT_PAGINATION_CLASS": "rest_framework.pagination.PageNumberPagination",
    "PAGE_SIZE": 50,
    "DEFAULT_FILTER_BACKENDS": [
        "django_filters.rest_framework.DjangoFilterBackend",
        "rest_framework.filters.OrderingFilter",
    ],
    "EXCEPTION_HANDLER": "league.api.errors.exception_handler",
}
SPECTACULAR_SETTINGS = {
    "TITLE": "President League API",
    "DESCRIPTION": "Clubs, players, seasons, games, deals, standings and ratings (docs/api.md).",
    "VERSION": "1",
    "SERVE_INCLUDE_SCHEMA": False,
    # Swagger UI's files come from the sidecar package, served by us: no CDN.
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "REDOC_DIST": "SIDECAR",
    "COMPONENT_SPLIT_REQUEST": True,
    "ENUM_NAME_OVERRIDES": {
        "GameStatusEnum": "league.models.Game.STATUS_CHOICES",
        "TournamentStatusEnum": "gameplay.models.Tournament.STATUS_CHOICES",
    },
    "POSTPROCESSING_HOOKS": [
        "drf_spectacular.hooks.postprocess_schema_enums",
        "league.api.schema.document_errors",
    ],
}

# With no broker configured, tasks run in the caller's process, so the service works with no
# Redis at all; errors in such tasks propagate to the caller instead of hiding in a result.
CELERY_BROKER_URL = env.str("CELERY_BROKER_URL", default="") or None
CELERY_RESULT_BACKEND = env.str("CELERY_RESULT_BACKEND", default="") or CELERY_BROKER_URL
CELERY_TASK_ALWAYS_EAGER = CELERY_BROKER_URL is None
CELERY_TASK_EAGER_PROPAGATES = CELERY_TASK_ALWAYS_EAGER
# Acknowledge after the task has run and requeue it if the worker dies, one message at a time:
# tasks are idempotent by design, so running one twice is safe and losing one is not.
CELERY_TASK_ACKS_LATE = True
CELERY_TASK_REJECT_ON_WORKER_LOST = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
CELERY_ACCEPT_CONTENT = ["json"]
CELERY_TASK_SERIALIZER = "json"
CELERY_RESULT_SERIALIZER = "json"
CELERY_TIMEZONE = TIME_ZONE
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True
# Sending a task to a broker that is down fails within about 2 s (not Celery's ~19 s), so a
# request that sends after its commit answers at once; what was not sent is sent again later.
CELERY_BROKER_CONNECTION_TIMEOUT = env.float("CELERY_BROKER_CONNECTION_TIMEOUT", default=2.0)
CELERY_TASK_PUBLISH_RETRY_POLICY = {"max_retries": 1, "interval_start": 0, "interval_step": 0.2,
                                    "interval_max": 0.2}
# Every task's time limits, in seconds (enforced by the default prefork pool): at the soft one
# a tournament batch stops between games and is sent again; at the hard one the worker
# process is killed and replaced.
CELERY_TASK_SOFT_TIME_LIMIT = env.int("CELERY_TASK_SOFT_TIME_LIMIT", default=300)
CELERY_TASK_TIME_LIMIT = env.int("CELERY_TASK_TIME_LIMIT", default=360)
# `make beat` runs celery beat with the schedule kept in the database (django-celery-beat).
CELERY_BEAT_SCHEDULER = "django_celery_beat.schedulers:DatabaseScheduler"
# Tournaments recover by themselves (gameplay.services.tournaments_reconcile, every
# TOURNAMENT_RECONCILE_SECONDS): a batch whose worker gave no sign of life for
# TOURNAMENT_STALL_SECONDS (set it above the longest game) is sent again, as is one left
# untaken in the queue for TOURNAMENT_QUEUED_SECONDS; at most TOURNAMENT_QUEUED_BATCHES
# batches wait in the queue, so starting a tournament stays quick whatever its size.
TOURNAMENT_RECONCILE_SECONDS = env.float("TOURNAMENT_RECONCILE_SECONDS", default=30)
TOURNAMENT_STALL_SECONDS = env.float("TOURNAMENT_STALL_SECONDS", default=120)
TOURNAMENT_QUEUED_SECONDS = env.float("TOURNAMENT_QUEUED_SECONDS", default=3600)
TOURNAMENT_QUEUED_BATCHES = env.int("TOURNAMENT_QUEUED_BATCHES", default=500)
# A tournament task meeting a database or broker error retries up to 100 times, waiting
# longer each time, at most this many seconds.
TOURNAMENT_TASK_RETRY_BACKOFF_MAX = env.int("TOURNAMENT_TASK_RETRY_BACKOFF_MAX", default=60)
CELERY_BEAT_SCHEDULE = {
    "tournaments-reconcile": {"task": "gameplay.tasks.tournaments_reconcile_task", "schedule": TOURNAMENT_RECONCILE_SECONDS, "options": {"expire_seconds": TOURNAMENT_RECONCILE_SECONDS}},  # noqa: E501
}

# Per-process memory by default; CACHE_URL=redis://… shares it between processes. Cached
# standings are keyed by a version the database holds, so either way no process sees stale ones.
CACHES = {"default": env.cache("CACHE_URL", default="locmemcache://")}

# Outside HTTP bots may be called only on these hosts (comma separated); none by default.
OUTSIDE_BOT_ALLOWED_HOSTS = env.list("OUTSIDE_BOT_ALLOWED_HOSTS", default=[])

# Django logs to the console only with DEBUG on; a server needs its errors on stderr too.
LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "formatters": {"plain": {"format": "%(asctime)s %(levelname)s %(name)s %(message)s"}},
    "handlers": {"console": {"class": "logging.StreamHandler", "formatter": "plain"}},
    "root": {"handlers": ["console"], "level": env.str("LOG_LEVEL", default="INFO")},
    # Django's own console handler would print its messages a second time under DEBUG.
    "loggers": {"django": {"handlers": [], "level": "INFO"}},
}
