"""Readable Fillit test positions: pieces by notation, the rest (supplies, JSON) filled in."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence

from controller.games import load_game
from controller.games.fillit import CHIPS, GRIDS, FillitState
from controller.games.hexgrid import CENTRE

GAME = load_game("fillit")

# An open 2-player position on the large board: Red's pawn on e3 can slide in all six directions.
RED_STONES = ("a5", "b6", "c7", "d8")
YELLOW_STONES = ("f8", "g7", "h6", "i5")


def position(
    pawns: Sequence[str],
    stones: Sequence[Sequence[str]],
    chips: Mapping[str, int] | None = None,
    *,
    players: int = 2,
    board: str = "large",
    current: int = 0,
    phase: str = "start",
    turn: int = 0,
    max_turns: int | None = 300,
    supply: Mapping[int, int] | None = None,
    keep_clear: Iterable[str] = (),
) -> FillitState:
    """A state built through `state_from_json`.

    `stones` lists each side's stone hexes, `chips` maps hexes to the side owning the chip there.
    Supplies follow from F-2's conservation; `supply` asks for a smaller supply for some sides, and
    their spare chips are laid on free hexes from the south-east end of the board (never on
    `keep_clear`).
    """
    grid = GRIDS[board]
    laid = dict(chips or {})
    total = CHIPS[(board, players)]
    sides = 2 if players == 4 else players
    if supply:
        used = {*pawns, *(c for side in stones for c in side), *laid, *keep_clear, grid.format_cell(CENTRE)}
        spare = [text for text in map(grid.format_cell, reversed(grid.cells())) if text not in used]
        for side, wanted in sorted(supply.items()):
            missing = total - wanted - sum(1 for owner in laid.values() if owner == side)
            for _ in range(missing):
                laid[spare.pop(0)] = side
    data = {
        "game": "fillit",
        "version": 1,
        "board": board,
        "setup": "A",
        "players": players,
        "current_player": current,
        "phase": phase,
        "turn": turn,
        "ply": turn * 2,
        "max_turns": max_turns,
        "pawns": list(pawns),
        "stones": [{"cell": cell, "owner": side} for side, cells in enumerate(stones) for cell in cells],
        "chips": [{"cell": cell, "owner": side} for cell, side in laid.items()],
        "supply": [total - sum(1 for owner in laid.values() if owner == side) for side in range(sides)],
    }
    state = GAME.state_from_json(data)
    assert isinstance(state, FillitState)
    return state


def open_position(**changes: object) -> FillitState:
    """Red's pawn on e3 (six slides), Yellow's on e9, each on its own chip; Red to move."""
    parts: dict[str, object] = {
        "pawns": ("e3", "e9"),
        "stones": (RED_STONES, YELLOW_STONES),
        "chips": {"e3": 0, "e9": 1},
    }
    parts.update(changes)
    return position(**parts)  # type: ignore[arg-type]


def play(state: FillitState, *texts: str) -> FillitState:
    for text in texts:
        after = state.apply(state.parse_action(text))
        assert isinstance(after, FillitState)
        state = after
    return state


def cell(state: FillitState, text: str) -> tuple[int, int]:
    return state.grid.parse_cell(text)


def chips_by_text(state: FillitState) -> dict[str, int]:
    return {state.grid.format_cell(c): side for c, side in state.chips.items()}
