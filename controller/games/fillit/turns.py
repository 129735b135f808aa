"""Applying a Fillit action: a stone step, a slide that lays chips, the end of a turn; why an action is illegal."""

from __future__ import annotations

from typing import TYPE_CHECKING

from controller.games.base import (
    Action,
    Cell,
)
from controller.games.fillit.actions import Slide, StoneStep
from controller.games.fillit.model import PHASE_PAWN_MOVED, PHASE_START, PHASE_STONE_MOVED
from controller.games.hexgrid import (
    CENTRE,
    NAME_OF_DIRECTION,
    direction_between,
    distance,
)
from controller.games.seats import colour_title

if TYPE_CHECKING:
    from controller.games.fillit.state import FillitState


def apply_legal(state: FillitState, action: Action) -> FillitState:
    if isinstance(action, StoneStep):
        return _step_stone(state, action)
    assert isinstance(action, Slide)
    return _slide(state, action)


def _step_stone(state: FillitState, action: StoneStep) -> FillitState:
    # F-7: whatever is on the target (stone, pawn, chip, or pawn with its chip) moves to the
    # origin. The origin held a stone, so it had no pawn and no chip.
    stones = dict(state._stones)
    chips = dict(state._chips)
    side = stones.pop(action.origin)
    if action.target in stones:
        stones[action.origin] = stones.pop(action.target)
    if action.target in chips:
        chips[action.origin] = chips.pop(action.target)
    pawns = tuple(action.origin if cell == action.target else cell for cell in state._pawns)
    stones[action.target] = side
    moved = _successor(state, pawns, stones, chips, state._supply, state._phase)
    if state._phase == PHASE_PAWN_MOVED:
        return _end_turn(moved)
    # F-5: the pawn must slide next if it can; if it cannot, no order allowed a slide (the step
    # would not have been legal otherwise) and the stone step was the whole turn.
    after = _with_phase(moved, PHASE_STONE_MOVED)
    return after if after._own_slides() else _end_turn(moved)


def _slide(state: FillitState, action: Slide) -> FillitState:
    path = state._own_slides()[action]
    side = state.side_of(state._current)
    chips = dict(state._chips)
    supply = list(state._supply)
    for cell in path:
        # F-6: own chips stay; an opponent's chip goes back to its owner; the mover's chip is laid.
        owner = chips.get(cell)
        if owner == side:
            continue
        if owner is not None:
            supply[owner] += 1
        chips[cell] = side
        supply[side] -= 1
        if supply[side] == 0:
            break  # F-2: the game ends the moment the supply runs out, even part-way along
    pawns = tuple(action.target if cell == action.origin else cell for cell in state._pawns)
    moved = _successor(state, pawns, state._stones, chips, tuple(supply), PHASE_PAWN_MOVED)
    if moved.winning_side() is not None:
        return moved  # rule text: the game ends immediately, even before the stone step
    # F-5: a slide after the stone step ends the turn; a slide first leaves the stone step to do.
    return _end_turn(moved) if state._phase == PHASE_STONE_MOVED else moved


def _successor(
    state: FillitState,
    pawns: tuple[Cell, ...],
    stones: dict[Cell, int],
    chips: dict[Cell, int],
    supply: tuple[int, ...],
    phase: str,
) -> FillitState:
    return type(state)(
        state._game,
        state._players,
        state._setup,
        pawns,
        stones,
        chips,
        supply,
        current=state._current,
        phase=phase,
        turn=state._turn,
        ply=state._ply + 1,
        max_turns=state._max_turns,
    )


def _with_phase(state: FillitState, phase: str) -> FillitState:
    return type(state)(
        state._game,
        state._players,
        state._setup,
        state._pawns,
        state._stones,
        state._chips,
        state._supply,
        current=state._current,
        phase=phase,
        turn=state._turn,
        ply=state._ply,
        max_turns=state._max_turns,
    )


def _end_turn(state: FillitState) -> FillitState:
    return type(state)(
        state._game,
        state._players,
        state._setup,
        state._pawns,
        state._stones,
        state._chips,
        state._supply,
        current=(state._current + 1) % state._players,
        phase=PHASE_START,
        turn=state._turn + 1,
        ply=state._ply,
        max_turns=state._max_turns,
    )


def why_illegal(state: FillitState, action: Action) -> str:
    if state.is_terminal():
        return "the game is over"
    if not isinstance(action, Slide | StoneStep):
        return f"{action!r} is not a Fillit action"
    if not (state.grid.contains(action.origin) and state.grid.contains(action.target)):
        return f"both hexes must be on the {state.board} board"
    origin, target = state.grid.format_cell(action.origin), state.grid.format_cell(action.target)
    mover = colour_title(state.seats[state._current])
    if isinstance(action, Slide):
        return _why_slide_illegal(state, action, origin, target, mover)
    if state._phase == PHASE_STONE_MOVED:
        return f"{mover} has already moved a stone this turn; now the pawn must slide (F-5)"
    owner = state._stones.get(action.origin)
    if owner is None:
        return f"there is no stone on {origin}"
    if owner != state.side_of(state._current):
        whose = state.describe_side(owner)
        return f"the stone on {origin} is {whose}'s; {mover} may only move their own side's stones"
    if distance(action.origin, action.target) != 1:
        return f"a stone steps to a neighbouring hex; {target} is not next to {origin} (F-7)"
    if action.target == CENTRE:
        return f"nothing may enter the blocked centre {target} (F-1)"
    return (
        f"after the stone step {origin}-{target} {mover}'s pawn could not slide, but a turn with a "
        "slide is possible: if you can move your pawn, you must (F-5)"
    )


def _why_slide_illegal(state: FillitState, action: Slide, origin: str, target: str, mover: str) -> str:
    if state._phase == PHASE_PAWN_MOVED:
        return f"{mover}'s pawn has already slid this turn; now a stone must step (F-5)"
    pawn = state._pawns[state._current]
    if action.origin != pawn:
        if action.origin in state._pawns:
            other = colour_title(state.seats[state._pawns.index(action.origin)])
            return f"the pawn on {origin} is {other}'s; {mover} may only slide their own pawn"
        return f"{mover}'s pawn is on {state.grid.format_cell(pawn)}, not on {origin}"
    if action.target == action.origin:
        return "a pawn must move at least one hex (F-6)"
    direction = direction_between(action.origin, action.target)
    if direction is None:
        return f"a pawn slides in a straight line in one of the six directions; {target} is not in line"
    name = NAME_OF_DIRECTION[direction]
    path = state.grid.ray(action.origin, direction, state.obstacles().__contains__)
    if not path:
        return f"the pawn cannot move {name}: the next hex is the edge, the centre, a stone or a pawn"
    end = state.grid.format_cell(path[-1])
    if action.target in path:
        return f"a pawn cannot stop part-way: sliding {name} from {origin} it goes on to {end} (F-6)"
    return f"sliding {name} from {origin} the pawn stops on {end}, before the edge or an obstacle (F-6)"
