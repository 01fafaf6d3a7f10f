"""What the phone asks the engine at the table, without a connection (run by Pyodide
in static/js/engine-worker.js; the same calls run on CPython in the tests).

``score_table`` takes an evening as the page knows it (the game, the hands the
server stored, as it stored them) and the hands waiting on the phone, each as the
form fields it will post, read by the server's own reading (``form_input``), and
scores the waiting hands in their places: each one's deltas, description and
breakdown, or the problems the server would name; the running totals, the next
dealer and the settlement, all provisional until the server stores the hands.
Everything comes back as JSON, its words rendered in the page's language from the
catalog the bundle carries (``catalog.json``, built from the server's translations).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from decimal import Decimal
from fractions import Fraction
from functools import cache
from pathlib import Path
from typing import Any

from .form_input import in_grid, read_hand, reworded
from .registry import VARIANTS
from .session_file import next_dealer
from .session_file import read_hand as read_record
from .settlement import Settlement, settle
from .types import (
    HandType,
    InvalidInput,
    Line,
    format_number,
    format_signed,
    gettext_noop,
    invalid,
    points_from_json,
)
from .variant import StoredHand, Variant, in_sight

CATALOG = Path(__file__).with_name("catalog.json")
# A session played to a number of hands (a tournament table) takes no more played hands
# once it has them (redeals do not count): the server's words, the phone's too.
ROUND_COMPLETE = gettext_noop("Round complete: {played} of {target}")


class Posted(Mapping[str, str]):
    """Posted form fields as (name, value) pairs, read as the server reads a QueryDict:
    a name gives its last value, ``getlist`` all of them."""

    def __init__(self, pairs: Iterable[Sequence[str]]) -> None:
        self.lists: dict[str, list[str]] = {}
        for name, value in pairs:
            self.lists.setdefault(str(name), []).append(str(value))

    def __getitem__(self, name: str) -> str:
        found = self.lists[name]
        if not found:
            raise KeyError(name)
        return found[-1]

    def __iter__(self) -> Iterator[str]:
        return iter(self.lists)

    def __len__(self) -> int:
        return len(self.lists)

    def getlist(self, name: str) -> list[str]:
        return list(self.lists.get(name, []))


@cache
def _catalog() -> dict[str, Any]:
    return json.loads(CATALOG.read_text(encoding="utf-8")) if CATALOG.exists() else {}


class Words:
    """The server's words for the engine's texts in one language, and its numbers."""

    def __init__(self, lang: str) -> None:
        found = _catalog().get(lang) or _catalog().get(lang.split("-")[0]) or {}
        self.words: dict[str, str] = found.get("words", {})
        self.separator: str = found.get("decimal", ".")

    def translate(self, text: str) -> str:
        return self.words.get(text, text)

    def number(self, value: Fraction | int) -> str:
        return format_number(Fraction(value), self.separator)

    def signed(self, value: Fraction | int) -> str:
        return format_signed(Fraction(value), self.number)

    def line(self, line: Line) -> str:
        try:
            return line.render(self.translate, self.number)
        except (KeyError, IndexError, ValueError):
            return line.render(number=self.number)

    def problem(self, error: InvalidInput) -> str:
        try:
            return error.words(self.translate, self.number)
        except (KeyError, IndexError, ValueError):
            return error.words(number=self.number)


def stored_hand(data: Mapping[str, Any]) -> StoredHand:
    """A hand as the server stored it (``Hand.stored``), from the page's JSON."""
    money = data.get("money")
    return StoredHand(
        data.get("dealer") or None,
        {name: points_from_json(value) for name, value in data["deltas"].items()},
        frozenset(data.get("facts") or ()),
        None if money is None else {name: points_from_json(value) for name, value in money.items()},
    )


def score_hand_form(
    variant: Variant,
    options: Any,
    players: tuple[str, ...],
    fields: Iterable[Sequence[str]],
    earlier: Sequence[StoredHand],
    words: Words,
    proposed: str | None = None,
) -> tuple[dict[str, Any], StoredHand | None, dict[str, Any] | None]:
    """One posted hand form scored in its place, as the server's preview scores it:
    what the page draws, and where it scores, the hand as stored and in the session
    file's shape."""
    posted = Posted(fields)
    allowed = {t.value: t for t in variant.allowed_hand_types(options)}
    kind = posted.get("type") or ""
    if kind and kind not in allowed:
        return {"ok": False, "problems": [{"field": "type", "words": ""}]}, None, None
    hand_type = allowed.get(kind, next(iter(allowed.values())))
    form = read_hand(variant, options, players, hand_type, posted, proposed=proposed)
    try:
        record = read_record(variant, players, options, form.raw, None, from_form=True)
        scored = variant.scored_hand(record, options, earlier)
    except InvalidInput as error:
        problems = []
        for problem in error.problems:
            problem = reworded(form.fields, form.raw, problem)
            name = in_grid(form.fields, form.raw, problem.field)
            problems.append({"field": problem.field, "input": name, "words": words.problem(problem)})
        return {"ok": False, "problems": problems, "dealer": form.table.dealer}, None, None
    deltas = scored.deltas
    result = {
        "ok": True,
        "dealer": form.table.dealer,
        "sitting_out": record.table.sitting_out,
        "description": words.line(scored.description),
        "lines": [words.line(line) for line in scored.breakdown],
        "deltas": [[name, words.signed(deltas.get(name, 0)), _sign(deltas.get(name, 0))] for name in players],
    }
    return result, variant.stored(record, scored.score), form.raw


def _sign(value: Fraction | int) -> str:
    return "plus" if value > 0 else "minus" if value < 0 else "zero"


def _cell_sign(value: Fraction | int) -> str:
    """The sheet's class for a number's sign (the template filter ``sign_class``)."""
    return "pos" if value > 0 else "neg" if value < 0 else "zero"


def score_table(request: Mapping[str, Any]) -> dict[str, Any]:
    """The evening with the hands waiting on the phone, scored in their places.

    ``request``: ``variant`` (the game's key), ``players``, ``options`` (the house
    rules as stored), ``rate`` (money per point, a string, or none), ``stored``
    (the live hands as stored, in order: each with its ``id``, and its ``record``
    in the session file's shape where the house rules make a hand's score depend
    on the hands before it), ``changes`` (corrections and deletions of stored hands
    waiting on the phone, in the order made: ``{"hand": id, "fields": [[name,
    value], …]}`` or ``{"hand": id, "delete": true}``), ``waiting`` (new hands,
    each a list of posted [name, value] pairs), ``lang``. The changes are made
    first, as the server makes them when they arrive (a correction scored in its
    place, the hands after it scored again where they depend on it), then the new
    hands follow. A change or hand the engine refuses is left out of the totals
    (the server will refuse it too), with its problems."""
    words = Words(str(request.get("lang") or "en"))
    variant = VARIANTS[str(request["variant"])]
    players = tuple(str(p) for p in request["players"])
    options = variant.parse_options(request.get("options") or {}, players)
    known = list(request.get("stored") or ())
    hands = [stored_hand(h) for h in known]
    table = _Stored(
        hands, [h.get("id") for h in known], [h.get("record") for h in known], [h.get("type") for h in known]
    )
    changes = [
        table.change(variant, options, players, change, words) for change in request.get("changes") or ()
    ]
    target = request.get("target")
    results = [
        table.wait(variant, options, players, fields, words, target, request.get("first"))
        for fields in request.get("waiting") or ()
    ]
    summary = variant.summarize(players, hands, options)
    rate = Decimal(str(request["rate"])) if request.get("rate") not in (None, "") else None
    settlement = settle(summary.net, rate, summary.parts)
    last = _last_dealer(hands)
    return {
        "hands": results,
        "changes": changes,
        "count": len(hands),
        # A session played to a target: its played hands (redeals do not count) and the target.
        "played": table.played(),
        "target": target if isinstance(target, int) else None,
        "totals": [
            [name, words.number(summary.totals.get(name, 0)), _sign(summary.totals.get(name, 0))]
            for name in players
        ],
        "exact": {name: str(summary.totals.get(name, 0)) for name in players},
        # The sheet's rows kept in sight (its sticky Σ row; a series and the balance), by their key.
        "heads": [
            [key, number, [[words.signed(value), _cell_sign(value)] for value in values]]
            for key, number, values in in_sight(variant.section_kind, summary, players, hands)
        ],
        # As the server proposes it: after the last known dealer, else the first dealer chosen, else the last seat.
        "next_dealer": next_dealer(players, last) or _first(players, request.get("first")),
        **_settlement(settlement, words),
    }


def _settlement(settlement: Settlement, words: Words) -> dict[str, Any]:
    """Who pays whom, in points, and each player's money where the evening has a rate."""
    return {
        "settlement": [
            {
                "from": t.payer,
                "to": t.payee,
                "points": words.number(t.points),
            }
            for t in settlement.transfers
        ],
        "money": None
        if settlement.money is None
        else {name: _money(amount, words.separator) for name, amount in settlement.money.items()},
    }


class _Stored:
    """The stored hands as the phone changes them: each with its id and, where
    later hands depend on it, its record to score them again."""

    def __init__(self, hands: list[StoredHand], ids: list[Any], records: list[Any], kinds: list[Any]) -> None:
        self.hands, self.ids, self.records, self.kinds = hands, ids, records, kinds

    def add(self, hand: StoredHand, kind: str) -> None:
        self.hands.append(hand)
        self.ids.append(None)
        self.records.append(None)
        self.kinds.append(kind)

    def wait(
        self,
        variant: Variant,
        options: Any,
        players: tuple[str, ...],
        fields: Any,
        words: Words,
        target: Any,
        first: Any,
    ) -> dict[str, Any]:
        """A new hand waiting on the phone, scored after the others; kept unless refused."""
        proposed = next_dealer(players, _last_dealer(self.hands)) or _first(players, first)
        result, stored, _ = score_hand_form(variant, options, players, fields, self.hands, words, proposed)
        kind = Posted(fields).get("type") or HandType.PLAYED.value
        if stored is not None and isinstance(target, int) and kind != HandType.REDEAL.value:
            played = self.played()
            if played >= target:  # as the server refuses it: after the hand's own checks
                complete = invalid("hands", ROUND_COMPLETE, played=played, target=target)
                problem = {"field": "hands", "input": None, "words": words.problem(complete)}
                result, stored = {"ok": False, "problems": [problem], "dealer": result["dealer"]}, None
        if stored is not None:
            self.add(stored, kind)
        return result

    def played(self) -> int:
        """The hands that count toward a target: redeals do not."""
        return sum(1 for kind in self.kinds if kind != HandType.REDEAL.value)

    def change(
        self,
        variant: Variant,
        options: Any,
        players: tuple[str, ...],
        change: Mapping[str, Any],
        words: Words,
    ) -> dict[str, Any]:
        if change.get("hand") not in self.ids:
            # Not among the live hands this page knows (deleted meanwhile): the server says why.
            return {"ok": False, "problems": [], "unknown": True}
        at = self.ids.index(change["hand"])
        if change.get("delete"):
            del self.hands[at], self.ids[at], self.records[at], self.kinds[at]
            self.again(variant, options, players, at)
            return {"ok": True, "deleted": True}
        result, scored, record = score_hand_form(
            variant, options, players, change.get("fields") or (), self.hands[:at], words, None
        )
        if scored is not None:
            self.hands[at], self.records[at] = scored, record
            self.again(variant, options, players, at + 1)
        return result

    def again(self, variant: Variant, options: Any, players: tuple[str, ...], start: int) -> None:
        """The hands from ``start`` on scored again in their places, as the server
        does after a correction or deletion (``later_rescored``): only where a
        hand's score depends on the hands before it; one it refuses stays as it was."""
        if not variant.looks_back(options):
            return
        previous: str | None = None
        for index, hand in enumerate(self.hands):
            record = self.records[index]
            if index >= start and record is not None:
                try:
                    read = read_record(variant, players, options, record, previous)
                    scored = variant.scored_hand(read, options, self.hands[:index])
                    self.hands[index] = hand = variant.stored(read, scored.score)
                except InvalidInput:
                    pass
            previous = hand.dealer or previous


def _first(players: tuple[str, ...], first: Any) -> str:
    return first if isinstance(first, str) and first in players else players[-1]


def _last_dealer(hands: Sequence[StoredHand]) -> str | None:
    return next((h.dealer for h in reversed(hands) if h.dealer), None)


def _money(amount: Decimal, separator: str) -> str:
    text = f"{abs(amount):.2f}".replace(".", separator)
    return ("\u2212" if amount < 0 else "") + text


def call(name: str, argument: str) -> str:
    """The worker's one entry: a function of this module by name, JSON in and out."""
    functions: dict[str, Callable[[Mapping[str, Any]], dict[str, Any]]] = {"score_table": score_table}
    return json.dumps(functions[name](json.loads(argument)), ensure_ascii=False)
