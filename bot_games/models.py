"""A played bot game, its seats and its faults, written once by ``bot_games.services``."""

from django.db import models

from gameplay.bots.base import FAULT_ANSWER_MAX, FAULT_BODY_MAX, FAULT_KINDS, FAULT_TEXT_MAX
from league.models import PRESET_CHOICES


class BotGame(models.Model):
    """A game bots played on the match runner, stored whole: replayable from its transcript."""

    preset = models.CharField(max_length=20, choices=PRESET_CHOICES)
    options = models.JSONField(default=dict, blank=True, help_text="option overrides by name")
    scoring = models.JSONField(null=True, blank=True, help_text="the transcript scoring object; "
                                                                "empty: one deal")
    seed = models.BigIntegerField(help_text="the seed the game's deals were shuffled from")
    transcript = models.JSONField(help_text="the whole game, checker-valid")
    par = models.JSONField(null=True, blank=True, help_text="the game's par, when computed")
    played_at = models.DateTimeField(db_index=True)

    class Meta:
        ordering = ["-id"]

    def __str__(self):
        return f"bot game {self.pk} ({self.preset})"


class BotSeat(models.Model):
    """One seat of a bot game: the bot that played it and how it did."""

    game = models.ForeignKey(BotGame, on_delete=models.CASCADE, related_name="seats")
    seat = models.PositiveSmallIntegerField()
    bot = models.CharField(max_length=300, help_text="the bot's name or spec as the game's "
                                                     "owner named it")
    positions = models.JSONField(default=list, blank=True,
                                 help_text="its finishing position in each deal, 1 = first")
    points = models.IntegerField(null=True, blank=True, help_text="its total; empty without "
                                                                  "scoring")
    decisions = models.PositiveIntegerField(default=0)
    decision_ms = models.FloatField(default=0.0, help_text="its decisions' total time")
    decision_ms_max = models.FloatField(null=True, blank=True,
                                        help_text="its slowest decision, when timed one by one")
    timeline = models.JSONField(default=list, blank=True, help_text=(
        "each decision in order: {step: its replay step, ms, safe: a safe move played for it}"))
    logs = models.JSONField(default=list, blank=True, help_text=(
        "its bot's logs, {step, text}, for the bot's author only (bounded by outside.LOG_MAX "
        "a decision and LOG_GAME_MAX a game)"))
    stderr = models.TextField(blank=True, help_text=(
        "a hosted bot's stderr in this game (its start, bounded by the sandbox's stderr_kept) "
        "and why the sandbox stopped it, in words; for the bot's author only"))

    class Meta:
        ordering = ["game", "seat"]
        constraints = [models.UniqueConstraint(fields=["game", "seat"], name="bot_seat_once")]

    def __str__(self):
        return f"{self.game} seat {self.seat}: {self.bot}"


class BotFault(models.Model):
    """A bot's answer its game could not use; its seat played a safe choice instead
    (gameplay.bots.base.BotDecider): which decision, what went wrong, the start of the answer.
    The one record of a fault: a ladder entry's and a tournament entrant's are read through
    their seat."""

    KIND_CHOICES = [(k, k) for k in FAULT_KINDS]

    game = models.ForeignKey(BotGame, on_delete=models.CASCADE, related_name="faults")
    seat = models.PositiveSmallIntegerField()
    deal = models.PositiveIntegerField(help_text="the game's deal, from 0")
    number = models.PositiveIntegerField(help_text="the seat's decision in the game, from 1")
    decision = models.CharField(max_length=20, help_text="play, name_cards, give_back, ask or "
                                                         "lead_and_direction")
    kind = models.CharField(max_length=10, choices=KIND_CHOICES)
    message = models.CharField(max_length=FAULT_TEXT_MAX)
    answer = models.CharField(max_length=FAULT_ANSWER_MAX, blank=True,
                              help_text="the start of the bot's answer, when there was one")
    step = models.PositiveIntegerField(null=True, blank=True,
                                       help_text="the replay's step of its decision, from 1")
    body = models.TextField(max_length=FAULT_BODY_MAX, blank=True,
                            help_text="the start of an error answer's body (a traceback)")

    class Meta:
        ordering = ["game", "number", "seat"]
        indexes = [models.Index(fields=["game", "seat"], name="bot_fault_seat")]

    def __str__(self):
        return f"{self.game} seat {self.seat} decision {self.number}: {self.kind}"
