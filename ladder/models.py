"""The ladder (issue #20): bots playing continuously per preset, rated by OpenSkill per deal.

An **entry** is one bot on one preset's ladder: a built-in reference bot (``random``,
``greedy``, ``heuristic``, ``montecarlo``) or an author's outside bot. It carries its rating
and every aggregate the ladder table shows, updated in the transaction that stores each game
(``ladder.services``), so the table is read from the entries alone. Games are rated ladder
games, validation games (a new or changed outside bot against built-ins) and challenge games an
author starts (both unrated). Changes go through ``ladder.services``, reads through
``ladder.selectors``.
"""

from django.conf import settings
from django.db import models

from bot_games.models import BotGame, BotSeat
from gameplay.runner.figures import ordinal
from league.models import PRESET_CHOICES
from league.ratings import MODEL
from outside_bots.models import OutsideBot


class Entry(models.Model):
    VALIDATING, ACTIVE, PAUSED, RETIRED = "validating", "active", "paused", "retired"
    STATUS_CHOICES = [(VALIDATING, "validating"), (ACTIVE, "active"), (PAUSED, "paused"),
                      (RETIRED, "retired")]

    preset = models.CharField(max_length=20, choices=PRESET_CHOICES)
    name = models.CharField(max_length=50, help_text="the built-in bot, or the outside bot's "
                                                     "name when it joined")
    reference = models.BooleanField(default=False, help_text="a built-in reference bot")
    spec = models.CharField(max_length=300, blank=True,
                            help_text="a reference's bot spec (make_bot); empty for outside bots")
    outside_bot = models.ForeignKey(OutsideBot, on_delete=models.SET_NULL, null=True,
                                    blank=True, related_name="ladder_entries")
    author = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True,
                               blank=True, related_name="ladder_entries",
                               help_text="the outside bot's owner, kept when the bot is "
                                         "removed: its name and record stay theirs")
    url = models.URLField(max_length=300, blank=True,
                          help_text="the outside bot's URL its latest validation was for")
    status = models.CharField(max_length=10, choices=STATUS_CHOICES, default=VALIDATING)
    reason = models.CharField(max_length=500, blank=True,
                              help_text="why it is paused or retired, for its author")
    validation_game = models.ForeignKey("Game", on_delete=models.SET_NULL, null=True,
                                        blank=True, related_name="+",
                                        help_text="its latest validation game")
    # The rating, OpenSkill (Plackett-Luce) over every rated deal's finishing order.
    mu = models.FloatField(default=MODEL.mu)
    sigma = models.FloatField(default=MODEL.sigma)
    ordinal = models.FloatField(default=ordinal(MODEL.mu, MODEL.sigma),
                                help_text="mu - 3 sigma: the table's order")
    rated_deals = models.PositiveIntegerField(
        default=0, help_text="its rated deals in every version: the rating's count, and the "
                             "rating chart's axis; 0: it never played a rated game")
    version = models.PositiveSmallIntegerField(
        default=1, help_text="its current version (Version): a new URL or its author's new "
                             "version starts the next")
    # Aggregates of its current version's rated games, updated as each game lands and started
    # afresh with each version (ladder.services.VERSION_FIGURES).
    games = models.PositiveIntegerField(default=0)
    deals = models.PositiveIntegerField(default=0)
    firsts = models.PositiveIntegerField(default=0, help_text="deals it went out first")
    lasts = models.PositiveIntegerField(default=0, help_text="deals it went out last")
    positions = models.PositiveBigIntegerField(default=0, help_text="sum of its finishing "
                                                                    "positions (1 = first)")
    # Par (issue #31, docs/par.md): its rated deals with par, and the sums of their points and
    # luck-adjusted points and of their squares (gameplay.runner.figures.par_figures).
    par_deals = models.PositiveIntegerField(default=0)
    par_points = models.FloatField(default=0.0)
    par_points_squares = models.FloatField(default=0.0)
    adjusted = models.FloatField(default=0.0, help_text="sum of its luck-adjusted points")
    adjusted_squares = models.FloatField(default=0.0)
    faults = models.PositiveIntegerField(default=0)
    fault_kinds = models.JSONField(default=dict, blank=True, help_text="faults by kind")
    faulted_games = models.PositiveIntegerField(default=0, help_text="games with a fault")
    # Probation (ladder.services): its rated games' decisions since its last passed
    # validation, and how many of those faulted; pausing reads them.
    probation_decisions = models.PositiveIntegerField(
        default=0, help_text="decisions of its rated games since its last passed validation, "
                             "those the service itself was late for left out")
    probation_faults = models.PositiveIntegerField(
        default=0, help_text="of those, decisions with a fault or played for it with a safe "
                             "move once its time bank ran out")
    pauses = models.PositiveSmallIntegerField(
        default=0, help_text="times paused for its faults: each doubles the wait to resume")
    resume_after = models.DateTimeField(null=True, blank=True,
                                        help_text="a paused bot may ask to resume from then")
    decisions = models.PositiveBigIntegerField(default=0)
    decision_times = models.JSONField(default=list, blank=True,
                                      help_text="histogram of decision times (ladder.timing)")
    decision_median_ms = models.FloatField(null=True, blank=True)
    decision_p95_ms = models.FloatField(null=True, blank=True)
    last_played_at = models.DateTimeField(null=True, blank=True, help_text="its latest rated "
                                                                           "game landed")
    # Matchmaking: rated games it started, counted with a half-life (LADDER_FAIR_HALF_LIFE).
    started = models.FloatField(default=0.0)
    started_at = models.DateTimeField(null=True, blank=True,
                                      help_text="when it last started a rated game")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        verbose_name_plural = "entries"
        ordering = ["preset", "-ordinal", "id"]
        constraints = [
            models.UniqueConstraint(fields=["preset", "outside_bot"],
                                    condition=models.Q(outside_bot__isnull=False),
                                    name="ladder_entry_bot_once_per_preset"),
            models.UniqueConstraint(fields=["preset", "name"],
                                    condition=models.Q(reference=True),
                                    name="ladder_reference_once_per_preset"),
        ]
        indexes = [models.Index(fields=["preset", "-ordinal", "id"], name="ladder_table")]

    def __str__(self):
        return f"{self.name} ({self.preset})"


class Version(models.Model):
    """A new version of an entry's bot, started by a new URL or by its author (version 1 is
    the entry as it joined, with no row). Its rating goes on from the last version's mu, with
    sigma reset (unsure again); its figures start afresh. Seats and rating points carry the
    number of the version that played."""

    entry = models.ForeignKey(Entry, on_delete=models.CASCADE, related_name="versions")
    number = models.PositiveSmallIntegerField()
    url = models.URLField(max_length=300, blank=True, help_text="the outside bot's URL then")
    started_at = models.DateTimeField()
    reason = models.CharField(max_length=200, help_text="why it started, in words")

    class Meta:
        ordering = ["entry", "number"]
        constraints = [models.UniqueConstraint(fields=["entry", "number"],
                                               name="ladder_version_once")]

    def __str__(self):
        return f"{self.entry} version {self.number}"


class Game(models.Model):
    """A ladder game: scheduled, sent to a worker, then stored once with its transcript."""

    RATED, VALIDATION, CHALLENGE = "rated", "validation", "challenge"
    KIND_CHOICES = [(RATED, "rated"), (VALIDATION, "validation"), (CHALLENGE, "challenge")]
    SCHEDULED, RUNNING, DONE, FAILED = "scheduled", "running", "done", "failed"
    STATUS_CHOICES = [(SCHEDULED, "scheduled"), (RUNNING, "running"), (DONE, "done"),
                      (FAILED, "failed")]

    kind = models.CharField(max_length=10, choices=KIND_CHOICES, default=RATED)
    preset = models.CharField(max_length=20, choices=PRESET_CHOICES)
    status = models.CharField(max_length=10, choices=STATUS_CHOICES, default=SCHEDULED)
    seed = models.BigIntegerField()
    deals = models.PositiveSmallIntegerField(help_text="deals the game plays")
    requested_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.SET_NULL,
                                     null=True, blank=True, related_name="ladder_challenges",
                                     help_text="the author who started a challenge game")
    reason = models.CharField(max_length=500, blank=True, help_text="why it failed")
    attempts = models.PositiveSmallIntegerField(default=0, help_text="workers that took it")
    created_at = models.DateTimeField(auto_now_add=True)
    sent_at = models.DateTimeField(null=True, blank=True,
                                   help_text="sent to the workers (or taken by one); empty: "
                                             "to send")
    stored_at = models.DateTimeField(null=True, blank=True, db_index=True)
    bot_game = models.OneToOneField(BotGame, on_delete=models.PROTECT, null=True, blank=True,
                                    related_name="ladder_game",
                                    help_text="the game as played, once stored: transcript, "
                                              "seats, faults")

    class Meta:
        ordering = ["-id"]
        indexes = [
            models.Index(fields=["status", "sent_at"], name="ladder_game_open",
                         condition=models.Q(status__in=["scheduled", "running"])),
            models.Index(fields=["requested_by", "created_at"], name="ladder_challenges_by",
                         condition=models.Q(kind="challenge")),
        ]

    def __str__(self):
        return f"{self.kind} game {self.pk} ({self.preset})"


class Seat(models.Model):
    """One entry at one seat of a ladder game. How it did there is its bot game's seat
    (``bot_seat``, once the game landed): the ladder keeps only what is its own."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="seats")
    entry = models.ForeignKey(Entry, on_delete=models.PROTECT, related_name="seats")
    seat = models.PositiveSmallIntegerField()
    # Not its bot game seat's ``bot`` (the entry's name there): what the game calls, fixed
    # when it is scheduled, before any bot game exists. The entry's URL and versions may
    # change before a worker takes the game, which then fails rather than call another URL.
    bot = models.CharField(max_length=300, help_text="the bot that played: a built-in spec or "
                                                     "the outside bot's URL at scheduling")
    bot_seat = models.OneToOneField(BotSeat, on_delete=models.PROTECT, null=True, blank=True,
                                    related_name="ladder_seat",
                                    help_text="its seat of the game as played, once stored: "
                                              "places, points, decisions and their time")
    version = models.PositiveSmallIntegerField(null=True, blank=True,
                                               help_text="the entry's version that played, "
                                                         "once stored")
    mu_after = models.FloatField(null=True, blank=True, help_text="rated games: after the game")
    sigma_after = models.FloatField(null=True, blank=True)

    class Meta:
        ordering = ["game", "seat"]
        constraints = [
            models.UniqueConstraint(fields=["game", "seat"], name="ladder_seat_once"),
            models.UniqueConstraint(fields=["game", "entry"], name="ladder_entry_once_a_game"),
        ]
        indexes = [models.Index(fields=["entry", "-game"], name="ladder_seat_entry_games")]

    def __str__(self):
        return f"{self.game} seat {self.seat}: {self.entry}"

    # How it did, read from its bot game's seat (select_related("bot_seat") for many seats);
    # an unplayed seat has no places, no points and no decisions.
    @property
    def positions(self) -> list[int]:
        """Its finishing position in each deal, 1 = first."""
        return self.bot_seat.positions if self.bot_seat else []

    @property
    def points(self) -> int | None:
        return self.bot_seat.points if self.bot_seat else None

    @property
    def decisions(self) -> int:
        return self.bot_seat.decisions if self.bot_seat else 0

    @property
    def decision_ms(self) -> float:
        """Its decisions' total time."""
        return self.bot_seat.decision_ms if self.bot_seat else 0.0


class RatingPoint(models.Model):
    """An entry's rating after one of its rated games: a point of its rating chart."""

    entry = models.ForeignKey(Entry, on_delete=models.CASCADE, related_name="history")
    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="+")
    at = models.DateTimeField()
    mu = models.FloatField()
    sigma = models.FloatField()
    ordinal = models.FloatField()
    deals = models.PositiveIntegerField(help_text="its rated deals so far, every version")
    version = models.PositiveSmallIntegerField(default=1, help_text="the entry's version "
                                                                    "that played the game")

    class Meta:
        ordering = ["entry", "id"]
        indexes = [models.Index(fields=["entry", "-id"], name="ladder_history_latest")]

    def __str__(self):
        return f"{self.entry} after game {self.game_id}: {self.ordinal:.2f}"
