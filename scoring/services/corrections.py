"""Putting a session right after it started: its name, day and money rate, a
player's name, its house rules. Each runs in one transaction with the session's
row locked, keeps a line in the session's history and gives the session a new
version; input the rules refuse raises ``InvalidInput`` and writes nothing.

A closed evening's scores and money are final: house rules and money rate are
refused there (``SessionClosed``); its name, day and player names can still be
put right.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date
from decimal import Decimal
from fractions import Fraction
from typing import Any

from django.contrib.auth.models import User
from django.db import transaction

from scoring.engine import HandType, InvalidInput, Line, StoredHand, Table
from scoring.engine.session_file import hand_document, read_money_rate, read_players, read_session_name
from scoring.engine.types import gettext_noop, line_json_renamed, points_from_json, points_to_json
from scoring.models import Hand, HandChange, Player, Session, SessionChange
from scoring.services import events
from scoring.services.games import Game, game_of, options_json
from scoring.services.rescore import RescoredHand, session_rescore
from scoring.services.sessions import check_open, check_unmanaged, locked, mark_changed, record_change


@transaction.atomic
def session_edit(
    *, session: Session, user: User | None, name: str, played_on: date, money_rate: Decimal | None
) -> list[SessionChange]:
    """Set the session's name, the day it was played and its money per point
    (None: settled in points); one history line for each that changed."""
    row = locked(session)
    check_unmanaged(row)
    name = read_session_name(name)
    if money_rate is not None:
        money_rate = read_money_rate(format(money_rate, "f"))
    changes = []
    if name != row.name:
        changes.append(record_change(row, user, SessionChange.Action.RENAMED, before=row.name, after=name))
        row.name = name
    if played_on != row.played_on:
        action = SessionChange.Action.DATE
        changes.append(record_change(row, user, action, before=str(row.played_on), after=str(played_on)))
        row.played_on = played_on
    if money_rate != row.money_rate:
        check_open(row)
        before, after = _rate(row.money_rate), _rate(money_rate)
        changes.append(record_change(row, user, SessionChange.Action.MONEY_RATE, before=before, after=after))
        row.money_rate = money_rate
    if changes:
        row.save(update_fields=["name", "played_on", "money_rate"])
        mark_changed(row)
        _copy(row, session)
    return changes


def _rate(rate: Decimal | None) -> str | None:
    return None if rate is None else format(rate.normalize(), "f")


def _copy(row: Session, session: Session) -> None:
    """The caller's object shows what was stored."""
    for name in ("name", "played_on", "money_rate", "options", "version", "changed_at"):
        setattr(session, name, getattr(row, name))


# -- a player's name -----------------------------------------------------------------------


@transaction.atomic
def session_rename_player(*, session: Session, user: User | None, old: str, new: str) -> Session:
    """Correct a player's name at this table: the seat, and every stored hand
    (inputs, dealer, sitting out, deltas, the hand in short, its breakdown) and
    every hand's history, so the sheet, the history and the files all say the
    new name; in a group's evening the seat moves to the roster's player of that
    name, and what a closed evening booked is booked again for that player by
    counter-bookings. Not a re-score: no number changes. Refused (``InvalidInput`` on
    ``name``) when someone at the table has that name already, or the rules for
    names refuse it."""
    row = locked(session)
    check_unmanaged(row)
    seats = list(row.seats.select_related("player"))
    names = [seat.name for seat in seats]
    if old not in names:
        raise InvalidInput(
            "player",
            Line(gettext_noop("must be one of the players: {allowed}"), {"allowed": ", ".join(names)}),
        )
    if new == old:
        return row
    if new in names:
        raise InvalidInput("name", Line(gettext_noop("{name} sits at this table already"), {"name": new}))
    renamed = [new if name == old else name for name in names]
    game = game_of(row, seats)
    try:
        read_players(renamed, game.variant)
    except InvalidInput as refused:
        raise InvalidInput("name", refused.line) from None
    seat = seats[names.index(old)]
    former = seat.player
    seat.player, _ = Player.objects.get_or_create(owner=row.owner, name=new)
    seat.name = new
    seat.save(update_fields=["player", "name"])
    if not former.seats.exists():
        former.delete()  # only this table knew the misspelt name
    events.send_seat_renamed(row, seat, new)  # in a group's evening: the roster's player of that name
    if row.first_dealer == old:
        row.first_dealer = new
        row.save(update_fields=["first_dealer"])
    _rename_in_hands(row, game, old, new)
    _rename_in_history(row, old, new)
    record_change(row, user, SessionChange.Action.PLAYER, before=old, after=new)
    mark_changed(row)  # the evening's statistics are written again, for the roster's player
    events.send_evening_settled(row, user)  # a booked evening: reversed and booked anew
    return row


def _rename_in_hands(session: Session, game: Game, old: str, new: str) -> None:
    """Every hand, deleted ones too, and every line of their history."""
    for hand in Hand.objects.filter(session=session):
        document = _renamed_document(game, hand.as_session_hand(), old, new)
        hand.dealer = document.pop("dealer", "")
        hand.sitting_out = document.pop("sitting_out", "")
        document.pop("type", None)
        hand.note = document.pop("note", "")
        hand.inputs = document
        hand.deltas = _renamed_keys(hand.deltas, old, new)
        hand.description = line_json_renamed(hand.description, old, new) if hand.description else {}
        hand.breakdown = [line_json_renamed(line, old, new) for line in hand.breakdown]
        # One plain UPDATE a row: bulk_update's CASE over hundreds of JSON
        # values is several times slower on both databases.
        Hand.objects.filter(pk=hand.pk).update(
            dealer=hand.dealer,
            sitting_out=hand.sitting_out,
            note=hand.note,
            inputs=hand.inputs,
            deltas=hand.deltas,
            description=hand.description,
            breakdown=hand.breakdown,
        )
    for change in HandChange.objects.filter(hand__session=session).only("id", "before", "after"):
        before = _renamed_state(game, change.before, old, new)
        after = _renamed_state(game, change.after, old, new)
        if (before, after) != (change.before, change.after):
            HandChange.objects.filter(pk=change.pk).update(before=before, after=after)


def _renamed_state(game: Game, state: dict[str, Any] | None, old: str, new: str) -> dict[str, Any] | None:
    """A hand as its history keeps it (``hands.snapshot``), renamed."""
    if not state:
        return state
    out = dict(state)
    if isinstance(out.get("hand"), dict):
        out["hand"] = _renamed_document(game, out["hand"], old, new)
    if isinstance(out.get("deltas"), dict):
        out["deltas"] = _renamed_keys(out["deltas"], old, new)
    if out.get("description"):
        out["description"] = line_json_renamed(out["description"], old, new)
    return out


def _renamed_document(game: Game, document: dict[str, Any], old: str, new: str) -> dict[str, Any]:
    """A hand as the session file writes it, renamed field by field as the game describes them."""
    rest = dict(document)
    dealer, sitting_out = rest.pop("dealer", None), rest.pop("sitting_out", None)
    hand_type, note = rest.pop("type", HandType.PLAYED.value), rest.pop("note", "")
    table = Table(game.players, dealer, sitting_out)
    inputs = game.variant.renamed_inputs(
        game.variant.hand_type(hand_type), table, game.options, rest, old, new
    )
    return hand_document(
        hand_type,
        new if dealer == old else dealer,
        new if sitting_out == old else sitting_out,
        inputs,
        note,
    )


def _renamed_keys(values: dict[str, Any], old: str, new: str) -> dict[str, Any]:
    return {(new if name == old else name): value for name, value in values.items()}


def _rename_in_history(session: Session, old: str, new: str) -> None:
    """The totals a change of house rules kept, under the new name."""
    changes = list(session.changes.filter(action=SessionChange.Action.RULES))
    for change in changes:
        for state in (change.before, change.after):
            if isinstance(state, dict) and isinstance(state.get("totals"), dict):
                state["totals"] = _renamed_keys(state["totals"], old, new)
    SessionChange.objects.bulk_update(changes, ["before", "after"])


# -- house rules ---------------------------------------------------------------------------


class RulesRefused(Exception):
    """Under the new house rules these hands would be refused; nothing was changed."""

    def __init__(self, hands: list[RescoredHand]) -> None:
        self.hands = hands
        super().__init__(", ".join(str(hand.refused) for hand in hands))


@dataclass(frozen=True)
class RulesChange:
    """What a change of house rules did: the rules before and after (those that
    changed), every player's total before and after, the hands re-scored."""

    change: SessionChange | None  # None: the rules were the same
    rescored: int


@transaction.atomic
def session_change_rules(*, session: Session, user: User | None, options: dict[str, Any]) -> RulesChange:
    """New house rules for a session with hands already recorded: every hand is
    scored again under them, in this one transaction. If any hand is not valid
    under the new rules, nothing changes (``RulesRefused`` names each such hand
    and field); house rules the game refuses raise ``InvalidInput``."""
    row = locked(session)
    check_unmanaged(row)
    check_open(row)
    before_game = game_of(row)
    parsed = before_game.variant.parse_options(options, before_game.players)
    stored = options_json(parsed)
    if stored == row.options:
        return RulesChange(change=None, rescored=0)
    game = Game(before_game.variant, before_game.players, parsed)
    totals_before = _totals(row, before_game)
    result = session_rescore(session=row, user=user, game=game)
    # A deleted hand the new rules refuse does not stand in the way: it stays
    # deleted and cannot be restored under them (``hand_restore`` says why).
    refused = [hand for hand in result.refused if not hand.deleted]
    if refused:
        raise RulesRefused(refused)
    changed = sorted(key for key in stored if stored[key] != row.options.get(key))
    before = {"options": {key: row.options.get(key) for key in changed}, "totals": totals_before}
    row.options = stored
    row.save(update_fields=["options"])
    after = {"options": {key: stored[key] for key in changed}, "totals": _totals(row, game)}
    change = record_change(row, user, SessionChange.Action.RULES, before=before, after=after)
    mark_changed(row)
    _copy(row, session)
    return RulesChange(change=change, rescored=len(result.changed))


def _totals(session: Session, game: Game) -> dict[str, int | float]:
    """Each player's total as the sheet sums the stored hands (series bonuses included)."""
    hands = Hand.objects.filter(session=session, deleted_at__isnull=True).order_by("number")
    stored = [
        StoredHand(dealer or None, {k: points_from_json(v) for k, v in deltas.items()}, frozenset(facts))
        for dealer, deltas, facts in hands.values_list("dealer", "deltas", "facts")
    ]
    summary = game.variant.summarize(game.players, stored, game.options)
    return {name: points_to_json(Fraction(summary.totals[name])) for name in game.players}
