"""The Königrufen hand form without a browser: what each control posts becomes
the session file's hand, nothing that changes the score is preset, and a
refusal lands beside the control it is about."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.conf import settings
from django.urls import reverse
from django.utils import translation

from scoring.engine import HandType, InvalidInput, Table, get_variant
from scoring.models import Hand
from scoring.schema_forms import SchemaForm

PLAYERS = ("Anna", "Bert", "Carl", "Dora")


def post(declarer: str = "Anna", **fields: str | list[str]) -> dict[str, str | list[str]]:
    return {
        "token": "t",
        "type": "played",
        "action": "save",
        "dealer": "Dora",
        "declarer": declarer,
        **fields,
    }


def form(data: dict[str, Any]) -> SchemaForm:
    variant = get_variant("koenigrufen")
    options = variant.parse_options({}, PLAYERS)
    table = Table(PLAYERS, "Dora", None)
    return SchemaForm(variant.form_fields(HandType.PLAYED, table, options), PLAYERS, data=data)


@pytest.fixture
def session(make_session):
    return make_session(variant="koenigrufen", players=PLAYERS)


def test_points_of_the_opponents_in_thirds_are_turned_into_the_declarers_side(logged_in, session):
    data = post(game="rufer", partner="Carl", points="20/1", **{"points.side": "other", "kontra": "0"})
    assert logged_in.post(reverse("hand_new", args=[session.pk]), data).status_code == 302
    # 70/0 is 210 thirds; the opponents' 20/1 is 61, the declarer's side 149: 49/2.
    assert Hand.objects.get().inputs["points"] == "49/2"


def test_nothing_that_changes_the_score_is_preset(logged_in, session):
    html = logged_in.get(reverse("hand_new", args=[session.pk])).content.decode()
    for name in ("game", "partner", "won", "premiums.pagat.how"):
        assert f'name="{name}"' in html
        assert not any(
            f'name="{name}" value="{v}" checked' in html for v in ("true", "false", "rufer", "Bert", "")
        )
    assert 'name="premiums.pagat.who" value="" checked' in html  # no premium until a side is tapped


def test_a_negative_game_asks_won_or_lost_and_takes_each_opponents_kontra(logged_in, session):
    data = post(
        declarer="Bert", game="piccolo", **{"kontra.Anna": "0", "kontra.Carl": "2", "kontra.Bert": "0"}
    )
    response = logged_in.post(reverse("hand_new", args=[session.pk]), data)
    assert response.status_code == 200 and not Hand.objects.exists()
    assert 'id="f-won-error"' in response.content.decode()
    data["won"] = "false"
    assert logged_in.post(reverse("hand_new", args=[session.pk]), data).status_code == 302
    hand = Hand.objects.get()
    assert (hand.inputs["won"], hand.inputs["kontra"]) == (False, {"Carl": 2})


def test_a_trischaken_takes_each_players_points_and_ignores_the_side_kontra(logged_in, session):
    data = post(
        game="trischaken",
        kontra="0",
        **{"points.Anna": "10", "points.Bert": "20/1", "points.Carl": "0", "points.Dora": "39/2"},
    )
    assert logged_in.post(reverse("hand_new", args=[session.pk]), data).status_code == 302
    hand = Hand.objects.get()
    assert hand.inputs["points"] == {"Anna": 10, "Bert": "20/1", "Carl": 0, "Dora": "39/2"}
    assert "kontra" not in hand.inputs


def test_two_renonce_offenders(logged_in, session):
    data = post(game="rufer", partner="Carl", points="41", kontra="0", renonce=["Bert", "Dora"])
    assert logged_in.post(reverse("hand_new", args=[session.pk]), data).status_code == 302
    assert Hand.objects.get().inputs["renonce"] == ["Bert", "Dora"]


def test_the_premium_grid_posts_a_premium_per_row_in_the_tariffs_order():
    f = form(
        {
            "declarer": "Anna",
            "game": "rufer",
            "premiums.uhu.who": "opponents",
            "premiums.uhu.how": "true-failed",
            "premiums.uhu.kontra": "1",
            "premiums.trull.who": "declarer",
            "premiums.trull.how": "false",
            "premiums.pagat.who": "",
        }
    )
    assert f.raw["premiums"] == [
        {"type": "trull", "side": "declarer", "announced": False, "made": True},
        {"type": "uhu", "side": "opponents", "announced": True, "made": False, "kontra": 1},
    ]


def test_a_premium_without_how_it_went_is_named_beside_its_row():
    f = form({"declarer": "Anna", "game": "rufer", "premiums.pagat.who": "declarer"})
    assert f.raw["premiums"] == [{"type": "pagat", "side": "declarer", "announced": None}]
    variant = get_variant("koenigrufen")
    options = variant.parse_options({}, PLAYERS)
    with pytest.raises(InvalidInput) as refused:
        variant.parse_play(HandType.PLAYED, f.raw, Table(PLAYERS, "Dora", None), options, from_form=True)
    with translation.override("en"):
        f.add_error(refused.value)
    assert f.errors["premiums.pagat.how"] == ["Pagat, How it went missing"]


def test_a_silent_premium_fails_only_where_it_is_played_in_its_trick():
    grid = next(w for w in form({}).widgets() if w.name == "premiums")
    hows = {row[0].name: [value for value, _ in row[1].choices] for row in grid.rows}
    assert hows["premiums.pagat.who"] == ["false", "true", "false-failed", "true-failed"]
    assert hows["premiums.trull.who"] == ["false", "true", "true-failed"]


def test_the_card_counter_counts_in_thirds():
    variant = get_variant("koenigrufen")
    options = variant.parse_options({}, PLAYERS)
    counter = variant.card_counter(HandType.PLAYED, Table(PLAYERS, "Dora", None), options, {"game": "rufer"})
    assert counter is not None and counter.target == "points"
    # 4 kings, 2 queens, 1 jack, 9 others: 3 × 39 − 2 × 16 = 85 thirds.
    assert counter.count({"fives": 4, "queens": 2, "cavalls": 0, "jacks": 1, "others": 9}) == "28/1"
    assert counter.count({"fives": 0, "queens": 0, "cavalls": 0, "jacks": 0, "others": 3}) == "1"
    each = variant.card_counter(
        HandType.PLAYED, Table(PLAYERS, "Dora", None), options, {"game": "trischaken"}
    )
    assert each is not None and each.target == "points.{player}"


def test_the_king_in_the_talon_played_on_or_conceded(logged_in, session):
    played = post(game="rufer", partner="", king_in_talon="played", points="36", kontra="0")
    assert logged_in.post(reverse("hand_new", args=[session.pk]), played).status_code == 302
    conceded = {**post(game="rufer", partner="", king_in_talon="conceded", kontra="0"), "token": "t2"}
    assert logged_in.post(reverse("hand_new", args=[session.pk]), conceded).status_code == 302
    stored = [hand.inputs for hand in Hand.objects.order_by("number")]
    assert [(h.get("partner"), h["king_in_talon"], h.get("points")) for h in stored] == [
        (None, "played", 36),
        (None, "conceded", None),
    ]


def test_every_id_on_the_form_is_one_elements(logged_in, session):
    html = logged_in.get(reverse("hand_new", args=[session.pk])).content.decode()
    form = html[html.index('<div id="hand-fields">') : html.index('<section id="preview"')]
    ids = re.findall(r'\sid="([^"]+)"', form)
    assert ids and len(ids) == len(set(ids)), sorted({i for i in ids if ids.count(i) > 1})
    # The side's points and each player's, the Kontra on the game and each opponent's.
    assert {"f-points", "f-points-each", "f-kontra", "f-kontra-each"} <= set(ids)


def test_a_stored_hand_opens_for_correction_as_it_was_entered(logged_in, session):
    rufer = post(
        game="rufer",
        partner="Carl",
        points="41/2",
        kontra="0",
        **{
            "premiums.trull.who": "declarer",
            "premiums.trull.how": "false",
            "premiums.uhu.who": "opponents",
            "premiums.uhu.how": "true-failed",
        },
    )
    assert logged_in.post(reverse("hand_new", args=[session.pk]), rufer).status_code == 302
    hand = Hand.objects.get()
    html = logged_in.get(reverse("hand_edit", args=[session.pk, hand.pk])).content.decode()
    for name, value in (
        ("partner", "Carl"),
        ("premiums.trull.who", "declarer"),
        ("premiums.trull.how", "false"),
        ("premiums.uhu.how", "true-failed"),
    ):
        assert f'name="{name}" value="{value}" checked' in html, name
    assert 'name="points" value="41/2"' in html


def test_the_stylesheet_shows_the_fields_of_every_game_of_the_tariff(logged_in, session):
    """Points, Kontra and premiums show by CSS once their game is tapped, for all
    thirteen games of the tariff (a Sechserdreier is the eighth): every for-K-N
    class the form draws has its rule."""
    css = (settings.BASE_DIR / "static" / "css" / "app.css").read_text(encoding="utf-8")
    html = logged_in.get(reverse("hand_new", args=[session.pk])).content.decode()
    game = re.search(r'<fieldset class="[^"]*controls-(\d)[^"]*" id="f-game">(.*?)</fieldset>', html, re.S)
    assert game is not None
    numbers = dict(re.findall(r'value="(\w+)" data-choice="(\d+)"', game.group(2)))
    assert numbers["sechserdreier"] == "8" and len(numbers) == 13
    drawn = set(re.findall(r"\bfor-(\d+)-(\d+)\b", html))
    assert (game.group(1), numbers["solodreier"]) in drawn
    for controls, choice in drawn:
        rule = (
            f'form:has(.controls-{controls} [data-choice="{choice}"]:checked) .when.for-{controls}-{choice}'
        )
        assert rule in css, rule


def test_the_preview_of_a_trischaken_lists_each_line_of_its_breakdown_once(logged_in, session):
    """Who pays is written once, after the loser, the Bürgermeister and the
    Jungfrau (the Trischaken scorer once wrote the deltas itself as well), and
    how the amount comes about: 3 × the Trischaken value, doubled."""
    points = {"points.Anna": "10", "points.Bert": "40", "points.Carl": "20", "points.Dora": "0"}
    data = post(game="trischaken", action="preview", **points)
    html = logged_in.post(reverse("hand_preview", args=[session.pk]), data).content.decode()
    breakdown = re.search(r'<ol class="breakdown">(.*?)</ol>', html, re.S)
    assert breakdown is not None
    lines = re.findall(r"<li>(.*?)</li>", breakdown.group(1))
    assert lines == [
        "Trischaken: Anna 10/0, Bert 40/0, Carl 20/0, Dora 0/0",
        "Most points: Bert",
        "Bert is Bürgermeister",
        "Jungfrau: Dora",
        "Bert pays 3 × 1 × 2 = 6: 3 × the Trischaken value 1, doubled for the Bürgermeister",
        "Dora, the Jungfrau, gets 6",
        "Anna 0, Bert −6, Carl 0, Dora +6",
    ]


def test_the_king_in_the_talon_is_one_answer_among_the_partners_never_a_second_button(logged_in, session):
    html = logged_in.get(reverse("hand_new", args=[session.pk]), HTTP_ACCEPT_LANGUAGE="de").content.decode()
    group = re.search(r'<fieldset[^>]*id="f-partner">(.*?)</fieldset>', html, re.S).group(1)
    labels = re.findall(r'name="partner" value="([^"]*)"[^>]*><span>([^<]+)</span>', group)
    assert labels == [
        ("Anna", "Anna"),
        ("Bert", "Bert"),
        ("Carl", "Carl"),
        ("Dora", "Dora"),
        ("king_in_talon:played", "König im Talon, weitergespielt"),
        ("king_in_talon:conceded", "König im Talon, aufgegeben"),
    ]
    # No group of its own that could say "no" beside "the king lay in the talon".
    assert 'name="king_in_talon"' not in html and "gespielt am" not in html and ">nein<" not in group


@pytest.mark.parametrize(
    ("answer", "points"), [("king_in_talon:played", "36"), ("king_in_talon:conceded", "")]
)
def test_the_king_in_the_talon_saves_as_told_without_asking_for_a_partner(logged_in, session, answer, points):
    data = post(game="rufer", partner=answer, points=points, kontra="0")
    response = logged_in.post(reverse("hand_new", args=[session.pk]), data)
    assert response.status_code == 302, response.content.decode()[:2000]
    stored = Hand.objects.get().inputs
    assert "partner" not in stored and stored["king_in_talon"] == answer.split(":")[1]


def test_a_stored_king_in_the_talon_opens_for_correction_as_that_one_answer(logged_in, session):
    data = post(game="rufer", partner="king_in_talon:conceded", kontra="0")
    assert logged_in.post(reverse("hand_new", args=[session.pk]), data).status_code == 302
    hand = Hand.objects.get()
    html = logged_in.get(reverse("hand_edit", args=[session.pk, hand.pk])).content.decode()
    assert 'name="partner" value="king_in_talon:conceded" checked' in html


def test_a_solorufer_conceded_is_refused_beside_the_partners(logged_in, session):
    data = post(game="solorufer", partner="king_in_talon:conceded", kontra="0")
    response = logged_in.post(reverse("hand_new", args=[session.pk]), data, HTTP_ACCEPT_LANGUAGE="en")
    html = response.content.decode()
    assert not Hand.objects.exists()
    block = re.search(r'id="f-partner">.*?</fieldset>', html, re.S).group()
    assert "can only be played on" in block


def test_a_besserrufers_bird_is_its_premium_row_of_the_declarers_side_without_a_second_entry(
    logged_in, session
):
    """The bid names the bird and whose it is; how it went is the one tap the bid
    cannot know, asked beside its row and never preset."""
    data = post(game="besserrufer", partner="Carl", bird="uhu", points="40", kontra="0")
    response = logged_in.post(reverse("hand_new", args=[session.pk]), data, HTTP_ACCEPT_LANGUAGE="en")
    assert response.status_code == 200 and not Hand.objects.exists()
    assert "Uhu, How it went missing" in response.content.decode()
    data = {**data, "premiums.uhu.how": "true"}
    assert logged_in.post(reverse("hand_new", args=[session.pk]), data).status_code == 302
    assert Hand.objects.get().inputs["premiums"] == [{"type": "uhu", "side": "declarer", "announced": True}]


def test_a_besserrufers_bird_changed_in_the_grid_stays_as_changed(logged_in, session):
    grid = {"premiums.uhu.who": "declarer", "premiums.uhu.how": "true-failed"}
    data = post(game="besserrufer", partner="Carl", bird="uhu", points="40", kontra="0", **grid)
    assert logged_in.post(reverse("hand_new", args=[session.pk]), data).status_code == 302
    premiums = Hand.objects.get().inputs["premiums"]
    assert premiums == [{"type": "uhu", "side": "declarer", "announced": True, "made": False}]


def test_a_bird_fills_its_row_only_where_it_applies(logged_in, session):
    # A bird left tapped from a Besserrufer before the game became a Rufer fills nothing.
    data = post(game="rufer", partner="Carl", bird="uhu", points="40", kontra="0")
    assert logged_in.post(reverse("hand_new", args=[session.pk]), data).status_code == 302
    assert "premiums" not in Hand.objects.get().inputs
    # A conceded Besserrufer records its bird, not a premium.
    conceded = {**post(game="besserrufer", partner="king_in_talon:conceded", bird="kakadu", kontra="0")}
    conceded["token"] = "t2"
    assert logged_in.post(reverse("hand_new", args=[session.pk]), conceded).status_code == 302
    hand = Hand.objects.order_by("-number")[0]
    assert "premiums" not in hand.inputs
    assert (hand.inputs["bird"], hand.inputs["king_in_talon"]) == ("kakadu", "conceded")


def test_the_birds_choices_say_what_they_fill_in_for_the_page(logged_in, session):
    html = logged_in.get(reverse("hand_new", args=[session.pk])).content.decode()
    assert 'name="bird" value="uhu" data-fills="premiums.uhu.who=declarer"' in html
    # No "none" beside the birds: a Besserrufer names one.
    assert 'name="bird" value=""' not in html


def test_every_thirds_field_offers_the_slash_on_a_phones_keypad(logged_in, session):
    """Points and Blatt ("41/2"): the side's points and each Trischaken player's
    take the slash, by the full keyboard until the script gives them the digits
    keypad and a "/" key beside them."""
    html = logged_in.get(reverse("hand_new", args=[session.pk])).content.decode()
    names = ["points", *(f"points.{name}" for name in PLAYERS)]
    for name in names:
        found = re.search(
            rf'id="([^"]+)" name="{re.escape(name)}" value="" type="text" class="num"([^>]*)>', html
        )
        assert found is not None, name
        attrs = dict(re.findall(r'([\w-]+)="([^"]*)"', found.group(2)))
        assert (attrs["inputmode"], attrs["data-keypad"]) == ("text", "numeric"), name
        assert re.fullmatch(attrs["pattern"], "41/2") and re.fullmatch(attrs["pattern"], "0")
        assert f'data-key="/" data-for="{found.group(1)}"' in html, name
