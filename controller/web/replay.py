"""A game of the history, step by step: the pieces and the LED marks after every move."""

from __future__ import annotations

from typing import Any

from controller.games.seats import seat_name
from controller.service.archive import ArchivedGame
from controller.table.board import board_map
from controller.table.palette import mark_colour
from controller.web.views import board_geometry, hex_colour
from hal.profile import BoardProfile


def replay_view(record: ArchivedGame, profile: BoardProfile | None) -> dict[str, Any]:
    """Every position of the game (the start, then after each move) with the move that led to it.

    Raises ArchiveError when a move no longer replays, ValueError when this board cannot show it."""
    game, states = record.replay()
    board = board_map(profile, game, states[0]) if profile is not None else None
    steps = []
    for index, state in enumerate(states):
        move = None
        if index:
            before = states[index - 1]
            move = f"{index}. {seat_name(before, before.current_player)}: {record.actions[index - 1]}"
        steps.append(
            {
                "move": move,
                "pieces": {
                    game.format_cell(cell): [{"kind": p.kind, "owner": p.owner} for p in stack]
                    for cell, stack in state.occupancy().items()
                },
                "led": {
                    game.format_cell(cell): hex_colour(mark_colour(mark.colour)) for cell, mark in state.marks().items()
                },
            }
        )
    return {
        "summary": record.summary(),
        "board": board_geometry(game, board) if board is not None else None,
        "steps": steps,
    }
