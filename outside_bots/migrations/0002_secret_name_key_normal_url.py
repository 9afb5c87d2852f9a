"""Each bot gets its own secret, a name key (NFKC, case folded) that is unique, and its URL in
normal form (gameplay.bots.policy.normal_url), one enabled bot a URL.

Existing rows (docs/outside-bots.md "Names and URLs"):
- a name whose key another bot's already has, or that is a built-in bot's name, is renamed with
  the first free suffix "-2", "-3", … (the older bot, by id, keeps its name);
- a URL that is refused (user info, control characters) is kept as is but the bot is disabled;
- a URL another enabled bot (older, by id) has after normalisation: the younger is disabled.
Tournament entrants name a bot as outside:NAME; a renamed bot's old entries then play safe
moves as faults, so the administrators are told (the migration prints each change).
"""

import secrets
import unicodedata

from django.db import migrations, models


BUILT_IN = ("random", "greedy", "heuristic", "spender", "hoarder", "montecarlo")


def _key(name):
    return unicodedata.normalize("NFKC", name).casefold()


def _free(base, taken):
    """``base`` with the first suffix -2, -3, … whose key is not taken (50 characters)."""
    n = 2
    while True:
        name = f"{base[:50 - len(str(n)) - 1]}-{n}"
        if _key(name) not in taken:
            return name
        n += 1


def forwards(apps, schema_editor):
    from gameplay.bots.policy import Refused, normal_url

    OutsideBot = apps.get_model("outside_bots", "OutsideBot")
    bots = list(OutsideBot.objects.using(schema_editor.connection.alias).order_by("pk"))
    keeps = {}  # the oldest bot of each name key keeps its name, unless it is a built-in's
    for bot in bots:
        keeps.setdefault(_key(bot.name), bot.pk)
    taken = set(keeps) | set(BUILT_IN)
    urls = set()
    for bot in bots:
        name = unicodedata.normalize("NFKC", bot.name)
        if _key(name) in BUILT_IN or keeps[_key(name)] != bot.pk:
            name = _free(name, taken)
            taken.add(_key(name))
            print(f"\n  outside bot {bot.pk}: renamed {bot.name!r} to {name!r}", end="")
        bot.name, bot.name_key, bot.secret = name, _key(name), secrets.token_urlsafe(32)
        try:
            bot.url = normal_url(bot.url)
        except Refused as e:
            bot.enabled = False
            print(f"\n  outside bot {bot.pk}: disabled, its URL is refused: {e}", end="")
        if bot.enabled and bot.url in urls:
            bot.enabled = False
            print(f"\n  outside bot {bot.pk}: disabled, {bot.url} is an older bot's", end="")
        if bot.enabled:
            urls.add(bot.url)
        bot.save(update_fields=["name", "name_key", "secret", "url", "enabled"])


class Migration(migrations.Migration):

    dependencies = [
        ("outside_bots", "0001_initial"),
    ]

    operations = [
        migrations.AddField(
            model_name="outsidebot", name="name_key",
            field=models.CharField(editable=False, max_length=50, null=True)),
        migrations.AddField(
            model_name="outsidebot", name="secret",
            field=models.CharField(default="", editable=False, max_length=64)),
        migrations.RunPython(forwards, migrations.RunPython.noop),
    ]
