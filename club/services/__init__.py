"""The regular table's use cases: the only code of the club app touching the
database. By use case:

- ``access``    which groups a user may open (read)
- ``groups``    group, members, roster, invitations, house rules, seasons, its
                evenings (write)
- ``standings`` each player's evening in a group, summed from the stored hands
                with every change to the evening (write)
- ``stats``     statistics across a group's evenings and seasons (read; values
                only, never drawn)
- ``kasse``     the group's money box: evenings booked, payments, reversals (write)
- ``evenings``  the receivers of the evenings' events (``scoring.services.events``):
                standings and Kasse follow every change of an evening, in its
                transaction

Built on the evenings (``scoring.services``); the scoring app imports nothing
from here.
"""
