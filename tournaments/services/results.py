"""What the ranking reads: each entrant's result per round (``RoundResult``),
rewritten with every change to his table, and the standings read from them
(``TOURNAMENTS.md`` §4.1, §4.2).

A minimal version, enough for the organiser's desk and the ranking; the table
pages bring the full one (money per table, Kontra cash).
"""

from __future__ import annotations

from decimal import Decimal
from fractions import Fraction

from django.db.models import F

from tournaments.core import money, ranking
from tournaments.models import Entrant, RoundResult, TableRound, Tournament, TournamentPlace


def _sums(table: TableRound) -> dict[int, Fraction]:
    """Each seated entrant's round result by start number: the desk's sums or the hands'."""
    seats = list(table.seats.select_related("entrant").order_by("position"))
    if table.desk_sums is not None:
        return {s.entrant.number: Fraction(str(table.desk_sums.get(str(s.entrant.number), 0))) for s in seats}
    totals = {s.entrant.name: Fraction(0) for s in seats}
    if table.session_id is not None:
        for deltas in table.session.hands.filter(deleted_at__isnull=True).values_list("deltas", flat=True):
            for name, value in deltas.items():
                if name in totals:
                    totals[name] += Fraction(str(value))
    return {s.entrant.number: totals[s.entrant.name] for s in seats}


def table_changed(table: TableRound) -> None:
    """Rewrite the table's ``RoundResult`` rows and raise the tournament's version
    (in the caller's transaction)."""
    table = TableRound.objects.select_related("round__tournament", "session").get(pk=table.pk)
    tournament = table.round.tournament
    sums = _sums(table)
    counted = table.is_locked
    ranks = ranking.table_ranks(sums) if counted else {}
    cash = money.table_money({str(n): v for n, v in sums.items()}, tournament.money_rate) if counted else None
    played = 0
    if table.session_id is not None:
        played = table.session.hands.filter(deleted_at__isnull=True).exclude(type="redeal").count()
    entrants = {e.number: e for e in Entrant.objects.filter(tournament=tournament, number__in=sums)}
    RoundResult.objects.filter(table=table).exclude(entrant__number__in=sums).delete()
    for number, value in sums.items():
        RoundResult.objects.update_or_create(
            round=table.round,
            entrant=entrants[number],
            defaults={
                "tournament": tournament,
                "table": table,
                "points": Decimal(value.numerator) / Decimal(value.denominator),
                "counted": counted,
                "money": cash[str(number)] if cash else None,
                "table_rank": ranks.get(number),
                "hands_played": played,
                "bye": False,
            },
        )
    Tournament.objects.filter(pk=tournament.pk).update(version=F("version") + 1)


def standings(tournament: Tournament) -> list[ranking.Place]:
    """The ranking over the counted results (fillers left out); written to
    ``TournamentPlace`` while provisional or final."""
    rounds = tournament.settings["rounds"]
    results: dict[int, dict[int, RoundResult]] = {}
    for result in RoundResult.objects.filter(tournament=tournament, counted=True).select_related("round"):
        results.setdefault(result.entrant_id, {})[result.round.number] = result
    rank_points = tournament.settings.get("rank_points") or []
    entries = []
    players = tournament.entrants.filter(kind=Entrant.Kind.PLAYER).order_by("number")
    for entrant in players:
        mine = results.get(entrant.pk, {})
        values = tuple(Fraction(str(mine[r].points)) if r in mine else None for r in range(1, rounds + 1))
        ranks = tuple(mine[r].table_rank if r in mine else None for r in range(1, rounds + 1))
        extra = sum((rank_points[k - 1] for k in ranks if k is not None and k <= len(rank_points)), 0)
        below = (
            entrant.status == Entrant.Status.WITHDRAWN
            and tournament.settings["withdrawn"] == "below_finishers"
        )
        entries.append(ranking.Entry(entrant.number, entrant.name, values, ranks, below, Fraction(extra)))
    places = ranking.rank(entries, tournament.settings["tie_break"], tournament.seed)
    if tournament.status in (Tournament.Status.PROVISIONAL, Tournament.Status.FINAL):
        _write_places(tournament, places)
    return places


def _write_places(tournament: Tournament, places: list[ranking.Place]) -> None:
    by_number = {e.number: e for e in tournament.entrants.all()}
    final = tournament.status == Tournament.Status.FINAL
    for place in places:
        total = Decimal(place.total.numerator) / Decimal(place.total.denominator)
        TournamentPlace.objects.update_or_create(
            tournament=tournament,
            entrant=by_number[place.entry.number],
            defaults={"place": place.place, "total": total, "tie_note": place.tie_note, "final": final},
        )
