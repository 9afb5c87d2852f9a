"""Create and start a bot tournament, then wait for it with a progress bar:
``manage.py run_tournament --club Bots --name "Spring cup" --entrant Alice=heuristic
--entrant Bob=random --entrant Carol=greedy --entrant Dan=montecarlo:budget_ms=20 --seats 3``.

With a broker configured (CELERY_BROKER_URL) the games are played by Celery workers and the
bar follows the database; without one they are played in this process. ``--resume NAME``
goes on with a cancelled tournament of the club instead of creating one.
"""

import json
import time

from django.core.management.base import BaseCommand, CommandError
from django.utils import timezone
from tqdm import tqdm

from config.celery_app import app
from gameplay.engine.options import PRESETS
from league import services as league
from league.errors import LeagueError
from league.models import Club
from tournaments import selectors, services
from tournaments.models import Tournament

POLL_SECONDS = 0.5


def _value(text: str):
    try:
        return json.loads(text)
    except json.JSONDecodeError:
        return text


class Command(BaseCommand):
    help = __doc__.splitlines()[0]

    def add_arguments(self, parser):
        parser.add_argument("--club", required=True, help="the bot club (created if missing)")
        parser.add_argument("--name", required=True, help="the tournament's name")
        parser.add_argument("--resume", action="store_true",
                            help="resume the club's tournament of this name")
        parser.add_argument("--entrant", action="append", default=[], metavar="NAME=BOT",
                            help="a bot player and its spec (repeat), e.g. Bob=heuristic")
        parser.add_argument("--preset", default="classic", choices=sorted(PRESETS))
        parser.add_argument("--option", action="append", default=[], metavar="NAME=VALUE")
        parser.add_argument("--scoring", default='{"system": "fixed-rounds", "deals": 1}',
                            help="a transcript scoring object; one deal per game by default")
        parser.add_argument("--format", default=Tournament.ROUND_ROBIN,
                            choices=[Tournament.ROUND_ROBIN, Tournament.RATING])
        parser.add_argument("--seats", type=int, default=4, help="players per table")
        parser.add_argument("--games-per-table", type=int, default=4)
        parser.add_argument("--rounds", type=int, default=1, help="rating-paired rounds")
        parser.add_argument("--duplicate", action="store_true")
        parser.add_argument("--seed", type=int, default=0)
        parser.add_argument("--batch-size", type=int, default=10, help="games per task")
        parser.add_argument("--start-in", type=float, default=0, metavar="SECONDS",
                            help="start later (the batches are sent with an ETA)")
        parser.add_argument("--no-wait", action="store_true", help="start and return")

    def handle(self, *args, **opts):
        try:
            tournament = self._resume(opts) if opts["resume"] else self._create(opts)
        except LeagueError as e:  # TournamentError included: a user's mistake, shown as is
            raise CommandError(e.message) from None
        if opts["no_wait"]:
            self.stdout.write(f"started {tournament} ({tournament.total_games} games)")
            return
        self._wait(tournament)

    def _create(self, opts):
        entrants = []
        for item in opts["entrant"]:
            name, sep, spec = item.partition("=")
            if not sep or not name.strip() or not spec.strip():
                raise CommandError(f"--entrant takes NAME=BOT, not {item!r}")
            entrants.append((name, spec))
        options = {}
        for item in opts["option"]:
            name, sep, value = item.partition("=")
            if not sep:
                raise CommandError(f"--option takes NAME=VALUE, not {item!r}")
            options[name.strip()] = _value(value)
        scoring = _value(opts["scoring"])
        if not isinstance(scoring, dict):
            raise CommandError(f"--scoring must be a JSON object, not {opts['scoring']!r}")
        club = Club.objects.filter(name__iexact=opts["club"]).first() or \
            league.club_create(name=opts["club"])
        starts_at = timezone.now() + timezone.timedelta(seconds=opts["start_in"]) \
            if opts["start_in"] > 0 else None
        tournament = services.tournament_create(
            club=club, name=opts["name"], entrants=entrants, preset=opts["preset"],
            options=options, scoring=scoring, format=opts["format"], seats=opts["seats"],
            games_per_table=opts["games_per_table"], rounds=opts["rounds"],
            duplicate=opts["duplicate"], seed=opts["seed"], batch_size=opts["batch_size"],
            starts_at=starts_at)
        self._listen(tournament)
        return services.tournament_start(tournament=tournament)

    def _resume(self, opts):
        tournament = Tournament.objects.filter(club__name__iexact=opts["club"],
                                               name__iexact=opts["name"]).first()
        if tournament is None:
            raise CommandError(f"no tournament {opts['name']!r} in club {opts['club']!r}")
        self._listen(tournament)
        return services.tournament_resume(tournament=tournament)

    def _listen(self, tournament):
        """Without a broker the games are played inside the start call: draw the bar as
        each one is stored."""
        self.bar = tqdm(total=tournament.total_games, unit="game", file=self.stdout._out,
                        dynamic_ncols=True, desc=tournament.name)
        if app.conf.task_always_eager:
            def on_stored(sender, tournament_id, **kwargs):
                if tournament_id == tournament.pk:
                    self.bar.update(1)

            self._receiver = on_stored  # keep the weak reference alive
            services.game_stored.connect(on_stored)

    def _wait(self, tournament):
        bar = self.bar
        while True:
            progress = selectors.tournament_progress(tournament=tournament)
            bar.n = progress.done
            bar.refresh()
            if progress.status in (Tournament.FINISHED, Tournament.CANCELLED):
                break
            time.sleep(POLL_SECONDS)
        bar.close()
        rate = f"{progress.games_per_second:.1f} games/s" if progress.games_per_second else ""
        self.stdout.write(f"{tournament}: {progress.status}, {progress.done}/{progress.total} "
                          f"games {rate}")
        for i, row in enumerate(selectors.tournament_standings(tournament=tournament), 1):
            self.stdout.write(f"{i:>3}. {row['name']:<20} wins {row['wins']:>4}  "
                              f"points {row['points']:>5}  mean position "
                              f"{row['mean_position']:.2f}")
