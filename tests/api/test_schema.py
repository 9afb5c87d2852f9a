"""The API against its own OpenAPI schema (schemathesis): no 5xx, every answer as documented.

A bounded number of generated requests per operation, sent through the WSGI app over a small
league with the token of an administrator who organises its club, so every write, the outside
bots' included, reaches its service (the refusals have their own tests).
Schemathesis's Python API drives hypothesis directly (its pytest plugin does not run under
pytest 9).
"""

import pytest
import schemathesis
from django.core.management import call_command
from django.core.signals import request_finished, request_started
from django.core.wsgi import get_wsgi_application
from django.db import close_old_connections
from django.test import Client
from hypothesis import HealthCheck, given
from hypothesis import settings as hypothesis_settings
from rest_framework.authtoken.models import Token
from schemathesis import GenerationMode
from schemathesis.specs.openapi.checks import (
    content_type_conformance,
    response_schema_conformance,
    status_code_conformance,
)

from league import services
from outside_bots import services as outside_bots
from tests.budget import examples
from tests.league.factories import UserFactory, make_game, seated_ids

EXAMPLES_PER_OPERATION = 12  # each mode; what a walk found is pinned by a test of its own
# Valid requests, and requests each breaking the schema somewhere (a path id that is not a
# number, a field of the wrong type…): the answer to either is documented.
GENERATION_MODES = [GenerationMode.POSITIVE, GenerationMode.NEGATIVE]
CHECKS = [schemathesis.checks.not_a_server_error, status_code_conformance,
          content_type_conformance, response_schema_conformance]


@pytest.fixture
def organiser_token(db):
    game = make_game()
    services.deal_record(game=game, finishing_order=seated_ids(game))
    organiser = UserFactory(username="schema-organiser", is_superuser=True)
    game.season.club.organisers.add(organiser)
    return Token.objects.create(user=organiser).key


@pytest.fixture
def connection_kept():
    """Requests sent straight to the WSGI app keep the test's database connection, as Django's
    test client does: at each request's start and end Django closes a connection that is inside
    a transaction, which is the test's own (on PostgreSQL every later query then fails)."""
    request_started.disconnect(close_old_connections)
    request_finished.disconnect(close_old_connections)
    yield
    request_started.connect(close_old_connections)
    request_finished.connect(close_old_connections)


@pytest.mark.slow
@pytest.mark.django_db
def test_api_conforms_to_its_schema(settings, organiser_token, connection_kept):
    settings.ALLOWED_HOSTS = ["localhost", "testserver"]  # schemathesis's WSGI host
    schema = schemathesis.openapi.from_wsgi("/api/schema/", get_wsgi_application())
    headers = {"Authorization": f"Token {organiser_token}"}
    failures, sent, operations = {}, [0], 0

    for result in schema.get_all_operations():
        operation = result.ok()
        if operation.path == "/api/v1/tokens/rotate/":
            continue  # it replaces the token this walk signs in with (test_tokens.py)
        operations += 1
        for mode in GENERATION_MODES:

            @given(case=operation.as_strategy(generation_mode=mode))
            @hypothesis_settings(max_examples=examples(EXAMPLES_PER_OPERATION), deadline=None,
                                 database=None, suppress_health_check=list(HealthCheck))
            def run(case):
                sent[0] += 1
                case.call_and_validate(headers=headers, checks=CHECKS)

            try:
                run()
            except (Exception, BaseExceptionGroup) as e:  # collect each operation's failure
                failures[f"{operation.label} ({mode.value})"] = str(e)[:2000]

    # Real rows, which random ids seldom hit: a transcript of the wrong shape for a deal.
    game = make_game()  # a club of its own: the generated writes may have changed the first
    game.season.club.organisers.add(Token.objects.get(key=organiser_token).user)
    deal = services.deal_record(game=game, finishing_order=seated_ids(game))
    # found by a security walk-through: an HTTP bot's blank runtime, and 409 for a cancelled
    # game, were not in the schema
    settings.OUTSIDE_BOT_ALLOWED_HOSTS = ["bots.example.org"]
    outside_bots.outside_bot_create(name="schema-bot", url="https://bots.example.org/a",
                                    owner=Token.objects.get(key=organiser_token).user)
    cancelled = services.game_cancel(game=make_game(season=game.season))
    for method, path, kwargs, status in [
            ("POST", "/api/v1/deals/", {"body": {"game": game.pk, "transcript": "x"}}, 400),
            ("PUT", "/api/v1/deals/{id}/", {"path_parameters": {"id": deal.pk},
                                            "body": {"transcript": []}}, 400),
            ("GET", "/api/v1/bots/", {}, 200),
            ("POST", "/api/v1/games/{id}/reopen/", {"path_parameters": {"id": cancelled.pk}},
             409),
            ("POST", "/api/v1/games/{id}/time-called/",
             {"path_parameters": {"id": cancelled.pk}}, 409)]:
        case = schema[path][method].Case(media_type="application/json", **kwargs)
        try:
            assert case.call_and_validate(headers=headers, checks=CHECKS).status_code == status
        except (Exception, BaseExceptionGroup) as e:
            failures[f"{method} {path} (a real row)"] = str(e)[:2000]

    print(f"schemathesis: {operations} operations, {sent[0]} examples, "
          f"{len(failures)} failing")
    assert operations >= 10
    assert not failures, "\n\n".join(f"{label}:\n{text}" for label, text in failures.items())


@pytest.mark.django_db
def test_a_method_an_operation_does_not_document_answers_405_as_json(organiser_token):
    client = Client(HTTP_AUTHORIZATION=f"Token {organiser_token}")
    paths = client.get("/api/schema/", {"format": "json"}).json()["paths"]
    wrong = {}
    for template, methods in paths.items():
        path = template.replace("{id}", "1")
        for method in sorted({"get", "post", "put", "patch", "delete", "trace"} - set(methods)):
            answer = client.generic(method.upper(), f"{path}?page=0&zzz=1")
            if (answer.status_code, answer["Content-Type"]) != (405, "application/json"):
                wrong[method, path] = answer.status_code, answer["Content-Type"]

    assert wrong == {}


def test_schema_is_valid_openapi_without_warnings(tmp_path):
    call_command("spectacular", "--validate", "--fail-on-warn",
                 "--file", str(tmp_path / "schema.yml"))
