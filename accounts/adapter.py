"""django-allauth's adapter: its rate limits count the client's address as every other limit
does (config.protections.client_address), not the address of the proxy in front; and a user
name is one no other looks like (accounts.models.checked_username), even for two sign-ups at
once."""

import unicodedata

from allauth.account.adapter import DefaultAccountAdapter
from allauth.account.views import SignupView
from allauth.core.exceptions import ImmediateHttpResponse
from django.core.exceptions import ValidationError
from django.db import transaction

from accounts.models import checked_username
from config.protections import client_address
from outside_bots.services import USER_NAMES_LOCK, names_locked


class AccountAdapter(DefaultAccountAdapter):
    def get_client_ip(self, request):
        return client_address(request)

    def clean_username(self, username, shallow=False):
        # NFKC, as the admin's form reads names: "ａda" (fullwidth) is the "ada" it means.
        # allauth's own check then takes any letters, digits and @ . + - _ (the user model's
        # UnicodeUsernameValidator) and refuses a name taken in any case.
        username = super().clean_username(unicodedata.normalize("NFKC", username), shallow)
        if not shallow:
            checked_username(username)
        return username

    def save_user(self, request, user, form, commit=True):
        # The form checked the name before this; a look-alike is no unique key, so two
        # sign-ups at once ("adabot", "adab0t") both passed it and both were made. Checked
        # again here, with the user's write, one name at a time (the names' lock).
        if not commit:
            return super().save_user(request, user, form, commit=False)
        with transaction.atomic():
            names_locked(USER_NAMES_LOCK)
            try:
                checked_username(form.cleaned_data["username"])
            except ValidationError as e:
                form.add_error("username", e)
                raise ImmediateHttpResponse(_sign_up_again(request, form)) from None
            return super().save_user(request, user, form)


def _sign_up_again(request, form):
    """The sign-up page again, its form saying why (as a refusal of the form's own check)."""
    view = SignupView()
    view.setup(request)
    return view.form_invalid(form).render()
