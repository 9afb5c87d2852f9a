"""A page refused in words (league/refused.html): who may do it, or what is wrong."""

from django.shortcuts import render


def refuse(request, message, status=403):
    return render(request, "league/refused.html", {"message": message}, status=status)
