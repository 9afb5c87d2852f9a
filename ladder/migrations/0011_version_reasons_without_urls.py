"""A new URL's version said where in its reason ("a new URL: http://…"), shown on the bot's
page and in the API to everyone: the reason keeps the words alone, the URL its own column."""

from django.db import migrations


def without_urls(apps, schema_editor):
    Version = apps.get_model("ladder", "Version")
    Version.objects.filter(reason__startswith="a new URL: ").update(reason="a new URL")


class Migration(migrations.Migration):
    dependencies = [("ladder", "0010_seat_figures_from_bot_seat")]
    operations = [migrations.RunPython(without_urls, migrations.RunPython.noop)]
