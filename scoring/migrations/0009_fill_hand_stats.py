# Hands recorded before statistics existed get what the statistics keep of them
# (kind, each seat's part, who won, marks), read from their stored inputs once,
# as the hand services now write it with every snapshot. A stored hand that
# today's rules would refuse keeps empty statistics: it still counts with its
# stored deltas, only not by contract or role.

from typing import Any

from django.db import migrations

# A frozen copy of the engine (scoring/migrations/frozen): what this migration
# does never changes with the application's code.
from scoring.migrations.frozen.engine import VARIANTS, InvalidInput
from scoring.migrations.frozen.engine.session_file import hand_document, read_hand

BATCH = 500


def fill(apps: Any, schema_editor: Any) -> None:
    Session = apps.get_model("scoring", "Session")
    Seat = apps.get_model("scoring", "Seat")
    Hand = apps.get_model("scoring", "Hand")
    for session in Session.objects.order_by("pk").iterator():
        variant = VARIANTS.get(session.variant)
        if variant is None:
            continue
        players = tuple(Seat.objects.filter(session=session).order_by("position").values_list("name", flat=True))
        try:
            options = variant.parse_options(session.options, players)
        except InvalidInput:
            continue
        changed = []
        previous = None
        for hand in Hand.objects.filter(session=session).order_by("number").iterator():
            raw = hand_document(hand.type, hand.dealer, hand.sitting_out, hand.inputs, hand.note)
            try:
                record = read_hand(variant, players, options, raw, previous)
            except InvalidInput:
                previous = hand.dealer or previous
                continue
            previous = record.table.dealer
            hand.stats = variant.hand_stats(record, options).to_json()
            changed.append(hand)
            if len(changed) >= BATCH:
                Hand.objects.bulk_update(changed, ["stats"])
                changed = []
        Hand.objects.bulk_update(changed, ["stats"])


class Migration(migrations.Migration):
    dependencies = [
        ("scoring", "0008_groups_statistics_kasse"),
    ]

    operations = [migrations.RunPython(fill, migrations.RunPython.noop)]
