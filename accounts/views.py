"""The signed-in user's own pages: the profile with its API token, and "My bots".

Sign-up, log-in, log-out and password reset are django-allauth's (config/urls.py).
"""

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.db import transaction
from django.http import Http404
from django.shortcuts import redirect, render
from django.utils.cache import add_never_cache_headers
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_POST
from rest_framework.authtoken.models import Token

from accounts.forms import BotForm
from league import selectors
from outside_bots import services
from outside_bots.errors import OutsideBotError, SecretReplaced, not_found_if_gone
from outside_bots.models import OutsideBot


@login_required
@never_cache  # it shows the API token
def profile(request):
    token, _ = Token.objects.get_or_create(user=request.user)
    return render(request, "accounts/profile.html", {
        "token": token, "clubs": selectors.organised_clubs(request.user)})


@login_required
@require_POST
@transaction.atomic
def token_rotate(request):
    """A new API token; the old one stops working at once."""
    Token.objects.filter(user=request.user).delete()
    Token.objects.create(user=request.user)
    messages.success(request, "Your API token was replaced; the old one no longer works.")
    return redirect("accounts:profile")


def _own_bot(request, bot_id) -> OutsideBot:
    # Another author's bot is "not found", not "forbidden": its existence stays private.
    bot = OutsideBot.objects.filter(pk=bot_id, owner=request.user).first()
    if bot is None:
        raise Http404(f"You have no bot {bot_id}: My bots lists yours.")
    return bot


@login_required
def bot_list(request):
    bots = OutsideBot.objects.filter(owner=request.user).order_by("name")
    return render(request, "accounts/bot_list.html",
                  {"bots": bots, "limit": settings.OUTSIDE_BOT_MAX_PER_AUTHOR})


@login_required
def bot_create(request):
    return _bot_form(request, None)


@login_required
def bot_edit(request, bot_id):
    return _bot_form(request, _own_bot(request, bot_id))


def _bot_form(request, bot: OutsideBot | None):
    """Register a bot (``bot`` None) or change one; the service's refusal is a form error."""
    form = BotForm(request.POST or None, request.FILES or None, instance=bot)
    if request.method == "POST" and form.is_valid():
        try:
            with not_found_if_gone():  # removed in another tab meanwhile
                if bot is None:
                    saved = services.outside_bot_create(owner=request.user, by=request.user,
                                                        **form.cleaned_data)
                else:
                    saved = services.outside_bot_update(bot=bot, by=request.user,
                                                        **form.cleaned_data)
        except OutsideBotError as e:
            form.add_error(None, e.message)
        else:
            if bot is None and not saved.hosted:  # a hosted bot is never called: no secret
                return _secret_page(request, saved, "registered")
            messages.success(request, f"Bot {saved.name} registered: the site runs its code in "
                             "a sandbox for each game, its validation game first." if bot is None
                             else f"Bot {saved.name} saved.")
            return redirect("accounts:bot_list")
    return _bot_page(request, form, bot, status=400 if form.errors else 200)


def _bot_page(request, form: BotForm, bot: OutsideBot | None, status: int = 200):
    return render(request, "accounts/bot_form.html", {"form": form, "bot": bot}, status=status)


def _secret_page(request, bot: OutsideBot, done: str):
    """The bot's secret, shown this once: in the answer to the POST that made it, never
    stored in a message or the session, never cached."""
    response = render(request, "accounts/bot_secret.html", {"bot": bot, "done": done})
    add_never_cache_headers(response)
    response["Referrer-Policy"] = "no-referrer"
    return response


@login_required
@require_POST
def bot_secret_rotate(request, bot_id):
    """A new secret for the author's bot; the old one stops proving anything at once. The
    form carries the tag of the secret its page showed (none from a page older than tags):
    one replaced since, in another tab, is refused with the bot's page again (409), so the
    secret that tab showed stays the one in use."""
    try:
        with not_found_if_gone():
            bot = services.outside_bot_secret_rotate(
                bot=_own_bot(request, bot_id), by=request.user,
                secret_tag=request.POST.get("secret_tag") or None)
    except SecretReplaced as e:
        messages.error(request, e.message)
        bot = _own_bot(request, bot_id)  # as it is now, its form tagged with today's secret
        return _bot_page(request, BotForm(instance=bot), bot, status=409)
    except OutsideBotError as e:  # a hosted bot: its page offers no such button
        messages.error(request, e.message)
        return redirect("accounts:bot_edit", bot_id)
    return _secret_page(request, bot, "given a new secret")


@login_required
def bot_delete(request, bot_id):
    bot = _own_bot(request, bot_id)
    if request.method == "POST":
        try:
            with not_found_if_gone():
                services.outside_bot_delete(bot=bot, by=request.user)
        except OutsideBotError as e:
            messages.error(request, e.message)
        else:
            messages.success(request, f"Bot {bot.name} removed.")
        return redirect("accounts:bot_list")
    return render(request, "accounts/bot_delete.html", {"bot": bot})
