"""Ratings computed from the stored events, in their order, from one event on.

Every event's entries hold μ and σ before and after it; a recomputation from an
event reads each player's last entry before it and writes the entries of that
event and of every later one in the family again. So a correction costs the
events after it, and the result is the same whatever order the marks were
followed in: the stored events alone decide it (``tests/ratings``)."""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime

from django.db import transaction
from django.db.models import F, Q

from club.models import EveningResult
from ratings.models import RatingEntry, RatingEvent, RatingLock, family_keys
from ratings.services.model import NEW, Skill, rate
from ratings.services.sources import Resolver, events_refresh
from tournaments.models import TableRound

Position = tuple[datetime, int]  # an event's place in the order: when first closed or signed, then its id


def position(event: RatingEvent) -> Position:
    return (event.at, event.pk)


def _after(position: Position, prefix: str = "") -> Q:
    """Events at or after ``position`` (``prefix``: the path to the event)."""
    at, pk = position
    return Q(**{f"{prefix}at__gt": at}) | Q(**{f"{prefix}at": at, f"{prefix}id__gte": pk})


def _lock(family: str) -> None:
    """The family's lock row, written first: one recomputation of a family at a time."""
    if not RatingLock.objects.filter(family=family).update(runs=F("runs") + 1):
        RatingLock.objects.get_or_create(family=family)
        RatingLock.objects.filter(family=family).update(runs=F("runs") + 1)


def family_recompute(family: str, start: Position | None) -> int:
    """Every entry of ``family`` from the event at ``start`` on (all of them for
    ``None``) written again; returns how many events were rated."""
    with transaction.atomic():
        _lock(family)
        found = RatingEvent.objects.filter(family=family, counted=True)
        entries = RatingEntry.objects.filter(family=family)
        if start is not None:
            found = found.filter(_after(start))
            entries = entries.filter(_after(start, "event__"))
        events = list(found.order_by("at", "id").only("id", "at", "players"))
        entries.delete()
        resolver = Resolver()
        resolver.load(source for event in events for source, _ in event.players)
        keyed = [_keys(resolver, event) for event in events]
        state = _state_before(family, start, {key for keys in keyed for key, _, _ in keys})
        rows: list[RatingEntry] = []
        for event, keys in zip(events, keyed, strict=True):
            before = [state.get(key, (NEW, 0))[0] for key, _, _ in keys]
            after = rate(before, [rank for _, _, rank in keys])
            for (key, source, rank), old, new in zip(keys, before, after, strict=True):
                number = state.get(key, (NEW, 0))[1] + 1
                state[key] = (new, number)
                rows.append(
                    RatingEntry(
                        event_id=event.pk,
                        family=family,
                        player_key=key,
                        source=source,
                        rank=rank,
                        players=len(keys),
                        number=number,
                        mu_before=old.mu,
                        sigma_before=old.sigma,
                        mu=new.mu,
                        sigma=new.sigma,
                    )
                )
        RatingEntry.objects.bulk_create(rows, batch_size=500)
        return len(events)


def _keys(resolver: Resolver, event: RatingEvent) -> list[tuple[str, str, int]]:
    """(player key, source, rank) for each player of the event; a key met twice
    at one table (two linked names of one account) keeps the second apart by its source."""
    seen: set[str] = set()
    keys = []
    for source, rank in event.players:
        key = resolver.key(source)
        if key in seen:
            key = source
        seen.add(key)
        keys.append((key, source, int(rank)))
    return keys


def _state_before(family: str, start: Position | None, keys: set[str]) -> dict[str, tuple[Skill, int]]:
    """Each player's μ, σ and number of events before ``start``: her last entry there."""
    if start is None or not keys:
        return {}
    state: dict[str, tuple[Skill, int]] = {}
    rows = (
        RatingEntry.objects.filter(family=family, player_key__in=keys)
        .exclude(_after(start, "event__"))
        .order_by("player_key", "number")
        .values_list("player_key", "mu", "sigma", "number")
    )
    for key, mu, sigma, number in rows:
        state[key] = (Skill(mu, sigma), number)
    return state


def follow(sources: Iterable[str]) -> dict[str, Position]:
    """What marks change: their events written again (``evening:<id>``,
    ``table:<id>``), and for a link made or removed (``source:<source>``) every
    family where that source played; returns each family with the earliest
    event to recompute from."""
    ids: dict[str, set[int]] = {kind: set() for kind in RatingEvent.Kind.values}
    starts: dict[str, Position] = {}

    def start(family: str, event: RatingEvent) -> None:
        starts[family] = min(starts.get(family, position(event)), position(event))

    for source in sources:
        kind, _, raw = source.partition(":")
        if kind in ids:
            ids[kind].add(int(raw))
        elif kind == "source":
            for family in family_keys():
                first = (
                    RatingEntry.objects.filter(source=raw, family=family)
                    .select_related("event")
                    .order_by("event__at", "event_id")
                    .first()
                )
                if first is not None:
                    start(family, first.event)
    for kind, wanted in ids.items():
        for event in events_refresh(kind, wanted) if wanted else ():
            start(event.family, event)
    return starts


def ratings_rebuild() -> int:
    """Every event read again from the evenings and tournaments, then every family
    recomputed from its first event: what ``update_ratings --all`` does."""
    with transaction.atomic():
        for kind, ids in _every_source():
            events_refresh(kind, ids)
    return sum(family_recompute(family, None) for family in family_keys())


def _every_source() -> Iterable[tuple[str, Iterable[int]]]:
    known: dict[str, set[int]] = {key: set() for key in RatingEvent.Kind.values}
    for kind, pk in RatingEvent.objects.values_list("kind", "source_id"):
        known[kind] = known[kind] | {pk}
    evenings = set(EveningResult.objects.values_list("session_id", flat=True).distinct())
    tables = set(
        TableRound.objects.filter(
            status__in=(TableRound.Status.SIGNED, TableRound.Status.ENDED, TableRound.Status.DESK)
        ).values_list("pk", flat=True)
    )
    yield RatingEvent.Kind.EVENING, sorted(evenings | known[RatingEvent.Kind.EVENING])
    yield RatingEvent.Kind.TABLE, sorted(tables | known[RatingEvent.Kind.TABLE])
