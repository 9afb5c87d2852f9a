"""The league's tables: clubs, players, seasons, games, deals and ratings.

Models stay thin; what changes them lives in ``league.services``, reads in ``league.selectors``.
"""

from django.conf import settings
from django.db import models
from django.db.models import F, Q
from django.db.models.functions import Lower

from gameplay.engine.options import PRESETS
from gameplay.engine.roles import Role, role_name

PRESET_CHOICES = [(name, name) for name in PRESETS]
# Labels in the school-scum words; pages name the bottom two roles as the season's preset does
# (gameplay.engine.roles.role_name).
ROLE_CHOICES = [(role.value, role_name(role)) for role in Role]


class Club(models.Model):
    name = models.CharField(max_length=100)
    organisers = models.ManyToManyField(
        settings.AUTH_USER_MODEL, related_name="organised_clubs", blank=True
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["name"]
        constraints = [
            # Unique in any case, as league.services checks it: of two clubs named alike at
            # the same instant (both checked free), the database refuses the second.
            models.UniqueConstraint(Lower("name"), name="league_club_name_any_case",
                                    violation_error_message="there is already a club of "
                                                            "that name, in any case"),
        ]

    def __str__(self):
        return self.name


class Player(models.Model):
    """A person or a bot; the same player may play in several clubs. Names are unique within
    each club (case-insensitive), not across the site: league.services checks them."""

    PERSON, BOT = "person", "bot"
    KIND_CHOICES = [(PERSON, "person"), (BOT, "bot")]

    name = models.CharField(max_length=100, db_index=True)
    kind = models.CharField(max_length=6, choices=KIND_CHOICES, default=PERSON)
    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL,
        related_name="player",
    )
    clubs = models.ManyToManyField(Club, related_name="players", blank=True)

    class Meta:
        ordering = ["name"]

    def __str__(self):
        return self.name


def default_scoring():
    return {"system": "penalty"}


class Season(models.Model):
    """A club's season: the rules preset and options, the scoring system, the dates."""

    club = models.ForeignKey(Club, on_delete=models.PROTECT, related_name="seasons")
    name = models.CharField(max_length=100)
    preset = models.CharField(max_length=20, choices=PRESET_CHOICES, default="classic")
    options = models.JSONField(default=dict, blank=True, help_text="option overrides by name")
    # The same object as a Tournament's scoring and a transcript's (gameplay.engine.scoring).
    scoring = models.JSONField(default=default_scoring,
                               help_text='a game\'s scoring, e.g. {"system": "penalty", '
                                         '"limit": 4}')
    starts_on = models.DateField()
    ends_on = models.DateField(null=True, blank=True)
    # Bumped in the same transaction as any change to the season's results: the key of the
    # standings cache, so every process sees a change at once (league.selectors).
    results_version = models.PositiveIntegerField(default=0, editable=False)

    class Meta:
        ordering = ["club__name", "-starts_on"]
        constraints = [
            models.UniqueConstraint(fields=["club", "name"], name="season_name_unique_in_club"),
            models.CheckConstraint(
                condition=Q(ends_on__isnull=True) | Q(ends_on__gte=F("starts_on")),
                name="season_ends_after_it_starts",
            ),
        ]

    def __str__(self):
        return f"{self.club} – {self.name}"

    def save(self, *args, **kwargs):
        # Only league.services moves results_version on (with an UPDATE); a save of a stale
        # instance must never move it back to a key the cache already holds.
        if self.pk is not None and not self._state.adding and kwargs.get("update_fields") is None:
            kwargs["update_fields"] = [f.attname for f in self._meta.concrete_fields
                                       if not f.primary_key and f.name != "results_version"]
        super().save(*args, **kwargs)


class Game(models.Model):
    """A table in a season. Scores and end are recomputed from the deals by the services."""

    OPEN, FINISHED, CANCELLED = "open", "finished", "cancelled"
    STATUS_CHOICES = [(OPEN, "open"), (FINISHED, "finished"), (CANCELLED, "cancelled")]

    season = models.ForeignKey(Season, on_delete=models.PROTECT, related_name="games")
    number = models.PositiveIntegerField()
    dealer = models.PositiveSmallIntegerField(help_text="seat number of the first deal's dealer")
    status = models.CharField(max_length=10, choices=STATUS_CHOICES, default=OPEN)
    # When an organiser called time on the game (league.services.game_time_called): it then
    # ends with its scoring system's rule for an unfinished game.
    time_called_at = models.DateTimeField(null=True, blank=True)
    # When an organiser reopened the finished game (league.services.game_reopen) so that its
    # deals can be undone or corrected; cleared when the game ends again.
    reopened_at = models.DateTimeField(null=True, blank=True)
    # When an organiser cancelled the game before any deal (league.services.game_cancel): it
    # is then left out of every page, the standings and the seating history.
    cancelled_at = models.DateTimeField(null=True, blank=True)
    # The game this one continues at the same table ("New game, same table"): it belongs to
    # that game's round of the club night (league.nights).
    continues = models.ForeignKey("self", null=True, blank=True, on_delete=models.SET_NULL,
                                  related_name="continued_by")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["season", "number"]
        constraints = [
            models.UniqueConstraint(fields=["season", "number"], name="game_number_unique"),
        ]

    def __str__(self):
        return f"{self.season} – game {self.number}"


class Seat(models.Model):
    """A player at a game's table, from the deal they joined before until the one they left
    before; also the player's totals in this game, kept by the services for standings."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="seats")
    number = models.PositiveSmallIntegerField()
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="seats")
    joined_before = models.PositiveIntegerField(default=1, help_text="first deal number played")
    left_before = models.PositiveIntegerField(null=True, blank=True,
                                              help_text="first deal number not played")
    # Totals from this game's deals, recomputed with every change to them.
    points = models.IntegerField(default=0)
    deals = models.PositiveIntegerField(default=0)
    position_sum = models.PositiveIntegerField(default=0)
    presidents = models.PositiveIntegerField(default=0)
    vice_presidents = models.PositiveIntegerField(default=0)
    citizens = models.PositiveIntegerField(default=0)
    vice_scums = models.PositiveIntegerField(default=0)
    scums = models.PositiveIntegerField(default=0)
    is_winner = models.BooleanField(default=False)

    class Meta:
        ordering = ["game", "number"]
        constraints = [
            models.UniqueConstraint(fields=["game", "number"], name="seat_number_unique_in_game"),
            models.UniqueConstraint(fields=["game", "player"], name="seat_player_once_in_game"),
            models.CheckConstraint(
                condition=Q(left_before__isnull=True) | Q(left_before__gt=F("joined_before")),
                name="seat_left_after_joined",
            ),
        ]

    def __str__(self):
        return f"seat {self.number}: {self.player}"

    def plays_in(self, deal_number):
        return self.joined_before <= deal_number and (
            self.left_before is None or deal_number < self.left_before
        )


class Deal(models.Model):
    """One recorded deal; its finishing order is its places, one row per seat."""

    PAGE, OUTBOX, API, TABLE_LINK, OTHER = "page", "outbox", "api", "link", "other"
    SOURCE_CHOICES = [(PAGE, "the entry page"), (OUTBOX, "a phone's offline outbox"),
                      (API, "the API"), (TABLE_LINK, "a table link"), (OTHER, "elsewhere")]

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="deal_set")
    number = models.PositiveIntegerField()
    dealer = models.PositiveSmallIntegerField(help_text="seat number")
    transcript = models.JSONField(null=True, blank=True,
                                  help_text="the deal's transcript, checked by the engine")
    recorded_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True,
                                    on_delete=models.SET_NULL, related_name="+")
    recorded_at = models.DateTimeField(auto_now_add=True)
    # Where the deal was entered from, said when the same deal is entered again.
    source = models.CharField(max_length=8, choices=SOURCE_CHOICES, default=OTHER)
    # The table link it was entered with (source TABLE_LINK): only that link may undo it.
    table_link = models.ForeignKey("TableLink", null=True, blank=True, on_delete=models.SET_NULL,
                                   related_name="deals")

    class Meta:
        ordering = ["game", "number"]
        constraints = [
            models.UniqueConstraint(fields=["game", "number"], name="deal_number_unique_in_game"),
        ]

    def __str__(self):
        return f"{self.game} – deal {self.number}"


class TableLink(models.Model):
    """A game's table link (league.table_links): with it, any phone enters that game's deals,
    seat changes and undoes its own last deal, without an account, until time is called on the
    game or an organiser revokes it. The token is shown to organisers again (its QR code on the
    night page), so it is kept as it is, under a unique index."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="table_links")
    token = models.CharField(max_length=64, unique=True, editable=False)
    created_at = models.DateTimeField(auto_now_add=True)
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True,
                                   on_delete=models.SET_NULL, related_name="+")
    revoked_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["game", "pk"]

    def __str__(self):
        return f"table link of {self.game}"


class Place(models.Model):
    """One seat's place in a deal's finishing order (position 1 is first out)."""

    deal = models.ForeignKey(Deal, on_delete=models.CASCADE, related_name="places")
    seat = models.PositiveSmallIntegerField()
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="places")
    position = models.PositiveSmallIntegerField()
    role = models.CharField(max_length=16, choices=ROLE_CHOICES)

    class Meta:
        ordering = ["deal", "position"]
        constraints = [
            models.UniqueConstraint(fields=["deal", "position"], name="place_position_unique"),
            models.UniqueConstraint(fields=["deal", "seat"], name="place_seat_unique"),
            models.UniqueConstraint(fields=["deal", "player"], name="place_player_unique"),
            models.CheckConstraint(condition=Q(position__gte=1), name="place_position_positive"),
        ]

    def __str__(self):
        return f"{self.position}. {self.player} ({self.role})"


class SeatChange(models.Model):
    """A player entering or leaving a game between deals."""

    JOIN, LEAVE = "join", "leave"
    KIND_CHOICES = [(JOIN, "joins"), (LEAVE, "leaves")]

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="seat_changes")
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="+")
    kind = models.CharField(max_length=5, choices=KIND_CHOICES)
    before_deal = models.PositiveIntegerField()
    by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True,
                           on_delete=models.SET_NULL, related_name="+")
    at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["game", "before_deal", "at"]
        constraints = [
            models.UniqueConstraint(fields=["game", "player", "kind"],
                                    name="seat_change_once_per_kind"),
        ]

    def __str__(self):
        return f"{self.player} {self.get_kind_display()} before deal {self.before_deal}"


class RatingJob(models.Model):
    """A rating scope (a season, or all-time when season is null): its row is the lock its
    recompute holds (league.rating_jobs), ``dirty_from`` a recompute asked for from a deal id on
    (0: from scratch). The deals written since its last recompute are its RatingStale rows."""

    scope = models.CharField(max_length=30, unique=True)
    season = models.OneToOneField(Season, null=True, blank=True, on_delete=models.CASCADE,
                                  related_name="rating_job")
    dirty_from = models.BigIntegerField(null=True, blank=True)
    runs = models.PositiveIntegerField(default=0, help_text="recomputations done")

    def __str__(self):
        return f"ratings {self.scope}" + (" (updating)" if self.dirty_from is not None else "")

    @staticmethod
    def stale_scopes(*scopes: str) -> set[str]:
        """Of ``scopes`` (every scope when none is given), those whose ratings are stale: a
        recompute was asked for, or a deal was written since the last one."""
        jobs = RatingJob.objects.filter(dirty_from__isnull=False)
        marks = RatingStale.objects.all()
        if scopes:
            jobs, marks = jobs.filter(scope__in=scopes), marks.filter(scope__in=scopes)
        return (set(jobs.values_list("scope", flat=True))
                | set(marks.values_list("scope", flat=True).distinct()))


class RatingStale(models.Model):
    """A rating scope stale from a deal on: each writer of deals inserts one per scope, and the
    recompute that reads it deletes it (league.rating_jobs). Only ever inserted and deleted,
    never updated, so writers of deals wait neither for each other nor for a recompute."""

    scope = models.CharField(max_length=30, db_index=True)
    season = models.ForeignKey(Season, null=True, blank=True, on_delete=models.CASCADE,
                               related_name="+")
    from_deal = models.BigIntegerField(help_text="a deal's id, perhaps of a deleted deal")

    def __str__(self):
        return f"ratings {self.scope} stale from deal {self.from_deal}"


class Rating(models.Model):
    """A player's current rating in a season, or all-time when season is null."""

    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="ratings")
    season = models.ForeignKey(Season, null=True, blank=True, on_delete=models.CASCADE,
                               related_name="ratings")
    mu = models.FloatField()
    sigma = models.FloatField()
    ordinal = models.FloatField()
    deals = models.PositiveIntegerField()

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["player", "season"], name="rating_unique"),
            models.UniqueConstraint(fields=["player"], condition=Q(season__isnull=True),
                                    name="rating_all_time_unique"),
        ]

    def __str__(self):
        return f"{self.player}: {self.ordinal:.2f}"


class RatingHistory(models.Model):
    """A player's rating right after a deal, per season and all-time, for charts.

    Deleting a deal leaves its rows, naming a deal no longer there, until the recompute its
    deletion sends removes them: they name the players whose ratings no longer count it
    (league.rating_jobs). No foreign key in the database: a recompute writing these rows while
    a deal is deleted would otherwise lock that deal, or fail the deletion (docs/league.md,
    "Ratings"). Rows of an older deletion hold no deal (null)."""

    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="+")
    season = models.ForeignKey(Season, null=True, blank=True, on_delete=models.CASCADE,
                               related_name="+")
    deal = models.ForeignKey(Deal, null=True, on_delete=models.DO_NOTHING, db_constraint=False,
                             related_name="+")
    mu = models.FloatField()
    sigma = models.FloatField()
    ordinal = models.FloatField()

    class Meta:
        ordering = ["deal_id"]
        indexes = [models.Index(fields=["season", "player", "deal"], name="rating_history_lookup")]
        constraints = [
            models.UniqueConstraint(fields=["player", "season", "deal"],
                                    name="rating_history_unique"),
            models.UniqueConstraint(fields=["player", "deal"], condition=Q(season__isnull=True),
                                    name="rating_history_all_time_unique"),
        ]

    def __str__(self):
        return f"{self.player_id} after deal {self.deal_id}: {self.ordinal:.2f}"


class AuditEntry(models.Model):
    """Who changed what: written by each organiser service in the same transaction."""

    at = models.DateTimeField(auto_now_add=True, db_index=True)
    actor = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True,
                              on_delete=models.SET_NULL, related_name="+")
    club = models.ForeignKey(Club, null=True, blank=True, on_delete=models.SET_NULL,
                             related_name="+")
    action = models.CharField(max_length=40)
    target = models.CharField(max_length=200)
    details = models.JSONField(default=dict, blank=True)

    class Meta:
        ordering = ["-at", "-id"]
        verbose_name_plural = "audit entries"

    def __str__(self):
        return f"{self.at:%Y-%m-%d %H:%M} {self.actor}: {self.action} {self.target}"


class IdempotentRequest(models.Model):
    """The first answer to an API write sent with an ``Idempotency-Key`` (league/api/
    idempotency.py): the same key from the same user gets this answer again, not a second deal."""

    key = models.CharField(max_length=255)
    # Whose key: a user's, or a table link's (a phone without an account).
    user = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True,
                             on_delete=models.CASCADE, related_name="+")
    table_link = models.ForeignKey(TableLink, null=True, blank=True, on_delete=models.CASCADE,
                                   related_name="+")
    fingerprint = models.CharField(max_length=64, help_text="SHA-256 of method, path and body")
    status_code = models.PositiveSmallIntegerField()
    body = models.JSONField()
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["user", "key"], name="idempotency_key_unique"),
            models.UniqueConstraint(fields=["table_link", "key"],
                                    condition=Q(table_link__isnull=False),
                                    name="idempotency_key_unique_per_link"),
            models.CheckConstraint(
                condition=Q(user__isnull=False, table_link__isnull=True)
                | Q(user__isnull=True, table_link__isnull=False),
                name="idempotency_key_has_one_owner"),
        ]

    def __str__(self):
        return f"{self.user_id or f'link {self.table_link_id}'}:{self.key} → {self.status_code}"
