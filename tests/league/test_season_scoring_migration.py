"""Migration 0008: a season's four scoring columns become one scoring object (the shape a
tournament's and a transcript's take) and back again, each value kept; the API shows the same
season as before."""

import datetime

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

from league.api.serializers import SeasonSerializer
from league.models import Season

COLUMNS = [  # (system, limit, target, deals) as seasons stored them before
    ("penalty", None, None, None),
    ("penalty", 6, None, 10),
    ("first-to-eleven", None, 15, None),
    ("fixed-rounds", None, None, 8),
]
OBJECTS = [
    {"system": "penalty"},
    {"system": "penalty", "limit": 6, "deals": 10},
    {"system": "first-to-eleven", "target": 15},
    {"system": "fixed-rounds", "deals": 8},
]
BEFORE = [("league", "0008_deal_source_game_reopened")]
AFTER = [("league", "0009_season_scoring_object")]


def _migrate(target):
    executor = MigrationExecutor(connection)
    executor.migrate(target)
    return executor.loader.project_state(target).apps.get_model("league", "Season")


def _columns(season):
    return (season.scoring_system, season.scoring_limit, season.scoring_target,
            season.scoring_deals)


@pytest.mark.django_db(transaction=True)
def test_the_scoring_columns_become_one_object_and_come_back():
    old = _migrate(BEFORE)
    club = old._meta.get_field("club").related_model.objects.create(name="Migrated")
    ids = [old.objects.create(club=club, name=f"S{i}", starts_on=datetime.date(2025, 1, 1),
                              scoring_system=system, scoring_limit=limit,
                              scoring_target=target, scoring_deals=deals).pk
           for i, (system, limit, target, deals) in enumerate(COLUMNS)]

    new = _migrate(AFTER)
    assert [new.objects.get(pk=pk).scoring for pk in ids] == OBJECTS
    _migrate(MigrationExecutor(connection).loader.graph.leaf_nodes())
    shown = [SeasonSerializer(Season.objects.get(pk=pk)).data for pk in ids]
    assert [(s["scoring_system"], s["scoring_limit"], s["scoring_target"], s["scoring_deals"])
            for s in shown] == COLUMNS
    assert list(shown[0]) == ["id", "club", "name", "preset", "options", "scoring_system",
                              "scoring_limit", "scoring_target", "scoring_deals", "starts_on",
                              "ends_on"]

    old = _migrate(BEFORE)
    assert [_columns(old.objects.get(pk=pk)) for pk in ids] == COLUMNS
    _migrate(MigrationExecutor(connection).loader.graph.leaf_nodes())
