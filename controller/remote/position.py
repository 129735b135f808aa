"""What two boards compare to know they agree: a digest of the public position at a ply
(docs/remote.md, rule 4). A stand-in and the true state have the same public part, so host and guest
compute the same digest from different states."""

from __future__ import annotations

import hashlib
import json

from controller.games import State
from controller.games.public import public_observation


def public_board(state: State) -> dict[str, list[str]]:
    """The pieces on the board by field name, as anyone at the table sees them ("kind:seat")."""
    game = state.game
    return {
        game.format_cell(cell): [f"{piece.kind}:{'' if piece.owner is None else piece.owner}" for piece in pieces]
        for cell, pieces in sorted(state.occupancy().items())
    }


def digest(state: State, ply: int) -> str:
    public, _ = public_observation(state)
    text = json.dumps({"ply": ply, "public": public}, sort_keys=True, separators=(",", ":"), default=str)
    return hashlib.sha256(text.encode()).hexdigest()[:16]
