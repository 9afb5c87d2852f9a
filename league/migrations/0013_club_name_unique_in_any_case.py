"""A club's name becomes unique in any case in the database, as league.services checks it.

Clubs named alike before it (two opened at the same instant, each checked free; or named in
the admin before the check compared names in any case) would fail the new key. Of each such
set the first opened keeps its name; each other gets its id added, "ace club (club 7)", and an
audit entry saying why, so the organisers can see it and rename it. Nothing is merged or
deleted: the clubs' players, seasons and games stay as they were.
"""

from django.db import migrations, models
from django.db.models import Count
from django.db.models.functions import Lower

NAME_LONGEST = 100


def rename_clubs_named_alike(apps, schema_editor):
    Club = apps.get_model("league", "Club")
    AuditEntry = apps.get_model("league", "AuditEntry")
    # Compared by the database's own lower(), the key the constraint below is built on.
    alike = (Club.objects.annotate(key=Lower("name")).values("key").order_by()
             .annotate(n=Count("id")).filter(n__gt=1).values_list("key", flat=True))
    for key in list(alike):
        first, *others = Club.objects.annotate(key=Lower("name")).filter(key=key).order_by("pk")
        for club in others:
            before, club.name = club.name, _free_name(Club, club)
            club.save(update_fields=["name"])
            AuditEntry.objects.create(
                club=club, action="club renamed", target=club.name[:200],
                details={"name": [before, club.name],
                         "why": f"a club called {first.name!r} was there first"})


def _free_name(Club, club) -> str:
    for n in range(1, 1000):
        suffix = f" (club {club.pk})" if n == 1 else f" (club {club.pk}, {n})"
        name = club.name[:NAME_LONGEST - len(suffix)] + suffix
        if not Club.objects.annotate(key=Lower("name")).filter(key=Lower(models.Value(name))) \
                .exists():
            return name
    raise RuntimeError(f"no free name for club {club.pk}")


class Migration(migrations.Migration):

    dependencies = [
        ('league', '0012_rating_stale'),
    ]

    operations = [
        migrations.RunPython(rename_clubs_named_alike, migrations.RunPython.noop),
        migrations.AlterField(
            model_name='club',
            name='name',
            field=models.CharField(max_length=100),
        ),
        migrations.AddConstraint(
            model_name='club',
            constraint=models.UniqueConstraint(
                Lower('name'), name='league_club_name_any_case',
                violation_error_message='there is already a club of that name, in any case'),
        ),
    ]
