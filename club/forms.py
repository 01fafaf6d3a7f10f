"""Forms of the regular table: the group, invitations, seasons, payments.

They convert what was posted; the services in ``club.services.groups`` and
``club.services.kasse`` check it again and refuse with the field's name.
"""

from __future__ import annotations

from decimal import Decimal
from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from club.models import GroupPlayer
from club.services.groups import INVITATION_DAYS, MOST_USES
from club.services.kasse import BOX, MAX_AMOUNT, NOTE_LENGTH
from scoring.engine import InvalidInput
from scoring.public import DecimalTextField, render_line


def refuse(form: forms.Form, error: InvalidInput) -> None:
    """Show a service's refusal beside the input it names (or above the form)."""
    field = error.field if error.field in form.fields else None
    form.add_error(field, render_line(error.line))


def money_rate_field() -> DecimalTextField:
    return DecimalTextField(
        label=_("Money per point (optional)"),
        required=False,
        min_value=Decimal("0.0001"),
        max_value=Decimal("9999.9999"),
        max_digits=8,
        decimal_places=4,
        help_text=_("New evenings of the group start with this rate. Leave empty to settle in points."),
    )


class GroupForm(forms.Form):
    name = forms.CharField(label=_("Name of the group"), max_length=80)
    money_rate = money_rate_field()


# The currencies offered for a group's Kasse; any other sign of 1 to 3 characters is taken too.
CURRENCIES = ("€", "CHF", "$", "£")


class GroupSettingsForm(GroupForm):
    currency = forms.CharField(
        label=_("Currency"),
        max_length=3,
        required=False,  # left out: the group keeps its currency
        widget=forms.TextInput(attrs={"list": "currencies", "size": 4, "autocomplete": "off"}),
        help_text=_(
            "Shown with every amount of the Kasse and the money figures: €, CHF, $, £ or a sign of your own."
        ),
    )
    min_hands = forms.IntegerField(
        label=_("Hands for the ranking by average"),
        min_value=1,
        max_value=10000,
        help_text=_("The season table ranks by average per hand only players with at least this many hands."),
    )

    def clean_currency(self) -> str | None:
        return self.cleaned_data["currency"] or None


class InvitationForm(forms.Form):
    days = forms.TypedChoiceField(
        label=_("Valid for"),
        coerce=int,
        choices=[
            (days, _("%(n)s days") % {"n": days} if days > 1 else _("1 day")) for days in INVITATION_DAYS
        ],
        initial=7,
    )
    max_uses = forms.IntegerField(label=_("For how many people"), min_value=1, max_value=MOST_USES, initial=1)


class SeasonForm(forms.Form):
    name = forms.CharField(label=_("Name of the season"), max_length=80)
    starts_on = forms.DateField(label=_("From"), widget=forms.DateInput(attrs={"type": "date"}))
    ends_on = forms.DateField(label=_("To"), widget=forms.DateInput(attrs={"type": "date"}))


class PaymentForm(forms.Form):
    """Who paid whom how much: two of the roster's players, or a player and the box."""

    payer = forms.ChoiceField(label=_("Paid by"))
    payee = forms.ChoiceField(label=_("Paid to"))
    amount = DecimalTextField(
        label=_("Amount"),
        min_value=Decimal("0.01"),
        max_value=MAX_AMOUNT,
        max_digits=12,
        decimal_places=2,
    )
    note = forms.CharField(label=_("Note (optional)"), max_length=NOTE_LENGTH, required=False)

    def __init__(self, *args: Any, roster: list[GroupPlayer], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.roster = {str(player.pk): player for player in roster}
        choices = [
            ("", "–"),
            *[(key, player.name) for key, player in self.roster.items()],
            (BOX, _("the box")),
        ]
        for name in ("payer", "payee"):
            field = self.fields[name]
            assert isinstance(field, forms.ChoiceField)
            field.choices = choices

    def party(self, field: str) -> GroupPlayer | None:
        """The chosen player, or None for the box."""
        return self.roster.get(self.cleaned_data[field])

    def payment(self) -> dict[str, Any]:
        """The payment as ``kasse.payment_record`` takes it."""
        data = self.cleaned_data
        return {
            "payer": self.party("payer"),
            "payee": self.party("payee"),
            "amount": data["amount"],
            "note": data["note"],
        }
