"""The site's staff look at sessions, players, hands and their history here.

Read-mostly: scores and history change only through the app's services, which
keep every change with who made it; the admin shows them and never writes a
hand, a session's scores or a history line. Only a player's name (the list of
names a user picks from when opening a session) can be edited here: the seats
of past sessions keep the name they were played under.
"""

from __future__ import annotations

from typing import Any

from django.contrib import admin
from django.db.models import Count, Q, QuerySet
from django.http import HttpRequest

from scoring.models import Hand, HandChange, Player, Seat, Session, SessionChange


class ReadOnly(admin.ModelAdmin):  # type: ignore[type-arg]
    """Everything shown, nothing added, changed or deleted."""

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


class ReadOnlyInline(admin.TabularInline):  # type: ignore[type-arg]
    extra = 0
    can_delete = False

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


class SeatInline(ReadOnlyInline):
    model = Seat
    fields = readonly_fields = ("position", "name", "player")


class SessionChangeInline(ReadOnlyInline):
    model = SessionChange
    fields = readonly_fields = ("at", "user", "action", "before", "after")


@admin.register(Session)
class SessionAdmin(ReadOnly):
    list_display = ("name", "owner", "variant", "played_on", "hands", "closed_at", "deleted_at")
    list_filter = (
        "variant",
        ("closed_at", admin.EmptyFieldListFilter),
        ("deleted_at", admin.EmptyFieldListFilter),
    )
    search_fields = ("name", "owner__username", "seats__name")
    date_hierarchy = "played_on"
    inlines = (SeatInline, SessionChangeInline)

    def get_queryset(self, request: HttpRequest) -> QuerySet[Session]:
        live = Count("hands", filter=Q(hands__deleted_at__isnull=True), distinct=True)
        sessions: QuerySet[Session] = super().get_queryset(request)
        return sessions.select_related("owner").annotate(live_hands=live)

    @admin.display(description="hands", ordering="live_hands")
    def hands(self, session: Session) -> int:
        return int(getattr(session, "live_hands", 0))


@admin.register(Player)
class PlayerAdmin(admin.ModelAdmin):  # type: ignore[type-arg]
    list_display = ("name", "owner", "created_at")
    search_fields = ("name", "owner__username")
    fields = ("name", "owner", "created_at")
    readonly_fields = ("owner", "created_at")

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


class HandChangeInline(ReadOnlyInline):
    model = HandChange
    fields = readonly_fields = ("at", "user", "action", "before", "after")


@admin.register(Hand)
class HandAdmin(ReadOnly):
    list_display = (
        "__str__",
        "session",
        "number",
        "type",
        "dealer",
        "created_by",
        "created_at",
        "deleted_at",
    )
    list_filter = ("type", ("deleted_at", admin.EmptyFieldListFilter))
    search_fields = ("session__name", "dealer", "note")
    list_select_related = ("session", "created_by")
    inlines = (HandChangeInline,)


@admin.register(HandChange)
class HandChangeAdmin(ReadOnly):
    list_display = ("hand", "action", "user", "at")
    list_filter = ("action",)
    list_select_related = ("hand", "user")
    search_fields = ("hand__session__name", "user__username")


@admin.register(SessionChange)
class SessionChangeAdmin(ReadOnly):
    list_display = ("session", "action", "user", "at")
    list_filter = ("action",)
    list_select_related = ("session", "user")
    search_fields = ("session__name", "user__username")
