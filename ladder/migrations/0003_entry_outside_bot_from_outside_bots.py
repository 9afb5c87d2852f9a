"""An entry's outside bot is now outside_bots.OutsideBot, the same table (gameplay_outsidebot):
the foreign key changes in the migration state only."""

import django.db.models.deletion
from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('ladder', '0002_entry_author'),
        ('outside_bots', '0001_initial'),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.AlterField(
                    model_name='entry',
                    name='outside_bot',
                    field=models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='ladder_entries', to='outside_bots.outsidebot'),
                ),
            ],
            database_operations=[],
        ),
    ]
