"""Recording, correcting, deleting and restoring hands.

Each write runs in one transaction with the session's (or the hand's) row
locked, loads the evening's snapshots as far as its rules need them, asks the
engine's ``Evening`` (scoring/engine/evening.py: the round's target, the limit
of hands, the next dealer, later hands scored again under doubled Radl), is
refused as a whole when the engine refuses the input (nothing is written),
stores the hands whose snapshots changed, keeps a history entry for each, and
gives the session a new version.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from django.contrib.auth.models import User
from django.db import transaction
from django.db.models import Count, Q
from django.utils import timezone

from plumbing import queries
from scoring.engine import HandType, InvalidInput, ScoredHand, StoredHand, read_hand
from scoring.engine import evening as rules
from scoring.engine.evening import Before, Evening, Snapshot
from scoring.engine.schema import check_text
from scoring.engine.types import gettext_noop, invalid
from scoring.models import REASON_LENGTH, Hand, HandChange, Session
from scoring.services import circles
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
    write(hand, Snapshot.of(scored))


def write(hand: Hand, stored: Snapshot) -> None:
    """Write a snapshot the ``Evening`` made onto ``hand``."""
    for name in SNAPSHOT_FIELDS:
        value = getattr(stored, name)
        setattr(hand, name, list(value) if name in ("breakdown", "facts") else value)


def snapshot_of(hand: Hand) -> Snapshot:
    """A stored hand as the ``Evening`` reads it: what was loaded of it (a hand
    loaded without its inputs is summed, never scored again)."""
    deferred = hand.get_deferred_fields()
    return Snapshot(
        key=hand.pk, **{name: getattr(hand, name) for name in SNAPSHOT_FIELDS if name not in deferred}
    )


def evening_of(
    game: Game, session: Session, hands: Iterable[Hand] = (), before: Before | None = None
) -> Evening:
    """The session's ``Evening`` holding ``hands`` (its live hands, or the last of
    them after those ``before`` says what the rules need of)."""
    return Evening(
        game.variant,
        game.players,
        game.options,
        tuple(snapshot_of(hand) for hand in hands),
        target=session.hands_target,
        first=session.first_dealer,
        before=before or Before(),
    )


def live_hands(session_id: int) -> list[Hand]:
    """The session's live hands in number order, each as stored (one query)."""
    return list(Hand.objects.filter(session_id=session_id, deleted_at__isnull=True).order_by("number"))


def store_rescored(held: Sequence[Hand], rescored: Sequence[Snapshot], user: User | None) -> None:
    """Store the later hands the ``Evening`` scored again whose snapshots changed,
    each with a "re-scored" history entry (docs/playing.md); ``held``: the hands it
    was given."""
    by_key = {hand.pk: hand for hand in held}
    for again in rescored:
        hand = by_key[again.key]
        before = snapshot(hand)
        write(hand, again)
        hand.version += 1
        hand.save()
        audit(hand, user, HandChange.Action.RESCORED, before=before)


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
    return rules.proposed_dealer(game.players, last, first)


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
    state = queries.recording_state(
        session.pk, client_token=client_token, retoken=retoken, players=players, circle=circles.rights()
    )
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
    if game is None or state.seats_changed:
        game = game_of(locked)
    if game.variant.looks_back(game.options):  # the hands' results, not their inputs: none is scored again
        live = Hand.objects.filter(session_id=locked.pk, deleted_at__isnull=True).order_by("number")
        evening = evening_of(game, locked, live.only(*STORED_FIELDS, "type"))
    else:
        evening = evening_of(
            game, locked, before=Before(state.live_hands, state.played_hands, state.last_dealer)
        )
    change = evening.record(raw, from_form=from_form)
    hand = Hand(
        session=locked,
        number=(state.last_number or 0) + 1,
        client_token=client_token,
        client_digest=digest,
        created_by=user,
        device=device[:40],
    )
    write(hand, change.hand)
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
        held = held_hands(session, game, current)
        try:
            change = evening_of(game, session, held).correct(current.pk, raw, from_form=from_form)
        except LookupError:  # not a live hand under the session's lock: deleted meanwhile
            raise HandConflict(_stored(hand)) from None
        before = snapshot(current)
        write(current, change.hand)
        current.updated_at = timezone.now()
        at = current.version if expected_version is None else expected_version
        if queries.hand_write(current, WRITTEN_FIELDS, version=at, players=game.players):
            current.version = at + 1
            audit(current, user, HandChange.Action.EDITED, before=before, reason=reason)
            store_rescored(held, change.rescored, user)
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


def held_hands(session: Session, game: Game, hand: Hand) -> list[Hand]:
    """What the ``Evening`` needs to change ``hand``: every live hand where later
    hands depend on it (doubled Radl; one query), else the hand alone."""
    return live_hands(session.pk) if game.variant.looks_back(game.options) else [hand]


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
    """Whether every change of the hand since ``version`` was a re-scoring (``Evening.rescored``:
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
        game = game_of(locked.session)
        held = held_hands(locked.session, game, locked)
        change = evening_of(game, locked.session, held).delete(locked.pk)
        locked.deleted_at = timezone.now()
        locked.version += 1
        locked.save(update_fields=["deleted_at", "version", "updated_at"])
        audit(locked, user, HandChange.Action.DELETED, before=snapshot(locked))
        store_rescored(held, change.rescored, user)
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
        game = game_of(locked.session)
        if game.variant.looks_back(game.options):
            held = live_hands(locked.session_id)
            at, before = sum(1 for other in held if other.number < locked.number), Before()
        else:  # the hands before it only counted: its place changes nothing
            live = Hand.objects.filter(session_id=locked.session_id, deleted_at__isnull=True)
            counts = live.aggregate(n=Count("id"), played=Count("id", filter=~Q(type=HandType.REDEAL.value)))
            held, at, before = [], 0, Before(counts["n"], counts["played"])
        change = evening_of(game, locked.session, held, before).restore(snapshot_of(locked), at)
        locked.deleted_at = None
        locked.version += 1
        locked.save(update_fields=["deleted_at", "version", "updated_at"])
        audit(locked, user, HandChange.Action.RESTORED, before=None)
        store_rescored([*held, locked], change.rescored, user)
        mark_changed(locked.session)
    return locked


def played_hands(session: Session) -> int:
    """The live hands of a session that count toward its target: redeals do not."""
    live = Hand.objects.filter(session_id=session.pk, deleted_at__isnull=True)
    return live.exclude(type=HandType.REDEAL.value).count()


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
