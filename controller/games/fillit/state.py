"""A Fillit position: pawns, stones and chips, whose turn and phase, movement and the legal actions.

Applying actions and the reasons of illegal ones, notation and views are functions of the state in
turns.py, actions.py and views.py; this class calls them.
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import cache
from typing import TYPE_CHECKING, Any

from controller.games.base import Action, Cell, Mark, Occupancy, State
from controller.games.fillit import actions, turns, views
from controller.games.fillit.actions import Slide, StoneStep
from controller.games.fillit.model import (
    CHIPS,
    PHASE_PAWN_MOVED,
    PHASE_STONE_MOVED,
    SEATS,
    TEAM_COLOURS,
    _side_count,
    _side_of,
    board_order,
)
from controller.games.hexgrid import (
    CENTRE,
    DIRECTIONS,
    HexGrid,
)
from controller.games.seats import colour_title

if TYPE_CHECKING:
    from controller.games.fillit.game import Fillit


def _slide_order(slide: Slide) -> tuple[int, int]:
    """The notation's order of one pawn's slides: they share the origin, so by where they stop."""
    target = slide.target
    return (target[1], target[0])


@cache
def _steps_from(grid: HexGrid) -> dict[Cell, tuple[StoneStep, ...]]:
    """F-7: the steps of a stone on each hex (onto its neighbours but the centre, in board order),
    made once: every position with a stone there shares them."""
    return {
        cell: tuple(
            StoneStep(cell, target)
            for target in sorted((n for n in grid.neighbours(cell) if n != CENTRE), key=board_order)
        )
        for cell in grid.cells()
    }


class FillitState(State):
    __slots__ = (
        "_chips",
        "_current",
        "_game",
        "_legal",
        "_max_turns",
        "_obstacles",
        "_pawns",
        "_phase",
        "_players",
        "_ply",
        "_setup",
        "_slides",
        "_stones",
        "_supply",
        "_turn",
    )

    def __init__(
        self,
        game: Fillit,
        players: int,
        setup: str,
        pawns: tuple[Cell, ...],
        stones: dict[Cell, int],
        chips: dict[Cell, int],
        supply: tuple[int, ...],
        *,
        current: int,
        phase: str,
        turn: int,
        ply: int,
        max_turns: int | None,
    ) -> None:
        self._game = game
        self._players = players
        self._setup = setup
        self._pawns = pawns
        self._stones = stones  # never mutated after construction
        self._chips = chips  # never mutated after construction
        self._supply = supply
        self._current = current
        self._phase = phase
        self._turn = turn
        self._ply = ply
        self._max_turns = max_turns
        self._obstacles: frozenset[Cell] | None = None
        self._slides: dict[Slide, tuple[Cell, ...]] | None = None
        self._legal: tuple[Action, ...] | None = None

    def forget_derived(self) -> None:
        self._legal = self._slides = None

    # --- description -------------------------------------------------------------------------
    @property
    def game(self) -> Fillit:
        return self._game

    @property
    def players(self) -> int:
        return self._players

    @property
    def current_player(self) -> int:
        return self._current

    @property
    def board(self) -> str:
        return self._game.board

    @property
    def grid(self) -> HexGrid:
        return self._game.grid

    @property
    def setup(self) -> str:
        return self._setup

    @property
    def phase(self) -> str:
        return self._phase

    @property
    def turn(self) -> int:
        """Completed turns (F-8 counts these)."""
        return self._turn

    @property
    def ply(self) -> int:
        """Actions applied so far (a turn is one or two actions)."""
        return self._ply

    @property
    def seats(self) -> tuple[str, ...]:
        """The colour of each seat, in turn order."""
        return SEATS[self._players]

    @property
    def teams(self) -> bool:
        return self._players == 4

    @property
    def side_count(self) -> int:
        return _side_count(self._players)

    @property
    def side_colours(self) -> tuple[str, ...]:
        """The chip and stone colour of each side."""
        return TEAM_COLOURS if self.teams else self.seats

    def side_of(self, player: int) -> int:
        return _side_of(self._players, player)

    def members(self, side: int) -> tuple[int, ...]:
        return tuple(p for p in range(self._players) if self.side_of(p) == side)

    @property
    def total_chips(self) -> int:
        """F-2: chips each side has in all (supply plus board)."""
        return CHIPS[(self.board, self._players)]

    @property
    def supply(self) -> tuple[int, ...]:
        """Chips each side still holds, by side."""
        return self._supply

    @property
    def pawns(self) -> tuple[Cell, ...]:
        """Each seat's pawn."""
        return self._pawns

    @property
    def stones(self) -> Mapping[Cell, int]:
        """Stone hexes and the side owning each."""
        return dict(self._stones)

    @property
    def chips(self) -> Mapping[Cell, int]:
        """Chip hexes and the side owning each."""
        return dict(self._chips)

    def chips_on_board(self, side: int) -> int:
        return sum(1 for owner in self._chips.values() if owner == side)

    def describe_side(self, side: int) -> str:
        if self.teams:
            return " and ".join(colour_title(self.seats[p]) for p in self.members(side))
        return colour_title(self.seats[side])

    # --- end ---------------------------------------------------------------------------------
    def winning_side(self) -> int | None:
        """The side whose supply ran out (rule text: that player, or team, has won)."""
        for side, left in enumerate(self._supply):
            if left == 0:
                return side
        return None

    def out_of_turns(self) -> bool:
        return self._max_turns is not None and self._turn >= self._max_turns  # F-8

    def is_terminal(self) -> bool:
        return self.winning_side() is not None or self.out_of_turns()

    def side_results(self) -> tuple[float, ...]:
        """Per side: 1 win, 0 loss, 0.5 shared by the sides tied for the fewest chips at F-8's limit."""
        winner = self.winning_side()
        if winner is not None:
            return tuple(1.0 if side == winner else 0.0 for side in range(self.side_count))
        if not self.out_of_turns():
            return (0.0,) * self.side_count
        fewest = min(self._supply)
        leaders = [side for side, left in enumerate(self._supply) if left == fewest]
        # F-8: the fewest chips left wins; sides tied for the fewest draw, the others lose.
        value = 1.0 if len(leaders) == 1 else 0.5
        return tuple(value if side in leaders else 0.0 for side in range(self.side_count))

    def returns(self) -> tuple[float, ...]:
        results = self.side_results()
        return tuple(results[self.side_of(p)] for p in range(self._players))

    # --- movement ----------------------------------------------------------------------------
    def obstacles(self) -> frozenset[Cell]:
        """F-6: what stops a sliding pawn besides the edge: the centre, stones and pawns."""
        if self._obstacles is None:
            self._obstacles = frozenset((CENTRE, *self._stones, *self._pawns))
        return self._obstacles

    def slide_paths(self, player: int | None = None) -> dict[Slide, tuple[Cell, ...]]:
        """F-6: every slide of `player`'s pawn (default: the player on turn) with the hexes it enters."""
        if player is None or player == self._current:
            return dict(self._own_slides())
        return self._compute_slides(player)

    def _own_slides(self) -> dict[Slide, tuple[Cell, ...]]:
        """`slide_paths()` of the player on turn, kept (not copied: never hand it out)."""
        slides = self._slides
        if slides is None:
            slides = self._slides = self._compute_slides(self._current)
        return slides

    def _compute_slides(self, player: int) -> dict[Slide, tuple[Cell, ...]]:
        pawn = self._pawns[player]
        blocked = self.obstacles().__contains__
        paths: dict[Slide, tuple[Cell, ...]] = {}
        for direction in DIRECTIONS:
            path = self.grid.ray(pawn, direction, blocked)
            if path:
                paths[Slide(pawn, path[-1])] = path
        return paths

    def stone_steps(self, player: int | None = None) -> tuple[StoneStep, ...]:
        """F-7: every step of a stone `player` may move (their own, or their team's), ignoring F-5."""
        side = self.side_of(self._current if player is None else player)
        steps_from = _steps_from(self.grid)
        steps: list[StoneStep] = []
        for origin in sorted((c for c, owner in self._stones.items() if owner == side), key=board_order):
            steps.extend(steps_from[origin])
        return tuple(steps)

    def can_slide_after(self, action: StoneStep) -> bool:
        """Whether the pawn on turn could slide after the stone step `action` (F-5)."""
        obstacles = self.obstacles()
        pawn = self._pawns[self._current]
        if action.target == pawn:
            pawn = action.origin  # the stone swaps with the pawn
        # The target holds the stone now; the origin holds whatever the target held.
        origin_blocked = action.target in obstacles
        for neighbour in self.grid.neighbours(pawn):
            if neighbour == action.target:
                continue
            if neighbour == action.origin:
                if not origin_blocked:
                    return True
            elif neighbour not in obstacles:
                return True
        return False

    def _freeing(self, steps: tuple[StoneStep, ...]) -> tuple[StoneStep, ...]:
        """The steps after which the pawn on turn could still slide (F-5): `can_slide_after` for each,
        with the pawn's free neighbours found once. A step away from the pawn frees it when another
        neighbour is free, or when it empties a neighbour (a stone stepping onto an empty hex)."""
        obstacles = self.obstacles()
        pawn = self._pawns[self._current]
        around = self.grid.neighbours(pawn)
        free = [cell for cell in around if cell not in obstacles]
        found = []
        for step in steps:
            target = step.target
            if target == pawn:
                frees = self.can_slide_after(step)
            elif len(free) > 1 or (free and free[0] != target):
                frees = True
            else:
                frees = target not in obstacles and step.origin in around
            if frees:
                found.append(step)
        return tuple(found)

    def legal_actions(self) -> tuple[Action, ...]:
        legal = self._legal  # read once: another thread may make the state forget it (forget_derived)
        if legal is None:
            legal = self._legal = self._compute_legal()
        return legal

    def _compute_legal(self) -> tuple[Action, ...]:
        if self.is_terminal():
            return ()
        if self._phase == PHASE_STONE_MOVED:
            return tuple(sorted(self._own_slides(), key=_slide_order))
        steps = self.stone_steps()
        if self._phase == PHASE_PAWN_MOVED:
            return steps
        slides = tuple(sorted(self._own_slides(), key=_slide_order))
        freeing = self._freeing(steps)
        if slides or freeing:
            # F-5: some order allows a slide, so the turn must include one; a stone step first is
            # legal only if the pawn can still slide after it.
            return slides + freeing
        # F-5: no order allows a slide: the turn is a stone step alone.
        return steps

    # --- applying actions, notation and views (turns.py, actions.py, views.py) ---------------
    def action_fields(self, action: Action) -> tuple[tuple[Cell], tuple[Cell]]:
        return actions.action_fields(self, action)

    def action_reach(self, action: Action) -> tuple[Cell, ...]:
        return actions.action_reach(self, action)

    def action_to_str(self, action: Action) -> str:
        return actions.action_to_str(self, action)

    def parse_action(self, text: str) -> Action:
        return actions.parse_action(self, text)

    def apply_legal(self, action: Action) -> FillitState:
        return turns.apply_legal(self, action)

    def why_illegal(self, action: Action) -> str:
        return turns.why_illegal(self, action)

    def to_json(self) -> dict[str, Any]:
        return views.to_json(self)

    def observation(self, player: int) -> dict[str, Any]:
        return views.observation(self, player)

    def occupancy(self) -> Occupancy:
        return views.occupancy(self)

    def occupancy_changes(self, action: Action) -> Occupancy:
        return views.occupancy_changes(self, action)

    def marks(self) -> dict[Cell, Mark]:
        return views.marks(self)

    def __repr__(self) -> str:
        return f"<FillitState {self.board} turn={self._turn} to_move={self.seats[self._current]} phase={self._phase}>"
