"""The server's services and the engine's ``Evening`` make the same evening: random
sequences of recording, correcting, deleting and restoring hands, for every game,
with and without doubled Radl and a round's target (tests/engine/evening_cases.py),
run through ``hand_record``/``hand_edit``/``hand_delete``/``hand_restore`` on a
stored session and through the ``Evening`` alone; after each step both refuse the
same (naming the same fields) or store the same snapshots, scoring the same later
hands again. The ``Evening`` itself runs under Pyodide in tests/engine.

``EVENING_EXAMPLES`` sets the sequences per game: 50 by default (200 over the four
games, under a minute), 500 for the issue's 2,000 (docs/development.md gives the times)."""

from __future__ import annotations

import json
import os
from dataclasses import asdict
from typing import Any

import pytest
from django.contrib.auth.models import User
from hypothesis import HealthCheck, given, settings

from scoring import services
from scoring.engine import InvalidInput, get_variant
from scoring.engine.evening import Evening, Snapshot
from scoring.models import Hand, HandChange, Session
from scoring.services.hands import snapshot_of
from tests.engine.evening_cases import GAMES, Table, evenings, pick, play

pytestmark = pytest.mark.django_db

EXAMPLES = int(os.environ.get("EVENING_EXAMPLES", "50"))


def plain(hand: Snapshot, key: Any) -> dict[str, Any]:
    """A snapshot as JSON stores it, under the key both sides share (the hand's number)."""
    found: dict[str, Any] = json.loads(json.dumps(asdict(hand)))
    return {**found, "key": key}


def served(session: Session, ops: list[tuple[Any, ...]]) -> list[Any]:
    """The operations through the server's services, each one's outcome as ``play`` writes it."""
    outcomes: list[Any] = []
    for op in ops:
        live = list(Hand.objects.filter(session=session, deleted_at__isnull=True).order_by("number"))
        deleted = list(Hand.objects.filter(session=session, deleted_at__isnull=False).order_by("number"))
        changes = HandChange.objects.filter(hand__session=session)
        seen = changes.order_by("-id").values_list("id", flat=True).first() or 0
        try:
            if op[0] == "record":
                hand = services.hand_record(session=session, raw=op[1])
            elif op[0] in ("correct", "delete", "restore"):
                chosen = pick(deleted if op[0] == "restore" else live, op[1])
                if chosen is None:
                    outcomes.append("none")
                    continue
                if op[0] == "correct":
                    hand = services.hand_edit(hand=chosen, raw=op[2])
                elif op[0] == "delete":
                    hand = services.hand_delete(hand=chosen)
                else:
                    hand = services.hand_restore(hand=chosen)
        except InvalidInput as error:
            outcomes.append(sorted(problem.field for problem in error.problems))
            continue
        rescored = changes.filter(id__gt=seen, action=HandChange.Action.RESCORED).order_by("id")
        new_ones = list(rescored.values_list("hand__number", flat=True))
        outcomes.append(("ok", hand.number, tuple(new_ones)))
    return outcomes


@pytest.mark.parametrize("variant", GAMES)
def test_the_services_and_the_evening_make_the_same_evening(user: User, variant: str) -> None:
    @settings(
        max_examples=EXAMPLES,
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
    )
    @given(evenings(variant))
    def check(case: tuple[Table, dict[str, Any], int | None, list[tuple[Any, ...]]]) -> None:
        table, options, target, ops = case
        session = services.session_create(
            owner=user, name="Friday", variant=variant, players=list(table.players), options=options
        )
        Session.objects.filter(pk=session.pk).update(hands_target=target)
        session.refresh_from_db()
        by_server = served(session, ops)
        engine = get_variant(variant)
        evening = Evening(
            engine,
            table.players,
            engine.parse_options(session.options, table.players),
            target=target,
            first=session.first_dealer,
        )
        by_engine = play(evening, ops)
        assert by_server == by_engine.outcomes
        stored = Hand.objects.filter(session=session, deleted_at__isnull=True).order_by("number")
        assert [plain(snapshot_of(hand), hand.number) for hand in stored] == [
            plain(hand, hand.key) for hand in by_engine.evening.hands
        ]
        assert services.proposed_dealer(session, services.game_of(session)) == by_engine.evening.next_dealer()

    check()
