"""Players, sessions and hands. Models hold data and constraints; scoring is
done by the engine through ``services``.

A hand stores its inputs exactly as the session file writes them, plus a
snapshot of what the engine computed (deltas, breakdown, a short description),
so a later change to the engine never silently rewrites an old score sheet.
"""

from __future__ import annotations

from decimal import Decimal
from fractions import Fraction
from typing import Any

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils import timezone
from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _

from scoring.engine import HandType, Line, StoredHand
from scoring.engine.session_file import hand_document
from scoring.engine.types import line_from_json, points_from_json
from scoring.games import registry

NAME_LENGTH = 40


def variant_choices() -> list[tuple[str, str | Promise]]:
    """The games, from the registry: a new game needs no change here, and no
    migration (the choices are read whenever they are asked for; the database
    keeps no list of games, the services and forms check the key)."""
    return [(key, _(variant.name)) for key, variant in registry().items()]


def hand_type_choices() -> list[tuple[str, str | Promise]]:
    """Every game's kinds of hand, from the registry (a game's own kinds come with it)."""
    kinds = {kind.value: kind for variant in registry().values() for kind in variant.hand_types}
    return [(value, _(kind.label)) for value, kind in kinds.items()]


class Player(models.Model):
    """Someone a user plays with; reusable across that user's sessions."""

    owner = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="players")
    name = models.CharField(_("name"), max_length=NAME_LENGTH)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["name"]
        constraints = [models.UniqueConstraint(fields=["owner", "name"], name="player_name_unique_per_owner")]

    def __str__(self) -> str:
        return self.name


class Session(models.Model):
    """One evening at one table: a game, its house rules, the players in playing order."""

    owner = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="tarock_sessions"
    )
    name = models.CharField(_("name"), max_length=80)
    # The day the session was played: the day it was opened, or the session file's date.
    played_on = models.DateField(_("played on"), default=timezone.localdate)
    variant = models.CharField(_("game"), max_length=20, choices=variant_choices)
    # Every house rule, defaults included, so a later change of a default
    # cannot change an old session.
    options = models.JSONField(default=dict)
    money_rate = models.DecimalField(
        _("money per point"), max_digits=8, decimal_places=4, null=True, blank=True
    )
    # Anyone with the link sees the sheet read-only; empty: not shared. Revoking
    # replaces or clears it, so an old link stops working.
    share_token = models.CharField(max_length=64, null=True, blank=True, unique=True)
    # Other registered users who may record and correct hands.
    editors = models.ManyToManyField(settings.AUTH_USER_MODEL, blank=True, related_name="edited_sessions")
    created_at = models.DateTimeField(auto_now_add=True)
    # A closed evening takes no more hands until its owner reopens it.
    closed_at = models.DateTimeField(null=True, blank=True)
    # Deleted by its owner: gone from every page, restorable for RESTORABLE_DAYS.
    deleted_at = models.DateTimeField(null=True, blank=True)
    # Who deals the first hand, asked when the session is opened; blank for
    # sessions that did not ask (the last in playing order deals first).
    first_dealer = models.CharField(max_length=NAME_LENGTH, blank=True, default="")
    # Goes up with every change that shows on the sheet (a hand recorded,
    # corrected, deleted or restored, …): pages, the shared board and the PDF
    # are cached per version, and a watching phone compares it.
    version = models.PositiveIntegerField(default=1)
    changed_at = models.DateTimeField(null=True, blank=True)
    # A session played to a number of hands (a tournament's table-round): the
    # hand form closes at it; redeals do not count toward it.
    hands_target = models.PositiveSmallIntegerField(null=True, blank=True)
    # Run by something else (a tournament): its options and players are locked,
    # and it is not closed, reopened or deleted on its own.
    managed = models.BooleanField(default=False)

    class Meta:
        ordering = ["-created_at", "-id"]
        constraints = [
            models.CheckConstraint(
                condition=Q(money_rate__isnull=True) | Q(money_rate__gt=Decimal(0)),
                name="session_money_rate_positive",
            ),
        ]

    def __str__(self) -> str:
        return self.name

    @property
    def is_closed(self) -> bool:
        return self.closed_at is not None

    @property
    def is_deleted(self) -> bool:
        return self.deleted_at is not None

    @property
    def sheet_key(self) -> str:
        """This version of the session's sheet, for cache keys. The creation time
        keeps a session apart from another that got the same id in a database
        set up anew while the cache lived on."""
        return f"{self.pk}.{self.version}.{self.created_at.timestamp():.6f}"


class Seat(models.Model):
    """A player's place at a session's table, with the name as written on its sheet."""

    session = models.ForeignKey(Session, on_delete=models.CASCADE, related_name="seats")
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="seats")
    position = models.PositiveSmallIntegerField()
    name = models.CharField(max_length=NAME_LENGTH)

    class Meta:
        ordering = ["position"]
        constraints = [
            models.UniqueConstraint(fields=["session", "position"], name="seat_position_unique"),
            models.UniqueConstraint(fields=["session", "name"], name="seat_name_unique"),
            models.UniqueConstraint(fields=["session", "player"], name="seat_player_unique"),
        ]

    def __str__(self) -> str:
        return self.name


class Hand(models.Model):
    """One hand as recorded, with the engine's result at the time it was scored."""

    session = models.ForeignKey(Session, on_delete=models.CASCADE, related_name="hands")
    # Order of recording, never reused; the sheet numbers the live hands 1, 2, 3 …
    number = models.PositiveIntegerField()
    type = models.CharField(max_length=12, choices=hand_type_choices, default=HandType.PLAYED.value)
    dealer = models.CharField(max_length=NAME_LENGTH, blank=True)
    sitting_out = models.CharField(max_length=NAME_LENGTH, blank=True)
    inputs = models.JSONField(default=dict)  # the game's fields, as in the session file
    note = models.CharField(max_length=500, blank=True)
    deltas = models.JSONField(default=dict)  # {name: number}, every player of the session
    # What the hand pays where that differs from what it writes (engine
    # ``HandScore.money``: Königrufen's Schrift without Kontra beside the money
    # with it); null where the deltas are both.
    money = models.JSONField(null=True, blank=True, default=None)
    breakdown = models.JSONField(default=list)  # engine Lines as JSON
    description = models.JSONField(default=dict)  # the hand in short, an engine Line as JSON
    # What the game's sections need to know of the hand (engine ``hand_facts``),
    # so the sheet is summed from what was stored without reading the inputs again.
    facts = models.JSONField(default=list)
    # What statistics across evenings keep of the hand (engine ``HandStats``):
    # kind, each seat's part, who won, marks; written with the snapshot.
    stats = models.JSONField(default=dict)
    version = models.PositiveIntegerField(default=1)
    client_token = models.CharField(max_length=64, blank=True, default="")
    # What the form that carried client_token held: the same token with other
    # inputs (a form brought back with the browser's Back button) is a new hand.
    client_digest = models.CharField(max_length=32, blank=True, default="")
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)
    deleted_at = models.DateTimeField(null=True, blank=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    # The phone that recorded it, by the short label it goes by ("Handy 3F2A"),
    # where a link, not an account, let it record.
    device = models.CharField(max_length=40, blank=True, default="")

    class Meta:
        ordering = ["number"]
        constraints = [
            models.UniqueConstraint(fields=["session", "number"], name="hand_number_unique"),
            models.UniqueConstraint(
                fields=["session", "client_token"],
                condition=~Q(client_token=""),
                name="hand_client_token_unique",
            ),
            models.CheckConstraint(condition=Q(number__gte=1), name="hand_number_positive"),
        ]
        indexes = [
            # An evening's live hands (``deleted_at`` null) in order: saving a hand counts
            # them under the session's lock and finds the last dealer in the index alone,
            # without reading every hand's row.
            models.Index(fields=["session", "deleted_at", "number"], name="hand_live"),
            # The hands played toward a target (live, redeals not counted): a table's save
            # counts them in this index alone, however many other evenings the table holds.
            models.Index(
                fields=["session"],
                condition=Q(deleted_at__isnull=True) & ~Q(type="redeal"),
                name="hand_played",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.session_id}#{self.number}"

    @property
    def is_deleted(self) -> bool:
        return self.deleted_at is not None

    def stored(self) -> StoredHand:
        """The hand as the engine sums a session: dealer, deltas, facts, money, as stored."""
        return StoredHand(
            self.dealer or None, self.delta_points(), frozenset(self.facts), self.money_points()
        )

    def delta_points(self) -> dict[str, Fraction]:
        return {name: points_from_json(value) for name, value in self.deltas.items()}

    def money_points(self) -> dict[str, Fraction] | None:
        """What the hand pays, where it is stored apart from its deltas."""
        return None if self.money is None else {name: points_from_json(v) for name, v in self.money.items()}

    def breakdown_lines(self) -> list[Line]:
        return [line_from_json(item) for item in self.breakdown]

    def description_line(self) -> Line | None:
        return line_from_json(self.description) if self.description else None

    def as_session_hand(self) -> dict[str, Any]:
        """The hand as the session file writes it."""
        return hand_document(self.type, self.dealer, self.sitting_out, self.inputs, self.note)


class Change(models.Model):
    """A line of history: who, when, what it was before and after."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    at = models.DateTimeField(auto_now_add=True)
    before = models.JSONField(null=True, blank=True)
    after = models.JSONField(null=True, blank=True)

    class Meta:
        abstract = True
        ordering = ["at", "id"]


REASON_LENGTH = 200  # a correction's reason, at most


class HandChange(Change):
    """One change to a hand: who, when, what it was before and after (the hand as
    the session file writes it, its deltas and its description)."""

    class Action(models.TextChoices):
        RECORDED = "recorded", _("recorded")
        EDITED = "edited", _("corrected")
        DELETED = "deleted", _("deleted")
        RESTORED = "restored", _("restored")
        IMPORTED = "imported", _("imported")
        RESCORED = "rescored", _("re-scored")

    hand = models.ForeignKey(Hand, on_delete=models.CASCADE, related_name="changes")
    action = models.CharField(max_length=10, choices=Action.choices)
    # Why a correction was made, in the corrector's words (optional): shown with the hand.
    reason = models.CharField(max_length=REASON_LENGTH, blank=True, default="")

    def __str__(self) -> str:
        return f"{self.hand_id} {self.action}"

    @staticmethod
    def _line(state: dict[str, Any] | None) -> Line | None:
        return line_from_json(state["description"]) if state and state.get("description") else None

    def before_line(self) -> Line | None:
        return self._line(self.before)

    def after_line(self) -> Line | None:
        return self._line(self.after)

    @staticmethod
    def _deltas(state: dict[str, Any] | None) -> dict[str, Fraction]:
        return {k: points_from_json(v) for k, v in (state or {}).get("deltas", {}).items()}

    def before_deltas(self) -> dict[str, Fraction]:
        return self._deltas(self.before)

    def after_deltas(self) -> dict[str, Fraction]:
        return self._deltas(self.after)


class SessionChange(Change):
    """One change to a session itself (not to a hand). ``before`` and ``after``
    hold what changed as plain JSON: a name, a date, a rate, and for new house
    rules ``{"options": {rule: value}, "totals": {player: total}}``."""

    class Action(models.TextChoices):
        RENAMED = "renamed", _("renamed")
        DATE = "date", _("date changed")
        MONEY_RATE = "money_rate", _("money per point changed")
        PLAYER = "player", _("player's name corrected")
        RULES = "rules", _("house rules changed")
        CLOSED = "closed", _("closed")
        REOPENED = "reopened", _("reopened")
        DELETED = "deleted", _("deleted")
        RESTORED = "restored", _("restored")
        RESEATED = "reseated", _("seats changed")

    session = models.ForeignKey(Session, on_delete=models.CASCADE, related_name="changes")
    action = models.CharField(max_length=12, choices=Action.choices)
    # The one-time token of the form that made the change (closing, reopening):
    # the same form sent again (a double tap, a resend) changes nothing more.
    client_token = models.CharField(max_length=64, blank=True, default="")

    class Meta(Change.Meta):
        constraints = [
            models.UniqueConstraint(
                fields=["session", "client_token"],
                condition=~Q(client_token=""),
                name="session_change_client_token_unique",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.session_id} {self.action}"
