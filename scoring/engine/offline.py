"""What the phone asks the engine at the table, without a connection (run by Pyodide
in the phone's engine worker; the same calls run on CPython in the tests).

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

from .evening import Evening, Snapshot
from .form_input import placed, read_hand, reworded
from .registry import VARIANTS
from .settlement import settle
from .types import HandType, InvalidInput, Line, format_number, format_signed
from .variant import StoredHand, in_sight

CATALOG = Path(__file__).with_name("catalog.json")


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
    return snapshot(data).stored()


def snapshot(data: Mapping[str, Any]) -> Snapshot:
    """A hand as the page carries it: its id, kind, dealer and result, and where
    later hands depend on it, its ``record`` in the session file's shape."""
    return Snapshot.from_record(
        data.get("record"),
        key=data.get("id"),
        type=str(data.get("type") or HandType.PLAYED.value),
        dealer=str(data.get("dealer") or ""),
        deltas=dict(data["deltas"]),
        facts=sorted(data.get("facts") or ()),
        money=None if data.get("money") is None else dict(data["money"]),
    )


def score_hand_form(
    evening: Evening,
    fields: Iterable[Sequence[str]],
    words: Words,
    correcting: Any = None,
    drawn: Sequence[str] = (),
) -> tuple[dict[str, Any], Evening]:
    """One posted hand form written on the evening as the server writes it: a new
    hand (``correcting`` None) or a correction of the stored hand ``correcting``.
    What the page draws of it, and the evening after it (as before where the
    hand is refused)."""
    variant, options, players = evening.variant, evening.options, evening.players
    posted = Posted(fields)
    allowed = {t.value: t for t in variant.allowed_hand_types(options)}
    kind = posted.get("type") or ""
    if kind and kind not in allowed:
        return {"ok": False, "problems": [{"field": "type", "words": ""}]}, evening
    hand_type = allowed.get(kind, next(iter(allowed.values())))
    proposed = evening.next_dealer() if correcting is None else None
    form = read_hand(variant, options, players, hand_type, posted, proposed=proposed)
    try:
        if correcting is None:
            change = evening.record(form.raw, from_form=True)
        else:
            change = evening.correct(correcting, form.raw, from_form=True)
    except InvalidInput as error:
        # Each problem at the input the page drew for it, in the form's order, as the
        # server's form lists them (``placed``); those of no drawn input after them.
        problems = []
        for problem in error.problems:
            problem = reworded(form.fields, form.raw, problem)
            name = placed(form.fields, form.raw, problem.field, drawn)
            problems.append({"field": problem.field, "input": name, "words": words.problem(problem)})
        problems.sort(key=lambda p: drawn.index(p["input"]) if p["input"] is not None else len(drawn))
        return {"ok": False, "problems": problems, "dealer": form.table.dealer}, evening
    scored = change.scored
    assert scored is not None
    deltas = scored.deltas
    result = {
        "ok": True,
        "dealer": form.table.dealer,
        "sitting_out": scored.record.table.sitting_out,
        "description": words.line(scored.description),
        "lines": [words.line(line) for line in scored.breakdown],
        "deltas": [[name, words.signed(deltas.get(name, 0)), _sign(deltas.get(name, 0))] for name in players],
    }
    return result, change.evening


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
    each a list of posted [name, value] pairs), ``lang``, ``inputs`` (the names of
    the inputs the page's hand form is drawn with, in its order: a refused form's
    problems come placed and in that order, as the server lists them). The changes are made
    first, as the server makes them when they arrive (a correction scored in its
    place, the hands after it scored again where they depend on it), then the new
    hands follow. A change or hand the engine refuses is left out of the totals
    (the server will refuse it too), with its problems."""
    words = Words(str(request.get("lang") or "en"))
    variant = VARIANTS[str(request["variant"])]
    players = tuple(str(p) for p in request["players"])
    target = request.get("target")
    evening = Evening(
        variant,
        players,
        variant.parse_options(request.get("options") or {}, players),
        tuple(snapshot(h) for h in request.get("stored") or ()),
        target=target if isinstance(target, int) else None,
        first=str(request.get("first") or ""),
    )
    # The inputs the page's hand form is drawn with, in its order: where problems are placed.
    drawn = tuple(str(name) for name in request.get("inputs") or ())
    changes = []
    for change in request.get("changes") or ():
        result, evening = _changed(evening, change, words, drawn)
        changes.append(result)
    results = []
    for fields in request.get("waiting") or ():
        result, evening = score_hand_form(evening, fields, words, drawn=drawn)
        results.append(result)
    summary = evening.summary()
    rate = Decimal(str(request["rate"])) if request.get("rate") not in (None, "") else None
    settlement = settle(summary.net, rate, summary.parts)
    return {
        "hands": results,
        "changes": changes,
        "count": evening.count(),
        # A session played to a target: its played hands (redeals do not count) and the target.
        "played": evening.played(),
        "target": evening.target,
        "totals": [
            [name, words.number(summary.totals.get(name, 0)), _sign(summary.totals.get(name, 0))]
            for name in players
        ],
        "exact": {name: str(summary.totals.get(name, 0)) for name in players},
        # The sheet's rows kept in sight (its sticky Σ row; a series and the balance), by their key.
        "heads": [
            [key, number, [[words.signed(value), _cell_sign(value)] for value in values]]
            for key, number, values in in_sight(variant.section_kind, summary, players, evening.stored())
        ],
        # As the server proposes it: after the last known dealer, else the first dealer chosen, else the last seat.
        "next_dealer": evening.next_dealer(),
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


def _changed(
    evening: Evening, change: Mapping[str, Any], words: Words, drawn: Sequence[str]
) -> tuple[dict[str, Any], Evening]:
    """A correction or deletion waiting on the phone, made as the server makes it."""
    try:
        evening.index(change.get("hand"))
    except LookupError:
        # Not among the live hands this page knows (deleted meanwhile): the server says why.
        return {"ok": False, "problems": [], "unknown": True}, evening
    if change.get("delete"):
        return {"ok": True, "deleted": True}, evening.delete(change["hand"]).evening
    return score_hand_form(evening, change.get("fields") or (), words, correcting=change["hand"], drawn=drawn)


def _money(amount: Decimal, separator: str) -> str:
    text = f"{abs(amount):.2f}".replace(".", separator)
    return ("\u2212" if amount < 0 else "") + text


def call(name: str, argument: str) -> str:
    """The worker's one entry: a function of this module by name, JSON in and out."""
    functions: dict[str, Callable[[Mapping[str, Any]], dict[str, Any]]] = {"score_table": score_table}
    return json.dumps(functions[name](json.loads(argument)), ensure_ascii=False)
