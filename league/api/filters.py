"""Query filters for the list endpoints (django-filter)."""

import django_filters

from gameplay.engine.scoring import systems
from league.models import Club, Deal, Game, Player, Season


class ClubFilter(django_filters.FilterSet):
    name = django_filters.CharFilter(lookup_expr="icontains")

    class Meta:
        model = Club
        fields = ["name"]


class PlayerFilter(django_filters.FilterSet):
    name = django_filters.CharFilter(lookup_expr="icontains")
    club = django_filters.ModelChoiceFilter(field_name="clubs", queryset=Club.objects.all())

    class Meta:
        model = Player
        fields = ["name", "kind", "club"]


class SystemChoices:
    """The registered scoring systems as choices, read whenever a filter is made (not a
    callable, so the schema lists them too)."""

    def __iter__(self):
        return iter([(system.name, system.name) for system in systems()])


class SeasonFilter(django_filters.FilterSet):
    scoring_system = django_filters.ChoiceFilter(field_name="scoring__system",
                                                 choices=SystemChoices())

    class Meta:
        model = Season
        fields = ["club", "preset", "scoring_system"]


class GameFilter(django_filters.FilterSet):
    club = django_filters.ModelChoiceFilter(field_name="season__club",
                                            queryset=Club.objects.all())
    player = django_filters.ModelChoiceFilter(field_name="seats__player",
                                              queryset=Player.objects.all())

    class Meta:
        model = Game
        fields = ["season", "club", "status", "player"]


class DealFilter(django_filters.FilterSet):
    season = django_filters.ModelChoiceFilter(field_name="game__season",
                                              queryset=Season.objects.all())

    class Meta:
        model = Deal
        fields = ["game", "season"]

