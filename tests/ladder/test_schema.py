"""The ladder's API against its own OpenAPI schema (schemathesis) over a ladder with games,
faults and a paused bot: no 5xx, every answer as documented. tests/api/test_schema.py covers
the whole API over an empty ladder."""

import pytest
import schemathesis
from django.core.wsgi import get_wsgi_application
from django.db import connection
from hypothesis import HealthCheck, given
from hypothesis import settings as hypothesis_settings
from rest_framework.authtoken.models import Token

from ladder.models import Entry
from tests.api.test_schema import CHECKS, GENERATION_MODES
from tests.budget import examples
from tests.ladder.conftest import faults_of
from tests.ladder.test_api import ladder  # noqa: F401

pytestmark = pytest.mark.django_db
EXAMPLES_PER_OPERATION = 15


def test_the_ladder_api_conforms_to_its_schema(ladder, author, settings):  # noqa: F811
    if connection.vendor != "sqlite":
        # The WSGI handler closes the connection after each request (request_finished), which
        # ends PostgreSQL's test transaction; SQLite's test database survives it.
        pytest.skip("runs on SQLite, as tests/api/test_schema.py")
    Entry.objects.filter(pk=ladder["ada-2"].pk).update(status=Entry.PAUSED, reason="faults")
    headers = {"Authorization": f"Token {Token.objects.create(user=author).key}"}
    settings.ALLOWED_HOSTS = ["localhost", "testserver"]
    schema = schemathesis.openapi.from_wsgi("/api/schema/", get_wsgi_application())
    failures, operations = {}, 0

    for result in schema.get_all_operations():
        operation = result.ok()
        if not operation.path.startswith("/api/v1/ladder"):
            continue
        operations += 1
        for mode in GENERATION_MODES:

            @given(case=operation.as_strategy(generation_mode=mode))
            @hypothesis_settings(max_examples=examples(EXAMPLES_PER_OPERATION), deadline=None,
                                 database=None, suppress_health_check=list(HealthCheck))
            def run(case):
                case.call_and_validate(headers=headers, checks=CHECKS)

            try:
                run()
            except (Exception, BaseExceptionGroup) as e:  # collect each operation's failure
                failures[f"{operation.label} ({mode.value})"] = str(e)[:2000]

    # Real rows, which random ids seldom hit: a bot's page, a game, a resume, a challenge, a
    # new version, a pause.
    game = faults_of(ladder["bob-1"]).first().game.ladder_game.pk  # a game it faulted in
    # A new version the generated requests started leaves ada-1 validating (its game, sent on
    # commit, is never played here), and a bot being validated starts no other.
    Entry.objects.filter(pk=ladder["ada-1"].pk).update(status=Entry.ACTIVE)
    for method, path, kwargs in [
            ("GET", "/api/v1/ladder/{id}/", {"path_parameters": {"id": ladder["bob-1"].pk}}),
            ("GET", "/api/v1/ladder-games/{id}/", {"path_parameters": {"id": game}}),
            ("POST", "/api/v1/ladder/{id}/resume/",
             {"path_parameters": {"id": ladder["ada-2"].pk}}),
            ("POST", "/api/v1/ladder-games/",
             {"body": {"entry": ladder["ada-1"].pk, "opponents": [ladder["bob-1"].pk]},
              "media_type": "application/json"}),
            ("POST", "/api/v1/ladder/{id}/new-version/",
             {"path_parameters": {"id": ladder["ada-1"].pk}}),
            ("POST", "/api/v1/ladder/{id}/pause/",
             {"path_parameters": {"id": ladder["ada-1"].pk}})]:
        case = schema[path][method].Case(**kwargs)
        response = case.call_and_validate(headers=headers, checks=CHECKS)
        assert response.status_code in (200, 201), (path, response.text[:500])
    assert operations == 8
    assert not failures, "\n\n".join(f"{label}:\n{text}" for label, text in failures.items())
