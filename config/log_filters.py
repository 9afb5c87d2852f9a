"""Secrets that travel in an address kept out of the logs: a table link's token
(league.web.table_links, ``/league/t/<token>/``) is written as "…" wherever a logged message or
its arguments hold it (Django's request and runserver lines, gunicorn's access lines)."""

import logging
import re

SECRET_PATH = re.compile(r"(/league/t/)[^/\s\"?#]+")


def redacted(value):
    return SECRET_PATH.sub(r"\1…", value) if isinstance(value, str) else value


class RedactSecretPaths(logging.Filter):
    def filter(self, record):
        record.msg = redacted(record.msg)
        if isinstance(record.args, dict):  # gunicorn's access lines
            record.args = {name: redacted(value) for name, value in record.args.items()}
        elif isinstance(record.args, tuple):
            record.args = tuple(redacted(value) for value in record.args)
        return True
