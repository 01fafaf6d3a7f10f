"""Recording, correcting, deleting and restoring hands.

Each write runs in one transaction with the session's (or the hand's) row
locked, is refused as a whole when the engine refuses the input (nothing is
written), stores the engine's result as the hand's snapshot, keeps a history
entry, and gives the session a new version.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping, Sequence
from typing import Any

from django.contrib.auth.models import User
from django.db import transaction
from django.utils import timezone

from plumbing import queries
from scoring.engine import HandType, InvalidInput, ScoredHand, StoredHand, next_dealer, read_hand
from scoring.engine.offline import ROUND_COMPLETE
from scoring.engine.schema import check_text
from scoring.engine.session_file import MAX_HANDS
from scoring.engine.types import gettext_noop, invalid, line_to_json, points_to_json
from scoring.models import REASON_LENGTH, Hand, HandChange, Session
from scoring.services.games import Game, game_of
from scoring.services.sessions import check_open, follow_change, mark_changed, new_version


class HandConflict(Exception):
    """The hand was changed by someone else since the form was opened."""

    def __init__(self, current: Hand) -> None:
        self.current = current
        super().__init__(f"hand {current.pk} is at version {current.version}")


def hand_check(
    *,
    game: Game,
    raw: dict[str, Any],
    previous_dealer: str | None = None,
    from_form: bool = False,
    earlier: Sequence[StoredHand] = (),
) -> ScoredHand:
    """Validate and score a hand without saving it (the form's live preview):
    everything its snapshot would store, from one engine call. A hand that names
    no dealer is dealt by the player after ``previous_dealer``. ``from_form``:
    entered at the table, so every choice that changes the score must have been
    made (the partner, or "alone"); nothing is taken as a default. ``earlier``:
    the evening's live hands before it, as stored, where the game reads them
    (``earlier_hands``). Every problem of the hand is raised at once
    (``InvalidInput.problems``)."""
    record = read_hand(game.variant, game.players, game.options, raw, previous_dealer, from_form=from_form)
    return game.variant.scored_hand(record, game.options, earlier)


def earlier_hands(session_id: int, game: Game, *, before: int | None = None) -> list[StoredHand]:
    """The evening's live hands before hand number ``before`` (all of them:
    ``None``), in number order, as stored, where the house rules make a hand's
    score depend on them (doubled Radl); else none, and no query."""
    if not game.variant.looks_back(game.options):
        return []
    hands = Hand.objects.filter(session_id=session_id, deleted_at__isnull=True)
    if before is not None:
        hands = hands.filter(number__lt=before)
    return [hand.stored() for hand in hands.order_by("number").only(*STORED_FIELDS)]


# What ``Hand.stored`` reads.
STORED_FIELDS = ("id", "dealer", "deltas", "facts", "money")


def store(hand: Hand, scored: ScoredHand) -> None:
    """Write a scored hand's inputs and the engine's result (the snapshot) onto ``hand``."""
    record = scored.record
    hand.type = record.type.value
    hand.dealer = record.table.dealer or ""
    hand.sitting_out = record.table.sitting_out or ""
    hand.inputs = dict(scored.inputs)
    hand.note = record.note
    hand.deltas = {name: points_to_json(value) for name, value in scored.deltas.items()}
    money = scored.score.money
    hand.money = None if money is None else {name: points_to_json(value) for name, value in money.items()}
    hand.breakdown = [line_to_json(line) for line in scored.breakdown]
    hand.description = line_to_json(scored.description)
    hand.facts = sorted(scored.facts)
    hand.stats = scored.stats.to_json()


def _digest(sent: Mapping[str, Any]) -> str:
    """A fingerprint of what a client sent."""
    text = json.dumps(sent, sort_keys=True, default=str, ensure_ascii=True)
    return hashlib.sha256(text.encode()).hexdigest()[:32]


def proposed_dealer(session: Session, game: Game) -> str:
    """Who deals the next hand of a session (one query)."""
    return proposed_dealer_after(game, last_dealer(session), first=session.first_dealer)


def proposed_dealer_after(game: Game, last: str | None, *, first: str = "") -> str:
    """The player after the last known dealer. Before the first hand: the
    first dealer chosen when the session was opened; where none was chosen, the
    last in playing order, so the first player in that order leads."""
    if first not in game.players:
        first = game.players[-1]
    return next_dealer(game.players, last) or first


def last_dealer(session: Session) -> str | None:
    # Imported sessions may not know their dealers: those hands are stored blank.
    return (
        Hand.objects.filter(session=session, deleted_at__isnull=True)
        .exclude(dealer="")
        .order_by("-number")
        .values_list("dealer", flat=True)
        .first()
    )


@transaction.atomic
def hand_record(
    *,
    session: Session,
    raw: dict[str, Any],
    user: User | None = None,
    client_token: str = "",
    sent: Mapping[str, Any] | None = None,
    from_form: bool = False,
    game: Game | None = None,
    device: str = "",
) -> Hand:
    """Record the next hand (``InvalidInput`` when the session holds ``MAX_HANDS``
    already, or its ``hands_target`` of played hands, or the engine refuses it;
    ``SessionClosed`` on a closed evening). ``device``: the label of the phone
    that recorded it, where no account names who did. A
    resent form (same ``client_token``, same ``sent``: what the client sent, before
    the server filled in any default) is stored once; hands recorded at the same
    moment are numbered in the order they commit. The same token with other inputs
    (an old form brought back and filled in again) records a new hand.
    ``from_form`` as for ``hand_check``; ``game``: the session's game as the caller
    read it, checked against the seats under the lock."""
    digest = _digest(raw if sent is None else sent) if client_token else ""
    retoken = f"{client_token[:31]}~{digest}"
    # The new version first: writing it takes the session's row lock, which
    # orders hands recorded at the same moment, and the next statement then sees
    # every hand committed before it. (``new_version`` is the one way every
    # change of a sheet counts; here without the session object, which a resent
    # form must leave as it was.)
    queries.new_version(session.pk, timezone.now())
    players = game.players if game is not None else ()
    state = queries.recording_state(session.pk, client_token=client_token, retoken=retoken, players=players)
    if state is None:
        raise Session.DoesNotExist(f"session {session.pk}")
    locked: Session = state.session
    if client_token and state.token_hand is not None:
        existing: Hand | None = Hand.objects.get(pk=state.token_hand)
        if existing is not None and existing.client_digest not in ("", digest):
            client_token = retoken
            retoken_hand = state.retoken_hand
            existing = Hand.objects.filter(pk=retoken_hand).first() if retoken_hand is not None else None
        if existing is not None:
            transaction.set_rollback(True)  # stored already: nothing changed, not even the version
            return existing
    check_open(locked)
    check_room(state.live_hands)
    if game is None or state.seats_changed:
        game = game_of(locked)
    scored = hand_check(
        game=game,
        raw=raw,
        previous_dealer=state.last_dealer,
        from_form=from_form,
        earlier=earlier_hands(locked.pk, game),
    )
    if scored.record.type is not HandType.REDEAL:
        check_target(locked)
    hand = Hand(
        session=locked,
        number=(state.last_number or 0) + 1,
        client_token=client_token,
        client_digest=digest,
        created_by=user,
        device=device[:40],
    )
    store(hand, scored)
    hand.save()
    audit(hand, user, HandChange.Action.RECORDED, before=None)
    follow_change(locked)
    return hand


# What scoring a hand writes (``store``), and so what a correction or a re-score
# may change: its inputs as the engine writes them, and the engine's result.
SNAPSHOT_FIELDS = (
    "type",
    "dealer",
    "sitting_out",
    "inputs",
    "note",
    "deltas",
    "money",
    "breakdown",
    "description",
    "facts",
    "stats",
)


@transaction.atomic
def hand_edit(
    *,
    hand: Hand,
    raw: dict[str, Any],
    user: User | None = None,
    expected_version: int | None = None,
    from_form: bool = False,
    game: Game | None = None,
    reason: str = "",
) -> Hand:
    """Correct a recorded hand and re-score it, keeping ``reason`` (why, in the
    corrector's words; optional) with the change. Refuses with ``HandConflict``
    when the hand changed or was deleted since ``expected_version`` was read,
    unless the change found is this very correction by the same user (a
    double-tapped or resent form); with ``SessionClosed`` on a closed evening.
    ``game``: the session's game as the caller read it, checked against the
    seats under the lock."""
    # Every write of an evening's hands takes the session's row first, then the
    # hand's (recording, deleting, restoring, re-scoring, the settings): writers
    # of one evening queue on the session and never wait for each other the
    # other way round, which PostgreSQL ends as a deadlock. The session's new
    # version is that first statement; what is read of the hand after it is
    # what every correction committed before it left.
    session = hand.session
    reason = correction_reason(reason)
    if not new_version(session, open_only=True):
        check_open(Session.objects.get(pk=session.pk))
    if game is None:
        game = game_of(session)
    current = hand
    # One statement checks and writes: the hand as the caller read it, at the
    # version the form was opened at, the seats as the game knows them. Only
    # when it writes nothing is the hand read, to say why (a conflict, this very
    # correction sent again) or to correct it once more as it stands now.
    for _attempt in range(2):
        earlier = earlier_hands(session.pk, game, before=current.number)
        scored = hand_check(game=game, raw=raw, from_form=from_form, earlier=earlier)
        before = snapshot(current)
        store(current, scored)
        current.updated_at = timezone.now()
        at = current.version if expected_version is None else expected_version
        if queries.hand_write(current, WRITTEN_FIELDS, version=at, players=game.players):
            current.version = at + 1
            audit(current, user, HandChange.Action.EDITED, before=before, reason=reason)
            later_rescored(session=session, game=game, user=user, start=current.number + 1)
            follow_change(session)
            return current
        state = queries.hand_state(hand.pk, players=game.players)
        if state is None:
            raise Hand.DoesNotExist(f"hand {hand.pk}")
        current = _stored(hand)
        if state.deleted:
            raise HandConflict(current)
        if expected_version is not None and state.version != expected_version:
            if _is_repeat(current, game, raw, user):
                transaction.set_rollback(True)  # stored already: not even a new version
                return current
            if not only_rescored_since(hand.pk, expected_version, state.version):
                raise HandConflict(current)
            expected_version = state.version  # its inputs are as the form had them: the correction stands
        if state.seats_changed:
            game = game_of(session)
    raise AssertionError("a hand read under its session's lock was not written")


# What a correction writes: the snapshot and the moment.
WRITTEN_FIELDS = (*SNAPSHOT_FIELDS, "updated_at")


def _stored(hand: Hand) -> Hand:
    """The hand as stored now, with the session the caller holds."""
    stored = Hand.objects.get(pk=hand.pk)
    stored.session = hand.session
    return stored


def _locked(hand: Hand) -> Hand:
    """The hand and its session, both rows locked (the session's first, as
    recording does), refused with ``SessionClosed`` when the evening is closed."""
    session = Session.objects.select_for_update().get(pk=hand.session_id)
    check_open(session)
    locked = Hand.objects.select_for_update().get(pk=hand.pk)
    locked.session = session
    return locked


def only_rescored_since(hand_id: int, version: int | None, current: int) -> bool:
    """Whether every change of the hand since ``version`` was a re-scoring (``later_rescored``:
    doubled Radl after another hand was corrected or deleted): its inputs are still what
    a form drawn at ``version`` showed, so a correction or deletion made from that form
    (one kept on a phone offline) is not a conflict. Each change is one version."""
    since = current - (version if version is not None else current)
    if since <= 0:
        return False
    latest = HandChange.objects.filter(hand_id=hand_id).order_by("-at", "-id")
    actions = list(latest.values_list("action", flat=True)[:since])
    return len(actions) == since and all(action == HandChange.Action.RESCORED for action in actions)


def _is_repeat(hand: Hand, game: Game, raw: dict[str, Any], user: User | None) -> bool:
    """Whether the hand's latest change is ``user`` storing exactly this correction."""
    latest = hand.changes.order_by("-at", "-id").first()
    if latest is None or latest.action != HandChange.Action.EDITED or user is None:
        return False
    if latest.user_id != user.pk:
        return False
    try:
        scored = hand_check(game=game, raw=raw)
    except InvalidInput:
        return False
    again = Hand(session=hand.session)
    store(again, scored)
    return bool(again.as_session_hand() == hand.as_session_hand())


@transaction.atomic
def hand_delete(*, hand: Hand, user: User | None = None, expected_version: int | None = None) -> Hand:
    """Take a hand off the sheet; ``hand_restore`` puts it back in its place.
    Refuses with ``HandConflict`` when the hand was changed (or restored) since
    ``expected_version`` was read: a deletion sent late, from a phone that was
    offline, must not remove a hand someone has corrected meanwhile. Deleting a
    deleted hand changes nothing (a double-tapped or resent deletion)."""
    locked = _locked(hand)
    if (
        locked.deleted_at is None
        and expected_version not in (None, locked.version)
        and not only_rescored_since(locked.pk, expected_version, locked.version)
    ):
        raise HandConflict(locked)
    if locked.deleted_at is None:
        locked.deleted_at = timezone.now()
        locked.version += 1
        locked.save(update_fields=["deleted_at", "version", "updated_at"])
        audit(locked, user, HandChange.Action.DELETED, before=snapshot(locked))
        later_rescored(
            session=locked.session, game=game_of(locked.session), user=user, start=locked.number + 1
        )
        mark_changed(locked.session)
    return locked


@transaction.atomic
def hand_restore(*, hand: Hand, user: User | None = None) -> Hand:
    """Put a deleted hand back on the sheet, in the place it had. A hand the
    session's house rules no longer allow (they were changed after it was
    deleted) stays deleted: ``InvalidInput`` says why; so does a hand that would
    take the session past ``MAX_HANDS`` (its place was filled meanwhile)."""
    locked = _locked(hand)
    if locked.deleted_at is not None:
        check_room(Hand.objects.filter(session_id=locked.session_id, deleted_at__isnull=True).count())
        game = game_of(locked.session)
        hand_check(game=game, raw=locked.as_session_hand())
        if locked.type != HandType.REDEAL.value:
            check_target(locked.session)
        locked.deleted_at = None
        locked.version += 1
        locked.save(update_fields=["deleted_at", "version", "updated_at"])
        audit(locked, user, HandChange.Action.RESTORED, before=None)
        later_rescored(session=locked.session, game=game, user=user, start=locked.number)
        mark_changed(locked.session)
    return locked


def later_rescored(*, session: Session, game: Game, user: User | None, start: int) -> int:
    """Where a hand's score depends on the hands before it (doubled Radl), a
    correction, deletion or restoring of one hand changes the hands after it:
    the live hands from number ``start`` on are scored again in their new place,
    in the same transaction, and each whose snapshot changes is stored with a
    "re-scored" history entry (docs/playing.md). The caller holds the session's
    row. Returns how many changed; under other rules nothing is read."""
    if not game.variant.looks_back(game.options):
        return 0
    earlier: list[StoredHand] = []
    previous: str | None = None
    changed = 0
    for hand in Hand.objects.filter(session_id=session.pk, deleted_at__isnull=True).order_by("number"):
        if hand.number >= start:
            try:
                scored = hand_check(
                    game=game, raw=hand.as_session_hand(), previous_dealer=previous, earlier=earlier
                )
            except (
                InvalidInput
            ):  # refused under today's rules: left as stored (``session_rescore`` reports it)
                scored = None
            if scored is not None:
                again = Hand(session=session)
                store(again, scored)
                if any(getattr(again, name) != getattr(hand, name) for name in SNAPSHOT_FIELDS):
                    before = snapshot(hand)
                    for name in SNAPSHOT_FIELDS:
                        setattr(hand, name, getattr(again, name))
                    hand.version += 1
                    hand.save()
                    audit(hand, user, HandChange.Action.RESCORED, before=before)
                    changed += 1
        earlier.append(hand.stored())
        previous = hand.dealer or previous
    return changed


def check_room(live_hands: int) -> None:
    """Refuses one more live hand in a session that holds ``MAX_HANDS`` already."""
    if live_hands >= MAX_HANDS:
        raise invalid(
            "hands", gettext_noop("a session holds at most {n} hands: start a new one"), n=MAX_HANDS
        )


def played_hands(session: Session) -> int:
    """The live hands of a session that count toward its target: redeals do not."""
    live = Hand.objects.filter(session_id=session.pk, deleted_at__isnull=True)
    return live.exclude(type=HandType.REDEAL.value).count()


def check_target(session: Session) -> None:
    """Refuses one more played hand in a session played to a target that it has reached."""
    target = session.hands_target
    if target is not None and (played := played_hands(session)) >= target:
        raise invalid("hands", ROUND_COMPLETE, played=played, target=target)


def snapshot(hand: Hand) -> dict[str, Any]:
    """A hand as its history keeps it: as the session file writes it, and its result."""
    kept = {"hand": hand.as_session_hand(), "deltas": dict(hand.deltas), "description": hand.description}
    if hand.money is not None:
        kept["money"] = dict(hand.money)
    return kept


def audit(
    hand: Hand, user: User | None, action: str, *, before: dict[str, Any] | None, reason: str = ""
) -> None:
    after = None if action == HandChange.Action.DELETED else snapshot(hand)
    HandChange.objects.create(hand=hand, user=user, action=action, before=before, after=after, reason=reason)


def correction_reason(value: Any) -> str:
    """A correction's reason as kept: one line of text, at most ``REASON_LENGTH``
    characters, empty when none is given; else ``InvalidInput`` naming ``reason``."""
    text = value.strip() if isinstance(value, str) else ""
    if len(text) > REASON_LENGTH:
        raise invalid("reason", gettext_noop("at most {n} characters"), n=REASON_LENGTH)
    return check_text("reason", text)
