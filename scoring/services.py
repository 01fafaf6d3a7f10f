"""Use cases. The only code that touches both the engine and the database.

Each function that writes runs in one transaction; input the engine refuses
raises ``InvalidInput`` before anything is written.

Running totals, series, rounds and the settlement are computed when a sheet
is shown, from the stored per-hand snapshots, so recording, editing or
deleting a hand can never leave a stale total behind.
"""

from __future__ import annotations

import csv
import dataclasses
import hashlib
import io
import json
import re
import secrets
import unicodedata
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import date, datetime
from decimal import Decimal
from fractions import Fraction
from typing import Any

from django.contrib.auth.models import User
from django.db import transaction
from django.db.models import Count, Max, Q
from django.utils import timezone
from django.utils.translation import gettext

from scoring.engine import (
    VARIANTS,
    HandRecord,
    HandScore,
    InvalidInput,
    Line,
    Section,
    Settlement,
    Summary,
    Variant,
    dumps_session,
    next_dealer,
    read_hand,
    read_session,
    score_hand,
    settle,
    summarize,
    variant_for,
)
from scoring.engine import Session as SessionFile
from scoring.engine.session_file import FORMAT, MAX_SESSION_NAME, read_players, read_session_name
from scoring.engine.types import line_to_json, points_to_json
from scoring.models import Hand, HandChange, Player, Seat, Session


class HandConflict(Exception):
    """The hand was changed by someone else since the form was opened."""

    def __init__(self, current: Hand) -> None:
        self.current = current
        super().__init__(f"hand {current.pk} is at version {current.version}")


@dataclass(frozen=True)
class Game:
    """A session as the engine sees it: the game, the players, the house rules."""

    variant: Variant
    players: tuple[str, ...]
    options: Any


def game_of(session: Session, seats: Sequence[Seat] | None = None) -> Game:
    variant = VARIANTS[session.variant]
    players = tuple(seat.name for seat in (seats if seats is not None else session.seats.all()))
    return Game(variant, players, variant.parse_options(session.options, players))


def options_json(options: Any) -> dict[str, Any]:
    """Every house rule, defaults included, as stored with a session."""
    return dataclasses.asdict(options)


# -- who may do what -------------------------------------------------------------


def session_for(user: User, pk: int, *, owner_only: bool = False) -> Session:
    """A session the user may work on: their own, or one they were made an editor
    of. Anything else does not exist for them (``Session.DoesNotExist``)."""
    sessions = Session.objects.filter(pk=pk)
    access = Q(owner=user) if owner_only else Q(owner=user) | Q(editors=user)
    return sessions.filter(access).distinct().get()


def session_shared(token: str) -> Session:
    """The session behind a share link (read-only); ``Session.DoesNotExist`` if revoked."""
    if not token:
        raise Session.DoesNotExist
    return Session.objects.get(share_token=token)


@dataclass(frozen=True)
class BoardState:
    """What a watching phone compares: ``version`` changes whenever a hand of the
    session is recorded, corrected, deleted or restored; ``last_change`` is when."""

    version: str
    last_change: datetime | None


def session_board_state(session: Session) -> BoardState:
    latest = Hand.objects.filter(session=session).aggregate(n=Count("id"), at=Max("updated_at"))
    stamp = latest["at"].timestamp() if latest["at"] else 0
    return BoardState(version=f"{latest['n']}-{stamp:.6f}", last_change=latest["at"])


@transaction.atomic
def session_share(*, session: Session) -> str:
    """A new unguessable share link; an earlier link stops working."""
    session.share_token = secrets.token_urlsafe(24)
    session.save(update_fields=["share_token"])
    return session.share_token


@transaction.atomic
def session_unshare(*, session: Session) -> None:
    session.share_token = None
    session.save(update_fields=["share_token"])


class EditorRefused(ValueError):
    """The named user cannot be made an editor: ``reason`` is "unknown" or "owner"."""

    def __init__(self, reason: str) -> None:
        self.reason = reason
        super().__init__(f"username: {reason}")


@transaction.atomic
def session_add_editor(*, session: Session, username: str) -> User:
    try:
        editor = User.objects.get(username=username.strip())
    except User.DoesNotExist:
        raise EditorRefused("unknown") from None
    if editor.pk == session.owner_id:
        raise EditorRefused("owner")
    session.editors.add(editor)
    return editor


@transaction.atomic
def session_remove_editor(*, session: Session, user_id: int) -> None:
    session.editors.remove(user_id)


# -- sessions -----------------------------------------------------------------


@transaction.atomic
def session_create(
    *,
    owner: User,
    name: str,
    variant: str,
    players: Sequence[str],
    options: dict[str, Any],
    money_rate: Decimal | None = None,
    played_on: date | None = None,
) -> Session:
    """Open a session; players are found by name among the owner's or created.
    It was played today unless ``played_on`` says otherwise."""
    game_variant = variant_for(variant)
    names = read_players(list(players), game_variant)
    parsed = game_variant.parse_options(options, names)
    session = Session.objects.create(
        owner=owner, name=name, variant=variant, options=options_json(parsed), money_rate=money_rate
    )
    if played_on is not None:
        session.played_on = played_on
        session.save(update_fields=["played_on"])
    for position, player_name in enumerate(names):
        player, _ = Player.objects.get_or_create(owner=owner, name=player_name)
        Seat.objects.create(session=session, player=player, position=position, name=player_name)
    return session


# -- hands ----------------------------------------------------------------------


def hand_check(
    *, game: Game, raw: dict[str, Any], previous_dealer: str | None = None
) -> tuple[HandRecord, HandScore]:
    """Validate and score a hand without saving it (the form's live preview).
    A hand that names no dealer is dealt by the player after ``previous_dealer``."""
    record = read_hand(game.variant, game.players, game.options, raw, previous_dealer)
    return record, score_hand(game.variant, record, game.options)


def _store(hand: Hand, game: Game, record: HandRecord, score: HandScore) -> None:
    hand.type = record.type.value
    hand.dealer = record.table.dealer or ""
    hand.sitting_out = record.table.sitting_out or ""
    hand.inputs = game.variant.dump_play(record.type, record.play, record.table, game.options)
    hand.note = record.note
    hand.deltas = {name: points_to_json(value) for name, value in score.deltas.items()}
    hand.breakdown = [line_to_json(line) for line in score.breakdown]
    hand.description = line_to_json(game.variant.describe_record(record))


def _digest(raw: Mapping[str, Any]) -> str:
    """A fingerprint of a submitted hand form."""
    text = json.dumps(raw, sort_keys=True, default=str, ensure_ascii=True)
    return hashlib.sha256(text.encode()).hexdigest()[:32]


@transaction.atomic
def hand_record(
    *, session: Session, raw: dict[str, Any], user: User | None = None, client_token: str = ""
) -> Hand:
    """Record the next hand. A resent form (same ``client_token``, same inputs)
    is stored once; hands recorded at the same moment are numbered in the order
    they commit. The same token with other inputs (an old form brought back and
    filled in again) records a new hand."""
    locked = Session.objects.select_for_update().get(pk=session.pk)
    digest = _digest(raw) if client_token else ""
    if client_token:
        existing = Hand.objects.filter(session=locked, client_token=client_token).first()
        if existing is not None and existing.client_digest not in ("", digest):
            client_token = f"{client_token[:31]}~{digest}"
            existing = Hand.objects.filter(session=locked, client_token=client_token).first()
        if existing is not None:
            return existing
    game = game_of(locked)
    record, score = hand_check(game=game, raw=raw, previous_dealer=_last_dealer(locked))
    last = Hand.objects.filter(session=locked).aggregate(last=Max("number"))["last"] or 0
    hand = Hand(
        session=locked, number=last + 1, client_token=client_token, client_digest=digest, created_by=user
    )
    _store(hand, game, record, score)
    hand.save()
    _audit(hand, user, HandChange.Action.RECORDED, before=None)
    return hand


@transaction.atomic
def hand_edit(
    *, hand: Hand, raw: dict[str, Any], user: User | None = None, expected_version: int | None = None
) -> Hand:
    """Correct a recorded hand and re-score it. Refuses with ``HandConflict``
    when the hand changed or was deleted since ``expected_version`` was read,
    unless the change found is this very correction by the same user (a
    double-tapped or resent form)."""
    locked = Hand.objects.select_for_update().select_related("session").get(pk=hand.pk)
    if locked.deleted_at is not None:
        raise HandConflict(locked)
    game = game_of(locked.session)
    if expected_version is not None and locked.version != expected_version:
        if _is_repeat(locked, game, raw, user):
            return locked
        raise HandConflict(locked)
    record, score = hand_check(game=game, raw=raw)
    before = _snapshot(locked)
    _store(locked, game, record, score)
    locked.version += 1
    locked.save()
    _audit(locked, user, HandChange.Action.EDITED, before=before)
    return locked


def _is_repeat(hand: Hand, game: Game, raw: dict[str, Any], user: User | None) -> bool:
    """Whether the hand's latest change is ``user`` storing exactly this correction."""
    latest = hand.changes.order_by("-at", "-id").first()
    if latest is None or latest.action != HandChange.Action.EDITED or user is None:
        return False
    if latest.user_id != user.pk:
        return False
    try:
        record, score = hand_check(game=game, raw=raw)
    except InvalidInput:
        return False
    again = Hand(session=hand.session)
    _store(again, game, record, score)
    return bool(again.as_session_hand() == hand.as_session_hand())


@transaction.atomic
def hand_delete(*, hand: Hand, user: User | None = None) -> Hand:
    """Take a hand off the sheet; ``hand_restore`` puts it back in its place."""
    locked = Hand.objects.select_for_update().get(pk=hand.pk)
    if locked.deleted_at is None:
        locked.deleted_at = timezone.now()
        locked.version += 1
        locked.save(update_fields=["deleted_at", "version", "updated_at"])
        _audit(locked, user, HandChange.Action.DELETED, before=_snapshot(locked))
    return locked


@transaction.atomic
def hand_restore(*, hand: Hand, user: User | None = None) -> Hand:
    locked = Hand.objects.select_for_update().get(pk=hand.pk)
    if locked.deleted_at is not None:
        locked.deleted_at = None
        locked.version += 1
        locked.save(update_fields=["deleted_at", "version", "updated_at"])
        _audit(locked, user, HandChange.Action.RESTORED, before=None)
    return locked


def _snapshot(hand: Hand) -> dict[str, Any]:
    return {"hand": hand.as_session_hand(), "deltas": dict(hand.deltas), "description": hand.description}


def _audit(hand: Hand, user: User | None, action: str, *, before: dict[str, Any] | None) -> None:
    after = None if action == HandChange.Action.DELETED else _snapshot(hand)
    HandChange.objects.create(hand=hand, user=user, action=action, before=before, after=after)


# -- the sheet --------------------------------------------------------------------


@dataclass(frozen=True)
class SectionView:
    """A series or Partie as the sheet shows it."""

    number: int  # 1-based
    section: Section
    notation: dict[str, Line] | None  # the paper block's notation, where the game has one
    settlement: Settlement | None  # what this section alone settles, where the game does that

    @property
    def kind(self) -> str:
        return self.section.kind

    @property
    def totals(self) -> Mapping[str, Fraction]:
        return self.section.totals

    @property
    def bonus(self) -> Mapping[str, Fraction]:
        return self.section.bonus


@dataclass(frozen=True)
class Row:
    hand: Hand
    index: int  # 1-based position on the sheet
    record: HandRecord
    deltas: tuple[Fraction, ...]  # in seat order
    totals: tuple[Fraction, ...]  # running totals (per series where the game has series)
    section_end: SectionView | None  # the series or Partie this hand closes


@dataclass(frozen=True)
class Sheet:
    session: Session
    game: Game
    rows: tuple[Row, ...]
    summary: Summary
    settlement: Settlement
    next_dealer: str
    section_views: tuple[SectionView, ...]

    @property
    def players(self) -> tuple[str, ...]:
        return self.game.players


def session_sheet(session: Session) -> Sheet:
    """Everything a score sheet shows, from two queries whatever its length."""
    seats = list(session.seats.all())
    game = game_of(session, seats)
    hands = list(session.hands.filter(deleted_at__isnull=True).order_by("number"))
    records: list[HandRecord] = []
    previous: str | None = None
    for hand in hands:
        record = read_hand(game.variant, game.players, game.options, hand.as_session_hand(), previous)
        records.append(record)
        previous = record.table.dealer
    deltas = [hand.delta_points() for hand in hands]
    summary = summarize(game.variant, game.players, records, deltas, game.options)
    views = tuple(
        SectionView(
            number=number,
            section=section,
            notation=game.variant.section_notation(game.players, deltas, section),
            settlement=_section_settlement(game.variant, section, session.money_rate),
        )
        for number, section in enumerate(summary.sections, 1)
    )
    ends = {view.section.last: view for view in views if view.section.complete}
    resets = game.variant.section_kind == "series"

    rows: list[Row] = []
    running = dict.fromkeys(game.players, Fraction(0))
    for index, (hand, record, hand_deltas) in enumerate(zip(hands, records, deltas, strict=True)):
        for name in game.players:
            running[name] += hand_deltas.get(name, Fraction(0))
        rows.append(
            Row(
                hand=hand,
                index=index + 1,
                record=record,
                deltas=tuple(hand_deltas.get(name, Fraction(0)) for name in game.players),
                totals=tuple(running[name] for name in game.players),
                section_end=ends.get(index),
            )
        )
        if resets and index in ends:
            running = dict.fromkeys(game.players, Fraction(0))

    upcoming = _after(game.players, previous)
    return Sheet(
        session=session,
        game=game,
        rows=tuple(rows),
        summary=summary,
        settlement=settle(summary.net, session.money_rate),
        next_dealer=upcoming,
        section_views=views,
    )


def _after(players: Sequence[str], last_dealer: str | None) -> str:
    """Who deals next. The first dealer is the last in playing order, so the
    first player in that order leads the first hand."""
    return next_dealer(players, last_dealer) or players[-1]


def proposed_dealer(session: Session, game: Game) -> str:
    """The next dealer, for a new hand's form (one query)."""
    return _after(game.players, _last_dealer(session))


def _last_dealer(session: Session) -> str | None:
    # Imported sessions may not know their dealers: those hands are stored blank.
    return (
        session.hands.filter(deleted_at__isnull=True)
        .exclude(dealer="")
        .order_by("-number")
        .values_list("dealer", flat=True)
        .first()
    )


def _section_settlement(variant: Variant, section: Section, rate: Decimal | None) -> Settlement | None:
    net = variant.section_net(section)
    return settle(net, rate) if net is not None else None


# -- export and import ------------------------------------------------------------------


def session_file(session: Session) -> SessionFile:
    """The session as the engine's validated ``tarockscore/1`` document, with its
    name, the day it was played and its money rate."""
    seats = list(session.seats.all())
    game = game_of(session, seats)
    hands = session.hands.filter(deleted_at__isnull=True).order_by("number")
    document = read_session(
        {
            "format": FORMAT,
            "variant": session.variant,
            "players": list(game.players),
            "options": game.variant.dump_options(game.options),
            "hands": [hand.as_session_hand() for hand in hands],
        }
    )
    # Written as stored: an export never fails on what the session is called.
    return dataclasses.replace(
        document, name=session.name, date=session.played_on, money_rate=session.money_rate
    )


def session_export_json(session: Session) -> str:
    """The ``tarockscore/1`` file of a session: export → import → export is identical."""
    return dumps_session(session_file(session))


def name_from_filename(filename: str) -> str:
    """A session name from a file's name, its letters intact:
    ``tarot-zu-fünft.json`` → ``tarot zu fünft``, ``freitag_bei_carl.json`` → ``freitag bei carl``."""
    stem = re.split(r"[/\\]", unicodedata.normalize("NFC", filename))[-1]
    stem = stem.rsplit(".", 1)[0] if "." in stem.lstrip(".") else stem
    words = "".join(" " if c in "_-" or not c.isprintable() else c for c in stem).split()
    return " ".join(words)[:MAX_SESSION_NAME].strip() or gettext("Imported session")


@transaction.atomic
def session_import(*, owner: User, text: str | bytes, name: str = "", filename: str = "") -> Session:
    """Create a session from a ``tarockscore/1`` file. A file with any error is
    refused as a whole (``InvalidInput`` naming hand and field); nothing is created.

    The session is called ``name`` when one is given (typed in the form,
    ``--name``), else what the file calls it, else after ``filename``."""
    document = read_session(text)
    explicit = name.strip()
    if explicit:
        explicit = read_session_name(explicit)
    players = list(document.players)
    session = session_create(
        owner=owner,
        name=explicit or document.name or name_from_filename(filename),
        variant=document.variant.key,
        players=players,
        options=document.variant.dump_options(document.options),
        money_rate=document.money_rate,
        played_on=document.date,
    )
    game = Game(document.variant, document.players, document.options)
    hands = []
    for number, record in enumerate(document.hands, 1):
        hand = Hand(session=session, number=number, created_by=owner)
        _store(hand, game, record, score_hand(game.variant, record, game.options))
        hands.append(hand)
    Hand.objects.bulk_create(hands)
    stored = Hand.objects.filter(session=session).order_by("number")
    HandChange.objects.bulk_create(
        HandChange(hand=hand, user=owner, action=HandChange.Action.IMPORTED, after=_snapshot(hand))
        for hand in stored
    )
    return session


def session_export_csv(sheet: Sheet) -> str:
    """One row per hand: who dealt, the hand in short, each player's delta and
    running total; a last row with the totals (series bonuses included)."""
    from scoring.presentation import render_line  # the reader's language for the hand in short

    def plain(value: Fraction) -> str:
        return str(points_to_json(value))

    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    players = sheet.players
    section_column = sheet.game.variant.section_kind is not None
    header = ["hand", "dealer", "sitting_out", "type"]
    if section_column:
        header.append(sheet.game.variant.section_kind or "")
    header.append("description")
    for name in players:
        header += [f"{name} delta", f"{name} total"]
    writer.writerow(header)
    section = 1
    for row in sheet.rows:
        cells = [str(row.index), row.hand.dealer, row.hand.sitting_out, row.hand.type]
        if section_column:
            cells.append(str(section))
        description = row.hand.description_line()
        cells.append(render_line(description) if description else "")
        for delta, total in zip(row.deltas, row.totals, strict=True):
            cells += [plain(delta), plain(total)]
        writer.writerow(cells)
        if row.section_end is not None:
            section += 1
    last = ["total", "", "", ""] + ([""] if section_column else []) + [""]
    for name in players:
        last += ["", plain(sheet.summary.totals[name])]
    writer.writerow(last)
    return out.getvalue()
