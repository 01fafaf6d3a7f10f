"""Illustriertes Tarock for three players, 54 cards (docs/rules.md §2).

Players write only what they win: a won game gives the declarer
``(G + (points − 35)) · M · K``, a lost one gives each opponent
``(G + (35 − points)) · M · K``; each premium is worth
``base · announcement factor · M · K`` to whoever made it, or, announced and
failed, to each player of the other side. A valat adds to (``beck_additive``)
or multiplies (``beck_factor``, ``graz``) what its side is credited. Trischaken
and the Mondfang are the only scores below zero. Scores run in series; the
game becomes zero-sum only at settlement, pair by pair within each series.

Profile ``beck`` (Fritz Beck) lets one Kontra level double every value of the
hand; profile ``graz`` gives the game, each announced premium and the valat
their own level, knows the Mondfang, and allows fewer announcements.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from fractions import Fraction
from typing import Any

from .illustrated_input import (
    build_played,
    build_trischaken,
    check_trischaken_allowed,
    discard_cards,
    discard_points,
)
from .illustrated_rules import (
    ALL_PASS,
    ANNOUNCED_FIELD_ARGS,
    ANNOUNCED_LABEL,
    ANNOUNCED_TEMPLATE,
    BID_LABEL,
    CANNOT_FAIL,
    CARD_COMBINATIONS,
    DECK,
    DECLARER_ONLY,
    GAME_LABEL,
    GRAZ_VALAT_FACTOR,
    GRAZ_VALAT_MULTIPLIES,
    HELD_POINTS,
    MONDFANG,
    MULTIPLIER,
    NO_TRICK,
    OHNE,
    OPTION_FIELDS,
    PLAYED_FIELDS,
    POINT_PREMIUMS,
    PREMIUM_BASE,
    PREMIUM_LABEL,
    PROFILE_LABEL,
    RENONCE_SURPLUS,
    TALON,
    TALON_TAKEN,
    TO_WIN,
    TOTAL,
    TRISCHAKEN,
    TRISCHAKEN_FIELDS,
    TRISCHAKEN_LOSS,
    TRISCHAKEN_NO_TRICK,
    TRISCHAKEN_WIN,
    UHU,
    ULTIMOS,
    VALAT_SCORING_BY_PROFILE,
    VALAT_SCORING_LABEL,
    VALAT_VALUE,
    AllPass,
    Announced,
    Bid,
    CardCount,
    Game,
    GamePoints,
    IllustratedHand,
    IllustratedOptions,
    Mondfang,
    Premium,
    PremiumType,
    Profile,
    TrischakenHand,
    Valat,
    ValatBy,
    ValatScoring,
    announcement_factor,
    announcement_levels,
    card_points,
    count_by_threes,
    default_valat_scoring,
    premium_types,
    valat_levels,
)
from .illustrated_scoring import (
    NO_SERIES_BONUS,
    declarer_won,
    is_renonce,
    score_played,
    score_trischaken,
    series,
    series_notation,
)
from .schema import Field, Kind, clean
from .settlement import pairwise_net
from .tarock54 import CARD_LIMIT, CARD_VALUE, KONTRA_LABEL
from .types import Arg, HandScore, HandType, Join, Line, Table, gettext_noop, invalid, labels, zero_deltas
from .variant import (
    SERIES,
    CardCounter,
    HandRecord,
    HandStats,
    Section,
    StoredHand,
    Summary,
    VariantOf,
    seat_stats,
)

# The game's vocabulary, for the registry, the sheet and the tests: the variant and what
# its sibling modules define (illustrated_rules, _input, _scoring).
__all__ = [
    "ALL_PASS",
    "ANNOUNCED_FIELD_ARGS",
    "ANNOUNCED_LABEL",
    "ANNOUNCED_TEMPLATE",
    "BID_LABEL",
    "CANNOT_FAIL",
    "CARD_COMBINATIONS",
    "DECK",
    "DECLARER_ONLY",
    "GAME_LABEL",
    "GRAZ_VALAT_FACTOR",
    "GRAZ_VALAT_MULTIPLIES",
    "HELD_POINTS",
    "MONDFANG",
    "MULTIPLIER",
    "NO_TRICK",
    "OHNE",
    "OPTION_FIELDS",
    "PLAYED_FIELDS",
    "POINT_PREMIUMS",
    "PREMIUM_BASE",
    "PREMIUM_LABEL",
    "PROFILE_LABEL",
    "RENONCE_SURPLUS",
    "TALON",
    "TALON_TAKEN",
    "TOTAL",
    "TO_WIN",
    "TRISCHAKEN",
    "TRISCHAKEN_FIELDS",
    "TRISCHAKEN_LOSS",
    "TRISCHAKEN_NO_TRICK",
    "TRISCHAKEN_WIN",
    "UHU",
    "ULTIMOS",
    "VALAT_SCORING_BY_PROFILE",
    "VALAT_SCORING_LABEL",
    "VALAT_VALUE",
    "AllPass",
    "Announced",
    "Bid",
    "CardCount",
    "Game",
    "GamePoints",
    "Illustrated",
    "IllustratedHand",
    "IllustratedOptions",
    "Mondfang",
    "Premium",
    "PremiumType",
    "Profile",
    "TrischakenHand",
    "Valat",
    "ValatBy",
    "ValatScoring",
    "announcement_factor",
    "announcement_levels",
    "card_points",
    "count_by_threes",
    "declarer_won",
    "default_valat_scoring",
    "premium_types",
    "series",
    "series_notation",
    "valat_levels",
]


class Illustrated(VariantOf[IllustratedOptions, IllustratedHand | TrischakenHand]):
    key = "illustrated"
    name = gettext_noop("Illustriertes Tarock")
    table_sizes = (3,)
    hand_types = (HandType.PLAYED, HandType.REDEAL, TRISCHAKEN)
    zero_sum = False
    section_kind = SERIES
    options_type = IllustratedOptions
    notation_help = gettext_noop(
        "As the paper block writes a series: each player's running total after every hand "
        "that changed it; after the bar, the total with the series bonus."
    )
    option_fields = OPTION_FIELDS

    # -- house rules ---------------------------------------------------------

    def parse_options(self, raw: Any, players: Sequence[str]) -> IllustratedOptions:
        """Validated house rules. ``valat_scoring`` left out follows the profile
        (``graz`` for profile graz), so a graz session needs to name only its profile."""
        raw = {} if raw is None else raw
        values = clean(self.option_fields, raw, (), "options.")
        profile = Profile(values["profile"])
        given = "valat_scoring" in raw
        options = IllustratedOptions(
            profile=profile,
            game_points=GamePoints(**values["game_points"]),
            valat_scoring=ValatScoring(values["valat_scoring"]) if given else default_valat_scoring(profile),
            uhu=values["uhu"],
            silent_ultimo_loss_counts=values["silent_ultimo_loss_counts"],
            all_pass=AllPass(values["all_pass"]),
            series_target=values["series_target"],
            series_bonus=values["series_bonus"],
        )
        self.check_options(options, players)
        return options

    def check_options(self, options: IllustratedOptions, players: Sequence[str]) -> None:
        allowed = VALAT_SCORING_BY_PROFILE[options.profile]
        if options.valat_scoring not in allowed:
            raise invalid(
                "options.valat_scoring",
                gettext_noop("under the {profile} rules the valat scoring is {allowed} (got {got})"),
                profile=Line(PROFILE_LABEL[options.profile]),
                allowed=labels(VALAT_SCORING_LABEL[v] for v in allowed),
                got=Line(VALAT_SCORING_LABEL[options.valat_scoring]),
            )

    # -- hands ---------------------------------------------------------------

    def allowed_hand_types(self, options: IllustratedOptions) -> tuple[HandType, ...]:
        if options.all_pass is AllPass.TRISCHAKEN:
            return self.hand_types
        return (HandType.PLAYED, HandType.REDEAL)

    def check_hand_type(self, hand_type: HandType, options: IllustratedOptions) -> None:
        if hand_type is TRISCHAKEN:
            check_trischaken_allowed(options)

    def hand_fields(
        self, hand_type: HandType, table: Table, options: IllustratedOptions
    ) -> tuple[Field, ...]:
        return TRISCHAKEN_FIELDS if hand_type is TRISCHAKEN else PLAYED_FIELDS

    def form_fields(
        self, hand_type: HandType, table: Table, options: IllustratedOptions
    ) -> tuple[Field, ...]:
        if hand_type is TRISCHAKEN:
            return TRISCHAKEN_FIELDS
        return played_form_fields(options)

    def card_counter(
        self,
        hand_type: HandType,
        table: Table,
        options: IllustratedOptions,
        values: Mapping[str, Any] | None = None,
    ) -> CardCounter:
        if hand_type is TRISCHAKEN:
            return CardCounter((COUNTER_PLAYER, *COUNTER_FIELDS), "points.{player}", count_cards)
        if values is not None and opponents_valat(values):
            return discard_counter(values.get("game"))
        return CardCounter(COUNTER_FIELDS, "points", count_cards)

    def build_hand(
        self, hand_type: HandType, values: dict[str, Any], table: Table, options: IllustratedOptions
    ) -> IllustratedHand | TrischakenHand:
        if hand_type is TRISCHAKEN:
            return build_trischaken(values, options)
        return build_played(values, table, options)

    def score(self, record: HandRecord, options: IllustratedOptions) -> HandScore:
        if record.type is TRISCHAKEN:
            return score_trischaken(record.play, record.table)
        return score_played(record.play, record.table, options)

    def describe(self, record: HandRecord) -> Line:
        if record.type is HandType.REDEAL:
            return Line(gettext_noop("Redeal"))
        if record.type is TRISCHAKEN:
            return describe_trischaken(record.play, record.table)
        return describe_played(record.play)

    def played_stats(self, record: HandRecord, options: IllustratedOptions) -> HandStats:
        """The game; declarer and opponents, and which side won it (a valat or a
        renonce decides, else the declarer's points); each premium made, to its
        player; a made valat to each player of its side; the Mondfang to its
        capturer; the renonce to the player who revoked. A Trischaken: who lost it
        and who took no trick."""
        if isinstance(record.play, TrischakenHand):
            hand: TrischakenHand = record.play
            most = max(hand.points.values())
            return seat_stats(
                record.table,
                TRISCHAKEN.value,
                won=lambda p: hand.points[p] != most,
                marks=lambda p: (
                    (["trischaken_lost"] if hand.points[p] == most else [])
                    + (["no_trick"] if p in hand.no_trick else [])
                ),
            )
        played: IllustratedHand = record.play
        won = declarer_won(played)
        valat_side: set[str] = set()
        if played.valat is not None and played.valat.made and played.renonce is None:
            declarers = {played.declarer}
            valat_side = (
                declarers if played.valat.by is ValatBy.DECLARER else set(record.table.players) - declarers
            )

        def marks(player: str) -> list[str]:
            found: list[str] = []
            if played.renonce is None:
                found += [p.type.value for p in played.premiums if p.made and p.player == player]
            if player in valat_side:
                found.append("valat")
            if played.mondfang is not None and played.mondfang.captured_by == player:
                found.append("mondfang")
            if played.renonce == player:
                found.append("renonce")
            return found

        return seat_stats(
            record.table,
            played.game.value,
            role=lambda p: "declarer" if p == played.declarer else "opponent",
            won=lambda p: won if p == played.declarer else not won,
            marks=marks,
        )

    stat_labels = {
        **{f"kind.{game.value}": label for game, label in GAME_LABEL.items()},
        "kind.trischaken": gettext_noop("Trischaken"),
        "role.declarer": gettext_noop("Declarer"),
        "role.opponent": gettext_noop("Opponent"),
        **{f"mark.{premium.value}": label for premium, label in PREMIUM_LABEL.items()},
        "mark.valat": gettext_noop("Valat"),
        "mark.mondfang": gettext_noop("Mondfang"),
        "mark.renonce": gettext_noop("Renonce"),
        "mark.trischaken_lost": gettext_noop("Trischaken lost"),
        "mark.no_trick": gettext_noop("Trischaken without a trick"),
    }

    def section_winners(self, section: Section, options: IllustratedOptions) -> tuple[str, ...]:
        """A series is won by whoever ended it at or above the target."""
        if not section.complete:
            return ()
        return tuple(name for name, total in section.totals.items() if total >= options.series_target)

    # -- a whole session ------------------------------------------------------

    def section_notation(
        self, players: Sequence[str], deltas: Sequence[Mapping[str, Fraction]], section: Section
    ) -> dict[str, Line]:
        return series_notation(players, deltas, section)

    def section_net(self, section: Section) -> Mapping[str, Fraction]:
        return pairwise_net(section.totals)

    def hand_facts(self, record: HandRecord) -> frozenset[str]:
        return frozenset({NO_SERIES_BONUS}) if is_renonce(record) else frozenset()

    def summarize(
        self, players: Sequence[str], hands: Sequence[StoredHand], options: IllustratedOptions
    ) -> Summary:
        """Series (docs/rules.md §2.9): totals include each series' bonus; the net is
        settled pair by pair within each series and summed; each series is paid
        on its own (its money rounded to cents by itself)."""
        sections = series(players, hands, options)
        totals = zero_deltas(players)
        net = zero_deltas(players)
        parts = []
        for section in sections:
            part = self.section_net(section)
            parts.append(part)
            for name, value in part.items():
                net[name] += value
            for name, value in section.totals.items():
                totals[name] += value
        return Summary(totals=totals, net=net, sections=tuple(sections), parts=tuple(parts))


# --------------------------------------------------------------------------
# Describing a hand for the score sheet


def describe_played(hand: IllustratedHand) -> Line:
    pieces: list[Arg] = [hand.declarer, GAME_LABEL[hand.game]]
    if hand.kontra:
        pieces.append(KONTRA_LABEL[hand.kontra])
    if hand.points is not None:
        pieces.append(hand.points)
    for premium in hand.premiums:
        label: Arg = PREMIUM_LABEL[premium.type]
        if premium.player != hand.declarer:
            label = Line(gettext_noop("{premium} ({player})"), {"premium": label, "player": premium.player})
        if not premium.made:
            label = Line(gettext_noop("{premium} lost"), {"premium": label})
        pieces.append(label)
    if hand.valat is not None:
        if hand.valat.by is ValatBy.OPPONENTS:
            valat: Arg = Line(gettext_noop("Valat by the opponents"))
        else:
            valat = "Valat"
        pieces.append(valat if hand.valat.made else Line(gettext_noop("{valat} failed"), {"valat": valat}))
    if hand.mondfang is not None:
        pieces.append("Mondfang")
    if hand.renonce is not None:
        pieces.append(Line(gettext_noop("Renonce {player}"), {"player": hand.renonce}))
    return Line("{pieces}", {"pieces": Join(tuple(pieces), " · ")})


def describe_trischaken(hand: TrischakenHand, table: Table) -> Line:
    pieces: list[Arg] = ["Trischaken"]
    for name in table.players:
        pieces.append(Line("{player} {points}", {"player": name, "points": hand.points[name]}))
    return Line("{pieces}", {"pieces": Join(tuple(pieces), " · ")})


# --------------------------------------------------------------------------
# What the hand form offers


def played_form_fields(options: IllustratedOptions) -> tuple[Field, ...]:
    """The played-hand fields with only the choices these house rules allow:
    the premiums known here, the announcement levels of the profile, per-item
    kontra only in graz, Mondfang only in graz."""
    graz = options.profile is Profile.GRAZ
    levels = (Announced.SILENT, Announced.AFTER_TALON) if graz else tuple(Announced)

    def narrowed(field: Field) -> Field:
        if field.name == "premiums":
            items = []
            for item in field.fields:
                if item.name == "type":
                    item = replace(item, choices=premium_types(options))
                elif item.name == "announced":
                    # Graz announces only an ultimo; every other premium is silent.
                    ultimo = ("type", tuple(t.value for t in PremiumType if t in ULTIMOS)) if graz else None
                    item = replace(item, choices=levels, shown_when=ultimo)
                elif item.name == "kontra":
                    if not graz:
                        continue
                    # A silent premium cannot be kontra'd.
                    item = replace(item, shown_when=("announced", (Announced.AFTER_TALON.value,)))
                items.append(item)
            # Drawn as a grid: a premium's player, then how it went, as these rules allow.
            states = {
                t: tuple(
                    (level, made)
                    for made in (True, False)
                    for level in announcement_levels(t, options.profile)
                    if made or t not in CANNOT_FAIL
                )
                for t in premium_types(options)
            }
            return replace(field, fields=tuple(items), grid=True, states=states)
        if field.name == "valat":
            items = [
                replace(item, choices=valat_levels(options.profile)) if item.name == "announced" else item
                for item in field.fields
                if graz or item.name != "kontra"
            ]
            return replace(field, fields=tuple(items))
        return field

    return tuple(narrowed(f) for f in PLAYED_FIELDS if graz or f.name != "mondfang")


def _count_field(kind: str, label: str) -> Field:
    return Field(kind, Kind.INT, label, minimum=Fraction(0), maximum=Fraction(CARD_LIMIT[kind]), default=0)


COUNTER_FIELDS = (
    _count_field("fives", gettext_noop("Kings, Pagat, Mond, Sküs (5)")),
    _count_field("queens", gettext_noop("Queens (4)")),
    _count_field("cavalls", gettext_noop("Cavalls (3)")),
    _count_field("jacks", gettext_noop("Jacks (2)")),
    _count_field("others", gettext_noop("Other cards (1)")),
)
COUNTER_PLAYER = Field("player", Kind.PLAYER, gettext_noop("Whose cards"), required=True)


def count_cards(values: Mapping[str, Any]) -> int:
    return card_points(CardCount(**{kind: values[kind] for kind in CARD_VALUE}))


def opponents_valat(values: Mapping[str, Any]) -> bool:
    """Whether a hand's inputs so far record a valat the opponents made (outside a renonce)."""
    valat = values.get("valat")
    return (
        isinstance(valat, Mapping)
        and valat.get("by") == ValatBy.OPPONENTS
        and valat.get("made", True) is not False
        and not values.get("renonce")
    )


def discard_counter(game: Any) -> CardCounter:
    """docs/rules.md §2.6: the opponents took every trick, so the declarer's points are his
    own discard, as many cards as he took from the talon; count those. The help
    says how many cards and what they can count (Dreiblatt 1 to 13)."""
    if game not in tuple(Game):
        return CardCounter(
            COUNTER_FIELDS,
            "points",
            count_cards,
            Line(
                gettext_noop(
                    "The opponents took every trick: the declarer's points are his own discard. "
                    "Choose the game to see how many cards to count."
                )
            ),
        )
    game = Game(game)
    cards = TALON_TAKEN[game]
    low, high = discard_points(game)

    def count(values: Mapping[str, Any]) -> int:
        counted = CardCount(**{kind: values[kind] for kind in CARD_VALUE})
        if counted.cards != cards:
            raise invalid(
                "cards",
                gettext_noop("the declarer's discard in this {game} is {cards} (counted: {got})"),
                game=GAME_LABEL[game],
                cards=discard_cards(game),
                got=counted.cards,
            )
        return card_points(counted)

    if not cards:
        help_line = Line(
            gettext_noop("The opponents took every trick and a {game} has no discard: the declarer has 0."),
            {"game": GAME_LABEL[game]},
        )
    else:
        help_line = Line(
            gettext_noop(
                "The opponents took every trick: count the declarer's discard, {cards} in this {game}; "
                "his points are {low} to {high}."
            ),
            {"cards": discard_cards(game), "game": GAME_LABEL[game], "low": low, "high": high},
        )
    return CardCounter(COUNTER_FIELDS, "points", count, help_line)
