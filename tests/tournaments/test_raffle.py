"""The raffle of the material prizes (TOURNAMENTS.md §4.5, docs/tournaments.md):
drawn once the ranking is final among those ticked present, stored and audited,
done once however often the form is sent, refused while the raffle is off; the
prize list page and its PDF show who won what."""

from __future__ import annotations

import io
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.urls import reverse
from django.utils import translation
from pypdf import PdfReader

from scoring.engine import InvalidInput
from tests.tournaments import factory
from tournaments.models import Entrant, Tournament, TournamentChange
from tournaments.services import printouts, raffle

pytestmark = pytest.mark.django_db

# 1 € 120, 2 € 80 and a cup, 3–6 "Sachpreis" (four material prizes).
PRIZES = [
    {"from": 1, "to": 1, "amount": "120"},
    {"from": 2, "to": 2, "text": "Pokal", "amount": "80"},
    {"from": 3, "to": 6, "text": "Sachpreis"},
]
# §9's final ranking: 1 Erika (5), 2 Franz (6), 3 Karin (11), 4 Christa (3), …
# The tickets of seed 482915 in order: 11, 3, 1, 8, 12, 5, 4, 6, 7, 9, 10, 2.
NUMBERS = {name: number for number, name in enumerate(factory.EXAMPLE_NAMES, 1)}
EVERYONE = list(range(1, 13))


def made_final(user: User, *, on: bool = True, filler: str = "") -> Tournament:
    t = factory.play_example(user, settings={"prizes": PRIZES, "prize_raffle": on})
    if filler:  # a filler plays and is not ranked: taken out before the ranking is made final
        Entrant.objects.filter(tournament=t, name=filler).update(kind=Entrant.Kind.FILLER)
    return factory.make_final(factory.fresh(t))


def winners(t: Tournament) -> list[int | None]:
    return [won["number"] for won in factory.fresh(t).raffle["drawn"]]


def draws(t: Tournament) -> list[TournamentChange]:
    return list(t.changes.filter(action=TournamentChange.Action.RAFFLE).order_by("id"))


def test_the_draw_follows_the_seed_skips_the_money_prizes_and_is_stored_and_audited(user):
    t = made_final(user)
    raffle.raffle_draw(tournament=t, user=user, present=EVERYONE, client_token="a1")
    # Erika (5) and Franz (6) won money; the tickets give Karin, Christa, Anna, Hans.
    assert winners(t) == [NUMBERS["Karin"], NUMBERS["Christa"], NUMBERS["Anna"], NUMBERS["Hans"]]
    stored = factory.fresh(t).raffle
    assert stored["present"] == EVERYONE and stored["money"] == [5, 6]
    assert [(w["order"], w["place"], w["text"]) for w in stored["drawn"]] == [
        (1, 3, "Sachpreis"),
        (2, 4, "Sachpreis"),
        (3, 5, "Sachpreis"),
        (4, 6, "Sachpreis"),
    ]
    [change] = draws(t)
    assert change.user == user and change.before is None and change.after == stored


def test_more_prizes_than_people_present_leaves_the_rest_undrawn(user):
    t = made_final(user)
    raffle.raffle_draw(tournament=t, user=user, present=[NUMBERS["Leo"], NUMBERS["Erika"]])
    assert winners(t) == [NUMBERS["Leo"], None, None, None]


def test_a_filler_present_is_not_drawn(user):
    t = made_final(user, filler="Karin")
    raffle.raffle_draw(tournament=t, user=user, present=[NUMBERS["Karin"], NUMBERS["Gerti"]])
    assert winners(t)[0] == NUMBERS["Gerti"]
    assert NUMBERS["Karin"] not in winners(t)


def test_the_same_form_sent_twice_draws_once(user):
    t = made_final(user)
    raffle.raffle_draw(tournament=t, user=user, present=[1, 2, 3], client_token="a1")
    raffle.raffle_draw(tournament=t, user=user, present=[7, 8, 9], client_token="a1")
    assert factory.fresh(t).raffle["present"] == [1, 2, 3] and len(draws(t)) == 1


def test_the_same_list_drawn_again_stores_nothing_new(user):
    t = made_final(user)
    raffle.raffle_draw(tournament=t, user=user, present=[3, 1, 2], client_token="a1")
    raffle.raffle_draw(tournament=t, user=user, present=[1, 2, 3], client_token="a2")
    assert len(draws(t)) == 1


def test_drawing_again_with_another_list_replaces_the_draw_and_is_audited(user):
    t = made_final(user)
    raffle.raffle_draw(tournament=t, user=user, present=[1, 2, 3], client_token="a1")
    first = factory.fresh(t).raffle
    raffle.raffle_draw(tournament=t, user=user, present=[1, 2, 3, 8], client_token="a2")
    again = factory.fresh(t).raffle
    assert again["present"] == [1, 2, 3, 8] and again != first
    assert [(c.before, c.after) for c in draws(t)] == [(None, first), (first, again)]


@pytest.mark.parametrize(
    ("on", "final", "present", "field"),
    [
        (False, True, EVERYONE, "prize_raffle"),
        (True, False, EVERYONE, "status"),
        (True, True, [], "present"),
        (True, True, [1, 99], "present"),
        (True, True, [1, 1], "present"),
    ],
)
def test_a_refused_draw_writes_nothing(user, on, final, present, field):
    t = (
        made_final(user, on=on)
        if final
        else factory.play_example(user, settings={"prizes": PRIZES, "prize_raffle": on})
    )
    with pytest.raises(InvalidInput) as refusal:
        raffle.raffle_draw(tournament=t, user=user, present=present, client_token="a1")
    assert refusal.value.field == field
    assert factory.fresh(t).raffle is None and draws(t) == []


def test_without_material_prizes_there_is_nothing_to_draw(user):
    t = factory.play_example(user, settings={"prizes": PRIZES[:2], "prize_raffle": True})
    t = factory.make_final(t)
    with pytest.raises(InvalidInput) as refusal:
        raffle.raffle_draw(tournament=t, user=user, present=EVERYONE)
    assert refusal.value.field == "prizes" and draws(t) == []


# -- the prize list page ------------------------------------------------------------------


def page(client: Any, t: Tournament) -> str:
    return client.get(reverse("tournament_prizes", args=[t.pk])).content.decode()


def form_of(html: str) -> str:
    return html[html.index('id="raffle-form"') : html.index("</form>", html.index('id="raffle-form"'))]


def test_the_prize_page_offers_those_who_may_be_drawn_none_ticked(logged_in, user):
    t = made_final(user)
    form = form_of(page(logged_in, t))
    assert "Draw the prizes" in form and "checked" not in form
    assert 'value="11"' in form and "Karin" in form
    assert "Erika" not in form and "Franz" not in form  # money prizes, not drawn


def test_drawing_on_the_page_shows_the_winners_and_their_prizes(logged_in, user):
    t = made_final(user)
    url = reverse("tournament_raffle", args=[t.pk])
    answer = logged_in.post(url, {"present": ["11", "3", "12"], "token": "t1"})
    assert answer.status_code == 302 and answer["Location"] == reverse("tournament_prizes", args=[t.pk])
    logged_in.post(url, {"present": ["11", "3", "12"], "token": "t1"})  # sent again
    assert winners(t) == [11, 3, 12, None] and len(draws(t)) == 1
    html = page(logged_in, t)
    result = html[html.index('id="raffle-result"') : html.index("</table>", html.index('id="raffle-result"'))]
    assert result.index("Karin") < result.index("Christa") < result.index("Leo")
    assert "not drawn" in result
    rows = {row.entrant.name: row.prize for row in printouts.prize_list(factory.fresh(t)).rows}
    assert rows["Karin"] == rows["Christa"] == rows["Leo"] == "Sachpreis"
    assert rows["Dieter"] == ""  # place 5: a material place, not given by place with the raffle on


def test_a_draw_while_the_raffle_is_off_is_refused_on_the_page(logged_in, user):
    t = made_final(user, on=False)
    answer = logged_in.post(reverse("tournament_raffle", args=[t.pk]), {"present": ["1"]}, follow=True)
    assert "the raffle of material prizes is off" in answer.content.decode()
    assert factory.fresh(t).raffle is None and 'id="raffle"' not in page(logged_in, t)


def test_a_present_value_not_a_start_number_is_refused(logged_in, user):
    t = made_final(user)
    answer = logged_in.post(reverse("tournament_raffle", args=[t.pk]), {"present": ["1", "x"]}, follow=True)
    assert answer.status_code == 200 and factory.fresh(t).raffle is None


def test_before_the_ranking_is_final_the_page_says_when_the_prizes_are_drawn(logged_in, user):
    t = factory.play_example(user, settings={"prizes": PRIZES, "prize_raffle": True})
    html = page(logged_in, t)
    assert "drawn once the ranking is final" in html and 'id="raffle-form"' not in html


# -- the printout ---------------------------------------------------------------------------


def pdf_text(t: Tournament) -> str:
    with translation.override("de"):
        data = printouts.prizes_pdf(factory.fresh(t)).data
    return "\n".join(p.extract_text() for p in PdfReader(io.BytesIO(data)).pages)


def test_the_prize_list_pdf_prints_the_drawn_names(user):
    t = made_final(user)
    raffle.raffle_draw(tournament=t, user=user, present=[12, 7])
    text = pdf_text(t)
    assert "Verlosung der Sachpreise" in text and "Leo" in text and "Gerti" in text
    assert "Erika" in text and "Dieter" not in text


def test_a_draw_the_ranking_no_longer_matches_is_marked_and_not_printed(logged_in, user):
    t = made_final(user)
    raffle.raffle_draw(tournament=t, user=user, present=[12, 7])
    stored = factory.fresh(t).raffle
    assert stored is not None
    Tournament.objects.filter(pk=t.pk).update(raffle={**stored, "money": [5, 11]})  # as if places moved
    assert 'id="raffle-stale"' in page(logged_in, t)
    assert "Verlosung der Sachpreise" not in pdf_text(t)
