"""Settings for the test suite: fast password hashing, a fixed throwaway secret key."""

from .base import *  # noqa: F403
from .base import env, secret_key, task_routes

SECRET_KEY = secret_key(default="django-insecure-test-only-do-not-use-elsewhere")
PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
# staticfiles/ exists only after collectstatic; let WhiteNoise look files up per request instead.
WHITENOISE_AUTOREFRESH = True
# Throttles high enough for the suite's own heavy API tests (schemathesis); the throttle tests
# lower them (tests/foundation/test_throttles.py).
REST_FRAMEWORK = {**REST_FRAMEWORK, "DEFAULT_THROTTLE_RATES": {"anon": "100000/minute",
                                                               "user": "100000/minute",
                                                               "tokens": "100000/minute"}}
# The suite's bot servers answer in microseconds, but on a loaded machine a thread may wait
# its turn for longer than production's second: a good bot is not timed out in tests that are
# not about timeouts (those give their bots a timeout of their own).
OUTSIDE_BOT_DECISION_MS = 5000
OUTSIDE_BOT_OVERAGE_MS = 2000
# Every worker of the suite consumes one queue of its own (tests/conftest.py), which is its
# default queue: every task goes there unless a test names the other queues (the queue tests).
CELERY_TASK_ROUTES = task_routes(env.str("CELERY_TOURNAMENTS_QUEUE", default=""),
                                 env.str("CELERY_LADDER_QUEUE", default=""))
CELERY_HOSTED_QUEUE = env.str("CELERY_HOSTED_QUEUE", default="")
# Par with few play-outs: the suite checks where par goes, not how narrow it is.
PAR_PLAYOUTS = 2
