"""The words on the pages, in German, English and French: each game's own terms,
help that speaks of what the page shows, French typography."""

from __future__ import annotations

import re
from datetime import datetime
from decimal import Decimal
from pathlib import Path
from typing import Any

import pytest
from django.template.loader import render_to_string
from django.test import Client
from django.urls import reverse
from django.utils import formats, timezone, translation

from club.models import GroupPlayer
from club.services import groups, kasse, stats
from scoring import services
from tests import layout

LOCALE = Path(__file__).resolve().parents[2] / "locale"
FIVE = ("Anna", "Bert", "Carl", "Dora", "Emil")


def client_in(user, language: str) -> Client:
    client = Client(HTTP_ACCEPT_LANGUAGE=language)
    client.force_login(user)
    return client


def radio_labels(html: str, name: str) -> list[str]:
    return re.findall(
        rf'<input type="radio" name="{re.escape(name)}" value="[^"]*"[^>]*><span>([^<]+)</span>', html
    )


def help_of(html: str, fieldset_id: str) -> str:
    block = re.search(rf'id="{fieldset_id}".*?</fieldset>', html, re.S).group()
    return re.search(r'<small class="help">([^<]+)</small>', block).group(1)


def test_the_french_taker_is_the_alleinspieler_against_the_gegenpartei_in_german(user, make_session):
    """As the German source text says (docs/rules.md §1): Alleinspieler
    and Gegenpartei, never Angreifer, Angriff or Verteidigung."""
    session = make_session(players=FIVE)
    html = client_in(user, "de").get(reverse("hand_new", args=[session.pk])).content.decode()
    assert "<legend>Alleinspieler</legend>" in html
    assert radio_labels(html, "petit_au_bout")[1:] == ["Alleinspieler", "Gegenpartei"]
    catalog = (LOCALE / "de/LC_MESSAGES/django.po").read_text(encoding="utf-8")
    for old in ("Angreifer", "Angriff", "Verteidig", "Angr.", "Vert."):
        assert old not in catalog
    with translation.override("de"):
        assert translation.gettext("the taker cannot be his own partner").startswith("der Alleinspieler")
        assert translation.gettext("chelem by the defence") == "Chelem der Gegenpartei"
    french = client_in(user, "fr").get(reverse("hand_new", args=[session.pk])).content.decode()
    assert "<legend>Preneur</legend>" in french


@pytest.mark.parametrize(
    ("language", "back"),
    [("de", "Zurück zum Blatt"), ("en", "Back to the sheet"), ("fr", "Retour à la feuille")],
)
def test_the_way_back_to_the_sheet_says_so(user, make_session, language, back):
    session = make_session()
    html = client_in(user, language).get(reverse("settlement", args=[session.pk])).content.decode()
    assert f'href="/sessions/{session.pk}/">{back}</a>' in html


def test_kontra_is_explained_by_its_buttons_not_by_numbers(user, make_session):
    session = make_session(variant="illustrated", players=("A", "B", "C"))
    html = client_in(user, "de").get(reverse("hand_new", args=[session.pk])).content.decode()
    assert radio_labels(html, "kontra") == ["ohne", "Kontra", "Rekontra", "Subkontra"]
    assert (
        help_of(html, "f-kontra") == "Kontra verdoppelt, Rekontra ×4, Subkontra ×8 (Beck: das ganze Spiel)."
    )


@pytest.mark.parametrize(
    ("language", "buttons"),
    [
        ("de", ["angesagt", "Unterer", "gehalten"]),
        ("en", ["angesagt", "Unterer", "gehalten"]),
        ("fr", ["angesagt", "Unterer", "gehalten"]),
    ],
)
def test_the_illustriertes_bid_buttons_say_the_games_words_in_every_language(
    user, make_session, language, buttons
):
    session = make_session(variant="illustrated", players=("A", "B", "C"))
    html = client_in(user, language).get(reverse("hand_new", args=[session.pk])).content.decode()
    assert radio_labels(html, "bid") == buttons


@pytest.mark.parametrize(
    ("language", "words"),
    [
        ("de", ["Beck zählt 5, das Wikipedia-Beispiel 4", "Hausregel „Spielpunkte nach Ansage“"]),
        ("en", ["Beck counts 5, the Wikipedia example 4", "house rule “Game points by bid”"]),
        ("fr", ["Beck compte 5, l’exemple de Wikipédia 4", "« Points du jeu selon l’enchère »"]),
    ],
)
def test_the_illustriertes_bid_says_what_gehalten_counts_and_where_to_set_it(
    user, make_session, language, words
):
    """An announced Zweiblatt is no "Dreieransage", and "gehalten: gehalten"
    explained nothing: the help names both rule books' numbers and the house rule."""
    session = make_session(variant="illustrated", players=("A", "B", "C"))
    client = client_in(user, language)
    html = client.get(reverse("hand_new", args=[session.pk])).content.decode()
    help_text = help_of(html, "f-bid")
    for word in words:
        assert word in help_text
    assert "Dreieransage" not in html and "gehalten: gehalten" not in html
    hand = services.hand_record(
        session=session, raw={"declarer": "A", "game": "zweiblatt", "bid": "held", "points": 45}
    )
    detail = client.get(reverse("hand_detail", args=[session.pk, hand.pk])).content.decode()
    held = {
        "de": "gehalten zählt 5: Beck 5, das Wikipedia-Beispiel 4, einstellbar unter „Spielpunkte nach Ansage“",
        "en": "gehalten counts 5: Beck 5, the Wikipedia example 4, set under “Game points by bid”",
        "fr": "gehalten compte 5 : Beck 5, l’exemple de Wikipédia 4, réglable sous « Points du jeu selon l’enchère »",
    }[language]
    assert held in detail
    board = client.get(reverse("scoreboard", args=[session.pk])).content.decode()
    rule = {
        "de": "Das Wikipedia-Beispiel zählt gehalten 4: das in den Einstellungen des Abends einstellen",
        "en": "The Wikipedia example counts gehalten 4: set that in the evening&#x27;s settings",
        "fr": "L’exemple de Wikipédia compte gehalten 4 : le régler dans les réglages de la soirée",
    }[language]
    assert rule in board  # the house rule's own help, under the evening's house rules


def test_a_chambery_solo_asks_for_2_1_or_0_cards_with_no_empty_choice_beside_0(user, make_session):
    session = make_session(variant="chambery", players=FIVE)
    url = reverse("hand_new", args=[session.pk])
    client = client_in(user, "de")
    solo = client.post(
        url, {"token": "t", "action": "refresh", "dealer": "Emil", "mode": "solo"}
    ).content.decode()
    assert radio_labels(solo, "cards_requested") == ["2 Karten", "1 Karte", "0: à point"]
    call = client.post(
        url, {"token": "t", "action": "refresh", "dealer": "Emil", "mode": "call"}
    ).content.decode()
    # "Nobody" is an answer of its own, after the players, and says when it applies.
    assert radio_labels(call, "partner")[-1].startswith("niemand: der Geber allein (gerufene Karte")


def test_with_six_at_the_table_the_sheet_says_the_dealer_deals_and_sits_out(user, make_session):
    session = make_session(players=("Anna", "Bert", "Carl", "Dora", "Emil", "Friedrich"))
    services.hand_record(
        session=session,
        raw={
            "dealer": "Friedrich",
            "taker": "Anna",
            "partner": "Carl",
            "contract": "garde",
            "bouts": 2,
            "points": 56,
        },
        user=user,
    )
    html = client_in(user, "de").get(reverse("scoreboard", args=[session.pk])).content.decode()
    assert "Friedrich gibt und setzt aus" in html and "Friedrich gibt, Friedrich setzt aus" not in html


def test_the_redeal_form_shows_what_a_redeal_scores_instead_of_asking_to_fill_it_in(user, make_session):
    session = make_session()
    html = client_in(user, "de").get(reverse("hand_new", args=[session.pk]) + "?type=redeal").content.decode()
    preview = re.search(r'<section id="preview".*?</section>', html, re.S).group()
    assert "Neu geben" in preview and "ausfüllen" not in preview


def test_the_series_notation_is_explained_where_it_is_shown(user):
    from tests.scoring.test_sheets import imported

    session = imported(user, "illustrated-seed-series.json")
    html = client_in(user, "de").get(reverse("scoreboard", args=[session.pk])).content.decode()
    assert re.search(
        r'<p class="help" id="notation-help">Wie der Block eine Serie schreibt: [^<]+Strich', html
    )
    printed = client_in(user, "de").get(reverse("session_print", args=[session.pk])).content.decode()
    assert "Wie der Block eine Serie schreibt" in printed


def test_french_asks_who_pays_whom_and_spaces_its_colons(user, make_session):
    session = make_session()
    services.hand_record(
        session=session, raw={"taker": "Anna", "contract": "garde", "bouts": 2, "points": 56}, user=user
    )
    html = client_in(user, "fr").get(reverse("settlement", args=[session.pk])).content.decode()
    assert "<h2>Qui paie à qui</h2>" in html
    assert re.search(r"</strong>\u00a0: \d", html)
    assert not re.search(r"</strong>: \d", html)
    german = client_in(user, "de").get(reverse("settlement", args=[session.pk])).content.decode()
    assert re.search(r"</strong>: \d", german)


def test_the_hand_forms_folded_fields_are_listed_after_a_french_colon(user, make_session):
    session = make_session()
    url = reverse("hand_new", args=[session.pk])
    french = client_in(user, "fr").get(url).content.decode()
    assert re.search(r"<summary>Plus\u00a0: Chelem", french)
    german = client_in(user, "de").get(url).content.decode()
    assert re.search(r"<summary>Mehr: ", german)


def colons_outside_translations(template: str) -> list[str]:
    """Label colons a template writes itself (``{% translate "More" %}:``),
    where French needs its space: translated texts and ``{% colon %}`` aside."""
    text = re.sub(r"\{%\s*blocktranslate.*?%\}.*?\{%\s*endblocktranslate\s*%\}", " ", template, flags=re.S)
    text = re.sub(r"\{%\s*comment\s*%\}.*?\{%\s*endcomment\s*%\}|\{#.*?#\}", " ", text, flags=re.S)
    text = re.sub(r"<(style|script)\b.*?</\1>", " ", text, flags=re.S)
    text = re.sub(r"\{%.*?%\}|\{\{.*?\}\}", "\x00", text, flags=re.S)  # tags and values: placeholders
    text = re.sub(r"<[^>]*>", " ", text, flags=re.S)
    return [m.group(0).replace("\x00", "…") for m in re.finditer(r"\S{0,20}[^\s:]:(?=\s|$)", text)]


def test_the_app_pages_write_label_colons_as_the_language_sets_them():
    pages = [(folder, page) for folder, page in layout.templates() if page.relative_to(folder).parent.name]
    pages.insert(0, (layout.TEMPLATE_DIRS[0], layout.TEMPLATE_DIRS[0] / "base.html"))
    found = {
        str(page.relative_to(folder)): colons
        for folder, page in pages
        if (colons := colons_outside_translations(page.read_text(encoding="utf-8")))
    }
    assert found == {}


def test_the_new_session_form_asks_who_deals_first_in_german(user):
    html = client_in(user, "de").get(reverse("session_new_variant", args=["french"])).content.decode()
    assert "Gibt das erste Spiel" in html and '<option value="1" selected>Platz 1</option>' in html


def visible_text(html: str) -> str:
    """What a reader sees of a page: no scripts, styles, tags or attributes."""
    html = re.sub(r"<(script|style|svg)\b.*?</\1>", " ", html, flags=re.S)
    return re.sub(r"<[^>]+>", " ", html)


def bare_colons(text: str) -> list[str]:
    """Colons French would space: a colon right after a letter or a closing mark."""
    return re.findall(r"\S{0,20}[^\s\u00a0\d]:(?=\s)", text)


class TestTheRegularTableInFrench:
    @pytest.fixture
    def group(self, user):
        group = groups.group_create(owner=user, name="Mardi", money_rate=Decimal("0.05"))
        session = groups.group_session_create(
            group=group,
            owner=user,
            name="Soirée",
            variant="french",
            players=["Anna", "Bert", "Carl", "Dora"],
            options={},
            money_rate=Decimal("0.05"),
        )
        garde = {"dealer": "Dora", "taker": "Anna", "contract": "garde", "bouts": 2, "points": 56}
        services.hand_record(session=session, raw={**garde, "petit_au_bout": "attack"}, user=user)
        services.session_close(session=session, user=user)
        groups.group_update(group=group, name=group.name, money_rate=group.money_rate, min_hands=1)
        bert = group.roster.get(name="Bert")
        kasse.payment_record(group=group, payer=bert, payee=None, amount=Decimal(1), user=user, note="bar")
        return group

    def test_the_groups_pages_space_their_colons_and_ask_who_pays_whom(self, user, group):
        anna = group.roster.get(name="Anna")
        french = client_in(user, "fr")
        pages = {
            name: french.get(reverse(name, args=args)).content.decode()
            for name, args in [
                ("group_list", []),
                ("group_detail", [group.pk]),
                ("group_player", [group.pk, anna.pk]),
                ("season_table", [group.pk]),
                ("group_kasse", [group.pk]),
                ("group_settings", [group.pk]),
                ("group_rules", [group.pk, "french"]),
                ("group_invitations", [group.pk]),
                ("group_evening_game", [group.pk]),
            ]
        }
        for name, html in pages.items():
            assert bare_colons(visible_text(html)) == [], name
        kasse_page = pages["group_kasse"]
        assert "Qui paie à qui" in kasse_page and "Qui paie qui" not in kasse_page
        assert re.search(r"</strong>\u00a0: \d", kasse_page)  # Bert → Anna : 4,00
        assert re.search(r"\u00a0: <strong>", pages["group_player"])  # each mark : its count
        german = client_in(user, "de").get(reverse("group_kasse", args=[group.pk])).content.decode()
        assert re.search(r"</strong>: \d", german)

    def test_the_printed_season_and_statement_space_their_colons(self, user, group):
        anna = group.roster.get(name="Anna")
        with translation.override("fr"):
            season = render_to_string(
                "groups/print/season.html",
                {
                    "table": stats.season_table(group, stats.season_range(group, None)),
                    "printed_at": timezone.localtime(),
                },
            )
            statement = render_to_string(
                "groups/print/statement.html",
                {
                    "stats": stats.player_stats(anna),
                    "account": kasse.statement_of(anna),
                    "printed_at": timezone.localtime(),
                },
            )
        assert bare_colons(visible_text(season)) == []
        assert bare_colons(visible_text(statement)) == []
        assert "Mardi\u00a0: Anna" in statement


@pytest.mark.parametrize(
    ("variant", "players", "label"),
    [("illustrated", ("A", "B", "C"), "Cavalle (3)"), ("chambery", FIVE, "Cavalle (2)")],
)
def test_the_card_counter_says_cavalle_in_german(user, make_session, variant, players, label):
    """The German plural of Cavall is Cavalle (the Illustriertes source text: "3 Points - Cavalle")."""
    session = make_session(variant=variant, players=players)
    html = client_in(user, "de").get(reverse("hand_new", args=[session.pk])).content.decode()
    assert label in html
    assert "Cavalls" not in html


@pytest.mark.parametrize(
    ("language", "label"), [("de", "Reiter (3)"), ("en", "Knights (3)"), ("fr", "Cavaliers (3)")]
)
def test_the_koenigrufen_card_counter_says_reiter_as_its_table_does(user, make_session, language, label):
    """Königrufen's rulebook and table say Reiter (docs/rules.md §4.1), in German only."""
    session = make_session(variant="koenigrufen", players=FIVE[:4])
    html = client_in(user, language).get(reverse("hand_new", args=[session.pk])).content.decode()
    assert label in html and "Cavalle" not in html


def test_the_poignee_sizes_are_the_french_words_in_german(user, make_session):
    session = make_session(variant="french", players=FIVE)
    html = client_in(user, "de").get(reverse("hand_new", args=[session.pk])).content.decode()
    sizes = radio_labels(html, "poignees[1].size")
    assert sizes[-3:] == ["Simple", "Double", "Triple"]
    assert "doppelt" not in sizes and "einfach" not in sizes


@pytest.mark.parametrize(
    ("language", "said", "typed", "stored"),
    [("de", "„alle“", "alle", "all"), ("fr", "« moitié »", "moitié", "half"), ("en", "“all”", "all", "all")],
)
def test_the_cup_form_says_which_results_count_in_words_the_reader_types(user, language, said, typed, stored):
    from tournaments.models import Cup

    client = client_in(user, language)
    html = client.get(reverse("cup_list")).content.decode()
    assert said in html and "all oder half" not in html and "all ou half" not in html
    data = {"name": "Cup", "season": "2026", "scheme": "fixed", "final_mode": "extra", "best_n": typed}
    response = client.post(reverse("cup_list"), data)
    assert response.status_code == 302, response.content.decode()[-2000:]
    assert Cup.objects.get().best_n == stored


def test_the_header_names_a_regular_group_a_stammtisch_never_a_round(user):
    html = client_in(user, "de").get(reverse("session_list")).content.decode()
    header = re.search(r"<header.*?</header>", html, re.S).group()
    assert ">Stammtische<" in header and "Runden" not in header
    assert ">Groups<" in client_in(user, "en").get(reverse("session_list")).content.decode()


@pytest.mark.parametrize(
    ("signup", "words"),
    [
        ("invitation", "Konten gibt es auf Einladung"),
        ("open", "Noch kein Konto?"),
        ("off", "Konten legt an, wer diese Seite betreibt"),
    ],
)
def test_the_login_page_says_how_one_gets_an_account(client, settings, signup, words):
    settings.SIGNUP = signup
    html = client.get(reverse("login"), HTTP_ACCEPT_LANGUAGE="de").content.decode()
    assert words in html
    assert ('href="/accounts/signup/"' in html) == (signup == "open")


def test_english_dates_and_times_read_as_english_players_write_them():
    moment = timezone.make_aware(datetime(2026, 11, 29, 19, 30))
    with translation.override("en"):
        assert formats.date_format(moment.date()) == "29 Nov 2026"
        assert formats.date_format(moment.date(), "SHORT_DATE_FORMAT") == "29 Nov 2026"
        assert formats.date_format(moment.replace(hour=7), "SHORT_DATETIME_FORMAT") == "29 Nov 2026, 7:30 am"
        assert formats.time_format(moment.time()) == "7:30 pm"
    with translation.override("de"):
        assert formats.date_format(moment.date(), "SHORT_DATE_FORMAT") == "29.11.2026"


# Words only a German page may hold (game terms every language keeps, such as
# Kontra, Pagat or Trischaken, are not among them).
GERMAN_ONLY = (
    "König im Talon",
    "Runde",
    "Runden",
    "Spiele",
    "Spieler",
    "Gegner",
    "vorläufig",
    "Reiter",
    "Stammtisch",
    "Stammtische",
    "weitergespielt",
    "aufgegeben",
    "geschliffen",
    "gespielt am",
    "nicht angegeben",
    "setzt aus",
    "Punkte",
    "Geber",
    "doppelt",
)


def visible_words(html: str) -> str:
    html = re.sub(r"<(script|style)\b.*?</\1>", " ", html, flags=re.S)
    html = re.sub(r'<option value="de"[^>]*>[^<]*</option>', " ", html)  # the language form names German
    return re.sub(r"<[^>]+>", " ", html)


@pytest.mark.parametrize("language", ["en", "fr"])
def test_no_german_word_on_any_english_or_french_page(db, language):
    """Every page an owner opens in the evenings' and groups' matrix, and a Königrufen
    evening for five with the king in the talon, a Besserrufer and a Trischaken."""
    from tests.scoring.test_access_matrix import ROWS, make_world, url_of

    world = make_world()
    owner = world.users["owner"]
    koenigrufen = services.session_create(
        owner=owner, name="Evening", variant="koenigrufen", players=list(FIVE), options={}
    )
    evening: list[dict[str, Any]] = [
        {"dealer": "Emil", "declarer": "Anna", "game": "rufer", "king_in_talon": "played", "points": 38},
        {"declarer": "Bert", "game": "rufer", "king_in_talon": "conceded"},
        {
            "declarer": "Carl",
            "game": "besserrufer",
            "partner": "Dora",
            "bird": "uhu",
            "points": 44,
            "premiums": [{"type": "uhu", "side": "declarer", "announced": True}],
        },
        {
            "declarer": "Dora",
            "game": "trischaken",
            "points": {"Anna": 10, "Bert": 40, "Dora": 20, "Emil": 0},
        },
    ]
    for index, raw in enumerate(evening):
        services.hand_record(session=koenigrufen, raw=raw, user=owner, client_token=f"k{index}")
    hands = list(koenigrufen.hands.order_by("number"))
    urls = sorted({url_of(name, world) for name, method, cell, *_ in ROWS if method == "GET" and cell == 200})
    urls += [
        reverse("scoreboard", args=[koenigrufen.pk]),
        reverse("settlement", args=[koenigrufen.pk]),
        reverse("session_print", args=[koenigrufen.pk]),
        reverse("hand_new", args=[koenigrufen.pk]),
        *(reverse("hand_detail", args=[koenigrufen.pk, hand.pk]) for hand in hands),
        *(reverse("hand_edit", args=[koenigrufen.pk, hand.pk]) for hand in hands),
    ]
    client = client_in(owner, language)
    found, walked = [], 0
    for url in urls:
        response = client.get(url)
        if response.status_code != 200 or "html" not in response.get("Content-Type", ""):
            continue
        walked += 1
        text = visible_words(response.content.decode())
        found += [(url, word) for word in GERMAN_ONLY if re.search(rf"(?<!\w){re.escape(word)}(?!\w)", text)]
    anonymous = Client(HTTP_ACCEPT_LANGUAGE=language)
    for url in (reverse("login"), reverse("signup")):
        text = visible_words(anonymous.get(url).content.decode())
        found += [(url, word) for word in GERMAN_ONLY if re.search(rf"(?<!\w){re.escape(word)}(?!\w)", text)]
    assert found == []
    assert walked >= 30, walked  # the pages were read, not skipped


@pytest.mark.parametrize(
    ("language", "label"),
    [("de", "Französisches Tarock"), ("en", "French Tarot"), ("fr", "Tarot")],
)
def test_the_statistics_chart_names_the_game_whole_in_the_readers_language(user, language, label):
    group = groups.group_create(owner=user, name="Dienstag")
    session = services.session_create(
        owner=user, name="Abend", variant="french", players=list(FIVE[:4]), options={}
    )
    groups.group_session_add(group=group, session=session, user=user)
    services.hand_record(
        session=session,
        raw={"dealer": "Dora", "taker": "Anna", "contract": "garde", "bouts": 2, "points": 56},
    )
    anna = GroupPlayer.objects.get(group=group, name="Anna")
    html = client_in(user, language).get(reverse("group_player", args=[group.pk, anna.pk])).content.decode()
    chart = re.search(r'<div class="chart-box">(.*?)</svg>', html, re.S).group(1)
    assert f">{label} 240</text>" in chart
    assert "…" not in chart and (language == "en" or "French" not in chart)


@pytest.mark.parametrize(
    ("language", "words"),
    [("de", "Mit Konto verknüpfen"), ("en", "Link to account"), ("fr", "Associer au compte")],
)
def test_the_roster_button_says_it_links_the_player_to_an_account(user, language, words):
    group = groups.group_create(owner=user, name="Dienstag")
    session = services.session_create(
        owner=user, name="Abend", variant="french", players=list(FIVE[:4]), options={}
    )
    groups.group_session_add(group=group, session=session, user=user)
    html = client_in(user, language).get(reverse("group_detail", args=[group.pk])).content.decode()
    roster = html.split('id="roster"')[1].split("</section>")[0]
    assert f'<button type="submit" class="small">{words}</button>' in roster
    assert ">Link</button>" not in roster and ">Lien</button>" not in roster


@pytest.mark.parametrize(
    ("language", "debt"), [("de", "\u22124,00"), ("en", "\u22124.00"), ("fr", "\u22124,00")]
)
def test_the_kasse_writes_a_debt_with_the_minus_of_every_other_number(user, language, debt):
    from tests.club.regular_table import evening

    group = groups.group_create(owner=user, name="Dienstag")
    garde = {"dealer": "Dora", "taker": "Anna", "contract": "garde", "bouts": 2, "points": 56}
    session, _ = evening(group, user, [garde], money_rate=Decimal("0.05"))
    services.session_close(session=session, user=user)
    html = client_in(user, language).get(reverse("group_kasse", args=[group.pk])).content.decode()
    balances = html.split("</table>")[0]
    assert f">{debt}\xa0€</td>" in balances  # Bert, Carl and Dora owe 80 × 0.05, in the currency
    assert not re.search(r">-\d", html)


def test_the_german_password_forms_say_dasselbe_passwort(user):
    """Django's own German says "das selbe Passwort"; the project's catalog puts it right."""
    html = client_in(user, "de").get(reverse("password_change")).content.decode()
    assert "Bitte dasselbe Passwort zur Bestätigung erneut eingeben." in html
    assert "das selbe Passwort" not in html
    with translation.override("de"):  # the sign-up forms use the same help
        assert "dasselbe" in translation.gettext("Enter the same password as before, for verification.")


def test_the_season_table_says_it_scrolls_in_every_language(user):
    from tests.club.regular_table import evening

    group = groups.group_create(owner=user, name="Dienstag")
    evening(group, user, [{"dealer": "Dora", "taker": "Anna", "contract": "garde", "bouts": 2, "points": 56}])
    for language, more in (("de", "→ mehr"), ("en", "→ more"), ("fr", "→ suite")):
        html = client_in(user, language).get(reverse("season_table", args=[group.pk])).content.decode()
        section = html.split('id="table-french"')[1].split("</section>")[0]
        assert (
            f'<div class="wide" data-more="{more}"><div class="table-wrap" tabindex="0">'
            '<table class="plain ranking">' in section
        )


@pytest.mark.parametrize("language", ["en", "fr"])
def test_no_german_word_on_any_english_or_french_tournament_page(user, language):
    """Every page of a tournament's and a cup's organiser, a day drawn and released."""
    from tests.tournaments import factory
    from tests.tournaments.test_access_organiser import MATRIX
    from tournaments.models import TableRound

    t = factory.tournament(user, cup=factory.cup(user))
    factory.draw(t)
    factory.release(t)
    t = factory.fresh(t)
    table = TableRound.objects.filter(round__tournament=t).order_by("round__number", "number").first()
    world = {"t": t, "cup": t.cup, "table": table}
    client = client_in(user, language)
    found, walked = [], 0
    for name, (_, args) in MATRIX.items():
        response = client.get(reverse(name, args=args(world)))
        if response.status_code != 200 or "html" not in response.get("Content-Type", ""):
            continue
        walked += 1
        text = visible_words(response.content.decode())
        found += [(name, word) for word in GERMAN_ONLY if re.search(rf"(?<!\w){re.escape(word)}(?!\w)", text)]
    assert found == []
    assert walked >= 12, walked
