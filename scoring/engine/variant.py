"""The shape every game module has, and the machinery they share.

A game subclasses ``VariantOf[Options, Play]`` (its frozen options dataclass and
its frozen hand dataclass) and provides: its house rules (``option_fields`` plus
``options_type``), the inputs of a hand (``hand_fields``), how cleaned inputs
become its hand with the cross-field checks (``build_hand``), ``score``, and a
one-line ``describe`` for score sheets. Reading raw input, writing it back,
everything a scored hand stores (``scored_hand``) and summing a session are done
here, once. ``Variant`` is ``VariantOf[Any, Any]``: any game, and a base for a
game that does not name its types.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from decimal import Decimal
from fractions import Fraction
from typing import Any, ClassVar, Generic, TypeVar, cast

from .schema import Field, clean, dump, in_field_order, label_at, renamed
from .types import (
    HandScore,
    HandType,
    InvalidInput,
    Line,
    Table,
    allowed_list,
    gettext_noop,
    invalid,
    zero_deltas,
)

OptionsT = TypeVar("OptionsT")  # a game's house rules: its frozen options dataclass
PlayT = TypeVar("PlayT")  # a game's played hand: its frozen hand dataclass(es)


@dataclass(frozen=True)
class HandRecord:
    """One hand as played: its type, the table, the variant's inputs, a note."""

    type: HandType
    table: Table
    # The game's hand dataclass (its ``Variant``'s ``PlayT``); None for a redeal.
    # Left as ``Any`` here so that each game reads its own hand's fields.
    play: Any = None
    note: str = ""


@dataclass(frozen=True)
class CardCounter:
    """The card-point helper of a hand form: count the cards by kind, get the points.

    ``fields`` are the counts (and whatever else the count needs, e.g. tricks);
    the points go into the hand field ``target`` (``points``), or into
    ``points.<player>`` when ``target`` is ``points.{player}`` and the counter
    has a ``player`` field. ``help`` says what to count where the game asks for
    something other than the cards a side took.
    """

    fields: tuple[Field, ...]
    target: str
    count: Callable[[Mapping[str, Any]], int | str]  # whole points, or "41/2" in thirds
    help: Line | None = None

    def target_for(self, values: Mapping[str, Any]) -> str:
        return self.target.format(player=values.get("player", ""))


@dataclass(frozen=True)
class SectionKind:
    """How a game groups its hands (an Illustriertes series, a Chambéry Partie),
    as data for pages and sheets: they never compare game names."""

    key: str
    label: str  # "Series": what one of them is called
    title: str  # "Series {n}"
    end: str  # "End of series {n}"
    won: str  # "Series won": a player's count of them on the statistics pages
    # The sheet's running totals start again from 0 after each section.
    restarts_totals: bool
    # Each section is settled on its own (pair by pair, series by series).
    settled_each: bool
    settlement_help: str = ""


SERIES = SectionKind(
    key="series",
    label=gettext_noop("Series"),
    title=gettext_noop("Series {n}"),
    end=gettext_noop("End of series {n}"),
    won=gettext_noop("Series won"),
    restarts_totals=True,
    settled_each=True,
    settlement_help=gettext_noop(
        "Each pair of players settles the difference of their totals, series by series."
    ),
)
PARTIE = SectionKind(
    key="partie",
    label=gettext_noop("Partie"),
    title=gettext_noop("Partie {n}"),
    end=gettext_noop("End of Partie {n}"),
    won=gettext_noop("Parties won"),
    restarts_totals=False,
    settled_each=False,
)


@dataclass(frozen=True)
class StoredHand:
    """What a score sheet keeps of a scored hand: enough to sum a session again
    without reading (or re-judging) the hand's inputs. ``facts`` are the few
    things the game's sections need to know of a hand (``Variant.hand_facts``)."""

    dealer: str | None
    deltas: Mapping[str, Fraction]
    facts: frozenset[str] = frozenset()
    money: Mapping[str, Fraction] | None = None  # what the hand pays, where it differs (HandScore.money)


@dataclass(frozen=True)
class HandStats:
    """What statistics across evenings keep of one hand, written with its score
    (``Variant.hand_stats``), so they are counted from what was recorded and never
    by judging the inputs again. Everything is per seat, in playing order, so a
    player whose name is corrected keeps his statistics.

    ``kind``: the contract, game or mode (``garde``, ``zweiblatt``, ``solo``), or
    the kind of hand (``redeal``, ``trischaken``). ``roles``: each seat's part in
    it (``taker``, ``partner``, ``defender``, ``declarer``, ``opponent``,
    ``soloist``), ``out`` when sitting out, empty when everyone plays for himself.
    ``won``: whether the seat's side won the game (None: a draw, or no game to
    win). ``marks``: what the seat did that the statistics count (``pagat``,
    ``petit_au_bout``, ``trischaken_lost``)."""

    kind: str
    roles: tuple[str, ...]
    won: tuple[bool | None, ...]
    marks: tuple[tuple[str, ...], ...]

    def to_json(self) -> dict[str, Any]:
        return {
            "kind": self.kind,
            "roles": list(self.roles),
            "won": list(self.won),
            "marks": [list(marks) for marks in self.marks],
        }


def seat_stats(
    table: Table,
    kind: str,
    role: Callable[[str], str] = lambda player: "",
    won: Callable[[str], bool | None] = lambda player: None,
    marks: Callable[[str], Sequence[str]] = lambda player: (),
) -> HandStats:
    """A hand's statistics from what each seat did; a seat sitting out is ``out``."""
    out = table.sitting_out
    return HandStats(
        kind=kind,
        roles=tuple("out" if p == out else role(p) for p in table.players),
        won=tuple(None if p == out else won(p) for p in table.players),
        marks=tuple(() if p == out else tuple(marks(p)) for p in table.players),
    )


@dataclass(frozen=True)
class ScoredHand:
    """Everything a snapshot stores of one scored hand, from one engine call
    (``Variant.scored_hand``): the hand as read, its deltas and breakdown, its
    inputs as the session file writes them, its line on the sheet, the facts its
    sections need and what the statistics keep of it."""

    record: HandRecord
    score: HandScore
    inputs: Mapping[str, Any]  # the hand's fields as the session file writes them
    description: Line
    facts: frozenset[str]
    stats: HandStats

    @property
    def deltas(self) -> Mapping[str, Fraction]:
        return self.score.deltas

    @property
    def breakdown(self) -> tuple[Line, ...]:
        return tuple(self.score.breakdown)

    def stored(self) -> StoredHand:
        """What a score sheet keeps of it."""
        return StoredHand(self.record.table.dealer, self.score.deltas, self.facts, self.score.money)


@dataclass(frozen=True)
class Section:
    """A run of hands scored as a unit: an Illustriertes series, a Chambéry Partie."""

    kind: str  # its SectionKind's key
    first: int  # 0-based index of the first hand
    last: int  # 0-based index of the last hand
    totals: Mapping[str, Fraction]  # the section's totals, bonus included
    bonus: Mapping[str, Fraction]  # only the players who got a bonus
    complete: bool


@dataclass(frozen=True)
class Summary:
    """What a whole session adds up to."""

    totals: Mapping[str, Fraction]
    net: Mapping[str, Fraction]  # zero-sum, what settlement works from
    sections: tuple[Section, ...] = ()
    # Where each section is paid on its own (an Illustriertes series): what each
    # settles, adding up to ``net``; the money is rounded part by part.
    parts: tuple[Mapping[str, Fraction], ...] = ()
    # Where hands carry money besides the Schrift (HandScore.money): its sums,
    # which ``net`` then settles.
    money_totals: Mapping[str, Fraction] | None = None


def money_in_sight(
    summary: Summary, players: Sequence[str], *, a_hand_differs: bool
) -> tuple[Fraction, ...] | None:
    """What each player is paid in all (seat order), shown under the Schrift's totals
    where hands pay money beside it and the two differ, or some hand's money differs
    from its deltas (``a_hand_differs``: its money line is explained); else None."""
    money = summary.money_totals
    if money is None:
        return None
    if not a_hand_differs and all(money.get(name, 0) == summary.totals.get(name, 0) for name in players):
        return None
    return tuple(Fraction(money.get(name, 0)) for name in players)


def in_sight(
    kind: SectionKind | None, summary: Summary, players: Sequence[str], hands: Sequence[StoredHand] = ()
) -> list[tuple[str, int | None, tuple[Fraction, ...]]]:
    """The numbers a sheet keeps in sight above its hands, as (key, series number or
    None, one value per player in seat order): the totals, and the money where it
    differs (``money_in_sight``, judged from ``hands``); where each section is settled
    on its own, the running section (its number; zeros once the last one is complete,
    the next one's number) and each player's balance instead. The sheet draws these
    rows (``scoring.sheet``), and the phone fills the same rows with the hands
    waiting on it (``offline.score_table``)."""
    if kind is None or not kind.settled_each:
        rows: list[tuple[str, int | None, tuple[Fraction, ...]]] = [
            ("totals", None, tuple(Fraction(summary.totals.get(name, 0)) for name in players))
        ]
        differs = any(
            hand.money is not None and any(hand.money.get(n, 0) != hand.deltas.get(n, 0) for n in players)
            for hand in hands
        )
        money = money_in_sight(summary, players, a_hand_differs=differs)
        return rows if money is None else [*rows, ("money", None, money)]
    current = summary.sections[-1] if summary.sections else None
    if current is not None and not current.complete:
        number, running = (
            len(summary.sections),
            tuple(Fraction(current.totals.get(name, 0)) for name in players),
        )
    else:
        number, running = len(summary.sections) + 1, tuple(Fraction(0) for _ in players)
    return [
        ("series", number, running),
        ("balance", None, tuple(Fraction(summary.net[name]) for name in players)),
    ]


@dataclass(frozen=True)
class FixedOption:
    """A house rule a tournament fixes (TOURNAMENTS.md §1.1): its name, the value
    every table plays with, and why (the refusal of another value in a tournament file)."""

    name: str
    value: Any
    why: str


@dataclass(frozen=True)
class TournamentTerms:
    """What a tournament needs of a game offered for tournaments (TOURNAMENTS.md §10,
    §11), as data, so the tournaments and cups never compare game names: a game
    without them (``Variant.tournament`` None) is not offered for tournaments."""

    order: int  # its place in the list of tournament games; the lowest is the default game
    rounds: int  # rounds of a day, by default
    hands: int  # hands at a table of four, by default (a five-table plays × 5/4)
    money_rate: Decimal | None  # table money per point, by default; None: no money
    kontra_cash: bool  # whether the settings of Kontra cash apply (the game has Kontras to pay)
    halves: bool  # whether a table's round result may end in .5 (a paper sheet's sums too)
    heine: bool  # whether Heine cup points are offered (their bends fit the game's scores)
    fixed: tuple[FixedOption, ...] = ()  # house rules every table of a tournament plays with

    def fixed_options(self) -> dict[str, Any]:
        """The fixed house rules as stored: name → value."""
        return {option.name: option.value for option in self.fixed}


class VariantOf(Generic[OptionsT, PlayT]):
    """Base of every game module, generic over the game's options (``OptionsT``)
    and played hand (``PlayT``): ``class French(VariantOf[FrenchOptions,
    FrenchHand])``. Subclasses set the class attributes and override
    ``hand_fields``, ``build_hand``, ``score`` and ``describe``."""

    key: ClassVar[str]
    name: ClassVar[str]
    table_sizes: ClassVar[tuple[int, ...]]  # how many people may sit at the table
    hand_types: ClassVar[tuple[HandType, ...]] = (HandType.PLAYED, HandType.REDEAL)
    zero_sum: ClassVar[bool] = True
    # How the game groups its hands: SERIES (Illustriertes), PARTIE (Chambéry), or not at all.
    section_kind: ClassVar[SectionKind | None] = None
    # How to read ``section_notation``, where the game has one.
    notation_help: ClassVar[str] = ""
    option_fields: ClassVar[tuple[Field, ...]] = ()
    options_type: ClassVar[type[Any]]  # builds the game's ``OptionsT`` from cleaned values
    # What a tournament needs of the game; None: not offered for tournaments.
    tournament: ClassVar[TournamentTerms | None] = None
    # Whether the ratings keep a family of its own for the game (TOURNAMENTS.md §15);
    # the games that do not are rated together ("the other games").
    rated_apart: ClassVar[bool] = False

    # -- house rules ---------------------------------------------------------

    def parse_options(self, raw: Any, players: Sequence[str]) -> OptionsT:
        """Validated options for a session of these players; defaults filled in."""
        values = clean(self.option_fields, raw if raw is not None else {}, (), "options.")
        options: OptionsT = self.options_type(**values)
        self.check_options(options, players)
        return options

    def check_options(self, options: OptionsT, players: Sequence[str]) -> None:
        """Cross-checks between house rules and the table; raise ``InvalidInput``."""

    def default_options(self, players: Sequence[str]) -> OptionsT:
        return self.parse_options({}, players)

    def dump_options(self, options: OptionsT) -> dict[str, Any]:
        """Every house rule with the value in force, defaults included, as JSON: a
        session file then scores the same whatever a later version's defaults are."""
        return dump(self.option_fields, dataclasses.asdict(cast(Any, options)), defaults=True)

    def check_table(self, players: Sequence[str]) -> None:
        if len(players) not in self.table_sizes:
            raise invalid(
                "players",
                gettext_noop("{game} is played by {allowed} players (got {got})"),
                game=Line(self.name),
                allowed=allowed_list(self.table_sizes),
                got=str(len(players)),
            )

    # -- the table -----------------------------------------------------------

    def sitting_out(self, players: Sequence[str], dealer: str | None) -> str | None:
        """Who sits out a hand dealt by ``dealer`` (only with six at the table)."""
        return None

    def needs_dealer(self, players: Sequence[str], options: OptionsT) -> bool:
        """Whether the first hand must name its dealer."""
        return len(players) == 6

    # -- hands ---------------------------------------------------------------

    def hand_type(self, value: str) -> HandType:
        """The game's kind of hand written ``value`` (``ValueError`` when it has none)."""
        for kind in self.hand_types:
            if kind == value:
                return kind
        raise ValueError(f"{self.key} has no kind of hand {value!r}")

    def allowed_hand_types(self, options: OptionsT) -> tuple[HandType, ...]:
        """The kinds of hand these house rules allow."""
        return self.hand_types

    def check_hand_type(self, hand_type: HandType, options: OptionsT) -> None:
        """Refuse a kind of hand the house rules do not allow, saying why."""
        allowed = self.allowed_hand_types(options)
        if hand_type not in allowed:
            raise invalid(
                "type",
                gettext_noop("must be one of {allowed} with these house rules (got {got})"),
                allowed=allowed_list(allowed),
                got=hand_type.value,
            )

    def hand_fields(self, hand_type: HandType, table: Table, options: OptionsT) -> tuple[Field, ...]:
        raise NotImplementedError

    def form_fields(self, hand_type: HandType, table: Table, options: OptionsT) -> tuple[Field, ...]:
        """The fields a hand form shows: ``hand_fields`` with choices these house
        rules can never accept left out. Validation still uses ``hand_fields``,
        whose refusals explain why. They may follow the dealer only through who
        sits out (``table.active``): the new hand's form is kept across dealers
        (``scoring.kept_pages``)."""
        return self.hand_fields(hand_type, table, options)

    def card_counter(
        self, hand_type: HandType, table: Table, options: OptionsT, values: Mapping[str, Any] | None = None
    ) -> CardCounter | None:
        """The hand form's card-point helper, if the game has one. ``values`` are the
        hand's inputs so far (the session file's shape), where what to count depends on them.
        Like ``form_fields``, it may follow the dealer only through who sits out."""
        return None

    def build_hand(
        self, hand_type: HandType, values: dict[str, Any], table: Table, options: OptionsT
    ) -> PlayT:
        """The variant's frozen hand from cleaned values, after cross-field checks."""
        raise NotImplementedError

    def parse_play(
        self, hand_type: HandType, raw: Any, table: Table, options: OptionsT, *, from_form: bool = False
    ) -> PlayT | None:
        """The variant's hand from raw values. Every field's problems are found
        at once; the cross-field checks follow once the fields themselves are
        right. Each refusal carries the label of the field it names.
        ``from_form``: a hand form must have answered every ``ask`` field."""
        if hand_type is HandType.REDEAL:
            return None
        fields = self.hand_fields(hand_type, table, options)
        values = clean(fields, raw, table.active, from_form=from_form)
        try:
            return self.build_hand(hand_type, values, table, options)
        except InvalidInput as error:
            raise error.labelled(lambda path: label_at(fields, path)) from None

    def stored_in_order(
        self, hand_type: HandType, table: Table, options: OptionsT, inputs: Mapping[str, Any]
    ) -> dict[str, Any]:
        """A hand's stored inputs with their keys as the session file writes them."""
        if hand_type is HandType.REDEAL:
            return dict(inputs)
        return in_field_order(self.hand_fields(hand_type, table, options), inputs, table.active)

    def renamed_inputs(
        self,
        hand_type: HandType,
        table: Table,
        options: OptionsT,
        inputs: Mapping[str, Any],
        old: str,
        new: str,
    ) -> dict[str, Any]:
        """A hand's stored inputs with the player ``old`` called ``new``; ``table``
        is the hand's table under the old names."""
        if hand_type is HandType.REDEAL:
            return dict(inputs)
        return renamed(self.hand_fields(hand_type, table, options), inputs, old, new)

    def dump_play(
        self, hand_type: HandType, play: PlayT | None, table: Table, options: OptionsT
    ) -> dict[str, Any]:
        if play is None:
            return {}
        return dump(self.hand_fields(hand_type, table, options), dataclasses.asdict(cast(Any, play)))

    def score(self, record: HandRecord, options: OptionsT) -> HandScore:
        raise NotImplementedError

    def score_record(self, record: HandRecord, options: OptionsT) -> HandScore:
        """Score one hand; a redeal scores 0 for everyone. Zero-sum is asserted."""
        if record.type is HandType.REDEAL:
            return HandScore(
                zero_deltas(record.table.players),
                (Line(gettext_noop("Redeal: nobody scores, the deal passes on")),),
            )
        result = self.score(record, options)
        if list(result.deltas) != list(record.table.players):
            raise AssertionError(f"{self.key}: deltas must list every player in order")
        if self.zero_sum and sum(result.deltas.values()) != 0:
            raise AssertionError(f"{self.key}: a hand must sum to zero: {result.deltas}")
        return result

    def scored_hand(
        self, record: HandRecord, options: OptionsT, earlier: Sequence[StoredHand] = ()
    ) -> ScoredHand:
        """Everything a snapshot stores of one hand, from this one call: its
        score (``score_in_session`` after the ``earlier`` hands of its session),
        its inputs as the session file writes them, its description, facts and
        statistics."""
        return ScoredHand(
            record=record,
            score=self.score_in_session(record, options, earlier),
            inputs=self.dump_play(record.type, record.play, record.table, options),
            description=self.describe_record(record),
            facts=self.hand_facts(record),
            stats=self.hand_stats(record, options),
        )

    def score_in_session(
        self, record: HandRecord, options: OptionsT, earlier: Sequence[StoredHand]
    ) -> HandScore:
        """Score one hand in its place in a session, ``earlier`` being the hands
        before it; games where earlier hands change a hand's value (Königrufen's
        doubled Radl) override this."""
        return self.score_record(record, options)

    def looks_back(self, options: OptionsT) -> bool:
        """Whether ``score_in_session`` reads the earlier hands under these house
        rules (Königrufen's doubled Radl): only then does a hand's place in the
        session change its score."""
        return False

    def dealer_from_sitting_out(self, players: Sequence[str], sitting_out: str) -> str | None:
        """The dealer a first hand implies by naming who sits out, where that
        names him (at five in Königrufen the dealer sits out)."""
        return None

    def describe(self, record: HandRecord) -> Line:
        """The hand in short, for the scoreboard and the score sheet."""
        raise NotImplementedError

    def hand_facts(self, record: HandRecord) -> frozenset[str]:
        """What the game's sections need to know of a hand, stored with its score."""
        return frozenset()

    def hand_stats(self, record: HandRecord, options: OptionsT) -> HandStats:
        """What statistics keep of a hand; games name their contracts, roles and
        marks by overriding ``played_stats``."""
        if record.type is HandType.REDEAL or record.play is None:
            return seat_stats(record.table, HandType.REDEAL.value)
        return self.played_stats(record, options)

    def played_stats(self, record: HandRecord, options: OptionsT) -> HandStats:
        return seat_stats(record.table, record.type.value)

    # Labels of the statistics' kinds, roles and marks ("kind.garde", "role.taker",
    # "mark.pagat"), as English templates translated at the edge.
    stat_labels: ClassVar[Mapping[str, str]] = {}

    def section_winners(self, section: Section, options: OptionsT) -> tuple[str, ...]:
        """Who won a complete series or Partie: the highest total (ties: all of them)."""
        if not section.complete or not section.totals:
            return ()
        best = max(section.totals.values())
        return tuple(name for name, total in section.totals.items() if total == best)

    def stored(self, record: HandRecord, score: HandScore) -> StoredHand:
        return StoredHand(record.table.dealer, score.deltas, self.hand_facts(record), score.money)

    def describe_record(self, record: HandRecord) -> Line:
        if record.type is HandType.REDEAL:
            return Line(gettext_noop("Redeal"))
        return self.describe(record)

    # -- a whole session ------------------------------------------------------

    def section_notation(
        self, players: Sequence[str], deltas: Sequence[Mapping[str, Fraction]], section: Section
    ) -> dict[str, Line] | None:
        """A section as the game's paper block writes it, if it has such a notation."""
        return None

    def section_net(self, section: Section) -> Mapping[str, Fraction] | None:
        """What a section alone settles, where the game settles section by section."""
        return None

    def pays_apart(self, options: OptionsT) -> bool:
        """Whether a hand under these house rules may pay money beside its points
        (``HandScore.money``, summed in ``Summary.money_totals``)."""
        return False

    def summarize(self, players: Sequence[str], hands: Sequence[StoredHand], options: OptionsT) -> Summary:
        """Totals and net balances; games with series or rounds override this."""
        totals = sum_deltas(players, [hand.deltas for hand in hands])
        return Summary(totals=totals, net=dict(totals))

    def balance_moves(
        self, players: Sequence[str], hands: Sequence[StoredHand], summary: Summary
    ) -> list[dict[str, Fraction]]:
        """What each hand moved each player's balance (the points the settlement
        pays); they add up to ``summary.net``. Where the evening settles as it
        stands, the hand's deltas, a section's bonus counted with the hand that ends
        it. Where each section is settled on its own (docs/rules.md §2.9), what the sections
        settle after the hand less what they settled before it: the sheet's
        balance after each hand."""
        kind = self.section_kind
        ends = {section.last: section for section in summary.sections if section.complete}
        zero = dict.fromkeys(players, Fraction(0))
        moves: list[dict[str, Fraction]] = []
        running, before, settled = dict(zero), dict(zero), dict(zero)
        for index, hand in enumerate(hands):
            end = ends.get(index)
            if kind is None or not kind.settled_each:
                bonus = end.bonus if end is not None else {}
                moves.append(
                    {name: hand.deltas.get(name, Fraction(0)) + bonus.get(name, 0) for name in players}
                )
                continue
            for name in players:
                running[name] += hand.deltas.get(name, Fraction(0))
            standing = end.totals if end is not None else running
            net = self.section_net(Section(kind.key, index, index, standing, {}, end is not None)) or {}
            after = {name: settled[name] + net.get(name, Fraction(0)) for name in players}
            moves.append({name: after[name] - before[name] for name in players})
            before = after
            if end is not None:
                settled, running = after, dict(zero)
        return moves


# A game whatever its types: what the registry, the services and the pages hold,
# and a base a game may subclass without naming its types (``class G(Variant)``).
Variant = VariantOf[Any, Any]


def shown(field: Field, values: Mapping[str, Any]) -> bool:
    """Whether a field applies, given the value of the field it depends on."""
    if field.shown_when is None:
        return True
    controller, choices = field.shown_when
    chosen = values.get(controller)
    return chosen in (None, "") or str(chosen) in choices


def sum_deltas(players: Sequence[str], deltas: Sequence[Mapping[str, Fraction]]) -> dict[str, Fraction]:
    """Each player's sum. Whole points are added as integers (exact, and far
    cheaper than adding ``Fraction``s over a long evening), half points as
    fractions."""
    whole = dict.fromkeys(players, 0)
    totals = zero_deltas(players)
    for hand in deltas:
        for name, value in hand.items():
            if value.denominator == 1:
                whole[name] += value.numerator
            else:
                totals[name] += value
    return {name: total + whole[name] for name, total in totals.items()}
