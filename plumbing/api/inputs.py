"""Input the API does not take is refused with 400 naming it, never silently ignored: every
viewset takes only the query parameters it documents (KnownQueryParameters), every write
serializer only its writable fields (KnownFields), an id only as a whole number (IdField,
id_param), a number only as one (WholeNumberField), and JSON in a form's field only as a
JSON body is taken (JSONField). docs/api.md "Errors".

The mixins explain themselves in comments: drf-spectacular would show a docstring as the
description of every operation and shape that inherits it."""

import json
import re
from collections.abc import Mapping

from django.db import models
from django_filters.rest_framework import DjangoFilterBackend
from rest_framework import serializers
from rest_framework.exceptions import ValidationError
from rest_framework.permissions import SAFE_METHODS

from plumbing.api.parsers import json_loads

# The header a retried write carries to be done once (league.api.idempotency).
IDEMPOTENCY_KEY = "Idempotency-Key"
# Django's CSRF token, which a form posted by the browsable API carries beside the fields.
FORM_EXTRAS = frozenset({"csrfmiddlewaretoken"})
# The fields a form gives once per value.
TAKES_MANY = (serializers.ListField, serializers.MultipleChoiceField,
              serializers.ManyRelatedField)


class KnownFields:
    # A serializer mixin: a body field that is not one of the serializer's fields, or only
    # shows one (read-only), is refused naming it.

    # A form's field given twice (``name=A&name=B``) is refused as a JSON key given twice is
    # (plumbing/api/parsers.py): which was meant? A list's field comes once per value.

    def to_internal_value(self, data):
        if isinstance(data, Mapping):
            writable = {name for name, field in self.fields.items() if not field.read_only}
            refused = {name: [self._refusal(name, writable)] for name in data
                       if name not in writable | FORM_EXTRAS}
            if hasattr(data, "getlist"):  # a form's fields
                refused.update(
                    {name: [f"{name} is given {len(data.getlist(name))} times; it takes one "
                            "value"] for name in data
                     if name in writable and len(data.getlist(name)) > 1
                     and not isinstance(self.fields[name], TAKES_MANY)})
            if refused:
                raise ValidationError(refused)
        return super().to_internal_value(data)

    def _refusal(self, name: str, writable: set[str]) -> str:
        if name in self.fields:
            return f"{name} is read-only here: it cannot be set"
        return f"field not taken here; the fields are {', '.join(sorted(writable))}"


class KnownQueryParameters:
    # A viewset mixin: a query parameter the operation does not document is refused naming it.
    # An operation takes its filters' and ordering's parameters (its filter backends), a list
    # its page's, ``format`` (DRF's choice of renderer), and the names in the view's (or the
    # action's) ``query_parameters``, which views that read the query themselves declare.

    # It also refuses an Idempotency-Key sent to a write that is not done once per key: a
    # client retrying with it would believe the retry safe. The view names the actions that
    # take one (league.api.idempotency) in ``idempotent_actions``.

    query_parameters = ()
    idempotent_actions = ()

    def initial(self, request, *args, **kwargs):
        super().initial(request, *args, **kwargs)
        method = request.method.lower()
        if method not in self.http_method_names or not hasattr(self, method):
            return  # DRF answers 405 for the method
        taken = self.taken_query_parameters()
        unknown = sorted(set(request.query_params) - taken)
        if unknown:
            listed = ", ".join(sorted(taken - {"format"})) or "none"
            raise ValidationError({name: [f"query parameter not taken here; this operation "
                                          f"takes {listed}"] for name in unknown})
        # Each parameter takes one value: Django's QueryDict reads the last of several.
        values = request.query_params.lists()
        twice = {name: [f"{name} is given {len(given)} times; it takes one value"]
                 for name, given in values if len(given) > 1}
        if twice:
            raise ValidationError(twice)
        # A view reads its own parameters as they are (its filters' fields refuse a NUL):
        # PostgreSQL refuses a NUL in text with an error of its own.
        nul = {name: [f"{name} cannot hold a NUL character (\\x00)"]
               for name in self.query_parameters if "\x00" in request.query_params.get(name, "")}
        if nul:
            raise ValidationError(nul)
        if (IDEMPOTENCY_KEY in request.headers and request.method not in SAFE_METHODS
                and self.action not in self.idempotent_actions):
            raise ValidationError({IDEMPOTENCY_KEY: [
                "not taken here: this operation is not done once per key; the operations "
                "that take one are listed in docs/api.md (Retries)"]})

    def taken_query_parameters(self) -> set[str]:
        names = {"format", *self.query_parameters}
        for backend in self.filter_backends:
            names.update(self._filter_parameters(backend()))
        if self.action == "list" and self.paginator is not None:
            names.update(p["name"] for p in self.paginator.get_schema_operation_parameters(self))
        return names

    def _filter_parameters(self, backend) -> set[str]:
        if isinstance(backend, DjangoFilterBackend):  # its filter set's filters
            filterset = backend.get_filterset_class(self, self.get_queryset())
            return set(filterset.base_filters) if filterset else set()
        return {p["name"] for p in backend.get_schema_operation_parameters(self)}


def id_param(request, name: str) -> int | None:
    """The id given as query parameter ``name``, None without one; 400 naming the parameter
    for anything but ASCII digits ("²" is a digit to str.isdigit, not to int)."""
    value = request.query_params.get(name)
    if value is None:
        return None
    if not re.fullmatch(r"[0-9]{1,18}", value):
        raise ValidationError({name: [f"{name} is given by its id, a whole number"]})
    return int(value)


class IdField(serializers.PrimaryKeyRelatedField):
    # A row named by its id in a body: a whole number (1, or 1.0 as JSON Schema's "integer"
    # takes it) or its ASCII digits, as a form sends it. DRF's field left the conversion to the
    # database's, which read 1.5 as 1 and "١" (an Arabic-Indic one) as 1. Refusals say the
    # value as JSON writes it and the row in the API's words, as a 404 does ("there is no
    # season 9"), not DRF's ("Expected pk value, received bool").

    def to_internal_value(self, data):
        if isinstance(data, float) and data.is_integer():
            data = int(data)
        elif isinstance(data, str) and re.fullmatch(r"[0-9]{1,20}", data):
            data = int(data)
        if not isinstance(data, int) or isinstance(data, bool):
            sent = json.dumps(data, ensure_ascii=False, default=repr)
            raise ValidationError(f"an id is a whole number, not {sent[:40]}")
        return super().to_internal_value(data)

    def fail(self, key, **kwargs):
        if key == "does_not_exist":
            what = self.get_queryset().model._meta.verbose_name
            raise ValidationError(f"there is no {what} {kwargs['pk_value']}")
        super().fail(key, **kwargs)


class WholeNumberField(serializers.IntegerField):
    # A whole number in a body: as JSON writes it (2, or 2.0), or its ASCII digits, as a form
    # sends it. DRF's field read any text Python's int() reads: "١" (an Arabic-Indic one) as
    # 1, "1_0" as 10, " 1" and "1.000" as 1.

    def to_internal_value(self, data):
        if isinstance(data, float) and data.is_integer():
            data = int(data)
        elif isinstance(data, str) and re.fullmatch(r"-?[0-9]{1,40}", data):
            data = int(data)
        if not isinstance(data, int) or isinstance(data, bool):
            sent = json.dumps(data, ensure_ascii=False, default=repr)
            raise ValidationError(f"a whole number, not {sent[:40]}")
        return data


class JSONField(serializers.JSONField):
    # A JSON field; sent in a form, its text is read as a JSON body is (plumbing.api.parsers):
    # DRF's own reading answered 500 for 100,000 brackets (RecursionError) and kept the last of
    # a key given twice.

    def to_internal_value(self, data):
        if getattr(data, "is_json_string", False):
            try:
                return json_loads(data)
            except ValueError as error:
                raise ValidationError(f"JSON parse error - {error}") from None
        return super().to_internal_value(data)


class ModelSerializer(serializers.ModelSerializer):
    # A write's model serializer: the model's relations taken as IdField, its JSON as
    # JSONField, its whole numbers as WholeNumberField.
    serializer_related_field = IdField
    serializer_field_mapping = {
        **serializers.ModelSerializer.serializer_field_mapping,
        **{column: WholeNumberField for column, field
           in serializers.ModelSerializer.serializer_field_mapping.items()
           if field is serializers.IntegerField},
        models.JSONField: JSONField}
