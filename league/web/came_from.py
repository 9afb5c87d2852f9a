"""Where an organiser goes back to after an action reached from another page (the club night,
its plan): the ``next`` the link carried, if it is one of this site's own paths."""

from django.utils.http import url_has_allowed_host_and_scheme


def came_from(request):
    """The ``next`` of the form or the link, or None: only a path of this site (never another
    site's address, which would send the organiser there after they acted)."""
    asked = request.POST.get("next") or request.GET.get("next") or ""
    if asked.startswith("/") and url_has_allowed_host_and_scheme(
            asked, allowed_hosts=set(), require_https=request.is_secure()):
        return asked
    return None
