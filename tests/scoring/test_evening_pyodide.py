"""The server and the phone make the same evening: 2,000 random sequences of
recording, correcting, deleting and restoring hands, 500 in each game with its
house rules (doubled Radl or not, a round's target or none, a first dealer chosen
or not: tests/engine/evening_cases.py), go through the server's services on the
test database and, in one start of the pinned Pyodide, through the ``Evening`` of
the phone's engine bundle (tests/pyodide/run_evenings.mjs). After every operation
both refuse the same (naming the same fields) or write the same hand and score the
same later hands again, and hold the same hands (each one's stored snapshot, live
or deleted, compared by fingerprint); at the end, every hand's snapshot, the sums,
the next dealer and the counts toward the target are the same.

Where tests/scoring/test_evening_server.py lets Hypothesis draw evenings one at a time
(and shrink a failure), these are drawn once from a fixed seed with ``random``, so
that the phone's engine plays them all in one batch while the server plays them
here, side by side."""

from __future__ import annotations

import json
import subprocess
import time
from collections import Counter
from collections.abc import Iterable
from pathlib import Path
from typing import Any

import pytest
from django.contrib.auth.models import User

from scoring import phone, services
from scoring.engine import InvalidInput
from scoring.models import Hand, HandChange, Session
from scoring.services.hands import snapshot_of
from scoring.sheet import build_sheet
from tests.engine.evening_cases import GAMES, pick, seeded_cases
from tests.engine.evening_play import Counts, canonical, final_of, fingerprint, hand_text, listed

pytestmark = [pytest.mark.django_db, pytest.mark.phone]

RUN_EVENINGS = Path(__file__).resolve().parents[1] / "pyodide" / "run_evenings.mjs"
PER_GAME = 500
SEED = 31
PARTS = 4
# Time enough for the phone's engine on a busy machine; it plays while the server does.
PHONE_SECONDS = 600


class Stored:
    """A session's hands as stored, live and deleted, by number, each with its
    ``hand_text``: kept as each operation leaves them (the hand it wrote, as the
    service returns it, and those its history says were scored again, read again:
    ``written``). At the end the test reads them all afresh and finds them as kept:
    nothing changed that the history does not name."""

    def __init__(self, hands: Iterable[Hand] = ()) -> None:
        self.hands: dict[int, tuple[Hand, str]] = {}
        for hand in hands:
            self.keep(hand)

    def keep(self, hand: Hand) -> None:
        self.hands[hand.number] = (hand, hand_text(snapshot_of(hand)))

    def written(self, hand: Hand, since: int) -> tuple[list[int], int]:
        """Keeps ``hand`` as written and the hands the history says were scored again
        after entry ``since`` (one query, another where some were): their numbers,
        and the history's last entry."""
        self.keep(hand)
        changes = HandChange.objects.filter(hand__session_id=hand.session_id, id__gt=since).order_by("id")
        entries = list(changes.values_list("id", "action", "hand__number"))
        again = [number for _, action, number in entries if action == HandChange.Action.RESCORED]
        for other in Hand.objects.filter(session_id=hand.session_id, number__in=again) if again else ():
            self.keep(other)
        return again, entries[-1][0] if entries else since

    def held(self) -> list[tuple[Hand, str]]:
        return [self.hands[number] for number in sorted(self.hands)]

    def listed(self) -> list[list[Any]]:
        return listed([(h.number, h.deleted_at is not None, fingerprint(t)) for h, t in self.held()])


def step(session: Session, op: list[Any], held: list[tuple[Hand, str]]) -> Any:
    """One operation through the services: its outcome as ``evening_play.play`` writes it,
    but for the hands scored again (``rescored``)."""
    live = [hand for hand, _ in held if hand.deleted_at is None]
    deleted = [hand for hand, _ in held if hand.deleted_at is not None]
    try:
        if op[0] == "record":
            return services.hand_record(session=session, raw=op[1])
        chosen = pick(deleted if op[0] == "restore" else live, op[1])
        if chosen is None:
            return "none"
        if op[0] == "correct":
            return services.hand_edit(hand=chosen, raw=op[2])
        if op[0] == "delete":
            return services.hand_delete(hand=chosen)
        return services.hand_restore(hand=chosen)
    except InvalidInput as error:
        return sorted(problem.field for problem in error.problems)


def on_the_server(user: User, case: dict[str, Any]) -> dict[str, Any]:
    """A case through the services, read back as ``evening_play.replay`` gives it."""
    session = services.session_create(
        owner=user,
        name="Friday",
        variant=case["variant"],
        players=case["players"],
        options=case["options"],
        hands_target=case["target"],
        first_dealer=case["first"] or None,
    )
    steps: list[Any] = []
    seen = 0
    stored = Stored()
    for op in case["ops"]:
        outcome = step(session, op, stored.held())
        if isinstance(outcome, Hand):
            again, seen = stored.written(outcome, seen)
            outcome = ["ok", outcome.number, again]
        steps.append([outcome, stored.listed()])
    held = stored.held()
    afresh = Stored(Hand.objects.filter(session=session))
    assert afresh.listed() == stored.listed()  # every hand written was named in the history
    game = services.game_of(session)
    sheet = build_sheet(session)
    dealer = services.proposed_dealer(session, game)
    assert sheet.next_dealer == dealer  # the sheet proposes whom the hand form does
    live = sum(1 for hand, _ in held if hand.deleted_at is None)
    counts = Counts(live, services.played_hands(session), Session.objects.get(pk=session.pk).hands_target)
    hands = [(hand.number, hand.deleted_at is not None, text) for hand, text in held]
    found: dict[str, Any] = json.loads(
        canonical({"steps": steps, "final": final_of(hands, sheet.summary, dealer, counts)})
    )
    return found


def difference(case: dict[str, Any], server: dict[str, Any], on_phone: dict[str, Any]) -> str:
    """Where the phone's evening first parts from the server's, in words."""
    for at, (ours, theirs) in enumerate(zip(server["steps"], on_phone["steps"], strict=True)):
        if ours != theirs:
            hands = [a[0] for a, b in zip(ours[1], theirs[1], strict=False) if a != b]
            return (
                f"{case['variant']} {case['options']} target {case['target']} first {case['first']!r}: "
                f"after operation {at + 1} {case['ops'][at]}: server {ours[0]}, phone {theirs[0]}, "
                f"hands that differ {hands or 'by number or count'}; the operations: {case['ops'][: at + 1]}"
            )
    ours, theirs = server["final"], on_phone["final"]
    parts = [key for key in ours if ours[key] != theirs.get(key)]
    if "hands" in parts:  # the first hand that differs, not the whole evening
        pairs = zip(ours["hands"], theirs["hands"], strict=False)
        ours, theirs = next(((a, b) for a, b in pairs if a != b), (ours["hands"], theirs["hands"]))
    else:
        ours, theirs = {key: ours[key] for key in parts}, {key: theirs.get(key) for key in parts}
    return f"{case['variant']} {case['options']}: at the end, server {ours}, phone {theirs}"


def kind(outcome: Any) -> str:
    if outcome == "none":
        return "none"  # no hand to correct, delete or restore
    return "written" if outcome[0] == "ok" else "refused"


@pytest.mark.parametrize("part", range(PARTS))
def test_the_server_and_the_phones_engine_make_the_same_evenings(
    user: User, tmp_path: Path, part: int
) -> None:
    """Every ``PARTS``-th of the 2,000 evenings, from the ``part``-th on (each game in
    each part): the parts run on the test workers side by side."""
    bundle = phone.bundle_folder() / phone.bundle_name()
    assert bundle.exists(), "make phone builds it"
    every = seeded_cases(PER_GAME, SEED)
    assert len(every) == 2000 and {case["variant"] for case in every} == set(GAMES)
    cases = every[part::PARTS]
    assert {case["variant"] for case in cases} == set(GAMES)
    (tmp_path / "cases.json").write_text(json.dumps(cases), encoding="utf-8")
    started = time.monotonic()
    with (tmp_path / "errors.txt").open("wb") as errors:
        on_phone = subprocess.Popen(
            [
                "node",
                str(RUN_EVENINGS),
                str(bundle),
                str(tmp_path / "cases.json"),
                str(tmp_path / "out.json"),
            ],
            stdout=errors,
            stderr=errors,
        )
        try:
            by_server = [on_the_server(user, case) for case in cases]
            server_seconds = time.monotonic() - started
            code = on_phone.wait(timeout=PHONE_SECONDS)
        finally:
            on_phone.kill()
    assert code == 0, (tmp_path / "errors.txt").read_text(errors="replace")[-2000:]
    ran = json.loads((tmp_path / "out.json").read_text(encoding="utf-8"))
    # The phone's own engine, as it downloads it: compiled, nothing from the repository.
    assert "/engine/scoring/engine/evening.pyc" in ran["loaded"]
    assert [name for name in ran["loaded"] if not name.startswith("/engine/")] == ["/player/evening_play.py"]
    by_phone = ran["results"]
    assert len(by_phone) == len(cases)
    differ = [difference(c, s, p) for c, s, p in zip(cases, by_server, by_phone, strict=True) if s != p]
    assert differ == [], f"{len(differ)} of {len(cases)} evenings differ; the first: {differ[0]}"
    # The sequences are not idle: most write hands, some are refused (a round's target
    # reached among them), some make the server score later hands again.
    outcomes = [outcome for result in by_server for outcome, _ in result["steps"]]
    kinds = Counter(kind(outcome) for outcome in outcomes)
    assert kinds["written"] > len(outcomes) / 2 and kinds["refused"] > len(cases) / 2
    assert sum(1 for outcome in outcomes if outcome == ["hands"]) > len(cases) / 4
    assert sum(1 for outcome in outcomes if kind(outcome) == "written" and outcome[2]) > len(cases) / 20
    print(f"server {server_seconds:.1f} s, phone {ran['seconds']:.1f} s: {dict(kinds)}")
