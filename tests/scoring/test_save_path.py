"""The save path of a hand: one engine call per snapshot, one way a session's
version is counted, one write path for a correction, and the statements it
reads with, returned by column name."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from plumbing import queries
from scoring import services
from scoring.engine import InvalidInput, ScoredHand
from scoring.engine.french import French
from scoring.models import Hand, HandChange, Session
from scoring.services.sessions import SessionClosed

ROOT = Path(__file__).resolve().parents[2]
GARDE = {"dealer": "Dora", "taker": "Anna", "contract": "garde", "bouts": 2, "points": 56}
PRISE = {**GARDE, "contract": "prise"}


def version(session: Session) -> int:
    return Session.objects.values_list("version", flat=True).get(pk=session.pk)


def test_a_snapshot_comes_from_one_engine_call(make_session, monkeypatch):
    calls: list[str] = []
    original = French.scored_hand

    def counted(self, record, options, earlier=()):
        calls.append("scored_hand")
        return original(self, record, options, earlier)

    monkeypatch.setattr(French, "scored_hand", counted)
    session = make_session()
    hand = services.hand_record(session=session, raw=dict(GARDE))
    assert calls == ["scored_hand"]
    services.hand_edit(hand=hand, raw=dict(PRISE), expected_version=1)
    assert calls == ["scored_hand", "scored_hand"]
    scored = services.hand_check(game=services.game_of(session), raw=dict(GARDE))
    assert isinstance(scored, ScoredHand) and scored.deltas["Anna"] == 240


def test_every_change_of_a_hand_counts_one_version_and_a_repeat_or_a_refusal_none(make_session, user):
    session = make_session()
    start = version(session)
    hand = services.hand_record(session=session, raw=dict(GARDE), client_token="tap-1")
    assert version(session) == start + 1
    services.hand_record(session=session, raw=dict(GARDE), client_token="tap-1")  # resent
    assert version(session) == start + 1
    hand = services.hand_edit(hand=hand, raw=dict(PRISE), user=user, expected_version=1)
    assert (version(session), hand.version) == (start + 2, 2)
    again = services.hand_edit(hand=hand, raw=dict(PRISE), user=user, expected_version=1)  # double tap
    assert (version(session), again.version) == (start + 2, 2)
    with pytest.raises(services.HandConflict):
        services.hand_edit(hand=hand, raw=dict(GARDE), user=user, expected_version=1)
    assert version(session) == start + 2
    services.hand_delete(hand=hand, user=user)
    assert version(session) == start + 3
    services.hand_restore(hand=hand, user=user)
    assert version(session) == start + 4
    actions = list(HandChange.objects.filter(hand=hand).order_by("id").values_list("action", flat=True))
    assert actions == ["recorded", "edited", "deleted", "restored"]


def test_a_correction_without_a_version_writes_over_a_stale_copy_from_what_is_stored(make_session, user):
    session = make_session()
    hand = services.hand_record(session=session, raw=dict(GARDE))
    stale = Hand.objects.get(pk=hand.pk)
    services.hand_edit(hand=hand, raw=dict(PRISE), user=user)
    corrected = services.hand_edit(hand=stale, raw={**GARDE, "points": 60}, user=user)
    assert corrected.version == 3
    stored = Hand.objects.get(pk=hand.pk)
    assert (stored.version, stored.inputs["points"], stored.inputs["contract"]) == (3, 60, "garde")
    latest = HandChange.objects.filter(hand=hand).latest("id")
    assert latest.before["hand"]["contract"] == "prise"  # the history saw what was stored


def test_a_correction_with_the_game_read_before_a_player_was_renamed_is_judged_with_the_new_names(
    make_session, user
):
    session = make_session()
    hand = services.hand_record(session=session, raw=dict(GARDE))
    game = services.game_of(session)
    services.session_rename_player(session=session, user=user, old="Anna", new="Anni")
    with pytest.raises(InvalidInput) as refused:
        services.hand_edit(hand=Hand.objects.get(pk=hand.pk), raw=dict(PRISE), game=game, expected_version=1)
    assert refused.value.field == "taker"
    stored = Hand.objects.get(pk=hand.pk)
    assert (stored.version, stored.inputs["taker"], stored.deltas["Anni"]) == (1, "Anni", 240)
    corrected = services.hand_edit(hand=stored, raw={**PRISE, "taker": "Anni"}, expected_version=1)
    assert corrected.deltas["Anni"] == 120


def test_a_correction_on_a_closed_evening_is_refused_and_writes_nothing(make_session, user):
    session = make_session()
    hand = services.hand_record(session=session, raw=dict(GARDE))
    services.session_close(session=session, user=user)
    before = version(session)
    with pytest.raises(SessionClosed):
        services.hand_edit(hand=hand, raw=dict(PRISE), user=user, expected_version=1)
    assert version(session) == before and Hand.objects.get(pk=hand.pk).version == 1


def test_the_save_path_reads_its_rows_by_column_name(make_session):
    session = make_session()
    hand = services.hand_record(session=session, raw=dict(GARDE), client_token="tap-1")
    state = queries.recording_state(
        session.pk, client_token="tap-1", retoken="other", players=("Anna", "Bert", "Carl", "Dora")
    )
    assert state is not None
    assert (state.session.pk, state.session.variant, state.session.version) == (session.pk, "french", 2)
    assert (state.last_number, state.last_dealer, state.token_hand, state.retoken_hand) == (
        1,
        "Dora",
        hand.pk,
        None,
    )
    assert (state.live_hands, state.seats_changed) == (1, False)
    renamed = queries.recording_state(
        session.pk, client_token="", retoken="", players=("Anna", "Bert", "Carl", "X")
    )
    assert renamed is not None and renamed.seats_changed
    assert queries.recording_state(session.pk + 1000, client_token="", retoken="", players=()) is None
    assert queries.hand_state(hand.pk, players=("Anna", "Bert", "Carl", "Dora")) == queries.HandState(
        1, False, False
    )
    assert queries.hand_state(hand.pk, players=()) == queries.HandState(1, False, True)


def test_the_hands_service_writes_out_no_sql():
    source = (ROOT / "scoring" / "services" / "hands.py").read_text(encoding="utf-8")
    strings = [
        n.value
        for n in ast.walk(ast.parse(source))
        if isinstance(n, ast.Constant) and isinstance(n.value, str)
    ]
    words = ("SELECT ", "UPDATE ", "INSERT ", "DELETE FROM")
    assert not [text for text in strings if any(word in text.upper() for word in words)]
    assert "cursor" not in source and "from plumbing import queries" in source
