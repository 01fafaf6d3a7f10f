"""Königrufen for four players, five with the dealer sitting out (docs/rules.md §4).

A hand is settled item by item ("Posten"): the game — or the Valat that replaces
it —, each premium, and a fixed Valat. Each item has a value ``v`` per opponent,
the side that wins it and a Kontra factor ``k`` (1, 2, 4, 8). With a partner
(2 v 2) each winner gets ``v·k`` and each loser pays it; otherwise (1 v 3) the
declarer gets or pays ``3·v·k`` and each opponent the opposite ``v·k``. Negative
games settle each opponent's Kontra with the declarer alone; Trischaken is
everyone for himself under one of five schemes.

The values come in tariff sets, one per cup (``TARIFFS``). With the house rule
``kontra_in_score`` off (the cups' way), a hand's deltas are the Kontra-free
Schrift and its ``money`` carries every Kontra; the session settles the money.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from decimal import Decimal
from typing import Any

from .koenigrufen_fields import (
    COUNTER_FIELDS,
    COUNTER_PLAYER,
    FORM_EACH_FIELD,
    FORM_OPPONENT_KONTRA_FIELD,
    FORM_ORDER,
    FORM_POINTS_FIELD,
    FORM_RENONCE_FIELD,
    HAND_FIELDS,
    KING_IN_TALON_FIELD,
    OPTION_FIELDS,
    SHAPED,
    SIDE_SHORT_LABELS,
    UNTOUCHED_KEYS,
    VALUE_KEYS,
    KoenigrufenHand,
    KoenigrufenOptions,
    Premium,
    Valat,
    bid_bird_only,
    bird_row,
    count_thirds,
    premium_states,
    shown_for_games,
)
from .koenigrufen_input import (
    build_hand,
    dump_hand,
    read_game_values,
    read_kontra,
    read_points,
    read_premium_values,
    read_renonce,
)
from .koenigrufen_scoring import (
    declarer_side,
    declarer_won,
    describe_hand,
    hand_result,
    item_line,
    mode_line,
    pay_items,
    positive_items,
    score_conceded,
    score_negative,
    score_renonce,
)
from .koenigrufen_tariffs import (
    BIRD_CALLERS,
    BIRD_GAMES,
    BIRD_LABEL,
    BIRDS,
    FARBENSPIEL_PREMIUMS,
    FARBENSPIELE,
    GAME_LABEL,
    HOLDING_PREMIUMS,
    MAY_FAIL_SILENT,
    NEGATIVE_GAMES,
    POSITIVE_GAMES,
    PREMIUM_LABEL,
    PREMIUM_VALUES,
    RUFER_GAMES,
    SACK_THIRDS,
    SCHEME_LABEL,
    SOLO_GAMES,
    TARIFF_LABEL,
    TARIFFS,
    THRESHOLD_THIRDS,
    TIROL_EXTRAS,
    TRICK_PREMIUMS,
    VALAT_FIXED,
    VALAT_MULTIPLIERS,
    BesideValat,
    Bird,
    Game,
    KingInTalon,
    PremiumType,
    Scheme,
    Tariff,
    TariffSet,
    ValatModel,
    WinThreshold,
)
from .koenigrufen_trischaken import bürgermeister_threshold, score_trischaken, trischaken_deltas
from .schema import Field, clean, in_field_order, label_at, renamed
from .tarock54 import Side
from .types import HandScore, HandType, InvalidInput, Line, Table, gettext_noop
from .variant import (
    CardCounter,
    FixedOption,
    HandRecord,
    HandStats,
    StoredHand,
    Summary,
    TournamentTerms,
    Variant,
    seat_stats,
    sum_deltas,
)

# The game's vocabulary, for the registry, the sheet and the tests: the variant and
# what its sibling modules define (koenigrufen_tariffs, _fields, _input, _scoring, _trischaken).
__all__ = [
    "BIRDS",
    "BIRD_CALLERS",
    "BIRD_GAMES",
    "BIRD_LABEL",
    "FARBENSPIELE",
    "FARBENSPIEL_PREMIUMS",
    "GAME_LABEL",
    "HAND_FIELDS",
    "HOLDING_PREMIUMS",
    "MAY_FAIL_SILENT",
    "NEGATIVE_GAMES",
    "OPTION_FIELDS",
    "POSITIVE_GAMES",
    "PREMIUM_LABEL",
    "PREMIUM_VALUES",
    "RUFER_GAMES",
    "SACK_THIRDS",
    "SCHEME_LABEL",
    "SOLO_GAMES",
    "TARIFFS",
    "TARIFF_LABEL",
    "THRESHOLD_THIRDS",
    "TIROL_EXTRAS",
    "TRICK_PREMIUMS",
    "VALAT_FIXED",
    "VALAT_MULTIPLIERS",
    "BesideValat",
    "Bird",
    "Game",
    "KingInTalon",
    "Koenigrufen",
    "KoenigrufenHand",
    "KoenigrufenOptions",
    "Premium",
    "PremiumType",
    "Scheme",
    "Tariff",
    "TariffSet",
    "Valat",
    "ValatModel",
    "WinThreshold",
    "build_hand",
    "describe_hand",
    "dump_hand",
    "premium_states",
    "trischaken_deltas",
]


# --------------------------------------------------------------------------
# The variant


class Koenigrufen(Variant):
    key = "koenigrufen"
    name = gettext_noop("Königrufen")
    table_sizes = (4, 5)
    options_type = KoenigrufenOptions
    option_fields = OPTION_FIELDS
    rated_apart = True  # a Wertungszahl of its own (TOURNAMENTS.md §15)
    # The tournaments' default game: cups write the Kontra-free Schrift and never double rounds (§1.1).
    tournament = TournamentTerms(
        order=0,
        rounds=3,
        hands=16,
        money_rate=Decimal("0.10"),
        kontra_cash=True,
        halves=False,
        heine=True,
        fixed=(
            FixedOption(
                "kontra_in_score",
                False,
                gettext_noop("must be false in a tournament: cups write the Kontra-free Schrift"),
            ),
            FixedOption(
                "doubled_radl", False, gettext_noop("must be false in a tournament: cups never double rounds")
            ),
        ),
    )

    # -- house rules ---------------------------------------------------------

    def parse_options(self, raw: Any, players: Sequence[str]) -> KoenigrufenOptions:
        """The house rules; ``trischaken`` left out is the tariff's scheme, the value
        tables ``game_values`` and ``premium_values`` change single values of the set."""
        raw = {} if raw is None else raw
        if not isinstance(raw, Mapping):
            clean(self.option_fields, raw, (), "options.")
        rest = {key: value for key, value in raw.items() if key not in VALUE_KEYS}
        problems: list[InvalidInput] = []
        values: dict[str, Any] = {}
        try:
            values = clean(self.option_fields, rest, (), "options.")
        except InvalidInput as error:
            problems.append(error)
        game_values: dict[Game, int] = {}
        premium_values: dict[str, tuple[int, int]] = {}
        try:
            game_values = read_game_values(raw.get("game_values", {}))
        except InvalidInput as error:
            problems.append(error)
        try:
            premium_values = read_premium_values(raw.get("premium_values", {}))
        except InvalidInput as error:
            problems.append(error)
        if problems:
            raise InvalidInput.several(problems)
        tariff = Tariff(values["tariff"])
        scheme = values["trischaken"]
        return KoenigrufenOptions(
            tariff=tariff,
            kontra_in_score=values["kontra_in_score"],
            silent_failure_counts=values["silent_failure_counts"],
            win_threshold=WinThreshold(values["win_threshold"]),
            trischaken=TARIFFS[tariff].scheme if scheme is None else Scheme(scheme),
            doubled_radl=values["doubled_radl"],
            game_values=game_values,
            premium_values=premium_values,
        )

    def dump_options(self, options: KoenigrufenOptions) -> dict[str, Any]:
        """Every house rule, the Trischaken scheme written out."""
        return {
            "tariff": options.tariff.value,
            "kontra_in_score": options.kontra_in_score,
            "silent_failure_counts": options.silent_failure_counts,
            "win_threshold": options.win_threshold.value,
            "trischaken": options.trischaken.value,
            "doubled_radl": options.doubled_radl,
            "game_values": {game.value: value for game, value in options.game_values.items()},
            "premium_values": {key: list(value) for key, value in options.premium_values.items()},
        }

    # -- the table -----------------------------------------------------------

    def sitting_out(self, players: Sequence[str], dealer: str | None) -> str | None:
        """At five the dealer sits out (docs/rules.md §4.2)."""
        return dealer if len(players) == 5 else None

    def needs_dealer(self, players: Sequence[str], options: Any) -> bool:
        return len(players) == 5

    def dealer_from_sitting_out(self, players: Sequence[str], sitting_out: str) -> str | None:
        return sitting_out if len(players) == 5 and sitting_out in players else None

    # -- hands ---------------------------------------------------------------

    def hand_fields(self, hand_type: HandType, table: Table, options: Any) -> tuple[Field, ...]:
        return HAND_FIELDS

    def form_fields(
        self, hand_type: HandType, table: Table, options: KoenigrufenOptions
    ) -> tuple[Field, ...]:
        """The hand form in the order the table decides (declarer, game, partner or
        king in the talon, points, Kontra, premiums), offering only the tariff's
        games in its order and its premiums."""
        by_name = {f.name: f for f in HAND_FIELDS}
        types = options.premium_types()
        narrowed = {
            **by_name,
            # A bird-caller's game and a Besserrufer's bird are the bid's bird: its
            # premium row (the declarer's side, announced) is filled in, to change there.
            "game": replace(
                by_name["game"],
                choices=options.games(),
                buttons=True,
                fills={game.value: bird_row(bird, types) for game, bird in BIRD_CALLERS.items()},
            ),
            # No "none" beside the birds: a Besserrufer names one, a bird-caller's game does.
            "bird": replace(
                by_name["bird"],
                help=gettext_noop(
                    "The bird the Besserrufer announces: it stands among the premiums, announced by the "
                    "declarer's side; if it failed, say so there."
                ),
                null_choice=False,
                fills={bird.value: bird_row(bird, types) for bird in Bird},
            ),
            "won": replace(
                by_name["won"],
                ask=True,
                asked_unless="renonce",
                choice_labels={True: gettext_noop("won"), False: gettext_noop("lost")},
            ),
            # A partner or the king in the talon, played on or conceded: one
            # choice, asked, never preset.
            "partner": replace(
                by_name["partner"],
                ask=True,
                null_label="",
                help=KING_IN_TALON_FIELD.help,
                joined=KING_IN_TALON_FIELD,
            ),
            "kontra": replace(by_name["kontra"], shown_when=shown_for_games(POSITIVE_GAMES)),
            "premiums": replace(
                by_name["premiums"],
                fields=tuple(
                    replace(f, choices=types)
                    if f.name == "type"
                    else replace(f, choice_labels=SIDE_SHORT_LABELS)
                    if f.name == "side"
                    else f
                    for f in by_name["premiums"].fields
                ),
                shown_when=shown_for_games(POSITIVE_GAMES),
                grid=True,
                states={t: premium_states(t) for t in types},
            ),
            "valat": replace(by_name["valat"], shown_when=shown_for_games(POSITIVE_GAMES)),
            "renonce": FORM_RENONCE_FIELD,
        }
        return tuple(
            field
            for name in FORM_ORDER
            for field in (
                (FORM_POINTS_FIELD, FORM_EACH_FIELD)
                if name == "points"
                else (narrowed["kontra"], FORM_OPPONENT_KONTRA_FIELD)
                if name == "kontra"
                else (narrowed[name],)
            )
        )

    def card_counter(
        self,
        hand_type: HandType,
        table: Table,
        options: KoenigrufenOptions,
        values: Mapping[str, Any] | None = None,
    ) -> CardCounter:
        """Count a side's cards (in a Trischaken a player's) in thirds: ``41/2``."""
        if values is not None and values.get("game") == Game.TRISCHAKEN.value:
            return CardCounter((COUNTER_PLAYER, *COUNTER_FIELDS), "points.{player}", count_thirds)
        return CardCounter(COUNTER_FIELDS, "points", count_thirds)

    def parse_play(
        self, hand_type: HandType, raw: Any, table: Table, options: Any, *, from_form: bool = False
    ) -> KoenigrufenHand | None:
        """The hand from raw values: the fields of one shape through the schema,
        ``points``, ``kontra`` and ``renonce`` by the game's shape, then the rules."""
        if hand_type is HandType.REDEAL:
            return None
        if not isinstance(raw, Mapping):
            clean(HAND_FIELDS, raw, table.active)
        # The premium row the bid's bird filled in on the form says only what the
        # bid says: a conceded hand records it by its bird, not as a premium.
        bird_only = from_form and bid_bird_only(raw)
        plain = {
            key: value
            for key, value in raw.items()
            if key not in SHAPED and not (bird_only and key == "premiums")
        }
        problems: list[InvalidInput] = []
        values: dict[str, Any] = {}
        try:
            values = clean(
                [f for f in HAND_FIELDS if f.name not in SHAPED], plain, table.active, from_form=from_form
            )
        except InvalidInput as error:
            problems.append(error)
        game = raw.get("game")
        game = Game(game) if isinstance(game, str) and game in tuple(Game) else None
        shaped: dict[str, Any] = {}
        for name, read in (("points", read_points), ("kontra", read_kontra), ("renonce", read_renonce)):
            try:
                shaped[name] = read(raw, game, table)
            except InvalidInput as error:
                problems.append(error)
        try:
            if problems:
                raise InvalidInput.several(problems)
            given = set(raw)
            if bird_only:
                given.discard("premiums")
                values = {**values, "premiums": ()}
            if from_form:
                # A form sends its untouched controls (no Kontra, no premium, no
                # Renonce): they record nothing, so a conceded hand may have them.
                given -= {key for key in UNTOUCHED_KEYS if raw.get(key) in (None, 0, [], {})}
            return build_hand({**values, **shaped}, given, table, options)
        except InvalidInput as error:
            raise error.labelled(lambda path: label_at(HAND_FIELDS, path)) from None

    def dump_play(self, hand_type: HandType, play: Any, table: Table, options: Any) -> dict[str, Any]:
        if play is None:
            return {}
        return dump_hand(play)

    def stored_in_order(
        self, hand_type: HandType, table: Table, options: Any, inputs: Mapping[str, Any]
    ) -> dict[str, Any]:
        if hand_type is HandType.REDEAL:
            return dict(inputs)
        ordered = in_field_order(HAND_FIELDS, inputs, table.active)
        rank = {name: index for index, name in enumerate(table.players)}
        for key in ("points", "kontra"):
            if isinstance(ordered.get(key), Mapping):
                ordered[key] = dict(
                    sorted(ordered[key].items(), key=lambda item: rank.get(item[0], len(rank)))
                )
        return ordered

    def renamed_inputs(
        self, hand_type: HandType, table: Table, options: Any, inputs: Mapping[str, Any], old: str, new: str
    ) -> dict[str, Any]:
        if hand_type is HandType.REDEAL:
            return dict(inputs)
        out = renamed(HAND_FIELDS, inputs, old, new)
        for key in ("points", "kontra"):
            if isinstance(out.get(key), Mapping):
                out[key] = {(new if name == old else name): value for name, value in out[key].items()}
        if isinstance(out.get("renonce"), list):
            out["renonce"] = [new if name == old else name for name in out["renonce"]]
        return out

    def score_record(self, record: HandRecord, options: KoenigrufenOptions) -> HandScore:
        result = super().score_record(record, options)
        if record.type is HandType.REDEAL and not options.kontra_in_score:
            return HandScore(result.deltas, result.breakdown, dict(result.deltas))
        if result.money is not None and sum(result.money.values()) != 0:
            raise AssertionError(f"koenigrufen: money must sum to zero: {result.money}")
        return result

    def score(self, record: HandRecord, options: KoenigrufenOptions) -> HandScore:
        hand: KoenigrufenHand = record.play
        return score_hand(hand, record.table, options)

    def looks_back(self, options: KoenigrufenOptions) -> bool:
        return options.doubled_radl

    def score_in_session(
        self, record: HandRecord, options: KoenigrufenOptions, earlier: Sequence[StoredHand]
    ) -> HandScore:
        """Doubled Radl (docs/rules.md §4.15): each Trischaken among the last N hands (N the
        players at the table) doubles this one."""
        score = self.score_record(record, options)
        factor = radl_factor(earlier, len(record.table.players)) if options.doubled_radl else 1
        if factor == 1:
            return score
        return HandScore(
            {name: value * factor for name, value in score.deltas.items()},
            (
                *score.breakdown,
                Line(
                    gettext_noop("Doubled Radl: every number of this hand × {factor}"),
                    {"factor": factor},
                ),
            ),
            None if score.money is None else {name: value * factor for name, value in score.money.items()},
        )

    def hand_facts(self, record: HandRecord) -> frozenset[str]:
        play = record.play
        if isinstance(play, KoenigrufenHand) and play.game is Game.TRISCHAKEN:
            return frozenset({TRISCHAKEN_FACT})
        return frozenset()

    def pays_apart(self, options: Any) -> bool:
        """With ``kontra_in_score`` off, the money carries every Kontra beside the Schrift."""
        return not options.kontra_in_score

    def summarize(self, players: Sequence[str], hands: Sequence[StoredHand], options: Any) -> Summary:
        """The Schrift's totals; with ``kontra_in_score`` off, the money's too, which is settled."""
        totals = sum_deltas(players, [hand.deltas for hand in hands])
        if options.kontra_in_score:
            return Summary(totals=totals, net=dict(totals))
        money = sum_deltas(players, [hand.money if hand.money is not None else hand.deltas for hand in hands])
        return Summary(totals=totals, net=dict(money), money_totals=money)

    def describe(self, record: HandRecord) -> Line:
        return describe_hand(record.play)

    def played_stats(self, record: HandRecord, options: KoenigrufenOptions) -> HandStats:
        """The game; declarer, partner and opponents and which side won; premiums
        made (to each player of the side that made them) and failed; Valat; the
        Trischaken's loser, Bürgermeister and Jungfrauen; the Renonce."""
        hand: KoenigrufenHand = record.play
        table = record.table
        if hand.game is Game.TRISCHAKEN:
            each = hand.each or {}
            most = max(each.values()) if each else 0
            # The Trischaker among the most points loses alone (docs/rules.md §4.13).
            losers = (
                {hand.declarer}
                if each.get(hand.declarer) == most
                else {p for p, thirds in each.items() if thirds == most}
            )
            threshold = bürgermeister_threshold(options)
            return seat_stats(
                table,
                Game.TRISCHAKEN.value,
                won=lambda p: None if not each else p not in losers,
                marks=lambda p: (
                    (["trischaken_lost"] if each and p in losers else [])
                    + (["buergermeister"] if each and p in losers and each[p] >= threshold else [])
                    + (["jungfrau"] if each and each[p] == 0 else [])
                    + (["renonce"] if p in hand.renonce else [])
                ),
            )
        declarers = declarer_side(hand)
        won = declarer_won(hand, options)

        def marks(player: str) -> list[str]:
            found: list[str] = []
            if player in hand.renonce:
                return ["renonce"]
            if hand.renonce:
                return found
            mine = Side.DECLARER if player in declarers else Side.OPPONENTS
            for premium in hand.premiums:
                if premium.side is mine:
                    found.append(premium.type.value if premium.made else "premium_failed")
            if hand.valat is not None and hand.valat.side is mine:
                found.append("valat" if hand.valat.made else "valat_failed")
            return found

        return seat_stats(
            table,
            hand.game.value,
            role=lambda p: (
                "declarer" if p == hand.declarer else "partner" if p == hand.partner else "opponent"
            ),
            won=lambda p: None if won is None else won is (p in declarers),
            marks=marks,
        )

    stat_labels = {
        **{f"kind.{game.value}": label for game, label in GAME_LABEL.items()},
        "role.declarer": gettext_noop("Declarer"),
        "role.partner": gettext_noop("Partner"),
        "role.opponent": gettext_noop("Opponent"),
        **{f"mark.{premium.value}": label for premium, label in PREMIUM_LABEL.items()},
        "mark.premium_failed": gettext_noop("Premium failed"),
        "mark.valat": gettext_noop("Valat"),
        "mark.valat_failed": gettext_noop("Valat failed"),
        "mark.renonce": gettext_noop("Renonce"),
        "mark.trischaken_lost": gettext_noop("Trischaken lost"),
        "mark.buergermeister": gettext_noop("Bürgermeister"),
        "mark.jungfrau": gettext_noop("Jungfrau"),
    }


TRISCHAKEN_FACT = "trischaken"


def radl_factor(earlier: Sequence[StoredHand], at_table: int) -> int:
    """2 to the number of Trischaken among the last ``at_table`` hands (a redeal is a hand too)."""
    recent = earlier[-at_table:] if at_table else []
    return 1 << sum(1 for hand in recent if TRISCHAKEN_FACT in hand.facts)


def score_hand(hand: KoenigrufenHand, table: Table, options: KoenigrufenOptions) -> HandScore:
    if hand.game is Game.TRISCHAKEN:
        return score_trischaken(hand, table, options)
    if hand.renonce:
        return score_renonce(hand, table, options)
    if hand.conceded:
        return score_conceded(hand, table, options)
    if hand.game in NEGATIVE_GAMES:
        return score_negative(hand, table, options)
    items, lines = positive_items(hand, options)
    lines = [*(item_line(item, options.kontra_in_score) for item in items), *lines]
    lines.append(mode_line(hand))
    schrift = pay_items(table, hand, items, with_kontra=False)
    money = pay_items(table, hand, items, with_kontra=True)
    return hand_result(table, schrift, money, lines, options)
