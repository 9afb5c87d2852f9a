"""The outside bots move out of the app gameplay (tournaments) into their own. Their table stays
gameplay_outsidebot, so the model is created in the migration state only (the ladder's 0003
points its foreign key here, gameplay's 0008 deletes the old one from the state), and its content
type (admin history, permissions) is relabelled rather than made anew."""

import django.db.models.deletion
import outside_bots.models
from django.conf import settings
from django.db import migrations, models


def relabel_content_type(old, new):
    def relabel(apps, schema_editor):
        content_types = apps.get_model("contenttypes", "ContentType").objects.using(
            schema_editor.connection.alias)
        if not content_types.filter(app_label=new, model="outsidebot").exists():
            content_types.filter(app_label=old, model="outsidebot").update(app_label=new)
    return relabel


class Migration(migrations.Migration):

    initial = True

    dependencies = [
        ('gameplay', '0007_outside_bot_url_is_checked_by_the_policy_alone'),
        ('contenttypes', '0002_remove_content_type_name'),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.CreateModel(
                    name='OutsideBot',
                    fields=[
                        ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                        ('name', models.SlugField(help_text='letters, digits, "-" and "_"; entered as outside:NAME', unique=True)),
                        ('url', models.CharField(help_text='where each decision is POSTed: a public address on an allowed port (or a host in OUTSIDE_BOT_ALLOWED_HOSTS)', max_length=300, validators=[outside_bots.models.outside_bot_url])),
                        ('description', models.TextField(blank=True, max_length=2000)),
                        ('presets', models.JSONField(default=outside_bots.models.default_presets, help_text='the presets (rule sets) it plays', validators=[outside_bots.models.outside_bot_presets])),
                        ('enabled', models.BooleanField(default=True, help_text='a disabled bot cannot be entered, and is not called: its seats in tournaments already entered play safe moves as faults')),
                        ('created_at', models.DateTimeField(auto_now_add=True)),
                        ('owner', models.ForeignKey(blank=True, help_text='its author, who may change it; none for a bot an administrator registered', null=True, on_delete=django.db.models.deletion.PROTECT, related_name='outside_bots', to=settings.AUTH_USER_MODEL)),
                    ],
                    options={
                        'db_table': 'gameplay_outsidebot',
                        'ordering': ['name'],
                    },
                ),
            ],
            database_operations=[],
        ),
        migrations.RunPython(relabel_content_type("gameplay", "outside_bots"),
                             relabel_content_type("outside_bots", "gameplay")),
    ]
