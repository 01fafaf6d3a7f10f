"""The regular table's data: groups, their members and roster, invitations,
seasons, each player's evening (``EveningResult``) and the Kasse's bookings.

The tables were made by the scoring app and keep their names (``db_table``):
only Django's idea of which app owns them moved (``club/migrations/0001``).
The links from the regular table to its evenings are the club's own rows
(``GroupSession``, ``RosterSeat``) pointing at the evenings' rows: the scoring
app names nothing of the club, neither in its models nor in its SQL.
"""

from __future__ import annotations

from decimal import Decimal

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from scoring.models import NAME_LENGTH, Hand, Seat, Session


class Group(models.Model):
    """A regular table ("Runde"): its members, its roster of players, its house
    rules per game and money rate for new evenings, its statistics and its Kasse."""

    name = models.CharField(_("name"), max_length=80)
    money_rate = models.DecimalField(
        _("money per point"), max_digits=8, decimal_places=4, null=True, blank=True
    )
    # House rules per game for the group's new evenings: {variant: {rule: value}}.
    presets = models.JSONField(default=dict)
    # The season table ranks by average per hand only players with at least this many hands.
    min_hands = models.PositiveIntegerField(_("hands for the ranking by average"), default=30)
    # The sign shown with every amount of the group's Kasse and money figures.
    currency = models.CharField(_("currency"), max_length=3, default="€")
    created_at = models.DateTimeField(auto_now_add=True)
    # Goes up with every change its statistics show (an evening's hands, the
    # roster, a season, the settings): the statistics pages are cached per version.
    version = models.PositiveIntegerField(default=1)

    class Meta:
        db_table = "scoring_group"
        ordering = ["name", "id"]
        constraints = [
            models.CheckConstraint(
                condition=Q(money_rate__isnull=True) | Q(money_rate__gt=Decimal(0)),
                name="group_money_rate_positive",
            ),
            models.CheckConstraint(condition=Q(min_hands__gte=1), name="group_min_hands_positive"),
        ]

    def __str__(self) -> str:
        return self.name


class Membership(models.Model):
    """A user in a group: the owner manages it, members record and correct hands."""

    class Role(models.TextChoices):
        OWNER = "owner", _("owner")
        MEMBER = "member", _("member")

    group = models.ForeignKey(Group, on_delete=models.CASCADE, related_name="memberships")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="memberships")
    role = models.CharField(max_length=10, choices=Role.choices, default=Role.MEMBER)
    joined_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        db_table = "scoring_membership"
        ordering = ["joined_at", "id"]
        constraints = [models.UniqueConstraint(fields=["group", "user"], name="membership_unique")]

    def __str__(self) -> str:
        return f"{self.user_id} in {self.group_id} ({self.role})"


class GroupPlayer(models.Model):
    """A name on a group's roster; may be linked to a member's account."""

    group = models.ForeignKey(Group, on_delete=models.CASCADE, related_name="roster")
    name = models.CharField(_("name"), max_length=NAME_LENGTH)
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    # Hidden by the group's owner: kept for the evenings, statistics and Kasse it
    # has, but no longer offered for new evenings or payments.
    hidden_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        db_table = "scoring_groupplayer"
        ordering = ["name", "id"]
        constraints = [
            models.UniqueConstraint(fields=["group", "name"], name="group_player_name_unique"),
            models.UniqueConstraint(
                fields=["group", "user"], condition=Q(user__isnull=False), name="group_player_user_unique"
            ),
        ]

    def __str__(self) -> str:
        return self.name


class GroupSession(models.Model):
    """An evening of the group: its members record hands in it, and it counts in
    the group's statistics and Kasse. An evening without one is a session of its own."""

    session = models.OneToOneField(
        Session, on_delete=models.CASCADE, primary_key=True, related_name="group_link"
    )
    group = models.ForeignKey(Group, on_delete=models.CASCADE, related_name="group_sessions")

    def __str__(self) -> str:
        return f"{self.session_id} in {self.group_id}"


class RosterSeat(models.Model):
    """In a group's evening: the player of the group's roster sitting at a seat."""

    seat = models.OneToOneField(Seat, on_delete=models.CASCADE, primary_key=True, related_name="roster_link")
    player = models.ForeignKey(GroupPlayer, on_delete=models.PROTECT, related_name="seats")

    def __str__(self) -> str:
        return f"{self.player_id} at {self.seat_id}"


class RosterChange(models.Model):
    """A change to a group's roster that the page keeps in view: a player hidden,
    shown again, or merged into another (a misspelt name folded into the right one)."""

    class Action(models.TextChoices):
        HIDE = "hide", _("hidden")
        UNHIDE = "unhide", _("shown again")
        MERGE = "merge", _("merged")

    group = models.ForeignKey(Group, on_delete=models.CASCADE, related_name="roster_changes")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    at = models.DateTimeField(auto_now_add=True)
    action = models.CharField(max_length=10, choices=Action.choices)
    # The player's id and name as they were (a merged player's row is gone).
    player_id_was = models.PositiveIntegerField()
    name = models.CharField(max_length=NAME_LENGTH)
    into = models.ForeignKey(
        "GroupPlayer", on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    into_name = models.CharField(max_length=NAME_LENGTH, blank=True)

    class Meta:
        db_table = "scoring_rosterchange"
        ordering = ["-at", "-id"]

    def __str__(self) -> str:
        return f"{self.action} {self.name}"


class Invitation(models.Model):
    """A link that lets people join a group: unguessable, for a number of people,
    until it expires or is revoked."""

    group = models.ForeignKey(Group, on_delete=models.CASCADE, related_name="invitations")
    token = models.CharField(max_length=64, unique=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    expires_at = models.DateTimeField()
    max_uses = models.PositiveSmallIntegerField(default=1)
    uses = models.PositiveSmallIntegerField(default=0)
    revoked_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        db_table = "scoring_invitation"
        ordering = ["-created_at", "-id"]
        constraints = [
            models.CheckConstraint(
                condition=Q(uses__lte=models.F("max_uses")), name="invitation_uses_bounded"
            ),
            models.CheckConstraint(condition=Q(max_uses__gte=1), name="invitation_max_uses_positive"),
        ]

    def __str__(self) -> str:
        return f"invitation {self.pk} to {self.group_id}"

    @property
    def open(self) -> bool:
        return self.revoked_at is None and self.uses < self.max_uses and self.expires_at > timezone.now()


class Season(models.Model):
    """A named stretch of evenings for the group table; without one, a season is a calendar year."""

    group = models.ForeignKey(Group, on_delete=models.CASCADE, related_name="seasons")
    name = models.CharField(_("name"), max_length=80)
    starts_on = models.DateField(_("from"))
    ends_on = models.DateField(_("to"))

    class Meta:
        db_table = "scoring_season"
        ordering = ["-starts_on", "name"]
        constraints = [
            models.UniqueConstraint(fields=["group", "name"], name="season_name_unique"),
            models.CheckConstraint(
                condition=Q(ends_on__gte=models.F("starts_on")), name="season_ends_after_start"
            ),
        ]

    def __str__(self) -> str:
        return self.name


# Money columns hold 15 digits, cents included: what SQLite keeps of a number
# exactly (PostgreSQL keeps any), so an evening's money is below MONEY_LIMIT a
# player, and an evening that would book more is refused with that reason
# (``standings.evening_refresh``). The largest hands of any game (an Illustriertes
# solo defended to a Valat announced before the talon, by the Beck factor, with
# Kontra: about 340,000 points moved per hand between pairs), 2,000 of them at the
# highest money per point (9999.9999), come to 6.8·10^12: every such evening fits.
MONEY_DIGITS = 15
MONEY_LIMIT = Decimal(10) ** (MONEY_DIGITS - 2)
# An evening's points: 2,000 such hands are 7·10^8; fifteen digits, as for money.
POINTS_DIGITS = 15


class EveningResult(models.Model):
    """One player's evening in a group, summed from the evening's stored hand
    snapshots (never by scoring them again) and written again in the same
    transaction as every change to the evening: the statistics pages read these
    rows, one per player and evening, instead of every hand."""

    group = models.ForeignKey(Group, on_delete=models.CASCADE, related_name="evening_results")
    session = models.ForeignKey(Session, on_delete=models.CASCADE, related_name="evening_results")
    player = models.ForeignKey(GroupPlayer, on_delete=models.CASCADE, related_name="evening_results")
    played_on = models.DateField()
    variant = models.CharField(max_length=20)
    hands = models.PositiveIntegerField(default=0)  # played: neither redealt nor sitting out
    total = models.DecimalField(
        max_digits=POINTS_DIGITS, decimal_places=1, default=Decimal(0)
    )  # bonuses included
    money = models.DecimalField(max_digits=MONEY_DIGITS, decimal_places=2, null=True, blank=True)
    won = models.BooleanField(default=False)  # the evening's highest total (ties: all of them)
    best = models.DecimalField(max_digits=10, decimal_places=1, null=True, blank=True)
    best_hand = models.ForeignKey(Hand, on_delete=models.SET_NULL, null=True, blank=True, related_name="+")
    worst = models.DecimalField(max_digits=10, decimal_places=1, null=True, blank=True)
    worst_hand = models.ForeignKey(Hand, on_delete=models.SET_NULL, null=True, blank=True, related_name="+")
    counts = models.JSONField(default=dict)  # {"role.taker.garde": 3, "mark.pagat": 1, ...}

    class Meta:
        db_table = "scoring_eveningresult"
        ordering = ["played_on", "session_id"]
        constraints = [
            models.UniqueConstraint(fields=["session", "player"], name="evening_result_unique"),
        ]
        indexes = [
            models.Index(fields=["group", "played_on"], name="evening_result_by_day"),
            models.Index(fields=["player", "played_on"], name="evening_result_by_player"),
        ]

    def __str__(self) -> str:
        return f"{self.player_id} on {self.session_id}"


class Booking(models.Model):
    """One entry in a group's Kasse: a closed evening's settlement, a payment, or
    the reversal of an earlier booking. Never changed once written: a mistake is
    put right by a counter-booking. Its lines sum to zero."""

    class Kind(models.TextChoices):
        EVENING = "evening", _("evening")
        PAYMENT = "payment", _("payment")
        REVERSAL = "reversal", _("reversal")

    group = models.ForeignKey(Group, on_delete=models.CASCADE, related_name="bookings")
    kind = models.CharField(max_length=10, choices=Kind.choices)
    session = models.ForeignKey(
        Session, on_delete=models.SET_NULL, null=True, blank=True, related_name="bookings"
    )
    # The booking this one cancels; a booking is reversed at most once.
    reverses = models.OneToOneField(
        "self", on_delete=models.PROTECT, null=True, blank=True, related_name="reversed_by"
    )
    note = models.CharField(max_length=200, blank=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    # The one-time token of the form that booked it (a payment, a reversal), and
    # what that form held: sent again, it is booked once; the same token with
    # other inputs (a form brought back and filled in again) is a new booking.
    client_token = models.CharField(max_length=64, blank=True, default="")
    client_digest = models.CharField(max_length=32, blank=True, default="")

    class Meta:
        db_table = "scoring_booking"
        ordering = ["-created_at", "-id"]
        constraints = [
            models.UniqueConstraint(
                fields=["group", "client_token"],
                condition=~Q(client_token=""),
                name="booking_client_token_unique",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.kind} {self.pk}"


class BookingLine(models.Model):
    """What one booking moves for one player (positive: the player is owed more,
    or owes less), or for the common box when ``player`` is empty."""

    booking = models.ForeignKey(Booking, on_delete=models.CASCADE, related_name="lines")
    group = models.ForeignKey(Group, on_delete=models.CASCADE, related_name="+")
    player = models.ForeignKey(
        GroupPlayer, on_delete=models.PROTECT, null=True, blank=True, related_name="booking_lines"
    )
    amount = models.DecimalField(max_digits=MONEY_DIGITS, decimal_places=2)

    class Meta:
        db_table = "scoring_bookingline"
        ordering = ["id"]

    def __str__(self) -> str:
        return f"{self.player_id}: {self.amount}"
