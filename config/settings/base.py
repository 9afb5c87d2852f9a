"""Settings shared by every environment; what differs between machines comes from the env."""

import os
from datetime import timedelta
from pathlib import Path

import environ
from csp.constants import NONCE, NONE, SELF
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
    # A transaction takes the write lock when it begins, so two writers take turns (waiting up
    # to the timeout, 5 s) as row locks make them on PostgreSQL. Begun as a reader and writing
    # after another writer's commit, the second failed at once: "database is locked" (two
    # phones confirming one deal at the same moment, one of them answered 500).
    DATABASES["default"]["OPTIONS"].setdefault("transaction_mode", "IMMEDIATE")
# A kept connection is checked before a request reuses it, so the first requests after a
# database outage reconnect instead of failing on a dead socket (docs/operations.md).
DATABASES["default"]["CONN_HEALTH_CHECKS"] = True
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "axes",
    "csp",
    "django_prometheus",
    "rest_framework",
    "rest_framework.authtoken",
    "django_filters",
    "drf_spectacular",
    "drf_spectacular_sidecar",
    "django_celery_beat",
    "outside_bots",
    "bot_games",
    "tournaments",
    "league",
    "ladder",
    "accounts",  # before allauth: its templates win
    "allauth",
    "allauth.account",
]

MIDDLEWARE = [
    "django_prometheus.middleware.PrometheusBeforeMiddleware",
    "django.middleware.security.SecurityMiddleware",
    "csp.middleware.CSPMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "league.web.middleware.RequestLimitsMiddleware",  # bodies Django refuses: 413/400 in words
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "allauth.account.middleware.AccountMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "config.protections.DatabaseOutageMiddleware",
    "axes.middleware.AxesMiddleware",
    "django_prometheus.middleware.PrometheusAfterMiddleware",
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

# Axes first: it refuses a locked-out login before any password is checked.
AUTHENTICATION_BACKENDS = [
    "axes.backends.AxesStandaloneBackend",
    "django.contrib.auth.backends.ModelBackend",
]
# Failed logins (the admin's and any form using authenticate()): after AXES_FAILURE_LIMIT
# failures for one username from one address, that pair is refused, even with the right
# password, for AXES_COOLOFF_MINUTES. A successful login before the limit clears the count.
AXES_FAILURE_LIMIT = env.int("AXES_FAILURE_LIMIT", default=5)
AXES_COOLOFF_TIME = timedelta(minutes=env.float("AXES_COOLOFF_MINUTES", default=15))
AXES_LOCKOUT_PARAMETERS = [["username", "ip_address"]]
AXES_RESET_ON_SUCCESS = True
AXES_CLIENT_IP_CALLABLE = "config.protections.client_address"

# Accounts for bot authors and players (accounts/, django-allauth): sign-up with a username and an
# email, log-in by username (so axes counts the same "username" as on the admin's login; see
# accounts.throttling), password reset by email. Failed logins are throttled by axes alone.
ACCOUNT_LOGIN_METHODS = {"username"}
ACCOUNT_SIGNUP_FIELDS = ["username*", "email*", "password1*", "password2*"]
ACCOUNT_EMAIL_VERIFICATION = "optional"
# One account per address, whatever its case; password reset links go to verified addresses
# only (accounts.forms.ResetPasswordForm): confirmed by the link mailed at sign-up, or given
# by an administrator in the admin (accounts.admin).
ACCOUNT_UNIQUE_EMAIL = True
ACCOUNT_FORMS = {"reset_password": "accounts.forms.ResetPasswordForm"}
ACCOUNT_RATE_LIMITS = {"login_failed": None}
# allauth's own limits (log-ins 30 a minute, sign-ups and password resets 20, per address)
# count the client's address as axes, the throttles and the replay upload do.
ACCOUNT_ADAPTER = "accounts.adapter.AccountAdapter"
AXES_USERNAME_CALLABLE = "accounts.throttling.login_username"
LOGIN_URL = "account_login"
LOGIN_REDIRECT_URL = "accounts:profile"
ACCOUNT_LOGOUT_REDIRECT_URL = "home"
# Mail (password resets, address confirmations): EMAIL_URL, e.g. smtp+tls://user:pw@host:587;
# by default printed on the console.
vars().update(env.email_url("EMAIL_URL", default="consolemail://"))
DEFAULT_FROM_EMAIL = env.str("DEFAULT_FROM_EMAIL", default="webmaster@localhost")

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
FORMAT_MODULE_PATH = ["config.formats"]  # one way to write a date (config/formats/en)
TIME_ZONE = "UTC"
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATIC_ROOT = env.path("STATIC_ROOT", default=BASE_DIR / "staticfiles")

# The public replay upload (league.web.games.replay_upload): the largest transcript taken, the most
# steps (deal starts, exchanges, leads, moves) replayed, about a second's work, and how often one
# address may upload without signing in (django-ratelimit's "count/period", in the cache).
REPLAY_UPLOAD_MAX_BYTES = env.int("REPLAY_UPLOAD_MAX_BYTES", default=1_000_000)
REPLAY_MAX_STEPS = env.int("REPLAY_MAX_STEPS", default=5_000)
REPLAY_UPLOAD_RATE = env.str("REPLAY_UPLOAD_RATE", default="10/m")
# Table links (league.web.table_links): unknown tokens opened per client address (real links are
# not counted: a club night's phones share one address), and changes (posts)
# per link, each as django-ratelimit's "count/period".
TABLE_LINK_OPEN_RATE = env.str("TABLE_LINK_OPEN_RATE", default="30/m")
TABLE_LINK_RATE = env.str("TABLE_LINK_RATE", default="60/m")
RATELIMIT_FAIL_OPEN = True  # the cache down: uploads go on, bounded by the two limits above
RATELIMIT_IP_META_KEY = "config.protections.client_address"

# The API (league/api/, docs/api.md): sessions for the pages, tokens for scripts; everyone
# reads, a club's organisers write (league.api.permissions); a LeagueError answers 400.
REST_FRAMEWORK = {
    "DEFAULT_SCHEMA_CLASS": "drf_spectacular.openapi.AutoSchema",
    # JSON nested deeper than MAX_JSON_DEPTH is refused with 400 (plumbing.api.parsers).
    "DEFAULT_PARSER_CLASSES": [
        "plumbing.api.parsers.JSONParser",
        "rest_framework.parsers.FormParser",
        "rest_framework.parsers.MultiPartParser",
    ],
    # Token first: a request with no credentials is answered 401 with WWW-Authenticate.
    "DEFAULT_AUTHENTICATION_CLASSES": [
        "rest_framework.authentication.TokenAuthentication",
        "rest_framework.authentication.SessionAuthentication",
    ],
    "DEFAULT_PERMISSION_CLASSES": ["league.api.permissions.OrganiserWritesOthersRead"],
    "DEFAULT_PAGINATION_CLASS": "plumbing.api.pagination.Pages",
    "PAGE_SIZE": 50,
    "DEFAULT_FILTER_BACKENDS": [
        "plumbing.api.filters.FilterBackend",
        "plumbing.api.filters.KnownOrdering",
    ],
    "EXCEPTION_HANDLER": "league.api.errors.exception_handler",
    # Per client address (anonymous) or per user; counted in the default cache, so shared by
    # every process only with CACHE_URL=redis://…; over the rate answers 429 with Retry-After.
    "DEFAULT_THROTTLE_CLASSES": [
        "rest_framework.throttling.AnonRateThrottle",
        "rest_framework.throttling.UserRateThrottle",
    ],
    "DEFAULT_THROTTLE_RATES": {
        "anon": env.str("API_THROTTLE_ANON", default="120/minute"),
        "user": env.str("API_THROTTLE_USER", default="600/minute"),
        # Issuing and replacing API tokens (/api/v1/tokens/), which may take a password.
        "tokens": env.str("API_THROTTLE_TOKENS", default="10/minute"),
    },
    # How many proxies in front of us append to X-Forwarded-For; 0 trusts REMOTE_ADDR alone.
    # The one setting for every limit: throttles, axes, allauth and the replay upload all
    # read the client's address through config.protections.client_address.
    "NUM_PROXIES": env.int("NUM_PROXIES", default=0),
}
SPECTACULAR_SETTINGS = {
    "TITLE": "President League API",
    "DESCRIPTION": (
        "Clubs, players, seasons, games, deals, standings and ratings; outside bots "
        "(/api/v1/bots/, your own) and the bot ladder (/api/v1/ladder/, /api/v1/ladder-games/); "
        "API tokens (/api/v1/tokens/). Docs: docs/api.md. Bot authors: "
        "[the bot protocol](/bots/protocol/), every message's JSON Schema at "
        "/bots/protocol/<name>.schema.json."),
    "VERSION": "1",
    "SERVE_INCLUDE_SCHEMA": False,
    # Swagger UI's files come from the sidecar package, served by us: no CDN.
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "REDOC_DIST": "SIDECAR",
    "COMPONENT_SPLIT_REQUEST": True,
    "ENUM_NAME_OVERRIDES": {
        "GameStatusEnum": "league.models.Game.STATUS_CHOICES",
        "TournamentStatusEnum": "tournaments.models.Tournament.STATUS_CHOICES",
        "PresetEnum": "league.models.PRESET_CHOICES",
        "LadderEntryStatusEnum": "ladder.models.Entry.STATUS_CHOICES",
        "LadderGameStatusEnum": "ladder.models.Game.STATUS_CHOICES",
        "LadderGameKindEnum": "ladder.models.Game.KIND_CHOICES",
        "FaultKindEnum": "gameplay.bots.base.FAULT_KINDS",
        "KindEnum": "league.models.Player.KIND_CHOICES",  # its name before the ladder's kinds
    },
    # The routes' ".json" suffixes are the same operations again (config.api_urls).
    "PREPROCESSING_HOOKS": ["drf_spectacular.hooks.preprocess_exclude_path_format"],
    "POSTPROCESSING_HOOKS": [
        "drf_spectacular.hooks.postprocess_schema_enums",
        "league.api.schema.document_errors",
        "league.api.schema.refuse_other_fields",
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
# Workers count their tasks' outcomes for /metrics (config/metrics.py).
CELERY_IMPORTS = ["config.metrics"]
# Four queues, so club work never waits behind the ladder's games, which an author's slow bots
# can make last a minute each: the default queue for the short tasks (rating recomputes, the
# periodic reconcilers and the ladder's tick), one for tournament batches, one for ladder
# games and one for hosted bots' games (CELERY_HOSTED_QUEUE). Run a worker for each
# (docs/operations.md, "Workers, queues and their supervision"); `make worker` consumes all.
CELERY_TASK_DEFAULT_QUEUE = env.str("CELERY_TASK_DEFAULT_QUEUE", default="celery")


def task_routes(tournaments: str, ladder: str) -> dict:
    """Celery's routes of the tournaments' and the ladder's game-playing tasks; a queue given
    as "" is the default queue."""
    routes = {"gameplay.tasks.tournament_start_task": tournaments,
              "gameplay.tasks.tournament_play_batch_task": tournaments,
              "ladder.tasks.ladder_game_task": ladder}
    return {task: {"queue": queue} for task, queue in routes.items() if queue}


CELERY_TASK_ROUTES = task_routes(env.str("CELERY_TOURNAMENTS_QUEUE", default="tournaments"),
                                 env.str("CELERY_LADDER_QUEUE", default="ladder"))
# Ladder games and tournament batches with hosted bots (strangers' code in the sandbox): on
# workers of their own, on machines with bubblewrap (docs/operations.md, "Hosted bots"); ""
# leaves them on the ladder's and the tournaments' queues.
CELERY_HOSTED_QUEUE = env.str("CELERY_HOSTED_QUEUE", default="hosted")
# Sending a task to a broker that is down fails within seconds, not after Celery's ~19 s of
# result-store retries: a request that sends after its commit answers at once, the failure is
# logged, and a reconciler under celery beat sends what was not sent (league.tasks).
CELERY_TASK_PUBLISH_RETRY_POLICY = {"max_retries": 1, "interval_start": 0, "interval_step": 0.2,
                                    "interval_max": 0.2}
REDIS_TIMEOUT = env.float("CELERY_REDIS_TIMEOUT", default=2.0)  # connect; reads wait 5 times it
CELERY_BROKER_TRANSPORT_OPTIONS = {"socket_connect_timeout": REDIS_TIMEOUT,
                                   "socket_timeout": 5 * REDIS_TIMEOUT}
CELERY_REDIS_SOCKET_CONNECT_TIMEOUT = REDIS_TIMEOUT
CELERY_REDIS_SOCKET_TIMEOUT = 5 * REDIS_TIMEOUT
CELERY_RESULT_BACKEND_TRANSPORT_OPTIONS = {"retry_policy": {"max_retries": 2}}
RATINGS_RECONCILE_SECONDS = env.float("RATINGS_RECONCILE_SECONDS", default=60)
CELERY_BROKER_CONNECTION_TIMEOUT = env.float("CELERY_BROKER_CONNECTION_TIMEOUT", default=2.0)
# Every task's time limits, in seconds (enforced by the default prefork pool): at the soft one
# a tournament batch stops between games and is sent again; at the hard one the worker
# process is killed and replaced.
CELERY_TASK_SOFT_TIME_LIMIT = env.int("CELERY_TASK_SOFT_TIME_LIMIT", default=300)
CELERY_TASK_TIME_LIMIT = env.int("CELERY_TASK_TIME_LIMIT", default=360)
# `make beat` runs celery beat with the schedule kept in the database (django-celery-beat).
CELERY_BEAT_SCHEDULER = "django_celery_beat.schedulers:DatabaseScheduler"
# A worker playing a tournament batch or a ladder game gives a heartbeat on its row this often,
# however long a game lasts (plumbing.queue.heartbeat).
TASK_HEARTBEAT_SECONDS = env.float("TASK_HEARTBEAT_SECONDS", default=5)
# A task sent this long ago that is neither in a queue nor held by a worker was lost (with a
# worker or with Redis's data): the reconcilers send it again.
TASK_SENT_GRACE_SECONDS = env.float("TASK_SENT_GRACE_SECONDS", default=30)
# Tournaments recover by themselves (tournaments.services.tournaments_reconcile, every
# TOURNAMENT_RECONCILE_SECONDS): a batch whose worker gave no heartbeat for
# TOURNAMENT_STALL_SECONDS is sent again, as is one the broker lost (above) and, as a last
# resort, one left untaken for TOURNAMENT_QUEUED_SECONDS; at most TOURNAMENT_QUEUED_BATCHES
# batches wait in the queue, so starting a tournament stays quick whatever its size.
TOURNAMENT_RECONCILE_SECONDS = env.float("TOURNAMENT_RECONCILE_SECONDS", default=30)
TOURNAMENT_STALL_SECONDS = env.float("TOURNAMENT_STALL_SECONDS", default=30)
TOURNAMENT_QUEUED_SECONDS = env.float("TOURNAMENT_QUEUED_SECONDS", default=3600)
TOURNAMENT_QUEUED_BATCHES = env.int("TOURNAMENT_QUEUED_BATCHES", default=500)
# A tournament task meeting a database or broker error retries up to 100 times, waiting
# longer each time, at most this many seconds.
TOURNAMENT_TASK_RETRY_BACKOFF_MAX = env.int("TOURNAMENT_TASK_RETRY_BACKOFF_MAX", default=60)
# The ladder's scheduler (ladder.tasks.ladder_tick_task; see LADDER_* below).
LADDER_TICK_SECONDS = env.float("LADDER_TICK_SECONDS", default=10)
CELERY_BEAT_SCHEDULE = {
    "ratings-reconcile": {"task": "league.tasks.ratings_reconcile_task", "schedule": RATINGS_RECONCILE_SECONDS},  # noqa: E501
    "tournaments-reconcile": {"task": "gameplay.tasks.tournaments_reconcile_task", "schedule": TOURNAMENT_RECONCILE_SECONDS, "options": {"expire_seconds": TOURNAMENT_RECONCILE_SECONDS}},  # noqa: E501
    "ladder-tick": {"task": "ladder.tasks.ladder_tick_task", "schedule": LADDER_TICK_SECONDS, "options": {"expire_seconds": LADDER_TICK_SECONDS}},  # noqa: E501
}

# Per-process memory by default; CACHE_URL=redis://… shares it between processes. Cached
# standings are keyed by a version the database holds, so either way no process sees stale ones.
# A Redis cache that stops answering is skipped (reads go to the database) after at most
# CACHE_TIMEOUT_SECONDS, instead of failing the request.
CACHE_TIMEOUT_SECONDS = env.float("CACHE_TIMEOUT_SECONDS", default=0.5)


def cache_settings(url):
    cache = env.cache_url_config(url)
    if cache["BACKEND"] == "django_redis.cache.RedisCache":
        cache["OPTIONS"] = {
            "IGNORE_EXCEPTIONS": True,
            "SOCKET_CONNECT_TIMEOUT": CACHE_TIMEOUT_SECONDS,
            "SOCKET_TIMEOUT": CACHE_TIMEOUT_SECONDS,
        }
    return {"default": cache}


CACHES = cache_settings(env.str("CACHE_URL", default="locmemcache://"))
DJANGO_REDIS_LOG_IGNORED_EXCEPTIONS = True

# Content-Security-Policy: every asset is ours, so only our own origin; an inline <script> or
# <style> runs only with the request's nonce ({{ request.csp_nonce }}).
CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": [SELF],
        "script-src": [SELF, NONCE],
        "style-src": [SELF, NONCE],
        "img-src": [SELF, "data:"],
        "object-src": [NONE],
        "base-uri": [NONE],
        "form-action": [SELF],
        "frame-ancestors": [NONE],
    },
}

# Prometheus /metrics (config/metrics.py): answered only to a request bearing this token
# ("Authorization: Bearer …"); with no token set, /metrics answers 404 to everyone.
METRICS_TOKEN = env.str("METRICS_TOKEN", default="")

# A tournament's games at most (tables x games per table x rounds). Each game stores a
# transcript and a league game; 200,000 holds a 20-entrant round robin at tables of 4 with 40
# games per table (193,800) and plays in about half an hour of one core for heuristic bots
# (about 5 days for four montecarlo bots at their default 50 ms a decision).
TOURNAMENT_MAX_GAMES = env.int("TOURNAMENT_MAX_GAMES", default=200_000)

# The time a club night's seating search is expected to take at most (league.seating,
# docs/seating.md "Time"), on the page and in the API alike. The search's work is bounded by
# its steps (league.seating.MAX_STEPS, 250,000: about 2 s of CPU on a quiet machine), so the
# same night always gets the same plan; the clock stops it only at SAFETY_NET (5) times this,
# on a machine far slower than expected, with the cheapest plan found so far. A typical night
# (up to 40 people over 4 rounds) takes 80,000 steps, under 0.6 s of CPU.
SEATING_BUDGET_SECONDS = env.float("SEATING_BUDGET_SECONDS", default=2.0)

# Outside HTTP bots (docs/outside-bots.md): only public addresses are called, except the hosts
# listed here (comma separated, `host` or `host:port`), which may be private: a lab network,
# tests on 127.0.0.1. Only on these ports, except a port an allow-list entry names.
OUTSIDE_BOT_ALLOWED_HOSTS = env.list("OUTSIDE_BOT_ALLOWED_HOSTS", default=[])
OUTSIDE_BOT_ALLOWED_PORTS = env.list("OUTSIDE_BOT_ALLOWED_PORTS", cast=int,
                                     default=[80, 443, 8000, 8080, 8443, 8765])
# How long an outside bot has for one decision, in milliseconds (gameplay.bots.outside).
OUTSIDE_BOT_DECISION_MS = env.float("OUTSIDE_BOT_DECISION_MS", default=1000)
# Its time bank for one game, in milliseconds: time a decision takes beyond its limit comes out
# of it, and once it is spent the bot is not called again that game (docs/bots.md, "Time").
OUTSIDE_BOT_OVERAGE_MS = env.float("OUTSIDE_BOT_OVERAGE_MS", default=3000)
# The most outside bots one author may register (accounts/: "My bots" and /api/v1/bots/).
OUTSIDE_BOT_MAX_PER_AUTHOR = env.int("OUTSIDE_BOT_MAX_PER_AUTHOR", default=5)

# The ladder (ladder/, docs/ladder.md). Celery beat runs ladder.tasks.ladder_tick_task every
# LADDER_TICK_SECONDS (CELERY_BEAT_SCHEDULE above): it brings authors' outside bots onto the
# ladder of each preset they play (a validation game first), sends again a game whose worker gave
# no heartbeat for LADDER_GAME_STALL_SECONDS, one the broker lost (TASK_SENT_GRACE_SECONDS) and,
# as a last resort, one sent LADDER_GAME_RESEND_SECONDS ago and never taken (after
# LADDER_GAME_ATTEMPTS takes it fails), and starts rated games until LADDER_GAMES_IN_FLIGHT games
# are in flight.
LADDER_GAMES_IN_FLIGHT = env.int("LADDER_GAMES_IN_FLIGHT", default=8)
LADDER_TABLE_SIZES = env.list("LADDER_TABLE_SIZES", cast=int, default=[3, 4])
LADDER_DEALS_PER_GAME = env.int("LADDER_DEALS_PER_GAME", default=4)
LADDER_REFERENCES = env.list("LADDER_REFERENCES",
                             default=["random", "greedy", "heuristic", "montecarlo"])
LADDER_VALIDATION_OPPONENTS = env.list("LADDER_VALIDATION_OPPONENTS",
                                       default=["random", "greedy", "heuristic"])
LADDER_GAME_RESEND_SECONDS = env.float("LADDER_GAME_RESEND_SECONDS", default=600)
LADDER_GAME_STALL_SECONDS = env.float("LADDER_GAME_STALL_SECONDS", default=30)
LADDER_GAME_ATTEMPTS = env.int("LADDER_GAME_ATTEMPTS", default=3)
# Par of every deal of a tournament or ladder game, computed by the worker that played it
# (issue #31, docs/par.md): play-outs per seat (0: no par) and at most this long a deal.
PAR_PLAYOUTS = env.int("PAR_PLAYOUTS", default=16)
PAR_SECONDS = env.float("PAR_SECONDS", default=0.25)
# Matchmaking counts a bot's rated games started with this half-life (docs/ladder.md).
LADDER_FAIR_HALF_LIFE_HOURS = env.float("LADDER_FAIR_HALF_LIFE_HOURS", default=12)
# Probation: of its decisions in rated games since its last passed validation, a bot with at
# least LADDER_PAUSE_FAULTS faulty ones that are also at least LADDER_PAUSE_FAULT_SHARE of them
# is paused. It may resume LADDER_RESUME_COOLDOWN_SECONDS after its first pause for faults, twice
# that after its second, and so on, at most LADDER_RESUME_COOLDOWN_MAX_SECONDS (docs/ladder.md).
LADDER_PAUSE_FAULTS = env.int("LADDER_PAUSE_FAULTS", default=10)
LADDER_PAUSE_FAULT_SHARE = env.float("LADDER_PAUSE_FAULT_SHARE", default=0.05)
LADDER_RESUME_COOLDOWN_SECONDS = env.float("LADDER_RESUME_COOLDOWN_SECONDS", default=60)
LADDER_RESUME_COOLDOWN_MAX_SECONDS = env.float("LADDER_RESUME_COOLDOWN_MAX_SECONDS",
                                               default=24 * 3600)
# Unrated challenge games an author may start in 24 hours, and their largest table.
LADDER_CHALLENGES_PER_DAY = env.int("LADDER_CHALLENGES_PER_DAY", default=20)
LADDER_CHALLENGE_MAX_SEATS = env.int("LADDER_CHALLENGE_MAX_SEATS", default=6)

# Django logs to the console only with DEBUG on; a server needs its errors on stderr too.
LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "formatters": {"plain": {"format": "%(asctime)s %(levelname)s %(name)s %(message)s"}},
    "filters": {"secret_paths": {"()": "config.log_filters.RedactSecretPaths"}},
    "handlers": {"console": {"class": "logging.StreamHandler", "formatter": "plain",
                             "filters": ["secret_paths"]}},
    "root": {"handlers": ["console"], "level": env.str("LOG_LEVEL", default="INFO")},
    # Django's own console handler would print its messages a second time under DEBUG.
    "loggers": {"django": {"handlers": [], "level": "INFO"}},
}
