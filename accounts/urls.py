from django.contrib.auth import views as auth_views
from django.urls import path

from accounts import views
from accounts.auth import RateLimitedLoginView

# Django's account pages without the password reset: no mail is sent from here, so
# a reset link would never arrive. An account's owner changes the password while
# logged in; a forgotten one is set again by an administrator (manage.py changepassword).
urlpatterns = [
    path("accounts/login/", RateLimitedLoginView.as_view(), name="login"),
    path("accounts/logout/", auth_views.LogoutView.as_view(), name="logout"),
    path("accounts/password_change/", auth_views.PasswordChangeView.as_view(), name="password_change"),
    path(
        "accounts/password_change/done/",
        auth_views.PasswordChangeDoneView.as_view(),
        name="password_change_done",
    ),
    path("accounts/signup/", views.signup, name="signup"),
    path("join/<str:token>/", views.join, name="join"),
    path("join/<str:token>/signup/", views.join_signup, name="join_signup"),
]
