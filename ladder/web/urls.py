from django.urls import path

from ladder.web import views

app_name = "ladder"
urlpatterns = [
    path("", views.table, name="table"),
    path("table.json", views.table_json, name="table_json"),
    path("mine/", views.mine, name="mine"),
    path("bots/<int:entry_id>/", views.bot, name="bot"),
    path("bots/<int:entry_id>/now.json", views.bot_json, name="bot_json"),
    path("bots/<int:entry_id>/resume/", views.resume, name="resume"),
    path("bots/<int:entry_id>/pause/", views.pause, name="pause"),
    path("bots/<int:entry_id>/new-version/", views.new_version, name="new_version"),
    path("bots/<int:entry_id>/challenge/", views.challenge, name="challenge"),
    path("games/<int:game_id>/", views.game, name="game"),
    path("games/<int:game_id>/transcript.json", views.transcript, name="transcript"),
]
