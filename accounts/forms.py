"""The sign-up form: a user name and a password twice."""

from __future__ import annotations

from typing import TYPE_CHECKING

from django.contrib.auth.forms import UserCreationForm
from django.contrib.auth.models import User

if TYPE_CHECKING:
    BaseSignupForm = UserCreationForm[User]
else:
    BaseSignupForm = UserCreationForm  # generic only for the type checker


class SignupForm(BaseSignupForm):
    """A user name and a password twice, checked by Django's password validators."""
