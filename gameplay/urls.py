from django.urls import path

from gameplay import views

app_name = "gameplay"

urlpatterns = [
    path("<int:pk>/", views.tournament_detail, name="tournament"),
    path("<int:pk>/progress.json", views.tournament_progress, name="tournament_progress"),
]
