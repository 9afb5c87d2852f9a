"""``manage.py ladder_tick [--repeat N]``: what celery beat runs every LADDER_TICK_SECONDS,
run now. With no broker configured the games it starts are played in this process, so a
development machine runs the ladder without Redis or a worker."""

import json

from django.core.management.base import BaseCommand

from ladder import services


class Command(BaseCommand):
    help = "Run the ladder's tick: bots onto the ladder, lost games sent again, new games."

    def add_arguments(self, parser):
        parser.add_argument("--repeat", type=int, default=1, help="ticks to run, one after "
                                                                  "another")

    def handle(self, *args, repeat, **options):
        for _ in range(max(1, repeat)):
            self.stdout.write(json.dumps(services.ladder_tick()))
