"""Use cases: the only code that touches both the engine and the database.

By use case, writes apart from reads:

- ``games``     a session as the engine sees it (read)
- ``access``    who may see and change what (read)
- ``sessions``  opening a session; its version (write)
- ``hands``     recording, correcting, deleting, restoring hands (write)
- ``sharing``   share links, editors, the state a watching phone compares
- ``imports``   a session from a ``tarockscore/1`` file (write)
- ``rescore``   re-scoring stored hands, the one explicit way history changes

The sheet itself (the read model of a session) is ``scoring.sheet``; files
leaving the app are ``scoring.exports``. Each writing function is keyword-only
and runs in one transaction; input the engine refuses raises ``InvalidInput``
before anything is written.
"""

from scoring.services.access import hand_for, hand_of, session_for, session_shared
from scoring.services.games import Game, game_of, options_json
from scoring.services.hands import (
    HandConflict,
    hand_check,
    hand_delete,
    hand_edit,
    hand_record,
    hand_restore,
    proposed_dealer,
)
from scoring.services.imports import name_from_filename, session_import
from scoring.services.rescore import Rescore, RescoredHand, session_rescore
from scoring.services.sessions import mark_changed, session_create
from scoring.services.sharing import (
    BoardState,
    EditorRefused,
    session_add_editor,
    session_board_state,
    session_remove_editor,
    session_share,
    session_unshare,
)

__all__ = [
    "BoardState",
    "EditorRefused",
    "Game",
    "HandConflict",
    "Rescore",
    "RescoredHand",
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
    "proposed_dealer",
    "session_add_editor",
    "session_board_state",
    "session_create",
    "session_for",
    "session_import",
    "session_remove_editor",
    "session_rescore",
    "session_share",
    "session_shared",
    "session_unshare",
]
