from django.urls import path

from league import views

app_name = "league"
urlpatterns = [
    path("", views.club_list, name="club_list"),
    path("seasons/<int:season_id>/", views.season_detail, name="season_detail"),
]
