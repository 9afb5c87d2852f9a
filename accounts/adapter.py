"""django-allauth's adapter: its rate limits count the client's address as every other limit
does (config.protections.client_address), not the address of the proxy in front; and a user
name is one no other looks like."""

import unicodedata

from allauth.account.adapter import DefaultAccountAdapter
from django.core.exceptions import ValidationError

from config.protections import client_address


class AccountAdapter(DefaultAccountAdapter):
    def get_client_ip(self, request):
        return client_address(request)

    def clean_username(self, username, shallow=False):
        # An author's name shows beside their bots on the ladder, so none may pass for
        # another's: "ａda" (fullwidth) is the "ada" it means, compared as bot names are, and
        # a letter of another alphabet (Cyrillic "а") is refused, as it is in bot names.
        username = unicodedata.normalize("NFKC", username)
        if not username.isascii():
            raise ValidationError("a user name is in the letters a to z, digits and @ . + - _ "
                                  "alone: letters of other alphabets can look like another "
                                  "user's")
        return super().clean_username(username, shallow)
