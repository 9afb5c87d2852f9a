"""The username django-axes counts failed logins under, the same on every login form.

The admin's form posts ``username``; allauth's posts ``login`` and authenticates with
``username=`` (ACCOUNT_LOGIN_METHODS), so a lockout earned on one form holds on the other.
"""


def login_username(request, credentials=None):
    if credentials and credentials.get("username"):
        return credentials["username"]
    data = getattr(request, "data", None) or request.POST
    return data.get("username") or data.get("login")
