from django.contrib import admin
from django.urls import include, path

handler500 = "plumbing.busy.server_error"  # a busy SQLite is "busy, try again", never a server error

urlpatterns = [
    path("admin/", admin.site.urls),
    path("", include("accounts.urls")),
    path("i18n/", include("django.conf.urls.i18n")),
    path("", include("scoring.urls")),
    path("", include("club.urls")),
    path("", include("tournaments.urls")),
    path("", include("tournaments.public_urls")),
    path("", include("tournaments.circuit_urls")),
    path("", include("ratings.urls")),
]
