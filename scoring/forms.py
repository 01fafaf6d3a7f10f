"""Forms: what was posted, in the session file's shape, and shown back.

``HandForm`` is a hand's entry for one game (dealer, the game's own fields from
the schema-form layer, a note); ``SessionForm`` opens a session. Forms convert;
the engine validates and scores.
"""

from __future__ import annotations

from collections.abc import Mapping
from decimal import Decimal
from typing import Any

from django import forms
from django.http import QueryDict
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from scoring.engine import HandType, InvalidInput, Line, Table
from scoring.engine.form_input import chosen_dealer, note_of, session_hand
from scoring.engine.schema import clean, name_problem
from scoring.engine.session_file import MAX_NAME
from scoring.models import REASON_LENGTH
from scoring.presentation import render_line, render_words
from scoring.schema_forms import DecimalTextField, SchemaForm, Widget, walk_widgets, widget_id
from scoring.services.games import Game

MAX_SEATS = 6
# What every hand has besides the game's own fields; their errors are the form's own.
COMMON_FIELDS = ("dealer", "note", "sitting_out", "type", "reason")


# -- hands -------------------------------------------------------------------------------


class HandForm:
    """Hand entry for one game: the dealer, the game's own fields, a note."""

    def __init__(
        self,
        game: Game,
        hand_type: HandType,
        *,
        data: QueryDict | None = None,
        initial: Mapping[str, Any] | None = None,
        dealer: str | None = None,
    ) -> None:
        variant, options = game.variant, game.options
        self.variant = variant
        self.players = game.players
        self.options = options
        self.hand_type = hand_type
        source: Mapping[str, Any] = data if data is not None else (initial or {})
        self.dealer = chosen_dealer(self.players, source.get("dealer"), dealer)
        table = Table(self.players, self.dealer, variant.sitting_out(self.players, self.dealer))
        self.sitting_out = table.sitting_out
        fields = () if hand_type is HandType.REDEAL else variant.form_fields(hand_type, table, options)
        self.seats = {name: seat for seat, name in enumerate(self.players, 1)}
        self.game = SchemaForm(
            fields,
            table.active,
            data=data,
            initial=initial,
            seats=self.seats,
            context={"dealer": self.dealer},
        )
        self.counter = (
            None
            if hand_type is HandType.REDEAL
            else variant.card_counter(hand_type, table, options, self.game.raw)
        )
        self.counter_form = (
            SchemaForm(self.counter.fields, table.active, prefix="count.", data=data)
            if self.counter is not None
            else None
        )
        self.counted: int | str | None = None
        self.note = note_of(source)
        # Why a stored hand is corrected (its correction form only): kept with the change.
        reason = source.get("reason") if data is not None else ""
        self.reason = reason if isinstance(reason, str) else ""
        self.errors: dict[str, list[str]] = {}
        self.other_errors: list[str] = []

    def raw(self) -> dict[str, Any]:
        """The hand in the session file's shape, ready for the services."""
        # The same reading as the phone's (scoring/engine/form_input.py: read_hand).
        return session_hand(self.dealer, self.hand_type, self.game.raw, self.note)

    def count_cards(self) -> None:
        """The card counter: count the cards by kind, put the points in the hand."""
        if self.counter is None or self.counter_form is None:
            return
        try:
            values = clean(self.counter.fields, self.counter_form.raw, self.game.players, "count.")
            points = self.counter.count(values)
        except InvalidInput as error:
            self.counter_form.add_error(
                InvalidInput.several(
                    [
                        InvalidInput(
                            "count." + p.field.replace("cards.", "", 1).removeprefix("count."),
                            p.line,
                            label=p.label,
                        )
                        for p in error.problems
                    ]
                )
            )
            return
        self.counted = points
        target = self.counter.target_for(values)
        if "." in target:
            field, player = target.split(".", 1)
            existing = self.game.raw.get(field)
            per_player = dict(existing) if isinstance(existing, Mapping) else {}
            per_player[player] = str(points)
            self.game.raw[field] = per_player
        else:
            self.game.raw[target] = str(points)
            self.game.typed.pop(target, None)  # counted: the recorded side's own points

    @property
    def counter_help(self) -> str:
        """What to count, where the game says (the declarer's discard in an opponents' valat)."""
        return render_line(self.counter.help) if self.counter is not None and self.counter.help else ""

    def counter_widgets(self) -> list[Widget]:
        return self.counter_form.widgets() if self.counter_form is not None else []

    def add_error(self, error: InvalidInput) -> None:
        """Every problem of a refusal beside its input, in the players' words."""
        game = []
        for problem in error.problems:
            if problem.field in COMMON_FIELDS:
                self.errors.setdefault(problem.field, []).append(render_words(problem))
            else:
                game.append(problem)
        if game:
            self.game.add_error(InvalidInput.several(game))

    @property
    def has_errors(self) -> bool:
        return bool(self.errors or self.game.errors or self.game.other_errors or self.other_errors)

    def drawn_inputs(self) -> list[str]:
        """The names of the inputs the form is drawn with, in its order: where a
        refusal's problems are placed, here and on the phone (the page carries them)."""
        return [
            w.name
            for w in walk_widgets(
                [self.dealer_widget(), *self.game.widgets(), self.note_widget(), self.reason_widget()]
            )
        ]

    def locate(self, error: InvalidInput) -> list[tuple[str, str]]:
        """Every problem of a refusal as (the id of the input it belongs to, the
        words), in the form's order: what the summary beside the save button lists."""
        drawn = self.drawn_inputs()
        known = set(drawn)
        placed = []
        for problem in map(self.game.reworded, error.problems):
            name = problem.field if problem.field in COMMON_FIELDS else self.game.place(problem, known)
            rank = drawn.index(name) if name in known else len(drawn)
            placed.append((rank, widget_id(name) if name in known else "hand-fields", render_words(problem)))
        return [(anchor, words) for _, anchor, words in sorted(placed, key=lambda item: item[0])]

    def refusal_words(self, error: InvalidInput | None = None) -> list[str]:
        """What a refused form says, each once, in the order its page shows it: the
        form's own errors, then each field's after its label (unless the words name
        the field already), the card counter's with them; where no field holds a
        problem, the summary beside the save button (``error``'s problems). What a
        phone sending its outbox keeps beside the hand (``scoring.hand_pages``)."""
        said = [" ".join([*self.other_errors, *self.game.other_errors])]
        said += self._field_words([self.dealer_widget(), *self.widgets()])
        if self.counter_form is not None:
            said.append(" ".join(self.counter_form.other_errors))
        said += self._field_words([*self.counter_widgets(), *self.rare_widgets()])
        said += self._field_words([self.note_widget(), self.reason_widget()])
        said = [" ".join(words.split()) for words in said if words.strip()]
        if not said and error is not None:
            said.append(" · ".join(words for _, words in self.locate(error)))
        return list(dict.fromkeys(said))

    @staticmethod
    def _field_words(widgets: list[Widget]) -> list[str]:
        """Each field's errors, after its label where they do not name it already (a
        checkbox's label holds the box: its error is said without it, as on the page)."""
        said = []
        for widget in walk_widgets(widgets):
            if widget.errors:
                words = " ".join(" ".join(widget.errors).split())
                label = "" if widget.kind == "checkbox" else " ".join(str(widget.label).split())
                said.append(f"{label}: {words}" if label and not words.startswith(label) else words)
        return said

    def conversions(self) -> list[Line]:
        """Points typed for the other side, and the recorded side's points."""
        return self.game.conversions()

    def dealer_widget(self) -> Widget:
        return Widget(
            name="dealer",
            kind="select",
            label=gettext("Dealer"),
            value=self.dealer,
            choices=[(p, p) for p in self.players],
            errors=self.errors.get("dealer", []),
            required=True,
            seats=self.seats,
            seat_source=any(f.other_than == "dealer" for f in self.game.fields),
        )

    def note_widget(self) -> Widget:
        return Widget(
            name="note",
            kind="text",
            label=gettext("Note"),
            value=self.note,
            errors=self.errors.get("note", []),
            # The last field: the keypad's key saves here (elsewhere it moves on).
            attrs={"maxlength": "500", "enterkeyhint": "go"},
        )

    def reason_widget(self) -> Widget:
        return Widget(
            name="reason",
            kind="text",
            label=gettext("Why it is corrected"),
            help=gettext("Optional: shown with the hand, in its history."),
            value=self.reason,
            errors=self.errors.get("reason", []),
            attrs={"maxlength": str(REASON_LENGTH), "enterkeyhint": "go"},
        )

    def widgets(self) -> list[Widget]:
        return [w for w in self.game.widgets() if not w.rare]

    def rare_widgets(self) -> list[Widget]:
        """Inputs seldom needed (poignées, chelem …), folded away while empty."""
        return [w for w in self.game.widgets() if w.rare]


# -- sessions ------------------------------------------------------------------------------


class SessionBasics(forms.Form):
    """What a session is called and its money per point: asked when it is opened,
    changed on its settings page."""

    name = forms.CharField(label=_("Name"), max_length=80)
    money_rate = DecimalTextField(
        label=_("Money per point (optional)"),
        required=False,
        min_value=Decimal("0.0001"),
        max_digits=8,
        decimal_places=4,
        help_text=_("For example 0.01 for one cent a point. Leave empty to settle in points."),
    )

    def clean_name(self) -> str:
        """The session's name, held to the session file's rules for names (text that shows)."""
        name: str = self.cleaned_data["name"]
        problem = name_problem(name)
        if problem is not None:
            raise forms.ValidationError(render_line(problem))
        return name


class SessionForm(SessionBasics):
    """Name, players in playing order, who deals first, an optional money rate;
    house rules come from the game's own fields (``SchemaForm`` with prefix ``options.``)."""

    def __init__(self, *args: Any, seats: int = MAX_SEATS, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.seats = seats
        for seat in range(1, seats + 1):
            self.fields[f"seat_{seat}"] = forms.CharField(
                label=_("Seat %(n)s") % {"n": seat}, max_length=MAX_NAME, required=False
            )
        self.fields["first_dealer"] = forms.TypedChoiceField(
            label=_("Deals the first hand"),
            choices=[(seat, _("Seat %(n)s") % {"n": seat}) for seat in range(1, seats + 1)],
            coerce=int,
            initial=1,
            required=False,  # a form from before this was asked: the first seat, as it shows
            empty_value=None,
            help_text=_("The deal then passes round the table in playing order."),
        )

    def seat_fields(self) -> list[forms.BoundField]:
        return [self[f"seat_{seat}"] for seat in range(1, self.seats + 1)]

    def players(self) -> list[str]:
        return [
            self.cleaned_data[f"seat_{seat}"].strip()
            for seat in range(1, self.seats + 1)
            if self.cleaned_data.get(f"seat_{seat}", "").strip()
        ]

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        for place in range(1, self.seats + 1):
            # Each name beside its seat, held to the rules for names (text that shows).
            name = str(data.get(f"seat_{place}", "")).strip()
            problem = name_problem(name) if name else None
            if problem is not None:
                self.add_error(f"seat_{place}", render_line(problem))
        seat = data.get("first_dealer") or 1
        if not str(data.get(f"seat_{seat}", "")).strip() and self.players_given(data):
            self.add_error("first_dealer", _("Seat %(n)s has no player.") % {"n": seat})
        return data

    def players_given(self, data: dict[str, Any]) -> bool:
        return any(str(data.get(f"seat_{seat}", "")).strip() for seat in range(1, self.seats + 1))

    def first_dealer(self) -> str:
        seat = self.cleaned_data.get("first_dealer") or 1
        return str(self.cleaned_data[f"seat_{seat}"]).strip()


class SessionDetailsForm(SessionBasics):
    """A session's name, the day it was played, its money per point."""

    played_on = forms.DateField(
        label=_("Played on"),
        widget=forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d"),
        input_formats=["%Y-%m-%d"],
    )
