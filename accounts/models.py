"""What accounts keeps beside Django's users: each user name's look-alike keys, so a new name
is checked against every user's by an indexed query (checked_username)."""

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import models
from django.db.models import Q
from django.db.models.signals import post_save
from django.dispatch import receiver

from league.names import look_alike_keys, posing_letter


class NameKeys(models.Model):
    """A user name's three look-alike keys (league.names.look_alike_keys), written whenever a
    user is saved with a name (sign-up, admin, createsuperuser; names_kept)."""

    user = models.OneToOneField(settings.AUTH_USER_MODEL, on_delete=models.CASCADE,
                                primary_key=True, related_name="name_keys")
    # Text: a 150-letter name may case-fold to more.
    look_casefolded = models.TextField(db_index=True)
    look_upper = models.TextField(db_index=True)
    look_written = models.TextField(db_index=True)

    class Meta:
        verbose_name = verbose_name_plural = "user name keys"

    def __str__(self):
        return f"{self.look_casefolded} {self.look_upper} {self.look_written}"


@receiver(post_save, sender=settings.AUTH_USER_MODEL)
def names_kept(sender, instance, update_fields=None, raw=False, **kwargs):
    if raw or (update_fields is not None and "username" not in update_fields):
        return  # a log-in saves last_login alone
    NameKeys.objects.update_or_create(user_id=instance.pk,
                                      defaults=look_alike_keys(instance.username))


def checked_username(username: str, *, pk=None) -> None:
    """ValidationError when ``username`` (in Unicode NFKC) mixes alphabets to pose as another
    name ("\u0430da" with a Cyrillic "\u0430") or looks like another user's (other than user
    ``pk``): an author's name shows beside their bots on the ladder, so none may pass for
    another's. Letters of any one alphabet are welcome: Zoë, José, 田中."""
    posing = posing_letter(username)
    if posing:
        letter, alphabet, looks_like = posing
        raise ValidationError(f"{username} mixes alphabets: {letter} ({alphabet}) looks like a "
                              f"{looks_like} letter. A user name keeps to one alphabet where "
                              "its letters could be read as another's.")
    others = NameKeys.objects.filter(Q(**look_alike_keys(username), _connector=Q.OR))
    other = others.exclude(user_id=pk).values_list("user__username", flat=True).first()
    if other is not None:
        raise ValidationError(f"A user named {other} is registered, which looks the same as "
                              f"{username}.")
