"""What the organiser prints and downloads (``TOURNAMENTS.md`` §6, §4.5, §13):
table slips, the seating plan, the ranking list, the prize list, a player card
(PDF through ``plumbing.pdf``, A4, black and white, from the same read models as
the pages), and the tournament file.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from decimal import Decimal
from fractions import Fraction
from typing import Any

from django.db.models import Prefetch
from django.template.loader import render_to_string
from django.urls import NoReverseMatch, reverse
from django.utils import timezone
from django.utils.text import slugify
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop

from plumbing.pdf import PdfFailed, html_to_pdf
from plumbing.qr import qr_svg
from scoring import public
from scoring.public import Export, ExportRefused, money
from tournaments.models import Entrant, Round, RoundResult, TableRound, TableSeat, Tournament
from tournaments.services import changes, honours, results, side, teams
from tournaments.services import raffle as raffles


def table_link(table: TableRound) -> str:
    """The table link's path (``/t/<token>/``), the scorer's page without an account."""
    try:
        return reverse("tournament_table", args=[table.link_token])
    except NoReverseMatch:  # the table pages are not mounted in this build
        return f"/t/{table.link_token}/"


def code_page() -> str:
    """The short-code page's path (``/t/``), where a slip's code is typed when its QR code cannot be read."""
    try:
        return reverse("tournament_table_code")
    except NoReverseMatch:  # the table pages are not mounted in this build
        return "/t/"


def _pdf(template: str, context: dict[str, Any], stem: str) -> Export:
    """A printout drawn as a PDF; ``ExportRefused`` when the drawing took too long or
    failed (as a session's PDF says it: "could not be drawn just now")."""
    html = render_to_string(template, {**context, "printed_at": timezone.localtime()})
    try:
        data = html_to_pdf(html)
    except PdfFailed:
        raise ExportRefused(_("The PDF could not be drawn just now. Please try again in a moment.")) from None
    return Export(data, "application/pdf", f"{slugify(stem) or 'turnier'}.pdf")


# -- the ranking and the prize list ----------------------------------------------------------


@dataclass(frozen=True)
class RankRow:
    place: int
    entrant: Entrant
    rounds: tuple[str, ...]  # per round: the points, "–" (not played), "…" (running), 0 for a bye
    total: Fraction  # shown with ``|points``: a real minus, the reader's decimal comma
    tie_note: str
    cup_points: Fraction | None
    prize: str = ""
    change: changes.Shown | None = None  # since the previous round (§14.5)


TIE_WORDS = {
    "rounds": gettext_noop("better rounds"),
    "best_round": gettext_noop("better best round"),
    "table_ranks": gettext_noop("better table ranks"),
    "lots": gettext_noop("lots"),
    "shared": gettext_noop("shared"),
}


@dataclass(frozen=True)
class Ranking:
    tournament: Tournament
    rows: tuple[RankRow, ...]
    rounds: tuple[int, ...]
    fees: Decimal | None = None
    fees_paid: int = 0
    raffle: bool = False
    draw: raffles.Raffle | None = None  # with the raffle on: who may be drawn, and the draw
    sides: tuple[Any, ...] = ()  # the side rankings with their prizes (§14.4)
    game_of_the_day: Any = None  # the Spiel des Tages (§14.8)
    teams: Any = None  # the team ranking with its prizes (§14.6), if teams are played


def _prize_of(prizes: list[dict[str, Any]], place: int, *, raffle: bool = False) -> str:
    """The prize of ``place``; with the raffle on only a money prize goes by place."""
    for prize in prizes:
        if prize["from"] <= place <= prize["to"]:
            if raffle and prize.get("amount") is None:
                return ""
            amount = f"{money(Decimal(prize['amount']))}\u00a0€" if prize.get("amount") else ""
            return " ".join(part for part in (amount, prize.get("text") or "") if part)
    return ""


def _cell(cell: Any) -> str:
    if cell.bye:
        return "0"
    return cell.shown or public.number(cell.points)


def ranking(tournament: Tournament) -> Ranking:
    """Place, name, rounds, total, tie note, cup points and prize of every ranked
    entrant (fillers are not ranked and get no prize), from ``results.standings``.
    With the raffle on a material prize goes to whom the draw gave it, not by place."""
    table = results.standings(tournament)
    entrants = {e.number: e for e in tournament.entrants.all()}
    prizes = tournament.settings.get("prizes") or []
    on = bool(tournament.settings.get("prize_raffle"))
    draw = raffles.raffle_of(tournament) if on else None
    won = {
        d.entrant.number: d.text
        for d in (draw.drawn if draw is not None and not draw.stale else ())
        if d.entrant is not None
    }
    rows = tuple(
        RankRow(
            place=row.place,
            entrant=entrants[row.number],
            rounds=tuple(_cell(cell) for cell in row.cells),
            total=row.total,
            tie_note=_(TIE_WORDS[row.tie_note]) if row.tie_note in TIE_WORDS else "",
            cup_points=row.cup_points,
            prize=_prize_of(prizes, row.place, raffle=on) or won.get(row.number, ""),
            change=changes.shown(row.change),
        )
        for row in table.rows
        if row.place is not None
    )
    fee = tournament.settings.get("entry_fee")
    paid = sum(1 for e in entrants.values() if e.fee_paid)
    fees = Decimal(fee) * paid if fee else None
    numbers = tuple(range(1, table.rounds + 1))
    return Ranking(tournament, rows, numbers, fees, paid, on, draw)


def prize_list(tournament: Tournament) -> Ranking:
    """The ranking with its prizes, the side rankings with theirs (§14.4) and the
    Spiel des Tages (§14.8)."""
    found = ranking(tournament)
    return replace(
        found,
        sides=tuple(side.tournament_sides(tournament)),
        game_of_the_day=honours.spiel_des_tages(tournament),
        teams=teams.team_table(tournament),
    )


def ranking_pdf(tournament: Tournament, **_kwargs: Any) -> Export:
    context = {"ranking": ranking(tournament), "tournament": tournament}
    return _pdf("tournaments/print/ranking.html", context, f"{tournament.name}-rangliste")


def prizes_pdf(tournament: Tournament, **_kwargs: Any) -> Export:
    context = {"ranking": prize_list(tournament), "tournament": tournament}
    return _pdf("tournaments/print/prizes.html", context, f"{tournament.name}-preise")


def teams_pdf(tournament: Tournament, **_kwargs: Any) -> Export:
    """The team ranking (§14.6) with its members and prizes (without teams, a page saying so)."""
    found = teams.team_table(tournament)
    context = {"teams": found, "tournament": tournament, "status": results.standings(tournament)}
    return _pdf("tournaments/print/teams.html", context, f"{tournament.name}-teams")


# -- the seating plan ------------------------------------------------------------------------


@dataclass(frozen=True)
class PlanLine:
    entrant: Entrant
    tables: tuple[str, ...]  # per round: "3" or "–"


def seating_plan(
    tournament: Tournament,
) -> tuple[list[PlanLine], list[tuple[Round, list[tuple[TableRound, list[TableSeat]]]]]]:
    """Every entrant A–Z with his table in each drawn round; and per round its tables and seats."""
    rounds = list(tournament.rounds.exclude(status=Round.Status.PLANNED).order_by("number"))
    seats = list(
        TableSeat.objects.filter(round__in=rounds)
        .select_related("table", "entrant", "round")
        .order_by("position")
    )
    where = {(s.entrant_id, s.round.number): str(s.table.number) for s in seats}
    lines = [
        PlanLine(e, tuple(where.get((e.pk, r.number), "–") for r in rounds))
        for e in sorted(tournament.entrants.all(), key=lambda e: (e.name.casefold(), e.number))
    ]
    per_round = []
    for round_ in rounds:
        tables = list(round_.tables.order_by("number"))
        per_round.append((round_, [(t, [s for s in seats if s.table_id == t.pk]) for t in tables]))
    return lines, per_round


def plan_pdf(tournament: Tournament, **_kwargs: Any) -> Export:
    lines, per_round = seating_plan(tournament)
    context = {"tournament": tournament, "lines": lines, "per_round": per_round}
    return _pdf("tournaments/print/plan.html", context, f"{tournament.name}-sitzplan")


# -- table slips -----------------------------------------------------------------------------


@dataclass(frozen=True)
class Slip:
    table: TableRound
    seats: list[TableSeat]
    dealer: str
    rows: list[tuple[int, str]]  # hand number, its dealer (at five: who sits out)
    link: str
    qr: str
    code_page: str  # where the short code is typed, as printed: "tarock.example.org/t/"


def _slip(table: TableRound, base: str) -> Slip:
    seats = list(
        table.seats.all()
    )  # in playing order (``TableSeat.Meta.ordering``); prefetched by ``table_slips``
    names = [s.entrant.name for s in seats]
    first = table.first_dealer - 1
    rows = [
        (h, names[(first + h - 1) % len(names)] if names else "") for h in range(1, table.hands_target + 1)
    ]
    link = base + table_link(table)
    return Slip(
        table,
        seats,
        names[first] if names else "",
        rows,
        link,
        qr_svg(link, label=_("QR code of the table link")),
        (base + code_page()).split("://", 1)[-1],
    )


def table_slips(
    tournament: Tournament, *, base: str = "", table_id: int | None = None, **_kwargs: Any
) -> Export:
    """The slips of the released or next round's tables (one table with ``table_id``), each on an A4
    of its own: rows high enough to write in by hand, each player's points and Kontra under his name."""
    tables = TableRound.objects.filter(round__tournament=tournament).select_related("round")
    if table_id is not None:
        tables = tables.filter(pk=table_id)
    else:
        current = tournament.rounds.filter(status=Round.Status.RELEASED).order_by("-number").first()
        current = current or tournament.rounds.exclude(status=Round.Status.PLANNED).order_by("number").first()
        tables = tables.filter(round=current)
    seated = Prefetch("seats", queryset=TableSeat.objects.select_related("entrant").order_by("position"))
    slips = [_slip(t, base) for t in tables.order_by("round__number", "number").prefetch_related(seated)]
    context = {"tournament": tournament, "slips": slips}
    return _pdf("tournaments/print/slips.html", context, f"{tournament.name}-tischzettel")


# -- a player card ---------------------------------------------------------------------------


@dataclass(frozen=True)
class CardRound:
    number: int
    table: int | None
    seat: int | None
    opponents: tuple[str, ...]
    result: RoundResult | None
    on_paper: bool = False  # typed in at the desk: its hands were counted on the slip
    hands: int | None = None  # hands played: as counted when the table locked, else read from its session


def player_card(tournament: Tournament, entrant: Entrant) -> Export:
    """One entrant's day: per round table, seat, opponents, hands, result, money, Kontra cash, table rank."""
    seats = {s.round.number: s for s in entrant.seats.select_related("round", "table")}
    found = {r.round.number: r for r in entrant.results.select_related("round")}
    at_table: dict[int, list[str]] = {}
    for table_id, name in (  # everyone at his tables, one query for all rounds
        TableSeat.objects.filter(table__in=[s.table_id for s in seats.values()])
        .exclude(entrant=entrant)
        .order_by("position")
        .values_list("table_id", "entrant__name")
    ):
        at_table.setdefault(table_id, []).append(name)
    played = results.live_played(s.table for s in seats.values() if not s.table.is_locked)
    rounds = []
    for number in range(1, tournament.settings["rounds"] + 1):
        seat = seats.get(number)
        result = found.get(number)
        if result is not None and result.counted:
            hands: int | None = result.hands_played
        else:
            hands = played.get(seat.table_id) if seat is not None and seat.table.session_id else None
        others = tuple(at_table.get(seat.table_id, ())) if seat is not None else ()
        rounds.append(
            CardRound(
                number,
                seat.table.number if seat else None,
                seat.position if seat else None,
                others,
                result,
                seat is not None and seat.table.status == TableRound.Status.DESK,
                hands,
            )
        )
    place = next((row for row in ranking(tournament).rows if row.entrant.pk == entrant.pk), None)
    context = {"tournament": tournament, "entrant": entrant, "rounds": rounds, "place": place}
    return _pdf("tournaments/print/card.html", context, f"{tournament.name}-{entrant.name}")


KINDS: dict[str, Callable[..., Export]] = {
    "slips": table_slips,
    "plan": plan_pdf,
    "ranking": ranking_pdf,
    "prizes": prizes_pdf,
    "teams": teams_pdf,
}


def season_pdf(season: Any, sides: Sequence[Any] = ()) -> Export:
    """The season table of a cup (§5.4) on A4, its side rankings (§14.4) after it."""
    return _pdf(
        "tournaments/print/season.html",
        {"season": season, "cup": season.cup, "sides": list(sides)},
        f"{season.cup.name}-{season.cup.season}",
    )


# -- registration at the door (§14.2) ----------------------------------------------------------


def door_poster(tournament: Tournament, url: str) -> Export:
    """The poster at the entrance: the registration link as a large QR code, with
    the link written out and what a player does on her phone."""
    context = {
        "tournament": tournament,
        "url": url,
        "qr": qr_svg(url, label=_("QR code of the registration link")),
        "fee": tournament.settings.get("entry_fee"),
    }
    return _pdf("tournaments/print/door_poster.html", context, f"{tournament.name}-anmeldung")


def register_card(context: dict[str, Any]) -> Export:
    """A player card: her name (per ``public_name``), place, number, and the QR code
    of the address that fills her number in at the desk; never her PIN."""
    entry = context["entry"]
    return _pdf("tournaments/print/register_card.html", context, f"spielerkarte-{entry.number}")


# -- the final of the circuit (§14.7) -----------------------------------------------------


def qualification_pdf(circuit: Any, cup: Any) -> Export:
    """A cup's qualification list for the circuit's final on A4 (``circuit_final.CupStanding``)."""
    return _pdf(
        "tournaments/print/qualification.html",
        {"circuit": circuit, "cup": cup},
        f"{cup.cup.name}-{cup.cup.season}-qualifikation",
    )


def qualified_pdf(standing: Any) -> Export:
    """The circuit's qualified players on A4 (``circuit_final.Standings``)."""
    circuit = standing.circuit
    return _pdf(
        "tournaments/print/qualified.html",
        {"circuit": circuit, "standing": standing},
        f"{circuit.name}-{circuit.season}-qualifiziert",
    )


def gesamtwertung_pdf(standing: Any) -> Export:
    """The final's Gesamtwertung on A4 (``circuit_final.Standings``)."""
    circuit = standing.circuit
    return _pdf(
        "tournaments/print/gesamtwertung.html",
        {"circuit": circuit, "standing": standing},
        f"{circuit.name}-{circuit.season}-gesamtwertung",
    )
