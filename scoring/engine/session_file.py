"""Reading and writing the ``tarockscore/1`` session file (SESSION_FORMAT.md).

Pure: text or parsed JSON in, a validated ``Session`` out, and back. Every
refusal is an ``InvalidInput`` naming the hand (1-based) and the field.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from .registry import VARIANTS
from .schema import Field, Kind, clean
from .settlement import Settlement
from .types import (
    HandScore,
    HandType,
    InvalidInput,
    Table,
    allowed_list,
    gettext_noop,
    invalid,
    points_to_json,
)
from .variant import HandRecord, Summary, Variant

FORMAT = "tarockscore/1"
MAX_NAME = 40
# More than any evening (a long one is under 150): what one session may hold,
# on import and when recording, so every page and PDF of it has bounded work.
MAX_HANDS = 2000
TOP_KEYS = ("format", "variant", "players", "options", "hands")
NOTE = Field("note", Kind.TEXT, gettext_noop("Note"), default="", max_length=500)


@dataclass(frozen=True)
class Session:
    variant: Variant
    players: tuple[str, ...]
    options: Any
    hands: tuple[HandRecord, ...]


def variant_for(key: Any) -> Variant:
    """The game module for a session file's ``variant``."""
    if not isinstance(key, str) or key not in VARIANTS:
        raise invalid(
            "variant",
            gettext_noop("must be one of {allowed} (got {got})"),
            allowed=allowed_list(VARIANTS),
            got=json.dumps(key),
        )
    return VARIANTS[key]


def read_players(raw: Any, variant: Variant) -> tuple[str, ...]:
    if not isinstance(raw, list) or not all(isinstance(name, str) for name in raw):
        raise invalid("players", gettext_noop("must be a list of names in playing order"))
    names = tuple(raw)
    for index, name in enumerate(names, 1):
        if not name.strip() or name != name.strip() or len(name) > MAX_NAME:
            raise invalid(
                f"players[{index}]",
                gettext_noop("a name has 1 to {n} characters, without leading or trailing spaces"),
                n=MAX_NAME,
            )
    if len(set(names)) != len(names):
        raise invalid("players", gettext_noop("names must be unique"))
    variant.check_table(names)
    return names


def read_session(document: str | bytes | Any) -> Session:
    """A validated session from the text or the parsed JSON of a session file."""
    if isinstance(document, str | bytes):
        try:
            document = json.loads(document)
        except (ValueError, RecursionError) as error:
            raise invalid("document", gettext_noop("not valid JSON: {error}"), error=str(error)) from None
    if not isinstance(document, Mapping):
        raise invalid("document", gettext_noop("must be a JSON object"))
    for key in document:
        if key not in TOP_KEYS:
            raise invalid(
                str(key),
                gettext_noop("unknown field; allowed here: {allowed}"),
                allowed=allowed_list(TOP_KEYS),
            )
    if document.get("format", FORMAT) != FORMAT:
        raise invalid("format", gettext_noop("must be {allowed}"), allowed=FORMAT)
    variant = variant_for(document.get("variant"))
    players = read_players(document.get("players"), variant)
    options = variant.parse_options(document.get("options"), players)
    raw_hands = document.get("hands", [])
    if not isinstance(raw_hands, list):
        raise invalid("hands", gettext_noop("must be a list of hands"))
    if len(raw_hands) > MAX_HANDS:
        raise invalid("hands", gettext_noop("at most {n} hands"), n=MAX_HANDS)
    hands: list[HandRecord] = []
    previous: str | None = None
    for number, raw in enumerate(raw_hands, 1):
        try:
            record = read_hand(variant, players, options, raw, previous)
        except InvalidInput as error:
            raise error.in_hand(number) from None
        hands.append(record)
        previous = record.table.dealer
    return Session(variant, players, options, tuple(hands))


def next_dealer(players: Sequence[str], previous: str | None) -> str | None:
    """The deal passes to the next player in playing order."""
    if previous is None:
        return None
    return players[(players.index(previous) + 1) % len(players)]


def read_hand(
    variant: Variant, players: tuple[str, ...], options: Any, raw: Any, previous_dealer: str | None
) -> HandRecord:
    """One hand of a session file, or of a form, checked in its place in the session."""
    if not isinstance(raw, Mapping):
        raise invalid("hand", gettext_noop("must be an object"))
    rest = dict(raw)
    hand_type = _hand_type(variant, options, rest.pop("type", HandType.PLAYED.value))
    dealer = rest.pop("dealer", None)
    if dealer is None:
        dealer = next_dealer(players, previous_dealer)
        if dealer is None and variant.needs_dealer(players, options):
            raise invalid(
                "dealer",
                gettext_noop("the first hand must name its dealer: one of {allowed}"),
                allowed=allowed_list(players),
            )
    elif dealer not in players:
        raise invalid(
            "dealer",
            gettext_noop("must be one of the players {allowed} (got {got})"),
            allowed=allowed_list(players),
            got=json.dumps(dealer),
        )
    expected = variant.sitting_out(players, dealer)
    if "sitting_out" in rest:
        given = rest.pop("sitting_out")
        if expected is None and given is not None:
            raise invalid("sitting_out", gettext_noop("nobody sits out at this table"))
        if given != expected:
            raise invalid(
                "sitting_out",
                gettext_noop("must be {expected}, who sits out when {dealer} deals"),
                expected=str(expected),
                dealer=str(dealer),
            )
    note = clean((NOTE,), {"note": rest.pop("note")} if "note" in rest else {}, players)["note"]
    table = Table(players, dealer, expected)
    fields = () if hand_type is HandType.REDEAL else variant.hand_fields(hand_type, table, options)
    known = [f.name for f in fields]
    for key in rest:
        if key not in known:
            raise invalid(
                str(key),
                gettext_noop("unknown field; allowed here: {allowed}"),
                allowed=allowed_list(["dealer", "type", "sitting_out", "note", *known]),
            )
    play = variant.parse_play(hand_type, rest, table, options)
    return HandRecord(hand_type, table, play, note)


def _hand_type(variant: Variant, options: Any, raw: Any) -> HandType:
    known = [t.value for t in variant.hand_types]
    if raw not in known:
        raise invalid(
            "type",
            gettext_noop("must be one of {allowed} (got {got})"),
            allowed=allowed_list(known),
            got=json.dumps(raw),
        )
    hand_type = HandType(raw)
    variant.check_hand_type(hand_type, options)
    return hand_type


def hand_document(
    hand_type: str, dealer: str | None, sitting_out: str | None, fields: Mapping[str, Any], note: str
) -> dict[str, Any]:
    """A hand as the session file writes it: common fields, then the game's, then the note."""
    out: dict[str, Any] = {}
    if dealer:
        out["dealer"] = dealer
    if hand_type != HandType.PLAYED:
        out["type"] = str(hand_type)
    if sitting_out:
        out["sitting_out"] = sitting_out
    out.update(fields)
    if note:
        out["note"] = note
    return out


def write_hand(variant: Variant, record: HandRecord, options: Any) -> dict[str, Any]:
    fields = variant.dump_play(record.type, record.play, record.table, options)
    return hand_document(record.type, record.table.dealer, record.table.sitting_out, fields, record.note)


def write_session(session: Session) -> dict[str, Any]:
    """The session as a ``tarockscore/1`` document (parsed JSON)."""
    return {
        "format": FORMAT,
        "variant": session.variant.key,
        "players": list(session.players),
        "options": session.variant.dump_options(session.options),
        "hands": [write_hand(session.variant, hand, session.options) for hand in session.hands],
    }


def dumps_session(session: Session) -> str:
    """The session file's text: stable, so export → import → export is identical."""
    return json.dumps(write_session(session), ensure_ascii=False, indent=1) + "\n"


def result_to_json(
    players: Sequence[str],
    hands: Sequence[HandScore],
    summary: Summary,
    settlement: Settlement,
    with_series: bool = False,
) -> dict[str, Any]:
    """What ``score_session`` prints (SESSION_FORMAT.md)."""

    def numbers(values: Mapping[str, Any]) -> dict[str, int | float]:
        return {name: points_to_json(values[name]) for name in players if name in values}

    out: dict[str, Any] = {
        "hands": [{"deltas": numbers(hand.deltas), "breakdown": hand.rendered()} for hand in hands],
        "totals": numbers(summary.totals),
    }
    if with_series:
        out["series"] = [
            {
                "hands": [section.first, section.last],
                "totals": numbers(section.totals),
                "bonus": numbers(section.bonus),
            }
            for section in summary.sections
        ]
    out["settlement"] = {
        "net": numbers(settlement.net),
        "transfers": [
            {"from": t.payer, "to": t.payee, "points": points_to_json(t.points)} for t in settlement.transfers
        ],
    }
    return out
