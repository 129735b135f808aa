"""Klotz positions for the physical tests: hand-built ones (captures, passes) and random ones."""

from __future__ import annotations

import random

from controller.games import load_game
from controller.games.klotz import KlotzState

KLOTZ = load_game("klotz")


def position(players: int, current: int, blocks: list[tuple[str, str, int, int | None]], ply: int = 0) -> KlotzState:
    """A Klotz state from (field, kind, size, player) tuples, e.g. ("g8", "square", 4, 0)."""
    data = KLOTZ.new_game(players=players).to_json()
    data.update(
        current_player=current,
        ply=ply,
        blocks=[{"cell": cell, "kind": kind, "size": size, "player": player} for cell, kind, size, player in blocks],
    )
    return KLOTZ.state_from_json(data)


def random_position(seed: int, players: int, plies: int) -> KlotzState:
    """The position after `plies` random legal moves from the set-up (fewer if the game ends)."""
    rng = random.Random(seed)
    state = KLOTZ.new_game(players=players, seed=seed, max_plies=None)
    for _ in range(plies):
        if state.is_terminal():
            break
        state = state.apply(rng.choice(state.legal_actions()))
    return state


# Red (seat 0) may move its square g8-g12; Yellow (seat 1) then captures it with the 1-block on f12,
# sending it home to g8. The 1-block on a5 is a bystander.
CAPTURE_SETUP = [
    ("g8", "square", 4, 0),
    ("h7", "square", 4, 1),
    ("f12", "cylinder", 1, None),
    ("a5", "cylinder", 1, None),
]


def blocked_position() -> KlotzState:
    """Red and Yellow at home and every other free field filled with 1-blocks: nobody can move."""
    squares = {"g8": 0, "h7": 1}
    blocks = [(field, "square", 4, player) for field, player in squares.items()]
    for x in range(14):
        for y in range(14):
            field = KLOTZ.format_cell((x, y))
            if field not in squares and field not in ("a1", "n1", "a14", "n14", "g7", "h8"):
                blocks.append((field, "cylinder", 1, None))
    return position(2, 0, blocks)
