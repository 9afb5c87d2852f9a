import django.db.models.deletion
from django.db import migrations, models


def rebuild_every_scope(apps, schema_editor):
    """Ratings may still count deals deleted before this migration: mark every scope stale
    from its first deal, so the reconciler rebuilds each from scratch."""
    apps.get_model("league", "RatingJob").objects.update(dirty_from=0)


class Migration(migrations.Migration):

    dependencies = [
        ('league', '0006_role_names'),
    ]

    operations = [
        migrations.AlterField(
            model_name='ratinghistory',
            name='deal',
            field=models.ForeignKey(null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='+', to='league.deal'),
        ),
        migrations.RunPython(rebuild_every_scope, migrations.RunPython.noop),
    ]
