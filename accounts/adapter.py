"""django-allauth's adapter: its rate limits count the client's address as every other limit
does (config.protections.client_address), not the address of the proxy in front; and a user
name is one no other looks like."""

import unicodedata

from allauth.account.adapter import DefaultAccountAdapter
from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError

from config.protections import client_address
from league.names import look_alike


class AccountAdapter(DefaultAccountAdapter):
    def get_client_ip(self, request):
        return client_address(request)

    def clean_username(self, username, shallow=False):
        # An author's name shows beside their bots on the ladder, so none may pass for
        # another's: "ａda" (fullwidth) is the "ada" it means, compared as bot names are, and
        # a letter of another alphabet (Cyrillic "а") is refused, as it is in bot names.
        # And a name whose letters look like another's ("adaI" with a capital i beside adal)
        # is refused as bot names are (league.names), every name compared in Python: a
        # look-alike has no index.
        username = unicodedata.normalize("NFKC", username)
        if not username.isascii():
            raise ValidationError("A user name is in the letters a to z, digits and @ . + - _ "
                                  "alone: letters of other alphabets can look like another "
                                  "user's.")
        username = super().clean_username(username, shallow)
        if not shallow:
            names = get_user_model().objects.values_list("username", flat=True)
            for other in names.iterator():
                if look_alike(username, other):
                    raise ValidationError(f"A user named {other} is registered, which looks "
                                          f"the same as {username}.")
        return username
