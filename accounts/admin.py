"""The admin's users: an address an administrator gives a user is theirs, verified (the
administrator vouches for it), so its password reset links reach them and nobody signs up
with it (ACCOUNT_UNIQUE_EMAIL)."""

from allauth.account.models import EmailAddress
from django.contrib import admin
from django.contrib.auth import get_user_model
from django.contrib.auth.admin import UserAdmin as DjangoUserAdmin
from django.db import transaction

User = get_user_model()


def address_given(user) -> None:
    """The user's e-mail address as their one primary, verified address (none if blank)."""
    if not user.email:
        EmailAddress.objects.filter(user=user).delete()
        return
    EmailAddress.objects.filter(user=user).exclude(email__iexact=user.email).delete()
    EmailAddress.objects.update_or_create(
        user=user, email__iexact=user.email,
        defaults={"email": user.email.lower(), "verified": True, "primary": True})


admin.site.unregister(User)


@admin.register(User)
class UserAdmin(DjangoUserAdmin):
    @transaction.atomic
    def save_model(self, request, obj, form, change):
        super().save_model(request, obj, form, change)
        address_given(obj)
