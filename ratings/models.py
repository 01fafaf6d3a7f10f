"""Ratings (``TOURNAMENTS.md`` §15): one Wertungszahl per player and game family,
kept per event so that a correction recomputes only what follows it.

An **event** is a closed evening of a group or a locked table-round of a
tournament, with its players as *sources* (``g:<roster player>``,
``e:<entrant>``) and their ranks. Who a source is across groups and cups (the
*player key*: ``u:<account>``, ``g:…``, ``c:<register entry>``, ``e:…``) is read
when the ratings are computed, from the links below, so a link made later
moves every event of that source to the account. Every link lives here: the
other apps' tables are not changed.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from scoring import games

KEY_LENGTH = 24


def family_choices() -> list[tuple[str, str]]:
    """The game families a rating is kept for, as the registry says (the games rated
    apart, then the other games together), with their names in the reader's language."""
    return [(key, str(_(name))) for key, name in games.families()]


def family_keys() -> list[str]:
    """The families' keys, in the order the pages show them."""
    return [key for key, _name in games.families()]


def family_label(key: str) -> str:
    return str(dict(family_choices()).get(key, key))


def family_of(variant: str) -> str:
    """The family a game's events count in."""
    return games.family_of(variant)


class RatingEvent(models.Model):
    """A closed evening of a group or a locked table-round, as the ratings read it."""

    class Kind(models.TextChoices):
        EVENING = "evening", _("evening")
        TABLE = "table", _("table-round")

    kind = models.CharField(max_length=8, choices=Kind.choices)
    source_id = models.PositiveBigIntegerField()  # the session's or the table-round's id
    family = models.CharField(max_length=12, choices=family_choices)
    # When it was first closed or signed: its place in the order, kept when it is
    # reopened and closed again, so a correction recomputes from where it was.
    at = models.DateTimeField()
    # Closed or locked now; an event opened again keeps its place but counts for nothing.
    counted = models.BooleanField(default=False)
    played_on = models.DateField()
    label = models.CharField(max_length=200)
    # [[source, rank], ...]: ranks 1, 2, 2, 4 (ties share a rank).
    players = models.JSONField(default=list)

    class Meta:
        ordering = ["at", "id"]
        constraints = [models.UniqueConstraint(fields=["kind", "source_id"], name="rating_event_unique")]
        indexes = [models.Index(fields=["family", "at", "id"], name="rating_event_order")]

    def __str__(self) -> str:
        return f"{self.kind} {self.source_id}"


class RatingEntry(models.Model):
    """One player's rating after one event: μ and σ before and after, her rank."""

    event = models.ForeignKey(RatingEvent, on_delete=models.CASCADE, related_name="entries")
    family = models.CharField(max_length=12, choices=family_choices)
    player_key = models.CharField(max_length=KEY_LENGTH)
    source = models.CharField(max_length=KEY_LENGTH)
    rank = models.PositiveSmallIntegerField()
    players = models.PositiveSmallIntegerField()  # how many were ranked
    number = models.PositiveIntegerField()  # her events in this family so far, this one included
    mu_before = models.FloatField()
    sigma_before = models.FloatField()
    mu = models.FloatField()
    sigma = models.FloatField()

    class Meta:
        ordering = ["event__at", "event_id"]
        constraints = [models.UniqueConstraint(fields=["event", "player_key"], name="rating_entry_unique")]
        indexes = [
            models.Index(fields=["player_key", "family", "number"], name="rating_entry_by_player"),
            models.Index(fields=["source"], name="rating_entry_by_source"),
        ]

    def __str__(self) -> str:
        return f"{self.player_key} after {self.event_id}"


class RatingMark(models.Model):
    """Something the ratings have still to follow, written in the transaction of
    the change: ``evening:<session>``, ``table:<table-round>``, ``source:<source>``
    (a link made or removed). Taken away once the ratings follow it."""

    source = models.CharField(max_length=40, unique=True)
    marked_at = models.DateTimeField()

    class Meta:
        ordering = ["marked_at", "id"]

    def __str__(self) -> str:
        return self.source


class RatingLock(models.Model):
    """One row per family, written first by every recomputation of that family,
    so that two of them (two servers' threads, the command) run one after the other."""

    family = models.CharField(max_length=12, choices=family_choices, unique=True)
    runs = models.PositiveBigIntegerField(default=0)

    def __str__(self) -> str:
        return self.family


class RosterLink(models.Model):
    """A roster player linked by the player herself to her account (one per group)."""

    player = models.OneToOneField("club.GroupPlayer", on_delete=models.CASCADE, related_name="rating_link")
    group = models.ForeignKey("club.Group", on_delete=models.CASCADE, related_name="+")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="roster_links")
    at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["at", "id"]
        constraints = [models.UniqueConstraint(fields=["user", "group"], name="roster_link_one_per_group")]

    def __str__(self) -> str:
        return f"{self.player_id} → {self.user_id}"


class RegisterLink(models.Model):
    """A register entry linked to an account or to a roster player (§14.1): a cup's
    own entry (``entry``) or a circuit's numbered one (``circuit_entry``, linked
    by the player with its PIN, ``links.register_link``), which stands for every
    cup entry of that number."""

    entry = models.OneToOneField(
        "tournaments.CupPlayer", null=True, blank=True, on_delete=models.CASCADE, related_name="rating_link"
    )
    circuit_entry = models.OneToOneField(
        "tournaments.CircuitPlayer",
        null=True,
        blank=True,
        on_delete=models.CASCADE,
        related_name="rating_link",
    )
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.CASCADE,
        related_name="register_links",
    )
    roster = models.ForeignKey(
        "club.GroupPlayer", null=True, blank=True, on_delete=models.CASCADE, related_name="register_links"
    )
    at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["at", "id"]
        constraints = [
            models.CheckConstraint(
                condition=Q(user__isnull=True, roster__isnull=False)
                | Q(user__isnull=False, roster__isnull=True),
                name="register_link_one_target",
            ),
            models.CheckConstraint(
                condition=Q(entry__isnull=True, circuit_entry__isnull=False)
                | Q(entry__isnull=False, circuit_entry__isnull=True),
                name="register_link_one_entry",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.entry_id or self.circuit_entry_id} → {self.user_id or self.roster_id}"


class LinkRemoved(models.Model):
    """One of her links that a merge removed: the organiser merged her name
    (``name``, of the group or cup ``where``) into ``into_name``, which was linked
    to another account already. Shown on her page until she has read it."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    name = models.CharField(max_length=200)
    into_name = models.CharField(max_length=200)
    where = models.CharField(max_length=200)
    at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["at", "id"]

    def __str__(self) -> str:
        return f"{self.user_id}: {self.name} → {self.into_name}"


class RatingSetting(models.Model):
    """Whether a player sees her rating (``visible``) and lets her groups'
    statistics and the cups' registers show it (``shared``): both off by default."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="rating_setting"
    )
    visible = models.BooleanField(_("show me my rating"), default=False)
    shared = models.BooleanField(_("show it in my groups' statistics and the cups' registers"), default=False)

    class Meta:
        constraints = [
            models.CheckConstraint(
                condition=Q(shared=False) | Q(visible=True), name="rating_shared_only_visible"
            )
        ]

    def __str__(self) -> str:
        return f"{self.user_id}: {self.visible}/{self.shared}"
