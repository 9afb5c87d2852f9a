"""django-allauth's adapter: its rate limits count the client's address as every other limit
does (config.protections.client_address), not the address of the proxy in front; and a user
name is one no other looks like (accounts.models.checked_username)."""

import unicodedata

from allauth.account.adapter import DefaultAccountAdapter

from accounts.models import checked_username
from config.protections import client_address


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
