"""What two boards compare to know they agree: a digest of the public position at a ply
(docs/remote.md, rule 4). A stand-in and the true state have the same public part, so host and guest
compute the same digest from different states."""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Mapping
from typing import Any

from controller.games import State
from controller.games.public import public_observation


def public_board(state: State) -> dict[str, list[str]]:
    """The pieces on the board by field name, as anyone at the table sees them ("kind:seat")."""
    game = state.game
    return {
        game.format_cell(cell): [f"{piece.kind}:{'' if piece.owner is None else piece.owner}" for piece in pieces]
        for cell, pieces in sorted(state.occupancy().items())
    }


PIECE = re.compile(r"[a-z0-9_-]{1,32}:([0-9]{0,2})")  # public_board's "kind:seat", no seat for a neutral piece


def board_problem(board: Mapping[str, Any], seats: int) -> str | None:
    """What is wrong, in words, with a board as public_board writes it, read from another board's
    message (a game of `seats` seats); None: nothing."""
    for name, pieces in board.items():
        if not isinstance(pieces, list) or len(pieces) > 16:
            return f"field {name[:20]!r} holds no list of pieces"
        for piece in pieces:
            match = PIECE.fullmatch(piece) if isinstance(piece, str) else None
            if match is None or (match.group(1) and int(match.group(1)) >= seats):
                return f"field {name[:20]!r} holds {str(piece)[:40]!r}, not a piece of this game's seats"
    return None


def digest(state: State, ply: int) -> str:
    public, _ = public_observation(state)
    text = json.dumps({"ply": ply, "public": public}, sort_keys=True, separators=(",", ":"), default=str)
    return hashlib.sha256(text.encode()).hexdigest()[:16]
