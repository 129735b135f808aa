"""Fillit's actions (a stone step, a pawn's slide) and their notation."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import TYPE_CHECKING

from controller.games.base import (
    Action,
    Cell,
    NotationError,
)

if TYPE_CHECKING:
    from controller.games.fillit.state import FillitState

_ACTION_TEXT = re.compile(r"([sp]):([a-z][0-9]+)-([a-z][0-9]+)")


@dataclass(frozen=True, slots=True)
class StoneStep:
    """F-7: move the stone on `origin` one step to `target`, swapping with whatever is there."""

    origin: Cell
    target: Cell


@dataclass(frozen=True, slots=True)
class Slide:
    """F-6: slide the player's pawn from `origin` in a straight line until it stops on `target`."""

    origin: Cell
    target: Cell


def action_fields(state: FillitState, action: Action) -> tuple[tuple[Cell], tuple[Cell]]:
    """Where the moving stone or pawn leaves and where it goes: the board lights them when it
    offers a move no sensor sees (a stone-stone swap changes no reading, nor the occupancy)."""
    if isinstance(action, StoneStep | Slide):
        return (action.origin,), (action.target,)
    raise NotationError(f"{action!r} is not a Fillit action")


def action_reach(state: FillitState, action: Action) -> tuple[Cell, ...]:
    """F-7: a step swaps what stands on its two hexes, a slide moves the pawn: the pieces of no
    other hex change (chips are light only)."""
    origins, targets = action_fields(state, action)
    return (*origins, *targets)


# --- notation ----------------------------------------------------------------------------
def action_to_str(state: FillitState, action: Action) -> str:
    if isinstance(action, StoneStep | Slide):
        kind = "s" if isinstance(action, StoneStep) else "p"
        return f"{kind}:{state.grid.format_cell(action.origin)}-{state.grid.format_cell(action.target)}"
    raise NotationError(f"{action!r} is not a Fillit action")


def parse_action(state: FillitState, text: str) -> Action:
    match = _ACTION_TEXT.fullmatch(text.strip())
    if match is None:
        raise NotationError(
            f"{text!r} is not a Fillit action (write s:from-to for a stone step, e.g. s:b2-b3, "
            "or p:from-to for a pawn slide, e.g. p:a1-a5)"
        )
    kind, origin, target = match.groups()
    cells = (state.grid.parse_cell(origin), state.grid.parse_cell(target))
    return StoneStep(*cells) if kind == "s" else Slide(*cells)
