"""Outside bots (docs/bots.md, protocol president-bot/1): HTTP bots their authors or the
administrators register, which tournaments and the ladder call. Changes go through
``outside_bots.services``."""

import io
import secrets
import tempfile
import unicodedata
import zipfile
from pathlib import PurePath
from urllib.parse import quote

from django.conf import settings
from django.core.exceptions import ValidationError
from django.core.validators import validate_slug
from django.db import models
from django.db.models import Q
from django.utils.crypto import constant_time_compare, salted_hmac

from gameplay.bots import BUILT_IN
from gameplay.bots.base import BotFault, ServiceLate
from gameplay.bots.outside import HttpBot
from gameplay.bots.policy import Refused, normal_url
from gameplay.bots.sandbox import BadUpload, SandboxedProgram, unpack_upload
from gameplay.bots.sandbox.unpack import MAX_ZIP_BYTES
from gameplay.engine.options import PRESETS
from league.names import keys_alike, look_alike_keys


def outside_bot_url(url: str) -> None:
    """An http(s) URL the outside-bot network policy allows (gameplay.bots.policy: a public
    address or a host in OUTSIDE_BOT_ALLOWED_HOSTS, a port in OUTSIDE_BOT_ALLOWED_PORTS): the
    check made again each time the bot is called (gameplay.bots.outside.HttpBot); a hosted
    bot's version (``hosted:<id>``) is no address and is not checked."""
    if url.startswith(HOSTED):
        return
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


def name_key(name: str) -> str:
    """The spelling names are compared in: Unicode NFKC, then case folded, so "LOWBALL",
    "Lowball" and "ｌｏｗｂａｌｌ" are one name."""
    return unicodedata.normalize("NFKC", name).casefold()


def checked_name(name: str, *, pk=None) -> str:
    """``name`` in Unicode NFKC, or ValidationError: not a slug, a built-in bot's name, or
    another bot's (other than bot ``pk``) in some case, spelling or look-alike letters
    ("Iowball" with a capital i would pose as lowball on the ladder; league.names)."""
    name = unicodedata.normalize("NFKC", name)
    validate_slug(name)
    key = name_key(name)
    built_in = next((b for b in BUILT_IN if b == key or keys_alike(name, b)), None)
    if built_in is not None:
        said = "" if built_in == key else f" looks like {built_in}, which"
        raise ValidationError(f"{name}{said} is a built-in bot's name; the built-in bots are "
                              f"{', '.join(BUILT_IN)}")
    others = OutsideBot.objects.exclude(pk=pk)
    for other in others.filter(name_key=key).values_list("name", flat=True)[:1]:
        raise ValidationError(f"{name} is taken: a bot named {other} is registered (a name is "
                              "one name in any case or spelling)")
    like = others.filter(Q(**look_alike_keys(name), _connector=Q.OR))
    for other in like.values_list("name", flat=True)[:1]:
        raise ValidationError(f"{name} is taken: a bot named {other} is registered, which "
                              "looks the same (a name is one name in any case, spelling "
                              "or look-alike letters)")
    return name


# What a URL's path and query keep as they are when written percent-encoded (RFC 3986).
URL_SIGNS = "/?#[]@!$&'()*+,;=%:~"


def checked_url(url: str, *, pk=None) -> str:
    """``url`` in its normal form (gameplay.bots.policy.normal_url), or ValidationError: a URL
    it refuses, or another bot's (other than bot ``pk``)."""
    if url.startswith(HOSTED):
        return url
    try:
        url = normal_url(url)
    except Refused as e:
        raise ValidationError(str(e)) from None
    path = url[url.index("/", url.index("://") + 3):]
    if not path.isascii():  # HTTP sends it as it is, in ASCII: it could never be called
        raise ValidationError(f"a bot's URL is sent in ASCII: write its path percent-encoded, "
                              f"{quote(path, safe=URL_SIGNS)}")
    if OutsideBot.objects.exclude(pk=pk).filter(url=url).exists():
        raise ValidationError(f"{url} is registered already, as another bot; a server is "
                              "registered once")
    return url


def new_secret() -> str:
    """A bot's secret: 32 random bytes, URL-safe base64 (43 characters)."""
    return secrets.token_urlsafe(32)


def _secret_tag(secret: str, key: str) -> str:
    return salted_hmac("outside_bots.secret_tag", secret, secret=key,
                       algorithm="sha256").hexdigest()


OUTSIDE = "outside:"  # an entrant's bot spec for a registered outside bot: outside:<name>
# A hosted bot's "url": hosted:<a new random id each upload>, so each upload is a new version
# for the ladder (it compares the URL its entry was validated with), and is never called.
HOSTED = "hosted:"
RUNTIMES = [("python", "Python 3"), ("node", "Node.js")]


def new_version() -> str:
    return HOSTED + secrets.token_hex(16)


def default_presets():
    return ["classic"]


class OutsideBot(models.Model):
    """An outside HTTP bot (docs/bots.md, protocol president-bot/1), registered by its author
    (``owner``) or by an administrator (no owner); organisers enter it in tournaments as
    ``outside:<name>``. Its URL is called only if the network policy allows it
    (gameplay.bots.policy)."""

    name = models.SlugField(max_length=50, unique=True,
                            help_text='letters, digits, "-" and "_"; entered as outside:NAME')
    # name_key(name): unique, so two names differing only in case or Unicode form cannot both
    # be registered, even by two requests at once.
    name_key = models.CharField(max_length=50, unique=True, editable=False)
    # league.names.look_alike_keys(name), written on each save: a new name looks the bots like
    # it up by them (checked_name).
    look_casefolded = models.CharField(max_length=50, db_index=True, editable=False)
    look_upper = models.CharField(max_length=50, db_index=True, editable=False)
    look_written = models.CharField(max_length=50, db_index=True, editable=False)
    # A CharField: the network policy is the URL's whole check (Django's URL check would refuse
    # an allow-listed lab host without a dot, and hide the policy's reason behind its own).
    url = models.CharField(max_length=300, validators=[outside_bot_url],
                           help_text="where each decision is POSTed: a public address on an "
                                     "allowed port (or a host in OUTSIDE_BOT_ALLOWED_HOSTS)")
    # A hosted bot's code, its author's upload as a zip (a single source file is zipped as
    # bot.py / bot.js), at most MAX_ZIP_BYTES: only the current version is ever played.
    code = models.BinaryField(null=True, blank=True, editable=False)
    runtime = models.CharField(max_length=10, blank=True, choices=RUNTIMES,
                               help_text="a hosted bot's runtime; blank for an HTTP bot")
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
    # The key every request to the bot is signed with (gameplay.bots.signing), shown to its
    # author once. Stored as is: the worker needs it in clear to sign, and it lets nobody into
    # the site, only speaks to the author's own bot (docs/outside-bots.md "Secrets").
    secret = models.CharField(max_length=64, default=new_secret, editable=False)
    # False for a bot registered before bots had secrets: migration 0002 made it one nobody was
    # shown, so its server cannot answer the validation's challenge until its author replaces it.
    secret_given = models.BooleanField(
        default=True, editable=False,
        help_text="its author was given its secret (at registration, or on replacing it)")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        db_table = "gameplay_outsidebot"  # the table existing databases made under the app gameplay
        ordering = ["name"]
        constraints = [
            # One enabled bot a URL (normal_url): the service refuses any second registration;
            # bots the migration found sharing one were disabled (0002).
            models.UniqueConstraint(fields=["url"], condition=models.Q(enabled=True),
                                    name="outside_bot_url_once"),
            # Exactly one of a URL to call or code to host.
            models.CheckConstraint(
                condition=(models.Q(code__isnull=True, runtime="")
                           & ~models.Q(url__startswith=HOSTED))
                | (models.Q(code__isnull=False, runtime__in=[r for r, _ in RUNTIMES])
                   & models.Q(url__startswith=HOSTED)),
                name="outside_bot_url_or_code"),
        ]

    def __str__(self):
        return self.name

    def save(self, *args, **kwargs):
        # (A save of named fields without the name leaves the keys as they are, right.)
        for field, key in look_alike_keys(self.name).items():
            setattr(self, field, key)
        super().save(*args, **kwargs)

    def clean_fields(self, exclude=None):
        # NFKC first: "ｌｏｗｂａｌｌ" is checked, and refused, as the "lowball" it means.
        self.name = unicodedata.normalize("NFKC", self.name or "")
        self._refused = set()
        try:
            super().clean_fields(exclude=exclude)
        except ValidationError as e:
            self._refused = set(e.error_dict)
            raise

    def clean(self):
        """Normalise the name and URL, and refuse a name or URL another bot has (a field its
        own validator refused is not refused twice)."""
        self.name_key = name_key(self.name)
        refused = {}
        for field, check in (("name", checked_name), ("url", checked_url)):
            if field in getattr(self, "_refused", ()):
                continue
            try:
                setattr(self, field, check(getattr(self, field) or "", pk=self.pk))
            except ValidationError as e:
                refused[field] = e.messages
        if refused:
            raise ValidationError(refused)

    @property
    def hosted(self) -> bool:
        return self.code is not None

    @property
    def needs_secret(self) -> bool:
        """An HTTP bot whose author never had its secret: it cannot pass validation (its
        server fails the challenge) until they replace it. A hosted bot is never called."""
        return not self.secret_given and not self.hosted

    @property
    def secret_tag(self) -> str | None:
        """A tag of its secret as it is now, which "replace it" sends back (the bot's page, the
        API after a GET), so a replacement made since (another tab) is refused, not replaced
        again unseen: an HMAC of the secret under the site's SECRET_KEY, which tells nothing
        of the secret. None for a hosted bot, which has no secret to replace."""
        return None if self.hosted else _secret_tag(self.secret, settings.SECRET_KEY)

    def secret_is_tagged(self, tag: str) -> bool:
        """``tag`` is its secret's as it is now (under SECRET_KEY, or a key it replaced: a page
        shown before the site's key was replaced)."""
        return any(constant_time_compare(tag, _secret_tag(self.secret, key))
                   for key in [settings.SECRET_KEY, *settings.SECRET_KEY_FALLBACKS])

    def engine_bot(self, workdir: str):
        """The bot to play: a hosted bot's code unpacked into ``workdir`` (which the caller
        removes after the game) and run in the sandbox (SandboxUnavailable on a machine
        without it), or the HTTP bot (``http_bot``)."""
        if not self.hosted:
            return self.http_bot()
        unpack_upload(bytes(self.code), workdir)
        return SandboxedProgram(workdir, self.runtime, name=self.name)

    def http_bot(self, url: str | None = None) -> HttpBot:
        """The bot to call at ``url`` (its URL unless a version's is given) under the network
        policy, every request signed with its secret as stored when the request is sent
        (SignedNow; ValueError if the policy refuses the URL)."""
        return SignedNow(url or self.url, bot_id=self.pk, secret=self.secret)


class SignedNow(HttpBot):
    """An author's HTTP bot whose every request is signed with its secret as stored when the
    request is sent. Its author may replace the secret during a game and give the new one to
    the server (the old one stops proving anything: docs/kit.md); signed with the secret the
    game began with, each later request was refused (401), faults the site's own change made
    (a ladder's validation game paused the bot for them). A refusal (401) after such a change, while
    the server has yet to be given the new secret, is no fault of the bot's either: the seat
    plays a safe choice, counted as the service's (ServiceLate), as the probation leaves out."""

    def __init__(self, url: str, *, bot_id: int, secret: str):
        super().__init__(url, secret=secret)
        self.bot_id, self.began_with = bot_id, secret

    def exchange_json(self, request: dict) -> dict:
        # Read before the bot's clock starts (HttpBot.exchange_json): one indexed row a request.
        self.secret = OutsideBot.objects.filter(pk=self.bot_id).values_list(
            "secret", flat=True).first() or self.secret
        try:
            return super().exchange_json(request)
        except BotFault as fault:
            if self.secret != self.began_with and fault.message.startswith("HTTP status 401"):
                raise ServiceLate("its author replaced its secret during the game") from None
            raise


ENTRY = {"python": "bot.py", "node": "bot.js"}
# What an author might upload instead of a runtime's source, in words (by its suffix).
OTHER_KINDS = {".c": "C source", ".h": "a C header", ".cc": "C++ source", ".cpp": "C++ source",
               ".rs": "Rust source", ".go": "Go source", ".java": "Java source",
               ".ts": "TypeScript source", ".rb": "Ruby source", ".tar": "a tar archive",
               ".tgz": "a tar archive", ".gz": "a gzip file", ".7z": "a 7-Zip archive",
               ".rar": "a RAR archive", ".exe": "a compiled program", ".so": "a compiled library"}


def _runs() -> str:
    """What hosted bots run, in words, from RUNTIMES and their entries."""
    return (f"hosted bots run {' or '.join(f'{label} ({ENTRY[r]})' for r, label in RUNTIMES)} "
            "and compile nothing: upload one of those, or a zip with it at the top; a bot in "
            "another language is served by you and registered by its URL")


def _not_for(filename: str, runtime: str) -> str | None:
    """Why the file ``filename`` cannot be the entry of a ``runtime`` bot, or None."""
    path = PurePath(filename)
    by_suffix = {PurePath(entry).suffix: r for r, entry in ENTRY.items()}
    written_for = by_suffix.get(path.suffix)
    if written_for == runtime:
        return None
    if written_for is not None:  # it would only fail at its validation game
        names = dict(RUNTIMES)
        return (f"{filename}: a {names[written_for]} file, and the runtime chosen is "
                f"{names[runtime]}")
    kind = "a tar archive" if ".tar" in path.suffixes else OTHER_KINDS.get(path.suffix.lower())
    what = kind or f"neither {' nor '.join(ENTRY.values())}"
    return f"{filename} is {what}; {_runs()}"


# Folders an entry of an upload may sit in. A tree thousands deep, unpacked, broke the
# clean-up of the folder it was checked in (shutil.rmtree recurses a level a frame).
MAX_DEPTH = 32


def _too_deep(data: bytes) -> str | None:
    """Why the zip's entries nest too deep, or None (unpack_upload says what else is wrong)."""
    try:
        names = zipfile.ZipFile(io.BytesIO(data)).namelist()
    except (zipfile.BadZipFile, ValueError):
        return None
    for name in names:
        if name.rstrip("/").count("/") > MAX_DEPTH:
            shown = name if len(name) <= 60 else f"{name[:60]}…"
            return f"{shown!r}: a path in the zip is over {MAX_DEPTH} folders deep"
    return None


def hosted_code(data: bytes, filename: str, runtime: str) -> bytes:
    """An upload as the zip to store: a zip as it is, one source file zipped as the runtime's
    entry (bot.py / bot.js); ValidationError naming what is wrong (unpack_upload's bounds, an
    unknown runtime, a file no runtime here runs, no entry file)."""
    if runtime not in ENTRY:
        raise ValidationError(f"runtime {runtime!r}: one of {', '.join(ENTRY)}")
    if len(data) > MAX_ZIP_BYTES:
        raise ValidationError(f"{filename}: over {MAX_ZIP_BYTES // 1024} KB")
    if not zipfile.is_zipfile(io.BytesIO(data)):
        if filename.endswith(".zip"):
            raise ValidationError(f"{filename}: not a zip file")
        if (refused := _not_for(filename, runtime)) is not None:
            raise ValidationError(refused)
        try:
            data.decode("utf-8")
        except UnicodeDecodeError:
            raise ValidationError(f"{filename} is not text (a compiled program?); "
                                  f"{_runs()}") from None
        packed = io.BytesIO()
        with zipfile.ZipFile(packed, "w", zipfile.ZIP_DEFLATED) as archive:
            archive.writestr(ENTRY[runtime], data)
        data = packed.getvalue()
    if (refused := _too_deep(data)) is not None:
        raise ValidationError(refused)
    with tempfile.TemporaryDirectory() as unpacked:
        try:
            files = unpack_upload(data, unpacked)
        except BadUpload as e:
            raise ValidationError(str(e)) from None
    if ENTRY[runtime] not in files:
        # say what its top holds instead, if that is another runtime's or no runtime's file
        top = sorted(f for f in files if "/" not in f)
        told = [_not_for(f, runtime) for f in top if f in ENTRY.values()]
        told += [_not_for(f, runtime) for f in top
                 if PurePath(f).suffix.lower() in OTHER_KINDS][:1]
        said = f"; {told[0]}" if told else ""
        raise ValidationError(f"no {ENTRY[runtime]} at the top of the zip: a {runtime} bot "
                              f"starts from it{said}")
    return data
