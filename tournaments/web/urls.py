from django.urls import path

from tournaments.web import views

app_name = "gameplay"  # the URL names pages and links were written with

urlpatterns = [
    path("clubs/<int:club_id>/new/", views.tournament_create, name="tournament_create"),
    path("<int:pk>/", views.tournament_detail, name="tournament"),
    path("<int:pk>/progress.json", views.tournament_progress, name="tournament_progress"),
    path("<int:pk>/start/", views.tournament_start, name="tournament_start"),
    path("<int:pk>/cancel/", views.tournament_cancel, name="tournament_cancel"),
    path("<int:pk>/resume/", views.tournament_resume, name="tournament_resume"),
    path("games/<int:pk>/deals/<int:number>/replay/", views.deal_replay, name="deal_replay"),
    path("outside-bots/<slug:name>/", views.outside_bot_detail, name="outside_bot"),
]
