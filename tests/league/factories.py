"""Factories for league rows; games and deals go through the services, as the site does."""

import datetime

import factory
from django.contrib.auth import get_user_model

from league import services
from league.models import Club, Player, Season, default_scoring


class UserFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = get_user_model()
        django_get_or_create = ("username",)

    username = factory.Sequence(lambda n: f"user{n}")
    is_staff = True


class ClubFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Club

    name = factory.Sequence(lambda n: f"Club {n}")


class PlayerFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Player
        skip_postgeneration_save = True

    name = factory.Sequence(lambda n: f"Player {n}")

    @factory.post_generation
    def clubs(self, create, extracted, **kwargs):
        if create and extracted:
            self.clubs.set(extracted)


def make_season(club=None, **kwargs):
    """A season through the service (which also creates its rating job); its scoring as the
    API's flat fields (``scoring_system="fixed-rounds", scoring_deals=5``) or ``scoring``."""
    flat = {k.removeprefix("scoring_"): kwargs.pop(k) for k in list(kwargs)
            if k.startswith("scoring_")}
    if flat:
        kwargs["scoring"] = {**default_scoring(), **flat}
    kwargs.setdefault("name", f"Season {Season.objects.count() + 1}")
    kwargs.setdefault("starts_on", datetime.date(2025, 1, 1))
    return services.season_create(club=club or ClubFactory(), **kwargs)


def make_game(season=None, players=4, **kwargs):
    """A game at a table of new club players (or the given ones)."""
    season = season or make_season(**kwargs.pop("season_kwargs", {}))
    if isinstance(players, int):
        players = [PlayerFactory(clubs=[season.club]) for _ in range(players)]
    return services.game_create(season=season, players=players, **kwargs)


def seated_ids(game):
    return list(game.seats.order_by("number").values_list("player_id", flat=True))
