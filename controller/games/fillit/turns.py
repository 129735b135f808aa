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


class FillitTurns:
    """Applying an action (a stone step, a slide that lays chips, the end of a turn) and why one is illegal."""

    def apply_legal(self, action: Action) -> FillitState:
        if isinstance(action, StoneStep):
            return self._step_stone(action)
        assert isinstance(action, Slide)
        return self._slide(action)

    def _step_stone(self, action: StoneStep) -> FillitState:
        # F-7: whatever is on the target (stone, pawn, chip, or pawn with its chip) moves to the
        # origin. The origin held a stone, so it had no pawn and no chip.
        stones = dict(self._stones)
        chips = dict(self._chips)
        side = stones.pop(action.origin)
        if action.target in stones:
            stones[action.origin] = stones.pop(action.target)
        if action.target in chips:
            chips[action.origin] = chips.pop(action.target)
        pawns = tuple(action.origin if cell == action.target else cell for cell in self._pawns)
        stones[action.target] = side
        moved = self._successor(pawns, stones, chips, self._supply, self._phase)
        if self._phase == PHASE_PAWN_MOVED:
            return moved._end_turn()
        # F-5: the pawn must slide next if it can; if it cannot, no order allowed a slide (the step
        # would not have been legal otherwise) and the stone step was the whole turn.
        after = moved._with_phase(PHASE_STONE_MOVED)
        return after if after.slide_paths() else moved._end_turn()

    def _slide(self, action: Slide) -> FillitState:
        path = self.slide_paths()[action]
        side = self.side_of(self._current)
        chips = dict(self._chips)
        supply = list(self._supply)
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
        pawns = tuple(action.target if cell == action.origin else cell for cell in self._pawns)
        moved = self._successor(pawns, self._stones, chips, tuple(supply), PHASE_PAWN_MOVED)
        if moved.winning_side() is not None:
            return moved  # rule text: the game ends immediately, even before the stone step
        # F-5: a slide after the stone step ends the turn; a slide first leaves the stone step to do.
        return moved._end_turn() if self._phase == PHASE_STONE_MOVED else moved

    def _successor(
        self,
        pawns: tuple[Cell, ...],
        stones: dict[Cell, int],
        chips: dict[Cell, int],
        supply: tuple[int, ...],
        phase: str,
    ) -> FillitState:
        return type(self)(
            self._game,
            self._players,
            self._setup,
            pawns,
            stones,
            chips,
            supply,
            current=self._current,
            phase=phase,
            turn=self._turn,
            ply=self._ply + 1,
            max_turns=self._max_turns,
        )

    def _with_phase(self, phase: str) -> FillitState:
        return type(self)(
            self._game,
            self._players,
            self._setup,
            self._pawns,
            self._stones,
            self._chips,
            self._supply,
            current=self._current,
            phase=phase,
            turn=self._turn,
            ply=self._ply,
            max_turns=self._max_turns,
        )

    def _end_turn(self) -> FillitState:
        return type(self)(
            self._game,
            self._players,
            self._setup,
            self._pawns,
            self._stones,
            self._chips,
            self._supply,
            current=(self._current + 1) % self._players,
            phase=PHASE_START,
            turn=self._turn + 1,
            ply=self._ply,
            max_turns=self._max_turns,
        )

    def why_illegal(self, action: Action) -> str:
        if self.is_terminal():
            return "the game is over"
        if not isinstance(action, Slide | StoneStep):
            return f"{action!r} is not a Fillit action"
        if not (self.grid.contains(action.origin) and self.grid.contains(action.target)):
            return f"both hexes must be on the {self.board} board"
        origin, target = self.grid.format_cell(action.origin), self.grid.format_cell(action.target)
        mover = colour_title(self.seats[self._current])
        if isinstance(action, Slide):
            return self._why_slide_illegal(action, origin, target, mover)
        if self._phase == PHASE_STONE_MOVED:
            return f"{mover} has already moved a stone this turn; now the pawn must slide (F-5)"
        owner = self._stones.get(action.origin)
        if owner is None:
            return f"there is no stone on {origin}"
        if owner != self.side_of(self._current):
            whose = self.describe_side(owner)
            return f"the stone on {origin} is {whose}'s; {mover} may only move their own side's stones"
        if distance(action.origin, action.target) != 1:
            return f"a stone steps to a neighbouring hex; {target} is not next to {origin} (F-7)"
        if action.target == CENTRE:
            return f"nothing may enter the blocked centre {target} (F-1)"
        return (
            f"after the stone step {origin}-{target} {mover}'s pawn could not slide, but a turn with a "
            "slide is possible: if you can move your pawn, you must (F-5)"
        )

    def _why_slide_illegal(self, action: Slide, origin: str, target: str, mover: str) -> str:
        if self._phase == PHASE_PAWN_MOVED:
            return f"{mover}'s pawn has already slid this turn; now a stone must step (F-5)"
        pawn = self._pawns[self._current]
        if action.origin != pawn:
            if action.origin in self._pawns:
                other = colour_title(self.seats[self._pawns.index(action.origin)])
                return f"the pawn on {origin} is {other}'s; {mover} may only slide their own pawn"
            return f"{mover}'s pawn is on {self.grid.format_cell(pawn)}, not on {origin}"
        if action.target == action.origin:
            return "a pawn must move at least one hex (F-6)"
        direction = direction_between(action.origin, action.target)
        if direction is None:
            return f"a pawn slides in a straight line in one of the six directions; {target} is not in line"
        name = NAME_OF_DIRECTION[direction]
        path = self.grid.ray(action.origin, direction, self.obstacles().__contains__)
        if not path:
            return f"the pawn cannot move {name}: the next hex is the edge, the centre, a stone or a pawn"
        end = self.grid.format_cell(path[-1])
        if action.target in path:
            return f"a pawn cannot stop part-way: sliding {name} from {origin} it goes on to {end} (F-6)"
        return f"sliding {name} from {origin} the pawn stops on {end}, before the edge or an obstacle (F-6)"
