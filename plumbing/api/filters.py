"""The API's list filters refuse a value they cannot read, naming the parameter (docs/api.md
"Errors": input is refused, never ignored): django-filter's boolean filter reads any word but
true or false as no filter at all, and DRF's ordering drops a field it does not know."""

import django_filters
from django import forms
from django.db import models
from django_filters import rest_framework
from django_filters.rest_framework import DjangoFilterBackend
from rest_framework.exceptions import ValidationError
from rest_framework.filters import OrderingFilter

BOOLEANS = {"true": True, "True": True, "1": True, "false": False, "False": False, "0": False}


class KnownBooleanField(forms.NullBooleanField):
    widget = forms.TextInput  # the value as sent (the boolean widgets read other words as None)

    def to_python(self, value):
        if value in (None, ""):
            return None
        if value not in BOOLEANS:
            # The value goes in as a parameter: django-filter formats every message with
            # ``%``, and a '%' the client sent would be read as a placeholder.
            raise forms.ValidationError("true or false, not %(value)s",
                                        params={"value": repr(str(value)[:40])})
        return BOOLEANS[value]


class KnownBooleanFilter(django_filters.BooleanFilter):
    field_class = KnownBooleanField


class FilterSet(rest_framework.FilterSet):
    """A FilterSet whose filters of boolean fields refuse what is not true or false."""

    FILTER_DEFAULTS = {**rest_framework.FilterSet.FILTER_DEFAULTS,
                       models.BooleanField: {"filter_class": KnownBooleanFilter}}


class FilterBackend(DjangoFilterBackend):
    filterset_base = FilterSet  # for a view's ``filterset_fields``


class KnownOrdering(OrderingFilter):
    def remove_invalid_fields(self, queryset, fields, view, request):
        valid = {name for name, _ in self.get_valid_fields(queryset, view,
                                                           {"request": request})}
        unknown = [term for term in fields if term.lstrip("-") not in valid]
        if unknown:
            listed = ", ".join(sorted(valid))
            raise ValidationError({self.ordering_param: [
                f"cannot order by {unknown[0][:40]!r}; the orderings are {listed}, each "
                "reversed with a leading '-'"]})
        return super().remove_invalid_fields(queryset, fields, view, request)
