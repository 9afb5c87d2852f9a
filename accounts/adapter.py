"""django-allauth's adapter: its rate limits count the client's address as every other limit
does (config.protections.client_address), not the address of the proxy in front."""

from allauth.account.adapter import DefaultAccountAdapter

from config.protections import client_address


class AccountAdapter(DefaultAccountAdapter):
    def get_client_ip(self, request):
        return client_address(request)
