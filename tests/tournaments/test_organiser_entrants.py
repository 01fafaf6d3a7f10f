"""Entrants (TOURNAMENTS.md §1.2): start numbers, unique names, the 400 limit, the
group's roster, fillers, late entries and withdrawals."""

from __future__ import annotations

import pytest
from django.urls import reverse

from club.models import GroupPlayer
from club.services import groups
from scoring.engine import InvalidInput
from scoring.models import Player
from tests.tournaments import factory
from tournaments.models import Entrant, TableSeat, TournamentChange
from tournaments.services import entrants, plan

pytestmark = pytest.mark.django_db


def test_entrants_get_start_numbers_from_1_and_the_owners_player_of_their_name(user):
    t = factory.tournament(user, names=["Anna", "Bernd"])
    assert list(t.entrants.values_list("number", "name")) == [(1, "Anna"), (2, "Bernd")]
    anna = t.entrants.get(number=1)
    assert anna.player == Player.objects.get(owner=user, name="Anna")


def test_a_second_maier_is_refused_with_a_way_to_tell_them_apart(user):
    t = factory.tournament(user, names=["Maier"])
    with pytest.raises(InvalidInput) as refused:
        entrants.entrant_add(tournament=t, user=user, name="Maier")
    assert refused.value.field == "name" and "Maier J." in str(refused.value)
    assert t.entrants.count() == 1


def test_the_401st_entrant_is_refused_naming_the_limit(user):
    t = factory.tournament(user, names=[])
    Entrant.objects.bulk_create(
        Entrant(
            tournament=t,
            number=n,
            name=f"Spieler {n}",
            player=Player.objects.get_or_create(owner=user, name="P")[0],
        )
        for n in range(1, 401)
    )
    with pytest.raises(InvalidInput) as refused:
        entrants.entrant_add(tournament=t, user=user, name="Zu viel")
    assert "400" in str(refused.value)
    assert t.entrants.count() == 400


def test_names_from_the_roster_and_a_new_name_joins_it_unless_unticked(user):
    group = groups.group_create(owner=user, name="Stammtisch")
    groups.roster_add(group=group, name="Anna")
    t = factory.tournament(user, names=[], group=group)
    entrants.entrants_add(tournament=t, user=user, entrants=[entrants.NewEntrant("Anna")])
    entrants.entrant_add(tournament=t, user=user, name="Bernd")
    entrants.entrant_add(tournament=t, user=user, name="Gast", roster=False)
    assert set(GroupPlayer.objects.filter(group=group).values_list("name", flat=True)) == {"Anna", "Bernd"}
    assert t.entrants.get(name="Anna").roster == GroupPlayer.objects.get(group=group, name="Anna")
    assert t.entrants.get(name="Gast").roster is None


def test_a_filler_plays_but_is_not_ranked(user):
    t = factory.tournament(user, names=factory.EXAMPLE_NAMES[:11])
    entrants.entrant_add(tournament=t, user=user, name="Ersatz", filler=True)
    factory.draw(t)
    filler = t.entrants.get(name="Ersatz")
    assert filler.kind == "filler" and TableSeat.objects.filter(entrant=filler).count() == 3


def test_a_late_entry_before_round_1_is_played_is_drawn_in_by_a_redraw(user):
    t = factory.tournament(user, names=factory.EXAMPLE_NAMES[:8])
    factory.draw(t)
    late = entrants.entrant_add(tournament=factory.fresh(t), user=user, name="Spät")
    assert late.joined_round == 1 and not late.seats.exists()
    plan.round_redraw(tournament=factory.fresh(t), user=user, number=1)
    assert late.seats.count() == 3


def test_a_late_entry_after_round_1_is_released_needs_the_any_round_setting(user):
    t = factory.tournament(user, names=factory.EXAMPLE_NAMES[:8])
    factory.draw(t)
    factory.release(t)
    with pytest.raises(InvalidInput) as refused:
        entrants.entrant_add(tournament=factory.fresh(t), user=user, name="Spät")
    assert refused.value.field == "name"
    other = factory.tournament(user, names=factory.EXAMPLE_NAMES[:8], settings={"late_entry": "any_round"})
    factory.draw(other)
    factory.release(other)
    late = entrants.entrant_add(tournament=factory.fresh(other), user=user, name="Spät")
    assert late.joined_round == 2


def test_a_withdrawal_keeps_played_rounds_and_a_five_table_plays_at_four(user):
    t = factory.tournament(user, names=factory.EXAMPLE_NAMES[:9])
    factory.draw(t)
    factory.release(t)
    five = next(table for table in factory.tables(t, 2) if table.size == 5)
    leaving = five.seats.order_by("position").first().entrant
    plan.entrant_withdraw(tournament=factory.fresh(t), user=user, number=leaving.number, after_round=1)
    leaving.refresh_from_db()
    assert leaving.status == "withdrawn" and leaving.left_after_round == 1
    assert (
        leaving.seats.filter(round__number=1).exists() and not leaving.seats.filter(round__number=2).exists()
    )
    five.refresh_from_db()
    assert five.size == 4 and five.seats.count() == 4 and five.hands_target == 16
    assert TournamentChange.objects.filter(tournament=t, action="withdraw").count() == 1


def test_a_four_table_left_with_three_takes_a_player_from_a_five_table(user):
    t = factory.tournament(user, names=factory.EXAMPLE_NAMES[:9])
    factory.draw(t)
    four = next(table for table in factory.tables(t, 2) if table.size == 4)
    leaving = four.seats.first().entrant
    plan.entrant_withdraw(tournament=factory.fresh(t), user=user, number=leaving.number, after_round=1)
    assert [table.seats.count() for table in factory.tables(t, 2)] == [4, 4]


# 17 entrants, two rounds drawn at the start: tables of 4, 4, 4 and 5. Round 1 seats
# four groups who met there; in round 2 start number 2 leaves table 1, which keeps 1,
# 5 and 9 (one of the first three groups each), and table 4 is the five-table.
ROUND_1 = [[1, 2, 3, 4], [5, 6, 7, 8], [9, 10, 11, 12], [13, 14, 15, 16, 17]]


def arranged(user, round_2):
    """17 entrants with the plan ``ROUND_1``, ``round_2`` (set by swaps), round 1 released."""
    t = factory.tournament(user, names=[f"Spieler {n}" for n in range(1, 18)], settings={"rounds": 2})
    factory.draw(t)
    for number, wanted in ((1, ROUND_1), (2, round_2)):
        for table, numbers in enumerate(wanted):
            for seat, want in enumerate(numbers):
                sitting = plan.seating(factory.fresh(t).rounds.get(number=number))[table][seat]
                if sitting != want:
                    plan.seat_swap(
                        tournament=factory.fresh(t),
                        user=user,
                        round_number=number,
                        first=sitting,
                        second=want,
                    )
        assert plan.seating(t.rounds.get(number=number)) == wanted
    factory.release(t)
    return factory.fresh(t)


def test_a_four_table_left_with_three_takes_the_five_table_player_adding_no_repeat(user):
    # The last seat of the five-table (4) met 1 in round 1; 14 and 15 met none of
    # 1, 5, 9 (and leave their own repeat behind): the lower number, 14, moves.
    t = arranged(user, [[1, 2, 5, 9], [3, 7, 11, 16], [8, 12, 13, 17], [6, 10, 14, 15, 4]])
    plan.entrant_withdraw(tournament=t, user=user, number=2, after_round=1)
    assert plan.seating(t.rounds.get(number=2)) == [
        [1, 5, 9, 14],
        [3, 7, 11, 16],
        [8, 12, 13, 17],
        [6, 10, 15, 4],
    ]
    sizes = [(table.size, table.hands_target) for table in factory.tables(t, 2)]
    assert sizes == [(4, 16), (4, 16), (4, 16), (4, 16)]


def test_equal_moves_go_to_the_lower_start_number_wherever_he_sits(user):
    # 15 and 14 add no repeat alike; 15 sits first, 14 further on: 14 moves.
    t = arranged(user, [[1, 2, 5, 9], [3, 7, 11, 16], [8, 12, 13, 17], [15, 6, 4, 14, 10]])
    plan.entrant_withdraw(tournament=t, user=user, number=2, after_round=1)
    assert plan.seating(t.rounds.get(number=2))[0] == [1, 5, 9, 14]


def test_the_move_is_kept_in_the_audit_and_in_the_rounds_changes(user):
    t = arranged(user, [[1, 2, 5, 9], [3, 7, 11, 16], [8, 12, 13, 17], [6, 10, 14, 15, 4]])
    plan.entrant_withdraw(tournament=t, user=user, number=2, after_round=1)
    change = TournamentChange.objects.get(tournament=t, action="withdraw")
    move = {"move": 14, "from": 4, "to": 1, "repeats": -1}
    assert change.after["vacated"] == [[2, 1]]
    assert change.after["moved"] == [{"round": 2, **move}]
    assert t.rounds.get(number=2).draw["changes"][-1] == move


def test_the_entrants_page_registers_and_shows_a_refusal_beside_the_name(logged_in, user):
    t = factory.tournament(user, names=["Anna"])
    url = reverse("tournament_entrants", args=[t.pk])
    assert (
        logged_in.post(url, {"action": "add", "name": "Bernd", "place": "Linz", "token": "a1"}).status_code
        == 302
    )
    assert (
        logged_in.post(url, {"action": "add", "name": "Bernd", "place": "Linz", "token": "a1"}).status_code
        == 302
    )
    assert list(t.entrants.values_list("name", "place")) == [("Anna", ""), ("Bernd", "Linz")]
    answer = logged_in.post(url, {"action": "add", "name": "Anna", "token": "a2"})
    assert answer.status_code == 400 and "Anna J." in answer.content.decode()
    assert t.entrants.count() == 2


def test_a_late_entrant_left_unseated_stops_the_release_until_he_is_drawn_in(user):
    t = factory.tournament(user, names=factory.EXAMPLE_NAMES[:8])
    factory.draw(t)
    late = entrants.entrant_add(tournament=factory.fresh(t), user=user, name="Spät")
    with pytest.raises(InvalidInput) as refused:
        factory.release(t)
    assert f"start number {late.number}" in str(refused.value)
    assert factory.fresh(t).rounds.get(number=1).status == "drawn"
    plan.round_redraw(tournament=factory.fresh(t), user=user, number=1)
    factory.release(t)
    assert late.seats.filter(round__number=1).exists()


# A name and one that reads the same on a slip or the hall screen (TOURNAMENTS.md §1.2).
LOOK_ALIKES = [
    ("Anna", "An\u200bna", "invisible"),  # a zero-width space
    ("Anna", "Anna\ufeff", "invisible"),  # a byte order mark at the end
    ("Ann\u00e4", "Anna\u0308", "registered already"),  # decomposed ä against the composed one
    ("Anna", "\uff21\uff4e\uff4e\uff41", "registered already"),  # fullwidth
    ("Anna", "ANNA", "registered already"),
    ("Anna", "\u0410nna", "registered already"),  # a Cyrillic А
    ("Anna", "\u0391\u03bd\u03bd\u03b1", "registered already"),  # Greek Α, ν, α
]


@pytest.mark.parametrize(("first", "second", "why"), LOOK_ALIKES)
def test_a_look_alike_name_is_refused_typed_from_the_roster_and_by_import(user, first, second, why):
    t = factory.tournament(user, names=[first])
    with pytest.raises(InvalidInput) as typed:
        entrants.entrant_add(tournament=t, user=user, name=second)
    assert typed.value.field == "name" and why in str(typed.value)
    with pytest.raises(InvalidInput) as picked:
        entrants.entrants_add(tournament=t, user=user, entrants=[entrants.NewEntrant(second)])
    assert why in str(picked.value)
    assert list(t.entrants.values_list("name", flat=True)) == [first]
    from tournaments.core import tournament_file as files
    from tournaments.services import tournament_files

    document = {"format": "tarockscore-tournament/1", "variant": "koenigrufen", "seed": "482915",
                "entrants": [first, "Bernd", "Christa", second]}  # fmt: skip
    with pytest.raises(files.InvalidTournament) as imported:
        tournament_files.tournament_import(owner=user, data=files.dumps(document).encode())
    assert imported.value.field == "entrants[4]"


def test_an_invisible_character_is_refused_even_without_a_look_alike(user):
    t = factory.tournament(user, names=[])
    for name in ("Le\u200bo", "\u2060Leo", "Le\u00ado"):  # zero width, word joiner, soft hyphen
        with pytest.raises(InvalidInput) as refused:
            entrants.entrant_add(tournament=t, user=user, name=name)
        assert "invisible" in str(refused.value)
    assert not t.entrants.exists()


def test_a_name_put_right_may_change_its_own_spelling_but_not_become_anothers(user):
    t = factory.tournament(user, names=["anna", "Bernd"])
    entrants.entrant_edit(tournament=t, user=user, number=1, name="Anna", place="", fee_paid=False)
    with pytest.raises(InvalidInput):
        entrants.entrant_edit(tournament=t, user=user, number=2, name="ANNA", place="", fee_paid=False)
    assert list(t.entrants.order_by("number").values_list("name", flat=True)) == ["Anna", "Bernd"]


def test_the_roster_does_not_offer_a_look_alike_of_an_entrant(user, logged_in):
    group = groups.group_create(owner=user, name="Stammtisch")
    groups.roster_add(group=group, name="ANNA")
    groups.roster_add(group=group, name="Bernd")
    t = factory.tournament(user, names=["Anna"], group=group)
    page = logged_in.get(reverse("tournament_entrants", args=[t.pk])).content.decode()
    assert 'value="Bernd"' in page and 'value="ANNA"' not in page


def test_the_entrants_page_says_why_a_look_alike_is_refused(user, client_for):
    t = factory.tournament(user, names=["Anna"])
    browser = client_for(user)
    answer = browser.post(
        reverse("tournament_entrants", args=[t.pk]),
        {"action": "add", "name": "\u0410nna"},
        HTTP_ACCEPT_LANGUAGE="en",
    )
    assert answer.status_code == 400 and "is registered already" in answer.content.decode()
    assert t.entrants.count() == 1
