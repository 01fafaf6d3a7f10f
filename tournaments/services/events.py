"""What other apps hear of a tournament, in the transaction that changes it.

As ``scoring.services.events`` for the evenings: a Django signal sent with
``send`` (never ``send_robust``), so a receiver runs at once in the caller's
transaction and an exception it raises rolls the change back. Every argument
is keyword-only.

- ``table_changed(table)``: what the ranking counts of a table-round changed
  (signed, ended, typed in, confirmed, opened again): sent by
  ``results.table_changed`` after the table's ``RoundResult`` rows are written.
- ``register_merged(cup, player, into)``: the cup's register entry ``player``
  counts as ``into`` from now on (``cups.cup_player_merge``); sent after its
  entrants moved to ``into``.
- ``circuit_merged(circuit, entry, into)``: the circuit's number ``entry`` is an
  alias of ``into`` from now on (``circuit.register_merge``); sent after the
  cups' entries of ``entry`` moved to ``into``.
"""

from __future__ import annotations

from django.dispatch import Signal

from tournaments.models import Circuit, CircuitPlayer, Cup, CupPlayer, TableRound

table_changed = Signal()
register_merged = Signal()
circuit_merged = Signal()


def send_table_changed(table: TableRound) -> None:
    table_changed.send(sender=TableRound, table=table)


def send_register_merged(cup: Cup, player: CupPlayer, into: CupPlayer) -> None:
    register_merged.send(sender=CupPlayer, cup=cup, player=player, into=into)


def send_circuit_merged(circuit: Circuit, entry: CircuitPlayer, into: CircuitPlayer) -> None:
    circuit_merged.send(sender=CircuitPlayer, circuit=circuit, entry=entry, into=into)
