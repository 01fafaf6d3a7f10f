"""What the pages show of the ratings, and to whom: only a player's own view
shows her numbers, and only while she has turned them on; a group's statistics
and a cup's register show those who also chose to share them; no number is
shown before ``SHOWN_AFTER`` events."""

from __future__ import annotations

import csv
import io
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import date

from django.contrib.auth.models import User

from club.models import Group, Membership
from ratings.models import RatingEntry, RatingSetting, RegisterLink, RosterLink, family_keys, family_label
from ratings.services.model import SHOWN_AFTER, shown
from ratings.services.sources import Resolver
from tournaments.models import Circuit, Cup, CupPlayer


@dataclass(frozen=True)
class Point:
    """Her rating after one event, and what the event was."""

    number: int
    played_on: date
    label: str
    rank: int
    players: int
    before: int
    rating: int
    mu: float
    sigma: float

    @property
    def change(self) -> int:
        return self.rating - self.before


@dataclass(frozen=True)
class FamilyRating:
    """One family's rating: ``rating`` is None until ``SHOWN_AFTER`` events."""

    family: str
    events: int
    rating: int | None
    points: tuple[Point, ...]

    @property
    def label(self) -> str:
        return family_label(self.family)

    @property
    def missing(self) -> int:
        return max(0, SHOWN_AFTER - self.events)

    @property
    def best(self) -> Point | None:
        return max(self.points, key=lambda p: (p.change, -p.number)) if self.points else None

    @property
    def worst(self) -> Point | None:
        return min(self.points, key=lambda p: (p.change, p.number)) if self.points else None


def key_of(user: User) -> str:
    return f"u:{user.pk}"


def _point(entry: RatingEntry) -> Point:
    return Point(
        number=entry.number,
        played_on=entry.event.played_on,
        label=entry.event.label,
        rank=entry.rank,
        players=entry.players,
        before=shown(entry.mu_before, entry.sigma_before),
        rating=shown(entry.mu, entry.sigma),
        mu=entry.mu,
        sigma=entry.sigma,
    )


def family_ratings(key: str) -> list[FamilyRating]:
    """Every family the player has events in, with her curve once it is shown."""
    entries = RatingEntry.objects.filter(player_key=key).select_related("event").order_by("family", "number")
    by_family: dict[str, list[RatingEntry]] = {}
    for entry in entries:
        by_family.setdefault(entry.family, []).append(entry)
    found = []
    for family in family_keys():
        rows = by_family.get(family)
        if not rows:
            continue
        events = rows[-1].number
        if events < SHOWN_AFTER:
            found.append(FamilyRating(family, events, None, ()))
            continue
        points = tuple(_point(entry) for entry in rows)
        found.append(FamilyRating(family, events, points[-1].rating, points))
    return found


def my_ratings(user: User) -> list[FamilyRating] | None:
    """Her own ratings; ``None`` while she has not turned them on."""
    setting = RatingSetting.objects.filter(user=user, visible=True).first()
    return None if setting is None else family_ratings(key_of(user))


@dataclass(frozen=True)
class Shared:
    """A player who shares her rating, by the name a page knows her by."""

    name: str
    place: str
    ratings: tuple[FamilyRating, ...]


def _latest(keys: Iterable[str]) -> dict[str, list[FamilyRating]]:
    """The shown ratings (no curve) of these players, by key, in one query."""
    latest: dict[tuple[str, str], RatingEntry] = {}
    for entry in RatingEntry.objects.filter(player_key__in=set(keys)).order_by("number"):
        latest[(entry.player_key, entry.family)] = entry
    found: dict[str, list[FamilyRating]] = {}
    for (key, family), entry in sorted(latest.items(), key=lambda item: family_keys().index(item[0][1])):
        if entry.number >= SHOWN_AFTER:
            found.setdefault(key, []).append(
                FamilyRating(family, entry.number, shown(entry.mu, entry.sigma), ())
            )
    return found


def _sharing(users: Iterable[int]) -> set[int]:
    return set(
        RatingSetting.objects.filter(user_id__in=set(users), shared=True).values_list("user_id", flat=True)
    )


def group_ratings(group: Group) -> list[Shared]:
    """The group's players linked to an account that shares its rating and is
    still a member, with at least one rating shown: sharing with a group follows
    membership (a member taken out keeps her link, and her evenings there still
    count for her, but the group no longer sees her rating)."""
    members = Membership.objects.filter(group=group).values("user_id")
    links = list(RosterLink.objects.filter(group=group, user_id__in=members).select_related("player"))
    sharing = _sharing(link.user_id for link in links)
    links = [link for link in links if link.user_id in sharing]
    latest = _latest(f"u:{link.user_id}" for link in links)
    rows = [
        Shared(link.player.name, "", tuple(latest[f"u:{link.user_id}"]))
        for link in links
        if f"u:{link.user_id}" in latest
    ]
    return _ordered(rows)


def register_ratings(cup: Cup) -> list[Shared]:
    """The register entries that are an account sharing its rating (linked by her,
    or through a roster player she linked), with at least one rating shown."""
    entries = list(CupPlayer.objects.filter(cup=cup, merged_into__isnull=True))
    resolver = Resolver()
    keys = {entry.pk: resolver.entry(entry.pk) for entry in entries}
    users = {int(key[2:]) for key in keys.values() if key.startswith("u:")}
    sharing = _sharing(users)
    latest = _latest(f"u:{user}" for user in sharing)
    rows = [
        Shared(entry.name, entry.place, tuple(latest[keys[entry.pk]]))
        for entry in entries
        if keys[entry.pk] in latest
    ]
    return _ordered(rows)


def circuit_ratings(circuit: Circuit) -> list[Shared]:
    """The circuit's numbers linked by their player (with the number's PIN) to an
    account that shares its rating, with at least one rating shown, as the register
    names them (name, place, number)."""
    linked = list(
        RegisterLink.objects.filter(
            circuit_entry__circuit=circuit, circuit_entry__merged_into__isnull=True, user__isnull=False
        ).select_related("circuit_entry")
    )
    sharing = _sharing(link.user_id for link in linked if link.user_id is not None)
    latest = _latest(f"u:{user}" for user in sharing)
    rows = []
    for link in linked:
        entry, key = link.circuit_entry, f"u:{link.user_id}"
        if entry is not None and key in latest:
            name = " ".join(part for part in (entry.family, entry.given) if part)
            rows.append(Shared(f"{name} · Nr. {entry.number}", entry.place, tuple(latest[key])))
    return _ordered(rows)


def _ordered(rows: Sequence[Shared]) -> list[Shared]:
    return sorted(rows, key=lambda row: (row.name.casefold(), row.place))


def history_rows(user: User) -> list[tuple[str, Point]]:
    """Her history as the CSV writes it: every event of every family she has a shown rating in."""
    ratings = my_ratings(user) or []
    return [(rating.label, point) for rating in ratings for point in rating.points]


def history_csv(user: User) -> str:
    """Her history as CSV (``;``, UTF-8 with BOM): one row per event of a family whose rating is shown."""
    out = io.StringIO()
    out.write("\ufeff")
    writer = csv.writer(out, delimiter=";")
    writer.writerow(["family", "event", "day", "what", "rank", "players", "before", "rating", "mu", "sigma"])
    for family, p in history_rows(user):
        writer.writerow(
            [
                family,
                p.number,
                p.played_on.isoformat(),
                p.label,
                p.rank,
                p.players,
                p.before,
                p.rating,
                f"{p.mu:.6f}",
                f"{p.sigma:.6f}",
            ]
        )
    return out.getvalue()
