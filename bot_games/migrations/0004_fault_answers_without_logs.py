"""Faults stored before the answer kept with a fault left out its "log" (the bot's note, its
author's alone): the logs' text is taken out of their answers as gameplay.bots.base.fault_answer
now keeps them. The pattern is copied here so that the migration stays as it was written."""

import re

from django.db import migrations

LOG_IN_ANSWER = re.compile(r'("log"\s*:\s*)"(?:[^"\\]|\\.)*"?')


def logs_out(apps, schema_editor):
    faults = apps.get_model("bot_games", "BotFault").objects.filter(answer__contains='"log"')
    for fault in faults.only("answer").iterator(chunk_size=2000):
        answer = LOG_IN_ANSWER.sub(r'\1"…"', fault.answer)
        if answer != fault.answer:
            fault.answer = answer
            fault.save(update_fields=["answer"])


class Migration(migrations.Migration):

    dependencies = [
        ("bot_games", "0003_hosted_stderr"),
    ]

    operations = [migrations.RunPython(logs_out, migrations.RunPython.noop)]
