"""Bot tournaments (issue #6): who plays, how they are paired, and which games are stored.

Models stay thin; changes go through ``tournaments.services``, reads through
``tournaments.selectors``. Every tournament game also lands in the league (a Game of the
tournament's Season), so league standings and ratings cover bots.
"""

from django.db import models
from django.urls import reverse

from bot_games.models import BotGame
from league.models import PRESET_CHOICES, Club, Game, Player, Season


def default_scoring():
    # One deal per game unless the organiser asks for longer games.
    return {"system": "fixed-rounds", "deals": 1}


class Tournament(models.Model):
    ROUND_ROBIN, RATING = "round-robin", "rating"
    FORMAT_CHOICES = [(ROUND_ROBIN, "round robin"), (RATING, "rounds paired by rating")]
    SCHEDULED, RUNNING, CANCELLED, FINISHED = "scheduled", "running", "cancelled", "finished"
    STATUS_CHOICES = [(SCHEDULED, "scheduled"), (RUNNING, "running"),
                      (CANCELLED, "cancelled"), (FINISHED, "finished")]

    club = models.ForeignKey(Club, on_delete=models.PROTECT, related_name="tournaments")
    name = models.CharField(max_length=100)
    season = models.OneToOneField(Season, on_delete=models.PROTECT, related_name="tournament",
                                  help_text="the league season its games are recorded in")
    preset = models.CharField(max_length=20, choices=PRESET_CHOICES, default="classic")
    options = models.JSONField(default=dict, blank=True, help_text="option overrides by name")
    scoring = models.JSONField(default=default_scoring,
                               help_text='a game\'s scoring, e.g. {"system": "penalty", '
                                         '"limit": 4}; one deal by default')
    format = models.CharField(max_length=12, choices=FORMAT_CHOICES, default=ROUND_ROBIN)
    seats = models.PositiveSmallIntegerField(default=4, help_text="players per table")
    games_per_table = models.PositiveIntegerField(default=4)
    rounds = models.PositiveIntegerField(default=1, help_text="rating-paired rounds")
    duplicate = models.BooleanField(
        default=False, help_text="games in blocks of one per seat replay the same shuffles")
    seed = models.BigIntegerField(default=0)
    batch_size = models.PositiveIntegerField(default=10, help_text="games per task")
    starts_at = models.DateTimeField(null=True, blank=True)
    status = models.CharField(max_length=10, choices=STATUS_CHOICES, default=SCHEDULED)
    # The tables of each round scheduled so far, as lists of entrant ids by table number.
    tables = models.JSONField(default=list, blank=True, editable=False)
    total_games = models.PositiveIntegerField(default=0, editable=False)
    created_at = models.DateTimeField(auto_now_add=True)
    finished_at = models.DateTimeField(null=True, blank=True, editable=False)

    class Meta:
        ordering = ["-created_at"]
        constraints = [
            models.UniqueConstraint(fields=["club", "name"],
                                    name="tournament_name_unique_in_club"),
        ]

    def __str__(self):
        return self.name

    def get_absolute_url(self):
        return reverse("gameplay:tournament", args=[self.pk])


class Entrant(models.Model):
    """A bot player of the league entered in a tournament, with the bot that plays for it."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="entrants")
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="entries")
    bot = models.CharField(max_length=300, help_text='a bot spec: "heuristic", '
                                                     '"montecarlo:budget_ms=50", '
                                                     '"outside:NAME" (a registered OutsideBot)')

    class Meta:
        ordering = ["tournament", "id"]
        constraints = [
            models.UniqueConstraint(fields=["tournament", "player"],
                                    name="entrant_once_per_tournament"),
        ]

    def __str__(self):
        return f"{self.player} ({self.bot})"


class KeyedGame(models.Model):
    """A tournament game by its natural key (tournament, round, table, number): the key's
    parts after the tournament, and their order."""

    round = models.PositiveIntegerField()
    table = models.PositiveIntegerField()
    number = models.PositiveIntegerField()

    class Meta:
        abstract = True
        ordering = ["tournament", "round", "table", "number"]


class TournamentGame(KeyedGame):
    """A stored tournament game; its natural key makes storing it twice impossible."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="games")
    game = models.OneToOneField(Game, on_delete=models.PROTECT, related_name="tournament_game")
    bot_game = models.OneToOneField(BotGame, on_delete=models.PROTECT, null=True, blank=True,
                                    related_name="tournament_game",
                                    help_text="the game as played: transcript, seats, faults")
    stored_at = models.DateTimeField(auto_now_add=True, db_index=True)

    class Meta(KeyedGame.Meta):
        constraints = [
            models.UniqueConstraint(fields=["tournament", "round", "table", "number"],
                                    name="tournament_game_once"),
        ]

    def __str__(self):
        # stored from 0 (the seeds' and the pairing's), said from 1
        return (f"{self.tournament}, round {self.round + 1}, table {self.table + 1}, "
                f"game {self.number + 1}")


class TournamentBatch(models.Model):
    """Games a task plays together, recorded when they are scheduled so that what the broker
    never received, or a worker dropped, is sent again (``services.tournaments_reconcile``)."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="batches")
    keys = models.JSONField(help_text="the games' (round, table, number)")
    created_at = models.DateTimeField(auto_now_add=True)
    sent_at = models.DateTimeField(null=True, blank=True,
                                   help_text="when the broker took its task; empty: to send")
    beat_at = models.DateTimeField(null=True, blank=True,
                                   help_text="a worker's last sign of life playing it")
    done_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["id"]
        indexes = [models.Index(fields=["done_at", "sent_at"], name="batch_open")]

    def __str__(self):
        return f"{self.tournament} batch {self.pk}"


class UnplayedGame(KeyedGame):
    """A tournament game the site could not play or store (a bug in our own code, or a hosted
    entrant on a worker without the sandbox; never a bot's fault): the reason in words for
    the organiser; the tournament goes on without it."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE,
                                   related_name="unplayed")
    reason = models.CharField(max_length=500)
    at = models.DateTimeField(auto_now_add=True)

    class Meta(KeyedGame.Meta):
        constraints = [
            models.UniqueConstraint(fields=["tournament", "round", "table", "number"],
                                    name="tournament_unplayed_once"),
        ]

    def __str__(self):
        return f"{self.tournament} unplayed game {self.round}/{self.table}/{self.number}"
