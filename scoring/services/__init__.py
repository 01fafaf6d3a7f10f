"""Use cases: the only code that touches both the engine and the database.

By use case, writes apart from reads:

- ``games``     a session as the engine sees it (read)
- ``access``    who may see and change what (read)
- ``sessions``  opening, closing, deleting and restoring a session; its
                history and version (write)
- ``corrections`` a session's name, day, money rate, player names and house
                rules put right after it started (write)
- ``hands``     recording, correcting, deleting, restoring hands (write)
- ``sharing``   share links, editors, the state a watching phone compares
- ``declared`` the hands one player declared, with his points (read)
- ``hand_page`` a hand's own page: its deltas in playing order, its history (read)
- ``imports``   a session from a ``tarockscore/1`` file (write)
- ``rescore``   re-scoring stored hands, the one explicit way history changes
- ``events``    what other apps hear of an evening's changes, in its transaction

The regular table (groups, roster, statistics, standings, Kasse) is the ``club``
app's; it hears of every change to an evening through ``events``, in the same
transaction, and this package imports nothing of it.

The sheet itself (the read model of a session) is ``scoring.sheet``; files
leaving the app are ``scoring.exports``. Each writing function is keyword-only
and runs in one transaction; input the engine refuses raises ``InvalidInput``
before anything is written.
"""

from scoring.services.access import (
    Right,
    deleted_sessions,
    hand_for,
    hand_of,
    row_version,
    session_and_right,
    session_deleted_for,
    session_for,
    session_shared,
    sessions_of,
    shared_row,
)
from scoring.services.corrections import (
    RulesChange,
    RulesRefused,
    session_change_rules,
    session_edit,
    session_rename_player,
)
from scoring.services.declared import DeclaredHand, declared_hands
from scoring.services.games import (
    Game,
    form_defaults,
    game_of,
    options_json,
    rules_form_initial,
    with_unshown_rules,
)
from scoring.services.hands import (
    HandConflict,
    earlier_hands,
    hand_check,
    hand_delete,
    hand_edit,
    hand_record,
    hand_restore,
    played_hands,
    proposed_dealer,
)
from scoring.services.imports import name_from_filename, session_import
from scoring.services.rescore import Rescore, RescoredHand, session_rescore
from scoring.services.sessions import (
    RESTORABLE_DAYS,
    NotRestorable,
    SeatsFixed,
    SessionClosed,
    SessionManaged,
    mark_changed,
    player_of,
    session_close,
    session_create,
    session_delete,
    session_lock,
    session_reopen,
    session_reseat,
    session_restore,
    sessions_discard_unplayed,
    sessions_purge,
    sessions_version,
)
from scoring.services.sharing import (
    BoardState,
    EditorRefused,
    session_add_editor,
    session_board_state,
    session_remove_editor,
    session_share,
    session_unshare,
    sessions_set_editors,
)

__all__ = [
    "RESTORABLE_DAYS",
    "BoardState",
    "DeclaredHand",
    "EditorRefused",
    "Game",
    "HandConflict",
    "NotRestorable",
    "Rescore",
    "RescoredHand",
    "Right",
    "RulesChange",
    "RulesRefused",
    "SeatsFixed",
    "SessionClosed",
    "SessionManaged",
    "declared_hands",
    "deleted_sessions",
    "earlier_hands",
    "form_defaults",
    "game_of",
    "hand_check",
    "hand_delete",
    "hand_edit",
    "hand_for",
    "hand_of",
    "hand_record",
    "hand_restore",
    "mark_changed",
    "name_from_filename",
    "options_json",
    "played_hands",
    "player_of",
    "proposed_dealer",
    "row_version",
    "rules_form_initial",
    "session_add_editor",
    "session_and_right",
    "session_board_state",
    "session_change_rules",
    "session_close",
    "session_create",
    "session_delete",
    "session_deleted_for",
    "session_edit",
    "session_for",
    "session_import",
    "session_lock",
    "session_remove_editor",
    "session_rename_player",
    "session_reopen",
    "session_rescore",
    "session_reseat",
    "session_restore",
    "session_share",
    "session_shared",
    "session_unshare",
    "sessions_discard_unplayed",
    "sessions_of",
    "sessions_purge",
    "sessions_set_editors",
    "sessions_version",
    "shared_row",
    "with_unshown_rules",
]
