"""Outside bots: their authors and the administrators register, change and remove them
(each change one transaction with its audit row); organisers enter them as outside:<name>."""

from collections.abc import Callable, Iterable

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError
from django.db import IntegrityError, connection, transaction

from gameplay.bots.sandbox import SandboxUnavailable
from gameplay.bots.sandbox.jail import check as sandbox_check
from league import services as league
from league.models import AuditEntry
from outside_bots.errors import OutsideBotError, OutsideBotGone, SecretReplaced
from outside_bots.models import (
    HOSTED,
    OUTSIDE,
    OutsideBot,
    default_presets,
    new_secret,
    new_version,
)


def _outside_bot_check(bot: OutsideBot) -> None:
    # The model's clean() names a taken name or URL in words; the database's constraints are
    # there for two requests at once (_saved).
    if bot.url.startswith(HOSTED) and not bot.hosted:  # the site's name for an upload's version
        raise OutsideBotError(f"url: an outside bot's URL must be http(s)://host/…, not "
                              f"{bot.url!r}")
    try:
        bot.full_clean(validate_unique=False, validate_constraints=False)
    except ValidationError as e:
        raise OutsideBotError("; ".join(f"{field}: {' '.join(messages)}"
                                        for field, messages in e.message_dict.items())) from e


def _locked(bot: OutsideBot) -> OutsideBot:
    """The bot's row, locked; OutsideBotGone when another request removed it after the caller
    found it (its lock waited for that removal)."""
    locked = OutsideBot.objects.select_for_update().filter(pk=bot.pk).first()
    if locked is None:
        raise OutsideBotGone(f"there is no bot {bot.pk} any more: it was removed at the same "
                             "moment, in another tab or request; nothing was changed")
    return locked


def _saved(bot: OutsideBot) -> None:
    try:
        with transaction.atomic():
            bot.save()
    except IntegrityError:
        raise OutsideBotError(f"a bot named {bot.name} or at {bot.url} was registered at the "
                              "same moment; choose another name or URL") from None


# What the apps above may add (ladder.apps): each takes a bot's name and its author (None for
# an administrator) and says why that author may not take the name, or None.
name_checks: list[Callable[[str, object], str | None]] = []
# And (tournaments.apps): each takes a bot and says where it is entered under its name, or None.
entered_checks: list[Callable[[OutsideBot], str | None]] = []


# The keys of the PostgreSQL advisory locks that names are checked under: bots' ("bots" in
# ASCII) and people's (accounts.adapter: "user").
BOT_NAMES_LOCK = 0x626F7473
USER_NAMES_LOCK = 0x75736572


def names_locked(key: int = BOT_NAMES_LOCK) -> None:
    """One name checked and written at a time, until the transaction ends (``key``: whose
    names, bots' or people's): a name is refused beside any look-alike of another
    (models.checked_name, the ladder's removed bots' names, accounts.models.checked_username),
    which no unique key holds, so two look-alike names checked at once were both written.
    SQLite's transactions take the write lock already (transaction_mode IMMEDIATE)."""
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute("SELECT pg_advisory_xact_lock(%s)", [key])


def _check_name(name: str, owner) -> None:
    for check in name_checks:
        refusal = check(name, owner)
        if refusal:
            raise OutsideBotError(refusal)


def outside_bot_entered(*, bot: OutsideBot) -> str | None:
    """Where the bot is entered under its name (``entered_checks``), e.g. "in tournaments", or
    None: an entered bot keeps its name, and is disabled instead of removed."""
    for check in entered_checks:
        where = check(bot)
        if where:
            return where
    return None


@transaction.atomic
def outside_bot_create(*, name: str, url: str = "", description: str = "", enabled: bool = True,
                       presets: list[str] | None = None, owner=None, by=None,
                       code: bytes | None = None, runtime: str = "") -> OutsideBot:
    """Register an outside bot, called at ``url`` or hosted: its ``code`` (hosted_code: the
    zip checked within bounds) run with ``runtime``; one with an ``owner`` (its author) counts
    towards the author's OUTSIDE_BOT_MAX_PER_AUTHOR."""
    if owner is not None:
        _check_author_limit(owner)
    if (code is None) == (not url.strip()):
        raise OutsideBotError("url or code: a bot is called at a URL or hosted, one of the two")
    bot = OutsideBot(name=name.strip(), url=url.strip() if code is None else new_version(),
                     description=description, enabled=enabled, owner=owner, code=code,
                     runtime=runtime if code is not None else "",
                     presets=list(presets) if presets is not None else default_presets())
    names_locked()
    _outside_bot_check(bot)
    _check_name(bot.name, owner)
    _saved(bot)
    league.audit_record(by=by, club=None, action="outside bot registered", target=bot,
                        details={"url": bot.url, "enabled": enabled, "presets": bot.presets,
                                 "owner": owner.pk if owner else None})
    return bot


def _check_author_limit(owner) -> None:
    # The author's row is locked so that two registrations at once cannot both pass the count.
    get_user_model().objects.select_for_update().filter(pk=owner.pk).first()
    limit = settings.OUTSIDE_BOT_MAX_PER_AUTHOR
    if OutsideBot.objects.filter(owner=owner).count() >= limit:
        raise OutsideBotError(f"you have {limit} bots, the most an author may register; "
                              "remove one first")


@transaction.atomic
def outside_bot_update(*, bot: OutsideBot, by=None, **fields) -> OutsideBot:
    """Change an outside bot; its name stays once it is entered (entries name it)."""
    unknown = set(fields) - {"name", "url", "description", "enabled", "presets", "code",
                             "runtime"}
    if unknown:
        raise OutsideBotError(f"unknown outside bot field(s): {', '.join(sorted(unknown))}")
    bot = _locked(bot)
    if ("url" in fields) if bot.hosted else ("code" in fields or "runtime" in fields):
        raise OutsideBotError("a hosted bot changes its code, an HTTP bot its URL")
    if "code" in fields:  # each upload is a new version (the ladder validates it again)
        fields["url"] = new_version()
    changed = {k: v for k, v in fields.items() if getattr(bot, k) != v}
    where = "name" in changed and outside_bot_entered(bot=bot)
    if where:
        raise OutsideBotError(f"outside bot {bot.name!r} is entered {where} as "
                              f"{OUTSIDE}{bot.name}, so it keeps its name")
    if "name" in changed:
        names_locked()
    for key, value in changed.items():
        setattr(bot, key, value)
    _outside_bot_check(bot)
    if "name" in changed:
        _check_name(bot.name, bot.owner)
    _saved(bot)
    league.audit_record(by=by, club=None, action="outside bot changed", target=bot,
                        details={k: str(v) for k, v in changed.items()})
    return bot


SECRET_REPLACED = "outside bot secret replaced"  # its audit rows' action


@transaction.atomic
def outside_bot_secret_rotate(*, bot: OutsideBot, by=None,
                              secret_tag: str | None = None) -> OutsideBot:
    """A new secret for the bot: requests are signed with it from now on, and the old one
    proves nothing any more (its author gives the new one to their server). A hosted bot has
    none to replace. ``secret_tag``: the bot's ``secret_tag`` where its author asked (the
    bot's page, the API's answer), and SecretReplaced, changing nothing, if the secret was
    replaced since: two tabs clicking at once got two secrets, the first already stale. None
    replaces whatever it is (the admin's action, an API client sending none)."""
    bot = _locked(bot)
    if bot.hosted:
        raise OutsideBotError(f"{bot.name} is hosted: the site runs its code in the sandbox and "
                              "never calls it over HTTP, so it has no secret")
    if secret_tag is not None and not bot.secret_is_tagged(secret_tag):
        replaced = AuditEntry.objects.filter(action=SECRET_REPLACED, details__bot=bot.pk)
        raise SecretReplaced(bot.name, replaced.values_list("at", flat=True).first())
    bot.secret, bot.secret_given = new_secret(), True
    bot.save(update_fields=["secret", "secret_given"])
    league.audit_record(by=by, club=None, action=SECRET_REPLACED, target=bot,
                        details={"bot": bot.pk})
    return bot


@transaction.atomic
def outside_bot_delete(*, bot: OutsideBot, by=None) -> None:
    """Remove an outside bot never entered; one that was is disabled instead."""
    bot = _locked(bot)
    where = outside_bot_entered(bot=bot)
    if where:
        raise OutsideBotError(f"outside bot {bot.name!r} is entered {where}; disable it instead")
    league.audit_record(by=by, club=None, action="outside bot removed", target=bot,
                        details={"url": bot.url})
    bot.delete()


# Where a game with hosted bots is played: the one rule of ladder games (validation, rated,
# challenges) and tournament batches. Each takes what the game's seats play: a built-in's spec
# or an outside bot's URL, hosted:<id> for a hosted one.


def hosted_route(plays: Iterable[str]) -> dict:
    """The ``apply_async`` options of a game whose seats play ``plays``: with a hosted bot, on
    CELERY_HOSTED_QUEUE, whose workers run on machines with the sandbox (docs/operations.md);
    otherwise, or when that setting is "", nothing: its task's own route."""
    queue_name = settings.CELERY_HOSTED_QUEUE
    return {"queue": queue_name} if queue_name and _hosted(plays) else {}


def no_sandbox(plays: Iterable[str]) -> str | None:
    """Why this worker refuses a game whose seats play ``plays``, in words: one is hosted and
    this machine has no working sandbox (strangers' code never runs without one); None when
    it may play it."""
    if not _hosted(plays):
        return None
    try:
        sandbox_check()
    except SandboxUnavailable as e:
        return (f"this worker cannot run hosted bots ({e}); not your bot's fault: an operator "
                "runs the hosted queue's workers on machines with the sandbox (make sandbox)")
    return None


def _hosted(plays: Iterable[str]) -> bool:
    return any(play.startswith(HOSTED) for play in plays)
