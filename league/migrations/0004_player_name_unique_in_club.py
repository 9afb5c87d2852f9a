"""Player names are unique within a club, not across the site (docs/league.md "Player names").

The column loses its site-wide unique index. Existing names were unique site-wide as written but
not regardless of case ("Tom" and "tom"), which the services now refuse within a club: such a
clash inside a club is resolved by renaming the later player "tom (2)", a name free in each of
their clubs, so every club's names are valid under the new rule.
"""

from django.db import migrations, models


def names_unique_in_each_club(apps, schema_editor):
    Player = apps.get_model("league", "Player")
    Membership = Player.clubs.through
    names = {}  # club id -> folded names taken
    for club_id, name in Membership.objects.values_list("club_id", "player__name"):
        names.setdefault(club_id, []).append(name.casefold())
    for player in Player.objects.order_by("-pk").prefetch_related("clubs"):  # later one renamed
        club_ids = [c.pk for c in player.clubs.all()]
        folded = player.name.casefold()
        if all(names[c].count(folded) < 2 for c in club_ids):
            continue
        n = 2
        while any(f"{folded} ({n})" in names[c] for c in club_ids):
            n += 1
        new_name = f"{player.name} ({n})"
        for c in club_ids:
            names[c].remove(folded)
            names[c].append(new_name.casefold())
        player.name = new_name
        player.save(update_fields=["name"])


class Migration(migrations.Migration):

    dependencies = [
        ("league", "0003_season_results_version"),
    ]

    operations = [
        migrations.AlterField(
            model_name="player",
            name="name",
            field=models.CharField(db_index=True, max_length=100),
        ),
        migrations.RunPython(names_unique_in_each_club, migrations.RunPython.noop),
    ]
