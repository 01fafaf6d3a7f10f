# Group evenings stored before the statistics and the Kasse followed each evening's
# settlement are put right once:
# - the statistics rows of an evening that settles series by series (Illustriertes
#   Tarock) are written again with each player's balance, what the settlement pays,
#   instead of the block's sums;
# - a deleted evening's standing booking is reversed by a counter-booking;
# - a closed evening of a group with a money rate that was never booked (it joined
#   the group closed) is booked.
# Bookings are never changed in place; these are new bookings, made by nobody.

from typing import Any

from django.db import migrations
from django.db.models import F

# Frozen copies (scoring/migrations/frozen): what this migration does never
# changes with the application's code.
from scoring.migrations.frozen.engine import VARIANTS, InvalidInput
from scoring.migrations.frozen.standings import Game, evening_from, result_values


def settle(apps: Any, schema_editor: Any) -> None:
    Session = apps.get_model("scoring", "Session")
    Seat = apps.get_model("scoring", "Seat")
    Hand = apps.get_model("scoring", "Hand")
    EveningResult = apps.get_model("scoring", "EveningResult")
    Booking = apps.get_model("scoring", "Booking")
    BookingLine = apps.get_model("scoring", "BookingLine")
    Group = apps.get_model("scoring", "Group")

    def book(session: Any, kind: str, lines: list[tuple[int | None, Any]], reverses: Any = None) -> None:
        booking = Booking.objects.create(
            group_id=session.group_id, kind=kind, session=session, reverses=reverses, note=""
        )
        BookingLine.objects.bulk_create(
            BookingLine(booking=booking, group_id=session.group_id, player_id=player, amount=amount)
            for player, amount in lines
        )

    for session in Session.objects.filter(group__isnull=False).order_by("pk").iterator():
        standing = list(Booking.objects.filter(session=session, kind="evening", reversed_by__isnull=True))
        if session.deleted_at is not None:
            for booking in standing:
                lines = BookingLine.objects.filter(booking=booking).values_list("player_id", "amount")
                book(session, "reversal", [(player, -amount) for player, amount in lines], reverses=booking)
            continue
        variant = VARIANTS.get(session.variant)
        if variant is None:
            continue
        kind = variant.section_kind
        settled_each = kind is not None and kind.settled_each
        unbooked = session.closed_at is not None and session.money_rate is not None and not standing
        if not (settled_each or unbooked):
            continue
        seats = list(Seat.objects.filter(session=session).order_by("position"))
        players = tuple(seat.name for seat in seats)
        try:
            game = Game(variant, players, variant.parse_options(session.options, players))
        except InvalidInput:
            continue
        hands = list(Hand.objects.filter(session=session, deleted_at__isnull=True).order_by("number"))
        evening = evening_from(game, hands, session.money_rate)
        if settled_each:
            values = result_values(evening)
            EveningResult.objects.filter(session=session).delete()
            EveningResult.objects.bulk_create(
                EveningResult(
                    group_id=session.group_id,
                    session=session,
                    player_id=seat.roster_id,
                    played_on=session.played_on,
                    variant=session.variant,
                    **values[seat.name],
                )
                for seat in seats
                if seat.roster_id is not None
            )
        if unbooked:
            money = evening.settlement.money or {}
            lines = [(seat.roster_id, money.get(seat.name, 0)) for seat in seats if seat.roster_id is not None]
            book(session, "evening", lines)
    Group.objects.update(version=F("version") + 1)  # the statistics pages are rendered again


class Migration(migrations.Migration):
    dependencies = [
        ("scoring", "0009_fill_hand_stats"),
    ]

    operations = [migrations.RunPython(settle, migrations.RunPython.noop)]
