"""Demo data for a fresh install, so `make run` has someone to log in as and a league to see."""

import datetime

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError

from gameplay.engine.checker import check
from gameplay.engine.options import preset
from gameplay.engine.selfplay import play_random_game
from league import services
from league.models import Club
from league.rules import scoring_of

ORGANISER_USERNAME = "organiser"
ORGANISER_PASSWORD = "organiser"
CLUB_NAME = "Demo Club"
SEASON_NAME = "Demo season"
PLAYER_NAMES = ["Ada", "Ben", "Chloé", "Dev", "Elif", "Femi", "Gus", "Hana"]
# (seed, players by index into PLAYER_NAMES in seat order): random legal play decides each deal
GAMES = [(11, [0, 1, 2, 3]), (12, [4, 5, 6, 7]), (13, [0, 2, 4, 6, 7]), (14, [1, 3, 5, 7])]


class Command(BaseCommand):
    help = ("Ensure the demo organiser (a superuser with a known password) and a demo club with "
            "a season of finished games exist; DEBUG only. Running it again creates nothing.")

    def handle(self, *args, **options):
        # A superuser with a published password must never reach a deployed server.
        if not settings.DEBUG:
            raise CommandError(
                "demo_data creates a login with a known password; it runs only with DEBUG on."
            )
        organiser, _ = get_user_model().objects.get_or_create(username=ORGANISER_USERNAME)
        organiser.is_active = organiser.is_staff = organiser.is_superuser = True
        organiser.set_password(ORGANISER_PASSWORD)
        organiser.save()
        self.stdout.write(
            f"Demo organiser: log in at /accounts/login/ as {ORGANISER_USERNAME} / "
            f"{ORGANISER_PASSWORD}"
        )
        club = Club.objects.filter(name=CLUB_NAME).first()
        if club is None:
            club = self._create_league(organiser)
            self.stdout.write(f"Demo league: {CLUB_NAME}, {SEASON_NAME}, {len(GAMES)} games")
        self.stdout.write(f"Organise it at /league/clubs/{club.pk}/organise/")

    def _create_league(self, organiser):
        club = services.club_create(name=CLUB_NAME, organisers=[organiser], by=organiser)
        players = []
        for name in PLAYER_NAMES:  # the demo club is new: its names are its own
            players.append(services.player_create(name=name, clubs=[club], by=organiser))
        season = services.season_create(
            club=club, name=SEASON_NAME, preset="classic",
            scoring={"system": "penalty", "limit": 4},
            starts_on=datetime.date.today().replace(month=1, day=1), by=organiser)
        for seed, seats in GAMES:
            table = [players[i] for i in seats]
            game = services.game_create(season=season, players=table, by=organiser)
            transcript = play_random_game(preset(season.preset), len(table), seed=seed,
                                          scoring=scoring_of(season))
            _, verdict = check(transcript)
            for deal in verdict["deals"]:
                services.deal_record(
                    game=game, finishing_order=[table[s].pk for s in deal["finishing_order"]],
                    by=organiser)
        return club
