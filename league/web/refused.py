"""A page refused in words (league/refused.html): who may do it, or what is wrong."""

from django.shortcuts import render


def refuse(request, message, status=403, back=None):
    """``back``: (address, words) of a page to go on from, if there is one."""
    return render(request, "league/refused.html", {"message": message, "back": back},
                  status=status)
