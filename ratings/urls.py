from django.urls import path

from plumbing.converters import IdConverter as IdConverter  # registers <id:…>
from ratings import views

urlpatterns = [
    path("rating/", views.rating_mine, name="rating_mine"),
    path("rating/history.csv", views.rating_csv, name="rating_csv"),
    path("groups/<id:gid>/ratings/", views.group_ratings, name="group_ratings"),
    path("cups/<id:cid>/ratings/", views.cup_ratings, name="cup_ratings"),
    path("circuits/<id:kid>/ratings/", views.circuit_ratings, name="circuit_ratings"),
]
