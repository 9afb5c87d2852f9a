"""Outside bots (docs/bots.md, protocol president-bot/1): HTTP bots their authors or the
administrators register, which tournaments and the ladder call. Changes go through
``outside_bots.services``."""

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import models

from gameplay.bots.outside import HttpBot
from gameplay.bots.policy import normal_url
from gameplay.engine.options import PRESETS


def outside_bot_url(url: str) -> None:
    """An http(s) URL the outside-bot network policy allows (gameplay.bots.policy: a public
    address or a host in OUTSIDE_BOT_ALLOWED_HOSTS, a port in OUTSIDE_BOT_ALLOWED_PORTS): the
    check made again each time the bot is called (gameplay.bots.outside.HttpBot)."""
    try:
        HttpBot(url)
    except ValueError as e:
        raise ValidationError(str(e)) from None


def outside_bot_presets(value) -> None:
    """A non-empty list of distinct preset names (gameplay.engine.options.PRESETS)."""
    if not isinstance(value, list) or not value:
        raise ValidationError(f"a list of one or more presets: {', '.join(PRESETS)}")
    unknown = [name for name in value if not isinstance(name, str) or name not in PRESETS]
    if unknown:
        raise ValidationError(f"unknown preset(s) {', '.join(map(str, unknown))}; presets are "
                              f"{', '.join(PRESETS)}")
    if len(set(value)) != len(value):
        raise ValidationError("a preset is named twice")


OUTSIDE = "outside:"  # an entrant's bot spec for a registered outside bot: outside:<name>


def default_presets():
    return ["classic"]


class OutsideBot(models.Model):
    """An outside HTTP bot (docs/bots.md, protocol president-bot/1), registered by its author
    (``owner``) or by an administrator (no owner); organisers enter it in tournaments as
    ``outside:<name>``. Its URL is called only if the network policy allows it
    (gameplay.bots.policy)."""

    name = models.SlugField(max_length=50, unique=True,
                            help_text='letters, digits, "-" and "_"; entered as outside:NAME')
    # A CharField: the network policy is the URL's whole check (Django's URL check would refuse
    # an allow-listed lab host without a dot, and hide the policy's reason behind its own).
    url = models.CharField(max_length=300, validators=[outside_bot_url],
                           help_text="where each decision is POSTed: a public address on an "
                                     "allowed port (or a host in OUTSIDE_BOT_ALLOWED_HOSTS)")
    description = models.TextField(blank=True, max_length=2000)
    owner = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, null=True,
                              blank=True, related_name="outside_bots",
                              help_text="its author, who may change it; none for a bot an "
                                        "administrator registered")
    presets = models.JSONField(default=default_presets, validators=[outside_bot_presets],
                               help_text="the presets (rule sets) it plays")
    enabled = models.BooleanField(
        default=True, help_text="a disabled bot cannot be entered, and is not called: its seats "
                                "in tournaments already entered play safe moves as faults")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        db_table = "gameplay_outsidebot"  # the table existing databases made under the app gameplay
        ordering = ["name"]

    def __str__(self):
        return self.name

    def clean(self):
        self.url = normal_url(self.url)
