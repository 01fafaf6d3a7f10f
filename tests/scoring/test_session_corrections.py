"""Putting an evening right after it started, as the services do it: its name,
day and money rate, a player's name, its house rules; closing and reopening it,
deleting and restoring it. Each change is kept in the session's history, gives
the session a new version, and a refused change writes nothing."""

from __future__ import annotations

import datetime
import json
from datetime import timedelta
from decimal import Decimal

import pytest
from django.utils import timezone

from scoring import exports, services
from scoring.engine import InvalidInput, Line
from scoring.models import Hand, HandChange, Player, Seat, Session, SessionChange
from scoring.presentation import render_line
from scoring.sheet import build_sheet

GARDE_WON = {"taker": "Anna", "contract": "garde", "bouts": 2, "points": 56}
PETITE_LOST = {"taker": "Bert", "contract": "petite", "bouts": 1, "points": 48}


def record(session, user, *hands):
    return [services.hand_record(session=session, raw=dict(hand), user=user) for hand in hands]


def fresh(session):
    return Session.objects.get(pk=session.pk)


def stored(session):
    """Everything a session keeps, to compare before and after a refused change."""
    session = fresh(session)
    hands = list(Hand.objects.filter(session=session).order_by("number").values())
    changes = list(HandChange.objects.filter(hand__session=session).values("action", "before", "after"))
    seats = list(session.seats.values_list("name", flat=True))
    return (session.name, session.options, session.money_rate, session.version, seats, hands, changes)


# -- name, day, money rate -------------------------------------------------------------------


def test_a_session_is_renamed_dated_and_given_a_money_rate_each_kept_in_its_history(make_session, user):
    session = make_session()
    version = session.version
    changes = services.session_edit(
        session=session,
        user=user,
        name="Dienstagsrunde",
        played_on=datetime.date(2026, 11, 17),
        money_rate=Decimal("0.05"),
    )
    row = fresh(session)
    assert (row.name, row.played_on, row.money_rate) == (
        "Dienstagsrunde",
        datetime.date(2026, 11, 17),
        Decimal("0.05"),
    )
    assert [(c.action, c.before, c.after) for c in changes] == [
        ("renamed", "Friday", "Dienstagsrunde"),
        ("date", str(timezone.localdate()), "2026-11-17"),
        ("money_rate", None, "0.05"),
    ]
    assert all(c.user == user for c in changes)
    assert row.version == version + 1
    assert build_sheet(row).settlement.money is not None


def test_saving_the_same_details_again_changes_nothing(make_session, user):
    session = make_session()
    version = session.version
    changes = services.session_edit(
        session=session, user=user, name="Friday", played_on=session.played_on, money_rate=None
    )
    assert changes == [] and fresh(session).version == version
    assert not SessionChange.objects.exists()


@pytest.mark.parametrize(
    ("name", "rate", "field"),
    [
        ("", None, "name"),
        (" Friday", None, "name"),
        ("x" * 81, None, "name"),
        ("Fri\nday", None, "name"),
        ("Friday", Decimal("0"), "money_rate"),
        ("Friday", Decimal("0.00001"), "money_rate"),
        ("Friday", Decimal("10000"), "money_rate"),
    ],
)
def test_a_name_or_money_rate_the_rules_refuse_changes_nothing(make_session, user, name, rate, field):
    session = make_session()
    before = stored(session)
    with pytest.raises(InvalidInput) as refused:
        services.session_edit(
            session=session, user=user, name=name, played_on=datetime.date(2026, 1, 1), money_rate=rate
        )
    assert refused.value.field == field
    assert stored(session) == before and not SessionChange.objects.exists()


# -- a player's name -------------------------------------------------------------------------


def test_a_corrected_name_follows_into_every_hand_its_history_and_the_files(make_session, user):
    session = make_session(players=("Anna", "Bert", "Carl", "Dora", "Emil"))
    called = {
        **GARDE_WON,
        "partner": "Carl",
        "dealer": "Emil",
        "poignees": [{"player": "Carl", "size": "simple"}],
    }
    first, second = record(session, user, called, {**PETITE_LOST, "partner": "Carl", "dealer": "Anna"})
    services.hand_edit(
        hand=second, raw={**PETITE_LOST, "partner": "Carl", "dealer": "Anna", "points": 50}, user=user
    )
    services.hand_delete(hand=first, user=user)
    totals = build_sheet(fresh(session)).totals

    services.session_rename_player(session=session, user=user, old="Carl", new="Karl")

    session = fresh(session)
    assert list(session.seats.values_list("name", flat=True)) == ["Anna", "Bert", "Karl", "Dora", "Emil"]
    sheet = build_sheet(session)
    assert sheet.players == ("Anna", "Bert", "Karl", "Dora", "Emil") and sheet.totals == totals
    every = json.dumps(
        [
            list(Hand.objects.filter(session=session).values()),
            list(HandChange.objects.values("before", "after")),
        ],
        default=str,
    )
    assert "Carl" not in every and "Karl" in every
    first.refresh_from_db()
    assert first.inputs["partner"] == "Karl" and first.inputs["poignees"] == [
        {"player": "Karl", "size": "simple"}
    ]
    assert "Karl" in render_line(first.description_line())
    assert any("Karl" in render_line(line) for line in first.breakdown_lines())
    assert "Karl" in exports.session_json(session) and "Carl" not in exports.session_json(session)
    assert "Karl" in exports.session_csv(sheet).decode("utf-8-sig")
    change = SessionChange.objects.get()
    assert (change.action, change.before, change.after, change.user) == ("player", "Carl", "Karl", user)


def test_a_corrected_name_moves_the_dealer_and_who_sits_out(make_session, user):
    session = make_session(players=("Anna", "Bert", "Carl", "Dora", "Emil", "Fritz"))
    (hand,) = record(session, user, {**GARDE_WON, "partner": "Carl", "dealer": "Fritz"})
    services.session_rename_player(session=session, user=user, old="Fritz", new="Friedrich")
    hand.refresh_from_db()
    assert (hand.dealer, hand.sitting_out) == ("Friedrich", "Friedrich")
    assert set(hand.deltas) == {"Anna", "Bert", "Carl", "Dora", "Emil", "Friedrich"}
    assert build_sheet(fresh(session)).next_dealer == "Anna"


def test_renaming_touches_only_the_player_not_words_that_read_like_the_name(make_session, user):
    """A player called like a contract keeps the contract a contract."""
    session = make_session(players=("garde", "Bert", "Carl", "Dora"))
    (hand,) = record(session, user, {**GARDE_WON, "taker": "garde"})
    services.session_rename_player(session=session, user=user, old="garde", new="Gerda")
    hand.refresh_from_db()
    assert hand.inputs["taker"] == "Gerda" and hand.inputs["contract"] == "garde"


def test_renaming_a_trischaken_renames_its_points_and_its_list_of_players(make_session, user):
    session = make_session(variant="illustrated", players=("A", "B", "C"), options={"all_pass": "trischaken"})
    raw = {"type": "trischaken", "dealer": "C", "points": {"A": 30, "B": 0, "C": 22}, "no_trick": ["B"]}
    (hand,) = record(session, user, raw)
    services.session_rename_player(session=session, user=user, old="B", new="Berta")
    hand.refresh_from_db()
    assert hand.inputs == {"points": {"A": 30, "Berta": 0, "C": 22}, "no_trick": ["Berta"]}
    assert hand.deltas == {"A": -10, "Berta": 10, "C": 5}


def test_the_misspelt_player_is_forgotten_unless_another_table_knows_them(make_session, user):
    session = make_session()
    services.session_rename_player(session=session, user=user, old="Dora", new="Doris")
    assert not Player.objects.filter(name="Dora").exists()
    assert Seat.objects.get(session=session, name="Doris").player.name == "Doris"
    other = make_session(players=("Anna", "Bert", "Carl", "Dora"))
    another = make_session(players=("Anna", "Bert", "Carl", "Dora"))
    services.session_rename_player(session=other, user=user, old="Dora", new="Doris")
    assert Seat.objects.get(session=another, name="Dora").player.name == "Dora"


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("Anna", "Bert"),
        ("Anna", ""),
        ("Anna", " Anna"),
        ("Anna", "x" * 41),
        ("Anna", "An\tna"),
        ("Zoe", "Zora"),
    ],
)
def test_a_name_taken_at_the_table_or_refused_by_the_rules_changes_nothing(make_session, user, old, new):
    session = make_session()
    record(session, user, GARDE_WON)
    before = stored(session)
    with pytest.raises(InvalidInput) as refused:
        services.session_rename_player(session=session, user=user, old=old, new=new)
    assert refused.value.field == ("player" if old == "Zoe" else "name")
    assert stored(session) == before and not SessionChange.objects.exists()


# -- house rules -----------------------------------------------------------------------------


def test_new_house_rules_rescore_every_hand_and_keep_the_totals_before_and_after(make_session, user):
    session = make_session()
    hands = record(session, user, GARDE_WON, PETITE_LOST)
    before_totals = build_sheet(fresh(session)).totals
    version = fresh(session).version

    result = services.session_change_rules(session=session, user=user, options={"round_to": 10})

    session = fresh(session)
    assert session.options["round_to"] == 10 and session.version > version
    sheet = build_sheet(session)
    game = services.game_of(session)
    rounded = [services.hand_check(game=game, raw=dict(raw)).deltas for raw in (GARDE_WON, PETITE_LOST)]
    assert sheet.totals == [sum(deltas[name] for deltas in rounded) for name in sheet.players]
    assert sheet.totals != before_totals and all(total % 10 == 0 for total in sheet.totals)
    changed = [hand for hand in hands if Hand.objects.get(pk=hand.pk).deltas != hand.deltas]
    assert result.rescored == len(changed) >= 1 and result.change is not None
    change = SessionChange.objects.get()
    assert change.action == "rules"
    assert change.before == {
        "options": {"round_to": 1},
        "totals": dict(zip(sheet.players, before_totals, strict=True)),
    }
    assert change.after == {
        "options": {"round_to": 10},
        "totals": dict(zip(sheet.players, sheet.totals, strict=True)),
    }
    for hand in changed:
        assert hand.changes.filter(action="rescored", user=user).count() == 1


def test_the_same_house_rules_again_change_nothing(make_session, user):
    session = make_session()
    record(session, user, GARDE_WON)
    before = stored(session)
    result = services.session_change_rules(session=session, user=user, options={"round_to": 1})
    assert result.change is None and stored(session) == before


def test_new_house_rules_that_refuse_a_hand_change_nothing_and_name_the_hand(make_session, user):
    session = make_session(variant="illustrated", players=("A", "B", "C"), options={"all_pass": "trischaken"})
    played = {"dealer": "A", "declarer": "B", "game": "dreiblatt", "bid": "announced", "points": 40}
    trischaken = {
        "type": "trischaken",
        "dealer": "B",
        "points": {"A": 30, "B": 0, "C": 22},
        "no_trick": ["B"],
    }
    record(session, user, played, trischaken)
    before = stored(session)
    with pytest.raises(services.RulesRefused) as refused:
        services.session_change_rules(
            session=session, user=user, options={**fresh(session).options, "all_pass": "redeal"}
        )
    [hand] = refused.value.hands
    assert (hand.number, hand.refused.field) == (2, "type")
    assert stored(session) == before and not SessionChange.objects.exists()


def test_a_deleted_hand_follows_new_house_rules_so_it_comes_back_under_them(make_session, user):
    session = make_session()
    _won, lost = record(session, user, GARDE_WON, PETITE_LOST)
    services.hand_delete(hand=lost, user=user)
    services.session_change_rules(session=session, user=user, options={"round_to": 10})
    services.hand_restore(hand=lost, user=user)
    # The petite lost by 3 (51 needed): 25 + 3 = 28 from the attack, rounded up to 30 (docs/rules.md §1.3).
    assert Hand.objects.get(pk=lost.pk).delta_points()["Bert"] == -3 * 30
    assert all(total % 10 == 0 for total in build_sheet(fresh(session)).totals), "one sheet, one set of rules"


def test_a_deleted_hand_new_house_rules_refuse_stays_deleted_and_says_why(make_session, user):
    session = make_session(variant="illustrated", players=("A", "B", "C"), options={"all_pass": "trischaken"})
    played = {"dealer": "A", "declarer": "B", "game": "dreiblatt", "bid": "announced", "points": 40}
    trischaken = {
        "type": "trischaken",
        "dealer": "B",
        "points": {"A": 30, "B": 0, "C": 22},
        "no_trick": ["B"],
    }
    _played, deleted = record(session, user, played, trischaken)
    services.hand_delete(hand=deleted, user=user)
    # Deleted, the Trischaken does not stand in the way of rules without Trischaken …
    services.session_change_rules(
        session=session, user=user, options={**fresh(session).options, "all_pass": "redeal"}
    )
    assert fresh(session).options["all_pass"] == "redeal"
    # … and cannot come back under them.
    with pytest.raises(InvalidInput) as refused:
        services.hand_restore(hand=deleted, user=user)
    assert refused.value.field == "type"
    assert Hand.objects.get(pk=deleted.pk).deleted_at is not None


def test_house_rules_the_game_refuses_are_named(make_session, user):
    session = make_session()
    with pytest.raises(InvalidInput) as refused:
        services.session_change_rules(session=session, user=user, options={"round_to": 3})
    assert refused.value.field == "options.round_to"


# -- closing and reopening -------------------------------------------------------------------


def test_a_closed_evening_takes_no_hand_correction_deletion_or_restore(make_session, user):
    session = make_session()
    kept, deleted = record(session, user, GARDE_WON, PETITE_LOST)
    services.hand_delete(hand=deleted, user=user)
    services.session_close(session=session, user=user)
    before = stored(session)
    attempts = [
        lambda: services.hand_record(session=session, raw=GARDE_WON, user=user),
        lambda: services.hand_edit(hand=kept, raw={**GARDE_WON, "points": 60}, user=user),
        lambda: services.hand_delete(hand=kept, user=user),
        lambda: services.hand_restore(hand=deleted, user=user),
        lambda: services.session_change_rules(session=session, user=user, options={"round_to": 5}),
        lambda: services.session_edit(
            session=session, user=user, name="Friday", played_on=session.played_on, money_rate=Decimal("0.1")
        ),
        lambda: services.session_rescore(session=session, user=user),
    ]
    for attempt in attempts:
        with pytest.raises(services.SessionClosed):
            attempt()
    assert stored(session) == before


def test_a_closed_evening_can_still_be_renamed_and_its_players_names_corrected(make_session, user):
    session = make_session()
    services.session_close(session=session, user=user)
    services.session_edit(
        session=session, user=user, name="Closed", played_on=session.played_on, money_rate=None
    )
    services.session_rename_player(session=session, user=user, old="Anna", new="Anne")
    assert fresh(session).name == "Closed" and "Anne" in build_sheet(fresh(session)).players


def test_closing_and_reopening_are_kept_in_the_history_and_give_new_versions(make_session, user):
    session = make_session()
    version = session.version
    closed = services.session_close(session=session, user=user)
    assert closed.is_closed and fresh(session).version == version + 1
    services.session_close(session=session, user=user)  # closing twice changes nothing
    assert fresh(session).version == version + 1
    reopened = services.session_reopen(session=session, user=user)
    assert not reopened.is_closed and fresh(session).version == version + 2
    record(session, user, GARDE_WON)
    assert [c.action for c in SessionChange.objects.all()] == ["closed", "reopened"]


# -- deleting and restoring a session ---------------------------------------------------------


def test_a_deleted_session_is_gone_for_everyone_until_its_owner_restores_it(make_session, user, other_user):
    session = make_session()
    session.editors.add(other_user)
    token = services.session_share(session=session)
    record(session, user, GARDE_WON)
    services.session_delete(session=session, user=user)
    for account in (user, other_user):
        with pytest.raises(Session.DoesNotExist):
            services.session_for(account, session.pk)
    with pytest.raises(Session.DoesNotExist):
        services.session_shared(token)
    assert list(services.deleted_sessions(user)) == [fresh(session)]
    assert list(services.deleted_sessions(other_user)) == []

    services.session_restore(session=services.session_deleted_for(user, session.pk), user=user)
    assert services.session_for(user, session.pk).hands.count() == 1
    assert services.session_shared(token) == session
    assert [c.action for c in SessionChange.objects.all()] == ["deleted", "restored"]


def test_a_session_deleted_longer_ago_than_allowed_is_not_restorable_and_is_purged(make_session, user):
    session = make_session()
    record(session, user, GARDE_WON)
    services.session_delete(session=session, user=user)
    recent = make_session()
    services.session_delete(session=recent, user=user)
    long_ago = timezone.now() - timedelta(days=services.RESTORABLE_DAYS, minutes=1)
    Session.objects.filter(pk=session.pk).update(deleted_at=long_ago)
    assert list(services.deleted_sessions(user)) == [fresh(recent)]
    with pytest.raises(services.NotRestorable):
        services.session_restore(session=session, user=user)
    assert services.sessions_purge() == 1
    assert list(Session.objects.values_list("pk", flat=True)) == [recent.pk]
    assert not Hand.objects.exists()


# -- deleted hands ---------------------------------------------------------------------------


def test_a_deleted_hand_comes_back_in_its_place_after_other_hands_and_corrections(make_session, user):
    session = make_session()
    _first, second, third = record(session, user, GARDE_WON, PETITE_LOST, GARDE_WON)
    services.hand_delete(hand=second, user=user)
    record(session, user, PETITE_LOST)
    services.hand_edit(hand=third, raw={**GARDE_WON, "points": 70}, user=user)
    services.session_rename_player(session=session, user=user, old="Bert", new="Berti")
    services.hand_restore(hand=second, user=user)
    sheet = build_sheet(fresh(session))
    assert [row.hand_id for row in sheet.rows][1] == second.pk
    assert "Berti" in render_line(sheet.rows[1].description or Line(""))


def test_purge_sessions_removes_what_can_no_longer_be_restored(make_session, user):
    from io import StringIO

    from django.core.management import call_command

    old, recent = make_session(), make_session()
    for session in (old, recent):
        services.session_delete(session=session, user=user)
    Session.objects.filter(pk=old.pk).update(
        deleted_at=timezone.now() - timedelta(days=services.RESTORABLE_DAYS + 1)
    )
    out = StringIO()
    call_command("purge_sessions", stdout=out)
    assert (
        out.getvalue().strip()
        == f"Removed 1 session(s) deleted more than {services.RESTORABLE_DAYS} days ago."
    )
    assert list(Session.objects.values_list("pk", flat=True)) == [recent.pk]


def test_restoring_a_hand_the_rules_now_refuse_says_why_on_the_sheet(make_session, user, logged_in):
    from django.urls import reverse

    session = make_session(variant="illustrated", players=("A", "B", "C"), options={"all_pass": "trischaken"})
    trischaken = {
        "type": "trischaken",
        "dealer": "B",
        "points": {"A": 30, "B": 0, "C": 22},
        "no_trick": ["B"],
    }
    [deleted] = record(session, user, trischaken)
    services.hand_delete(hand=deleted, user=user)
    services.session_change_rules(
        session=session, user=user, options={**fresh(session).options, "all_pass": "redeal"}
    )
    response = logged_in.post(reverse("hand_restore", args=[session.pk, deleted.pk]), follow=True)
    assert "cannot come back under today&#x27;s house rules" in response.content.decode()
    assert Hand.objects.get(pk=deleted.pk).deleted_at is not None
