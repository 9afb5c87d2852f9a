"""A page refused in words (league/refused.html): who may do it, or what is wrong."""

from django.shortcuts import render

HEADINGS = {403: "Not allowed", 404: "Not found", 410: "No longer here",
            429: "Too many tries"}  # any other status: "Not done"


def refuse(request, message, status=403, back=None, outbox=False):
    """``back``: (address, words) of a page to go on from, if there is one. A visitor
    refused (403) is offered the log-in, back to this page; elsewhere signing in cannot
    help. ``outbox``: the deals kept on this phone are shown (an entry page refused)."""
    return render(request, "league/refused.html", {
        "message": message, "back": back, "status": status, "outbox": outbox,
        "heading": HEADINGS.get(status, "Not done")}, status=status)
