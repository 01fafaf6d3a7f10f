from django.contrib import admin
from django.contrib.auth import views as auth_views
from django.urls import include, path

from scoring.auth import RateLimitedLoginView

handler500 = "plumbing.busy.server_error"  # a busy SQLite is "busy, try again", never a server error

# Django's account pages without the password reset: no mail is sent from here, so
# a reset link would never arrive. An account's owner changes the password while
# logged in; a forgotten one is set again by an administrator (manage.py changepassword).
urlpatterns = [
    path("admin/", admin.site.urls),
    path("accounts/login/", RateLimitedLoginView.as_view(), name="login"),
    path("accounts/logout/", auth_views.LogoutView.as_view(), name="logout"),
    path("accounts/password_change/", auth_views.PasswordChangeView.as_view(), name="password_change"),
    path(
        "accounts/password_change/done/",
        auth_views.PasswordChangeDoneView.as_view(),
        name="password_change_done",
    ),
    path("i18n/", include("django.conf.urls.i18n")),
    path("", include("scoring.urls")),
]
