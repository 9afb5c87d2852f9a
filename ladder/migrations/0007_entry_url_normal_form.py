"""Entries keep their bot's URL in the one normal form outside_bots 0002 gave the bots'
(gameplay.bots.policy.normal_url): the ladder starts a new version, and validates again, when
an entry's URL differs from its bot's, so an entry left in the old spelling would do both for a
URL that did not change."""

from django.db import migrations


def forwards(apps, schema_editor):
    from gameplay.bots.policy import Refused, normal_url

    Entry = apps.get_model("ladder", "Entry")
    for entry in Entry.objects.filter(reference=False).exclude(url="").only("url"):
        try:
            url = normal_url(entry.url)
        except Refused:
            continue  # its bot was disabled by outside_bots 0002; nothing to compare
        if url != entry.url:
            entry.url = url
            entry.save(update_fields=["url"])


class Migration(migrations.Migration):

    dependencies = [
        ("ladder", "0006_versions"),
        ("outside_bots", "0002_secret_name_key_normal_url"),
    ]

    operations = [migrations.RunPython(forwards, migrations.RunPython.noop)]
