"""WSGI entry point for gunicorn; production settings unless the environment says otherwise."""

import logging
import os

from django.core.wsgi import get_wsgi_application

from config.log_filters import RedactSecretPaths

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.production")

application = get_wsgi_application()
# gunicorn's access lines (its own handlers): a table link's token is not written there either.
logging.getLogger("gunicorn.access").addFilter(RedactSecretPaths())
