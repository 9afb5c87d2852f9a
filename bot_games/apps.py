from django.apps import AppConfig


class BotGamesConfig(AppConfig):
    name = "bot_games"
    verbose_name = "Bot games"
