"""The organiser's forms: a tournament and its settings, entrants, the desk, cups.

They convert what was posted; the services in ``tournaments.services`` check it
again and refuse with the field's name (shown beside the input by ``refuse``).
"""

from __future__ import annotations

import re
from decimal import Decimal
from typing import Any

from django import forms
from django.contrib.auth.models import User
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext

from club.models import Group
from scoring.public import DecimalTextField
from tournaments.models import Cup, SideRanking, TeamKind
from tournaments.services.tournaments import MOST_HANDS, MOST_ROUNDS, defaults, terms

# A date field's value as <input type="date"> takes it whatever the language:
# German's 25.11.2026 would leave the field empty and the form unsendable.
ISO_DAY = "%Y-%m-%d"

# What each setting's values are called on the page (§11).
SETTING_CHOICES: dict[str, list[tuple[str, Any]]] = {
    "kontra_cash": [
        ("per_hand", _("paid after each hand")),
        ("with_round", _("settled with the round")),
        ("charity", _("into the charity box")),
    ],
    "late_entry": [
        ("before_round_1", _("only before round 1 is played (round 1 is drawn again)")),
        ("any_round", _("in any round (from the next round not yet released)")),
    ],
    "withdrawn": [
        ("ranked", _("ranked by his total")),
        ("below_finishers", _("ranked below those who finished")),
    ],
    "short_field": [
        ("filler", _("add fillers")),
        ("bye", _("byes (0 points for that round)")),
    ],
    "draw_timing": [
        ("upfront", _("all rounds at the start")),
        ("per_round", _("each round at its release")),
    ],
    "avoid_repeats": [
        ("minimise", _("as few repeat meetings as possible")),
        ("off", _("pure chance")),
    ],
    "table_seating": [
        ("slip", _("seats and first dealer from the draw")),
        ("at_table", _("the players draw cards at the table")),
    ],
    "last_round": [
        ("drawn", _("drawn like the others")),
        ("by_standings", _("seated by the standings")),
    ],
    "signoff": [
        ("scorer_and_check", _("the scorer and one other player")),
        ("scorer", _("the scorer alone")),
        ("organiser", _("the organiser confirms")),
    ],
    "tie_break": [
        ("better_rounds", _("the better rounds, then lots")),
        ("tirol_2019", _("best round, table ranks, then lots (Tirol 2019)")),
    ],
}

SETTING_LABELS = {
    "kontra_cash": _("Kontra money"),
    "late_entry": _("Late entries"),
    "withdrawn": _("Who leaves early"),
    "short_field": _("Too few players for the tables"),
    "draw_timing": _("Draw"),
    "avoid_repeats": _("Meeting again"),
    "table_seating": _("Seats at the table"),
    "last_round": _("Last round"),
    "signoff": _("Who signs a table"),
    "tie_break": _("Equal totals"),
}

PRIZE_LINE = re.compile(r"^\s*(\d{1,3})\s*(?:[-–]\s*(\d{1,3}))?\s*[:.]?\s*(.*?)\s*$")
PRIZE_AMOUNT = re.compile(r"^(?:€\s*)?(\d{1,5}(?:[.,]\d{1,2})?)\s*€?(?:\s+(.*))?$")


def parse_prizes(text: str) -> list[dict[str, Any]] | None:
    """ "1: 120", "4-25: Sachpreis", "2: 80 Pokal" per line; None if a line is not like that."""
    prizes: list[dict[str, Any]] = []
    for line in text.splitlines():
        if not line.strip():
            continue
        found = PRIZE_LINE.match(line)
        if found is None or not found.group(3):
            return None
        low = int(found.group(1))
        high = int(found.group(2) or low)
        money = PRIZE_AMOUNT.match(found.group(3))
        if money is not None:
            amount, text_part = money.group(1).replace(",", "."), money.group(2) or ""
        else:
            amount, text_part = None, found.group(3)
        prizes.append({"from": low, "to": high, "text": text_part, "amount": amount})
    return prizes


def prizes_text(prizes: list[dict[str, Any]]) -> str:
    lines = []
    for prize in prizes:
        places = str(prize["from"]) if prize["from"] == prize["to"] else f"{prize['from']}-{prize['to']}"
        what = " ".join(part for part in (prize.get("amount") or "", prize.get("text") or "") if part)
        lines.append(f"{places}: {what}")
    return "\n".join(lines)


def _minutes(label: Any, help_text: Any, least: int = 1) -> forms.IntegerField:
    return forms.IntegerField(
        label=label, required=False, min_value=least, max_value=600, help_text=help_text
    )


class TournamentForm(forms.Form):
    """A tournament's name, day, money and every setting of §11 (house rules apart)."""

    name = forms.CharField(label=_("Name of the tournament"), max_length=80)
    played_on = forms.DateField(
        label=_("Day"), widget=forms.DateInput(attrs={"type": "date"}, format=ISO_DAY)
    )
    rounds = forms.IntegerField(label=_("Rounds"), min_value=1, max_value=MOST_ROUNDS)
    hands_at_four = forms.IntegerField(
        label=_("Hands at a table of four"),
        min_value=1,
        max_value=MOST_HANDS,
        help_text=_("1 to 60; cups play 16 or 20."),
    )
    hands_at_five = forms.IntegerField(
        label=_("Hands at a table of five"),
        min_value=1,
        max_value=MOST_HANDS,
        required=False,
        help_text=_("Empty: × 5/4 of the hands at four, rounded up, so each player deals as often."),
    )
    money_rate = DecimalTextField(
        label=_("Money per point (optional)"),
        required=False,
        min_value=Decimal("0.0001"),
        max_value=Decimal("9999.9999"),
        max_digits=8,
        decimal_places=4,
        help_text=_("Settled at each table after the round; empty: no money."),
    )
    entry_fee = DecimalTextField(
        label=_("Entry fee (optional)"),
        required=False,
        min_value=Decimal("0"),
        max_value=Decimal("99999.99"),
        max_digits=7,
        decimal_places=2,
        help_text=_("Shown at registration and summed on the prize list; not booked anywhere."),
    )
    round_minutes = _minutes(
        _("Minutes per round (optional)"), _("Only shows a countdown; nothing ends by itself.")
    )
    complaint_minutes = _minutes(
        _("Minutes for complaints"),
        _(
            "After the last table, before the organiser makes the ranking final; "
            "0 or empty: it can be made final at once."
        ),
        least=0,
    )
    rank_points = forms.CharField(
        label=_("Points per table rank (optional)"),
        required=False,
        max_length=40,
        help_text=_("Added to the total, such as 60, 40, 20, 0; empty: none."),
    )
    prizes = forms.CharField(
        label=_("Prizes (optional)"),
        required=False,
        max_length=4000,
        widget=forms.Textarea(attrs={"rows": 4}),
        help_text=_("One line per prize: place and amount or text, such as 1: 120 or 4-25: Sachpreis."),
    )
    prize_raffle = forms.BooleanField(
        label=_("Raffle material prizes among those present"),
        required=False,
        help_text=_(
            "Prizes with an amount go by place; prizes with only a text are drawn on the prize list "
            "page among those present, once the ranking is final."
        ),
    )
    organisers = forms.CharField(
        label=_("Co-organisers (optional)"),
        required=False,
        max_length=400,
        help_text=_("User names, separated by commas: they run the day with you."),
    )
    cup_final = forms.BooleanField(label=_("This is the cup's final"), required=False)
    cup_factor = forms.TypedChoiceField(
        label=_("Cup points"),
        choices=[(1, _("single")), (2, _("double"))],
        coerce=int,
        initial=1,
    )

    PEOPLE = ("name", "played_on", "organisers", "group", "cup", "cup_final", "cup_factor")

    def __init__(self, *args: Any, variant: str, user: User, fixed: bool = False, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.variant = variant
        kontra = terms(variant).kontra_cash
        for key, choices in SETTING_CHOICES.items():
            if key == "kontra_cash" and not kontra:
                continue
            self.fields[key] = forms.ChoiceField(label=SETTING_LABELS[key], choices=choices)
        groups = Group.objects.filter(memberships__user=user).order_by("name")
        self.fields["group"] = forms.ModelChoiceField(
            queryset=groups, required=False, label=_("Group (optional)"), empty_label=_("none")
        )
        cups = Cup.objects.filter(owner=user, deleted_at__isnull=True)
        self.fields["cup"] = forms.ModelChoiceField(
            queryset=cups, required=False, label=_("Cup (optional)"), empty_label=_("none")
        )
        chain = self.initial.get("tie_break")
        if isinstance(chain, list):  # a list of criteria (from a tournament file) is kept as it is
            self.initial["tie_break"] = ",".join(chain)
            tie_break = self.fields["tie_break"]
            assert isinstance(tie_break, forms.ChoiceField)
            tie_break.choices = [*SETTING_CHOICES["tie_break"], (",".join(chain), ", ".join(chain))]
        if fixed:  # round 1 is drawn: the settings are shown, and kept as they are
            for name, field in self.fields.items():
                field.disabled = name not in self.PEOPLE

    @staticmethod
    def initial_for(variant: str) -> dict[str, Any]:
        values = defaults(variant)
        values["prizes"] = prizes_text(values["prizes"])
        values["rank_points"] = ""
        return values

    def clean_rank_points(self) -> list[int] | None:
        raw = self.cleaned_data.get("rank_points", "").replace(";", ",")
        parts = [p.strip() for p in raw.split(",") if p.strip()]
        if not all(p.isdecimal() and p.isascii() for p in parts):
            raise forms.ValidationError(_("Whole numbers separated by commas, such as 60, 40, 20, 0."))
        return [int(p) for p in parts] or None

    def clean_prizes(self) -> list[dict[str, Any]]:
        parsed = parse_prizes(self.cleaned_data.get("prizes", ""))
        if parsed is None:
            raise forms.ValidationError(_("One line per prize: place and amount or text, such as 1: 120."))
        return parsed

    def settings(self) -> dict[str, Any]:
        """The settings as ``tournament_create`` takes them."""
        data = self.cleaned_data
        chosen = {key: data[key] for key in SETTING_CHOICES if key in data}
        if chosen.get("tie_break") not in (None, *dict(SETTING_CHOICES["tie_break"])):
            chosen["tie_break"] = chosen["tie_break"].split(",")  # the tournament's own list of criteria
        chosen.update(
            rounds=data["rounds"],
            hands_at_four=data["hands_at_four"],
            entry_fee=str(data["entry_fee"]) if data.get("entry_fee") is not None else None,
            round_minutes=data.get("round_minutes"),
            complaint_minutes=data.get("complaint_minutes"),
            rank_points=data.get("rank_points"),
            prizes=data.get("prizes") or [],
            prize_raffle=bool(data.get("prize_raffle")),
        )
        if data.get("hands_at_five"):
            chosen["hands_at_five"] = data["hands_at_five"]
        return chosen

    def others(self) -> dict[str, Any]:
        """Name, day, money, group, cup and co-organisers, as ``tournament_create`` takes them."""
        data = self.cleaned_data
        return {
            "name": data["name"],
            "played_on": data["played_on"],
            "money_rate": data.get("money_rate"),
            "cup": data.get("cup"),
            "cup_final": bool(data.get("cup_final")),
            "cup_factor": data.get("cup_factor") or 1,
            "organisers": [n for n in re.split(r"[,\s]+", data.get("organisers", "")) if n],
        }


class EntrantForm(forms.Form):
    name = forms.CharField(label=_("Name"), max_length=40)
    place = forms.CharField(label=_("Place or club (optional)"), max_length=60, required=False)
    filler = forms.BooleanField(label=_("Filler (plays, is not ranked)"), required=False)
    fee_paid = forms.BooleanField(label=_("Entry fee paid"), required=False)
    roster = forms.BooleanField(label=_("A new name joins the group's roster"), required=False, initial=True)


class SeedForm(forms.Form):
    seed = forms.CharField(
        label=_("Draw number (optional)"),
        required=False,
        max_length=6,
        widget=forms.TextInput(attrs={"inputmode": "numeric", "autocomplete": "off", "size": 7}),
        help_text=_(
            "Six digits; empty: the server picks one. The same number and entrants give the same plan."
        ),
    )


class ReasonForm(forms.Form):
    reason = forms.CharField(label=_("Reason"), max_length=200)


class CupForm(forms.Form):
    name = forms.CharField(label=_("Name of the cup"), max_length=80)
    season = forms.CharField(label=_("Season"), max_length=40, help_text=_("Such as 2025/26."))
    starts_on = forms.DateField(
        label=_("First day (optional)"),
        required=False,
        widget=forms.DateInput(attrs={"type": "date"}, format=ISO_DAY),
    )
    ends_on = forms.DateField(
        label=_("Last day (optional)"),
        required=False,
        widget=forms.DateInput(attrs={"type": "date"}, format=ISO_DAY),
    )
    scheme = forms.ChoiceField(label=_("Cup points"), choices=Cup.Scheme.choices)
    points_table = forms.CharField(
        label=_("Own points table"),
        required=False,
        max_length=1000,
        help_text=_("Only for the own table: the points of places 1, 2, … separated by commas; 0 beyond."),
    )
    best_n = forms.CharField(
        label=_("Results counted"),
        max_length=8,
        initial="6",
        help_text=_(
            "How many of each player's results count: a number (6: the best six), “all” (every result) "
            "or “half” (the better half)."
        ),
    )
    final_mode = forms.ChoiceField(label=_("The final"), choices=Cup.FinalMode.choices)

    def __init__(self, *args: Any, user: User, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["group"] = forms.ModelChoiceField(
            queryset=Group.objects.filter(memberships__user=user).order_by("name"),
            required=False,
            label=_("Group (optional)"),
            empty_label=_("none"),
        )

    def clean_best_n(self) -> str:
        """The words "all" and "half" in the reader's language, as the cup stores them."""
        value = str(self.cleaned_data.get("best_n", "")).strip()
        words = {
            pgettext("results counted", "all").casefold(): "all",
            pgettext("results counted", "half").casefold(): "half",
        }
        return words.get(value.casefold(), value)

    def clean_points_table(self) -> list[int]:
        raw = self.cleaned_data.get("points_table", "").replace(";", ",")
        parts = [p.strip() for p in raw.split(",") if p.strip()]
        if not all(p.isdecimal() and p.isascii() for p in parts):
            raise forms.ValidationError(_("Whole numbers separated by commas, such as 100, 80, 60."))
        return [int(p) for p in parts]


# -- the circuit (§14.1) ------------------------------------------------------------------


class CircuitForm(forms.Form):
    name = forms.CharField(label=_("Name of the circuit"), max_length=80)
    season = forms.CharField(label=_("Season"), max_length=40, help_text=_("Such as 2025/26."))


class RegisterEntryForm(forms.Form):
    """A player typed into the circuit's register; its categories are the circuit's."""

    family = forms.CharField(label=_("Family name"), max_length=40)
    given = forms.CharField(label=_("Given name"), max_length=40, required=False)
    place = forms.CharField(label=_("Town"), max_length=40, required=False)
    categories = forms.MultipleChoiceField(
        label=_("Categories"), required=False, widget=forms.CheckboxSelectMultiple
    )
    public_name = forms.ChoiceField(
        label=_("Name on public pages"),
        choices=[("full", _("Huber Maria (full)")), ("short", _("Huber M. (short)"))],
        initial="full",
    )
    keep_apart = forms.BooleanField(
        label=_("Someone else of the same name and place: add with a number of her own"), required=False
    )

    def __init__(self, *args: Any, categories: list[str], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["categories"].choices = [(c, c) for c in categories]  # type: ignore[attr-defined]


class PublicNameForm(forms.Form):
    """How a register entry's name reads on public pages (§14.1)."""

    public_name = forms.ChoiceField(
        label=_("Name on public pages"),
        choices=[("full", _("Huber Maria (full)")), ("short", _("Huber M. (short)"))],
        error_messages={"invalid_choice": _("one of: full, short"), "required": _("one of: full, short")},
    )

    def __init__(self, *args: Any, names: tuple[str, str] | None = None, **kwargs: Any) -> None:
        """``names``: the entry's own name in full and short, shown as the choices."""
        super().__init__(*args, **kwargs)
        if names is not None:
            self.fields["public_name"].choices = [("full", names[0]), ("short", names[1])]  # type: ignore[attr-defined]


class RegisterImportForm(forms.Form):
    file = forms.FileField(
        label=_("CSV file"),
        help_text=_(
            "Columns Nr;Familienname;Vorname;Ort;Kategorien, UTF-8, at most 2 MB; an empty Nr is a new player."
        ),
    )


class RegisterMergeForm(forms.Form):
    number = forms.IntegerField(label=_("Number"), min_value=1, max_value=999_999)
    other = forms.IntegerField(
        label=_("is the same person as number"),
        min_value=1,
        max_value=999_999,
        help_text=_("The lower number stays; the higher one still finds the player."),
    )


# -- the final of the circuit (§14.7) and its file (§14.10) ---------------------------------


class CupTierForm(forms.Form):
    """A cup's tier, its ``min_events`` and whether it qualifies, set by the circuit's organisers."""

    cup = forms.IntegerField(widget=forms.HiddenInput, min_value=1)
    tier = forms.ChoiceField(
        label=_("Tier"),
        choices=[
            ("A", _("A (80 places)")),
            ("B", _("B (60 places)")),
            ("C", _("C (40 places)")),
            ("custom", _("own table")),
        ],
    )
    tier_table = forms.CharField(
        label=_("Own table"),
        required=False,
        max_length=4000,
        help_text=_("Vorrundenpunkte of season places 1, 2, …, separated by commas."),
    )
    min_events = forms.IntegerField(label=_("Tournaments to qualify"), min_value=1, max_value=40)
    qualifies = forms.BooleanField(label=_("Qualifies for the final"), required=False)


class CircuitFinalForm(forms.Form):
    """The season's final: a tournament of a cup of the circuit, and whether it is open."""

    final = forms.TypedChoiceField(label=_("The final"), coerce=int, empty_value=None, required=False)
    open_final = forms.BooleanField(
        label=_("Open final: players who did not qualify may be entered (0 Vorrundenpunkte)"), required=False
    )

    def __init__(self, *args: Any, choices: list[tuple[str, str]], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["final"].choices = [("", _("no final yet")), *choices]  # type: ignore[attr-defined]


class PrizeLinesForm(forms.Form):
    """Prizes typed one per line for places 1, 2, … (side rankings, teams)."""

    prizes = forms.CharField(
        label=_("Prizes (optional)"),
        required=False,
        max_length=5000,
        widget=forms.Textarea(attrs={"rows": 3}),
        help_text=_("One prize per line, for places 1, 2, …"),
    )

    def clean_prizes(self) -> list[str]:
        return [line.strip() for line in self.cleaned_data["prizes"].splitlines() if line.strip()]


class SideRankingForm(PrizeLinesForm):
    """A side ranking of a cup or a tournament (§14.4): ``kinds`` are the filters it may use."""

    field_order = ["name", "kind", "value", "prizes", "one_prize_per_player"]

    name = forms.CharField(
        label=_("Name of the side ranking"), max_length=60, help_text=_("Such as Damenwertung.")
    )
    kind = forms.ChoiceField(label=_("Who or what it counts"))
    value = forms.CharField(
        label=_("Category, region or town"),
        max_length=40,
        help_text=_("The register's category (Damen), the venue region (Wien) or the home town (Steyr)."),
    )
    one_prize_per_player = forms.BooleanField(
        label=_("One prize per player: a prize of the main ranking stands, this one passes down"),
        required=False,
        initial=True,
    )

    def __init__(self, *args: Any, kinds: tuple[str, ...], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        labels = dict(SideRanking.Kind.choices)
        field = self.fields["kind"]
        assert isinstance(field, forms.ChoiceField)
        field.choices = [(kind, labels[kind]) for kind in kinds]


class RegionForm(forms.Form):
    region = forms.CharField(
        label=_("Venue region"),
        required=False,
        max_length=60,
        help_text=_("Such as Wien or Niederösterreich: what a cup's side ranking by region counts."),
    )


class TeamSettingsForm(PrizeLinesForm):
    """The kind of teams a tournament plays, what a club counts, the team prizes (§14.6)."""

    field_order = ["kind", "team_best", "prizes"]

    kind = forms.ChoiceField(label=_("Teams"), choices=TeamKind.choices)
    team_best = forms.IntegerField(
        label=_("Best members a club counts"),
        min_value=1,
        max_value=20,
        initial=4,
        help_text=_("Only for clubs: the team's result is the sum of its best members' totals."),
    )


class TeamForm(forms.Form):
    """A team: its name and its members, picked from the tournament's players."""

    name = forms.CharField(label=_("Name of the team"), max_length=60)
    members = forms.TypedMultipleChoiceField(
        label=_("Members"), coerce=int, widget=forms.CheckboxSelectMultiple, required=False
    )

    def __init__(self, *args: Any, entrants: list[tuple[int, str]], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        field = self.fields["members"]
        assert isinstance(field, forms.TypedMultipleChoiceField)
        field.choices = [(number, f"{number}. {name}") for number, name in entrants]
