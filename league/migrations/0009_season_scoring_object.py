"""A season's scoring in one JSON object, the shape a tournament's and a transcript's take
({"system": "penalty", "limit": 4}), instead of four columns. Both ways keep every value."""

from django.db import migrations, models

import league.models

PARAMETERS = ("limit", "target", "deals")  # the columns' names after "scoring_"


def columns_to_object(apps, schema_editor):
    Season = apps.get_model("league", "Season")
    for season in Season.objects.all():
        season.scoring = {"system": season.scoring_system}
        for name in PARAMETERS:
            value = getattr(season, f"scoring_{name}")
            if value is not None:
                season.scoring[name] = value
        season.save(update_fields=["scoring"])


def object_to_columns(apps, schema_editor):
    Season = apps.get_model("league", "Season")
    for season in Season.objects.all():
        season.scoring_system = season.scoring["system"]
        for name in PARAMETERS:
            setattr(season, f"scoring_{name}", season.scoring.get(name))
        season.save(update_fields=["scoring_system", *(f"scoring_{n}" for n in PARAMETERS)])


class Migration(migrations.Migration):

    dependencies = [
        ("league", "0008_deal_source_game_reopened"),
    ]

    operations = [
        migrations.AddField(
            model_name="season",
            name="scoring",
            field=models.JSONField(default=league.models.default_scoring,
                                   help_text='a game\'s scoring, e.g. {"system": "penalty", '
                                             '"limit": 4}'),
        ),
        migrations.RunPython(columns_to_object, object_to_columns),
        migrations.RemoveField(model_name="season", name="scoring_system"),
        migrations.RemoveField(model_name="season", name="scoring_limit"),
        migrations.RemoveField(model_name="season", name="scoring_target"),
        migrations.RemoveField(model_name="season", name="scoring_deals"),
    ]
