"""Query filters for the list endpoints (django-filter)."""

import django_filters
from django import forms

from gameplay.engine.scoring import systems
from league.models import Club, Deal, Game, Player, Season


def by_id(field_name, queryset):
    """A filter by a row's id, typed as a number in the browsable API's form: a list to choose
    from would hold every game (or player, season, club) of the site, a query or two each."""
    return django_filters.ModelChoiceFilter(field_name=field_name, queryset=queryset,
                                            widget=forms.NumberInput)


class ClubFilter(django_filters.FilterSet):
    name = django_filters.CharFilter(lookup_expr="icontains")

    class Meta:
        model = Club
        fields = ["name"]


class PlayerFilter(django_filters.FilterSet):
    name = django_filters.CharFilter(lookup_expr="icontains")
    club = by_id("clubs", Club.objects.all())

    class Meta:
        model = Player
        fields = ["name", "kind", "club"]


class SystemChoices:
    """The registered scoring systems as choices, read whenever a filter is made (not a
    callable, so the schema lists them too)."""

    def __iter__(self):
        return iter([(system.name, system.name) for system in systems()])


class SeasonFilter(django_filters.FilterSet):
    club = by_id("club", Club.objects.all())
    scoring_system = django_filters.ChoiceFilter(field_name="scoring__system",
                                                 choices=SystemChoices())

    class Meta:
        model = Season
        fields = ["club", "preset", "scoring_system"]


class GameFilter(django_filters.FilterSet):
    season = by_id("season", Season.objects.all())
    club = by_id("season__club", Club.objects.all())
    player = by_id("seats__player", Player.objects.all())

    class Meta:
        model = Game
        fields = ["season", "club", "status", "player"]


class DealFilter(django_filters.FilterSet):
    game = by_id("game", Game.objects.all())
    season = by_id("game__season", Season.objects.all())

    class Meta:
        model = Deal
        fields = ["game", "season"]

