"""Settings for a developer's machine: debug on, a fixed throwaway secret key."""

from .base import *  # noqa: F403
from .base import env, secret_key

DEBUG = env.bool("DEBUG", default=True)
SECRET_KEY = secret_key(default="django-insecure-local-only-do-not-use-elsewhere")
ALLOWED_HOSTS = env.list("ALLOWED_HOSTS", default=["localhost", "127.0.0.1"])
