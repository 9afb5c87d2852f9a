"""OutsideBot moved to the app outside_bots (its 0001), which keeps the table
gameplay_outsidebot: the model leaves this app's migration state only, the table stays."""

from django.db import migrations


class Migration(migrations.Migration):

    dependencies = [
        ('gameplay', '0007_outside_bot_url_is_checked_by_the_policy_alone'),
        ('outside_bots', '0001_initial'),
        ('ladder', '0003_entry_outside_bot_from_outside_bots'),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[migrations.DeleteModel(name='OutsideBot')],
            database_operations=[],
        ),
    ]
