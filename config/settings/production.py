"""Settings for a deployed server behind an HTTPS proxy; passes `manage.py check --deploy`."""

from .base import *  # noqa: F403
from .base import env, secret_key

DEBUG = False
SECRET_KEY = secret_key()
ALLOWED_HOSTS = env.list("ALLOWED_HOSTS")
# Keep each process's database connection between requests: a new PostgreSQL connection
# costs a server process, about 10 ms, several times a cached page's whole work.
# DATABASE_URL's ?conn_max_age= overrides it; 0 closes the connection after each request.
DATABASES["default"].setdefault("CONN_MAX_AGE", 60)
# The HTTPS proxy in front appends the client's address to X-Forwarded-For: API throttles and
# login lockouts count that address, not the proxy's (config/protections.py).
REST_FRAMEWORK["NUM_PROXIES"] = env.int("NUM_PROXIES", default=1)

SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
SECURE_SSL_REDIRECT = True
# Health probes come from inside the network over plain HTTP.
SECURE_REDIRECT_EXEMPT = [r"^healthz$"]
SESSION_COOKIE_SECURE = True
CSRF_COOKIE_SECURE = True
# Start HSTS short and raise it to a year once HTTPS is known to work on every subdomain
# (Django's deployment checklist); a wrong long value locks browsers out.
SECURE_HSTS_SECONDS = env.int("SECURE_HSTS_SECONDS", default=60)
SECURE_HSTS_INCLUDE_SUBDOMAINS = True
SECURE_HSTS_PRELOAD = True

STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {"BACKEND": "whitenoise.storage.CompressedManifestStaticFilesStorage"},
}
