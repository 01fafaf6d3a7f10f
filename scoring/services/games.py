"""A session as the engine sees it: the game, the players, the house rules."""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from plumbing import queries
from scoring.engine import Variant
from scoring.games import registry
from scoring.models import Seat, Session


@dataclass(frozen=True)
class Game:
    variant: Variant
    players: tuple[str, ...]
    options: Any


def game_of(session: Session, seats: Sequence[Seat] | None = None) -> Game:
    """The session's game; pass its seats when they were loaded already."""
    if seats is None:
        seats = getattr(session, "_prefetched_objects_cache", {}).get("seats")
    players = tuple(seat.name for seat in seats) if seats is not None else seat_names(session.pk)
    rules = json.dumps(session.options, sort_keys=True)
    return Game(registry()[session.variant], players, _house_rules(session.variant, rules, players))


def seat_names(session_id: int) -> tuple[str, ...]:
    """The players of a session in playing order (one narrow query)."""
    return queries.seat_names(session_id)


@lru_cache(maxsize=512)
def _house_rules(variant: str, rules: str, players: tuple[str, ...]) -> Any:
    """The house rules as the engine reads them, parsed once per value (they are
    frozen dataclasses, so one parsed value serves every request)."""
    return registry()[variant].parse_options(json.loads(rules), players)


def form_defaults(variant: Variant) -> dict[str, Any]:
    """The house rules a new evening's form starts from: each option's own default where
    the form offers it, so a choice that follows another stays open (Königrufen's
    Trischaken scheme is "as the tariff says", whichever tariff is picked); the
    options' defaults for the rest."""
    return {**dataclasses.asdict(variant.options_type()), **dict.fromkeys(_follows(variant))}


def _follows(variant: Variant) -> list[str]:
    """The house rules whose default follows the others (left empty, the game fills them)."""
    return [f.name for f in variant.option_fields if f.nullable and f.default is None]


def rules_form_initial(variant: Variant, stored: Mapping[str, Any]) -> dict[str, Any]:
    """A session's house rules as its rules form starts: a rule that follows another
    left open where it is what the others give (a Wiener Tarockcup evening's Trischaken
    scheme shows "as the tariff says", so a new tariff brings its own scheme)."""
    follows = _follows(variant)
    if not follows:
        return dict(stored)
    given = dataclasses.asdict(variant.parse_options(dict(stored), ()))
    rest = {key: value for key, value in stored.items() if key not in follows}
    followed = dataclasses.asdict(variant.parse_options(rest, ()))
    return {**stored, **{name: None for name in follows if given[name] == followed[name]}}


def with_unshown_rules(
    variant: Variant, stored: Mapping[str, Any], posted: Mapping[str, Any]
) -> dict[str, Any]:
    """The house rules a form posted, with those no form shows kept as stored
    (Königrufen's ``game_values`` and ``premium_values`` come from a session file)."""
    shown = {f.name for f in variant.option_fields}
    return {**{key: value for key, value in stored.items() if key not in shown}, **posted}


def options_json(options: Any) -> dict[str, Any]:
    """Every house rule, defaults included, as stored with a session."""
    return dataclasses.asdict(options)
