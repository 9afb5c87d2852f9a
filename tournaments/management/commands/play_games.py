"""Bots play games against each other: ``manage.py play_games --preset classic --bots
heuristic,random,random,random --games 100 --seed 1``.

Prints per bot (lineup position): games, wins, mean finishing position, role counts, mean
decision time and faults, with 95% intervals; ``--json`` for machines; ``--transcripts DIR``
saves every game as a president-transcript/1 file.
"""

import json
import shlex
from pathlib import Path

from django.core.management.base import BaseCommand, CommandError
from tqdm import tqdm

from gameplay.bots import make_bot
from gameplay.engine.errors import OptionsError
from gameplay.engine.options import PRESETS, preset
from gameplay.engine.scoring import Scoring
from gameplay.runner.figures import summary_text
from gameplay.runner.match import Tally, run, schedule


class Command(BaseCommand):
    help = __doc__.splitlines()[0]

    def add_arguments(self, parser):
        parser.add_argument("--preset", required=True, choices=sorted(PRESETS))
        parser.add_argument("--bots", required=True,
                            help="one bot per seat, comma separated: random, greedy, heuristic, "
                                 "spender, hoarder, montecarlo[:budget_ms=50|playouts=N], an "
                                 "allowed http(s) URL, or a --program name")
        parser.add_argument("--games", type=int, default=100)
        parser.add_argument("--seed", type=int, default=0)
        parser.add_argument("--scoring", default='{"system": "penalty"}',
                            help='a transcript scoring object, or "none" for one-deal games')
        parser.add_argument("--duplicate", action="store_true",
                            help="replay each deal with the seats rotated (blocks of players)")
        parser.add_argument("--workers", type=int, default=1)
        parser.add_argument("--json", action="store_true", help="print JSON only")
        parser.add_argument("--transcripts", type=Path, help="save every game in this folder")
        parser.add_argument("--program", action="append", default=[], metavar="NAME=COMMAND",
                            help="a local program bot speaking JSON lines (trusted use only)")

    def handle(self, *args, **opts):
        lineup = [b.strip() for b in opts["bots"].split(",") if b.strip()]
        programs = {}
        for item in opts["program"]:
            name, _, command = item.partition("=")
            if not name or not command:
                raise CommandError(f"--program takes NAME=COMMAND, not {item!r}")
            programs[name] = shlex.split(command)
        try:
            preset(opts["preset"]).validate(len(lineup))
            scoring = None
            if opts["scoring"].lower() != "none":
                scoring = Scoring.from_dict(json.loads(opts["scoring"])).to_dict()
            for spec in set(lineup):  # a bad spec fails here, before any game
                make_bot(spec, programs=programs).close()
        except (OptionsError, ValueError) as error:
            raise CommandError(str(error)) from None
        if opts["games"] < 1:
            raise CommandError("--games must be at least 1")
        if opts["transcripts"]:
            opts["transcripts"].mkdir(parents=True, exist_ok=True)
        specs = schedule(lineup, opts["preset"], games=opts["games"], seed=opts["seed"],
                         scoring=scoring, duplicate=opts["duplicate"], programs=programs)
        tally = Tally(lineup)
        bar = tqdm(total=len(specs), unit="game", disable=opts["json"] or None,
                   file=self.stderr._out)
        for spec, result in run(specs, workers=opts["workers"]):
            tally.add(spec, result)
            if opts["transcripts"]:
                path = opts["transcripts"] / f"game-{spec.index:05d}.json"
                path.write_text(json.dumps(result.transcript, indent=1))
            bar.update()
        bar.close()
        summary = tally.summary()
        if opts["json"]:
            self.stdout.write(json.dumps({"preset": opts["preset"], "games": opts["games"],
                                          "seed": opts["seed"], "duplicate": opts["duplicate"],
                                          "scoring": scoring, "bots": summary}, indent=1))
            return
        self.stdout.write(f"{opts['games']} games of {opts['preset']}, seed {opts['seed']}"
                          f"{', duplicate' if opts['duplicate'] else ''}")
        for player, s in enumerate(summary):
            self.stdout.write(summary_text(player, s))
