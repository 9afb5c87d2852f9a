"""The admin's users: an address an administrator gives a user is theirs, verified (the
administrator vouches for it), so its password reset links reach them and nobody signs up
with it (ACCOUNT_UNIQUE_EMAIL); and a user name is checked as at sign-up
(accounts.models.checked_username)."""

from allauth.account.models import EmailAddress
from django.contrib import admin
from django.contrib.auth import get_user_model
from django.contrib.auth.admin import UserAdmin as DjangoUserAdmin
from django.contrib.auth.forms import AdminUserCreationForm, UserChangeForm
from django.core.exceptions import ValidationError
from django.db import transaction

from accounts.models import checked_username

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


class NameChecked:
    """A user form whose name is refused as a sign-up's would be (the form's UsernameField has
    read it in Unicode NFKC; the creation form's own check, a name taken in any case, comes
    first and gives None)."""

    def clean_username(self):
        username = getattr(super(), "clean_username", lambda: self.cleaned_data["username"])()
        if username:
            checked_username(username, pk=self.instance.pk)
        return username


class AddForm(NameChecked, AdminUserCreationForm):
    pass


class AddressForm(NameChecked, UserChangeForm):
    """The user's change form: an address another account has is refused (one account per
    address, ACCOUNT_UNIQUE_EMAIL)."""

    def clean_email(self):
        email = self.cleaned_data["email"]
        others = User.objects.exclude(pk=self.instance.pk)
        if email and (others.filter(email__iexact=email).exists() or EmailAddress.objects
                      .filter(email__iexact=email).exclude(user=self.instance).exists()):
            raise ValidationError("another account has this address")
        return email


admin.site.unregister(User)


@admin.register(User)
class UserAdmin(DjangoUserAdmin):
    form = AddressForm
    add_form = AddForm

    @transaction.atomic
    def save_model(self, request, obj, form, change):
        super().save_model(request, obj, form, change)
        address_given(obj)
