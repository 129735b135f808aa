"""Fillit (Ryo Nakamura, radiuthree): slide your pawn, lay your chips, and be the first to run out.

Rule text: shared/rules/seeds/fillit.txt; decisions F-1 to F-8: shared/rules/fillit.md. Played on a
hex board of 61 hexes (or 37 on the mini side) in axial coordinates (controller/games/hexgrid.py).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from controller.games import jsonutil
from controller.games.base import (
    Action,
    Cell,
    Game,
    IllegalAction,
    Mark,
    NotationError,
    Occupancy,
    Option,
    Piece,
    State,
)
from controller.games.hexgrid import (
    CENTRE,
    DIRECTIONS,
    NAME_OF_DIRECTION,
    HexGrid,
    direction_between,
    distance,
    negate,
    rotate120,
)
from controller.games.seats import colour_title

FORMAT_VERSION = 1

# F-1: the two sides of the board.
GRIDS: dict[str, HexGrid] = {"large": HexGrid(4), "mini": HexGrid(3)}
PLAYER_COUNTS: dict[str, tuple[int, ...]] = {"large": (2, 3, 4), "mini": (2, 3)}

# Seat colours in turn order (rules README: a subset of Red, Blue, Yellow, Green). Two players take
# the opposite seats Red and Yellow; four players are two teams, Red+Yellow and Blue+Green.
SEATS: dict[int, tuple[str, ...]] = {
    2: ("red", "yellow"),
    3: ("red", "blue", "yellow"),
    4: ("red", "blue", "yellow", "green"),
}
TEAM_COLOURS: tuple[str, ...] = ("red", "blue")  # rule text: red chips for red/yellow, blue for blue/green

# F-2: chips per player (per team with four players), the chip under each pawn included.
CHIPS: dict[tuple[str, int], int] = {
    ("large", 2): 25,
    ("large", 3): 18,
    ("large", 4): 25,
    ("mini", 2): 14,
    ("mini", 3): 11,
}

# F-3: stones per player (per team with four players).
STONES: dict[tuple[str, int], int] = {
    ("large", 2): 4,
    ("large", 3): 2,
    ("large", 4): 4,
    ("mini", 2): 4,
    ("mini", 3): 1,
}

PAWN_MAGNET = 1
STONE_MAGNET = -1  # the other pole faces the sensor, so a signed sensor sees a stone-pawn swap

PHASE_START = "start"  # nothing moved yet this turn
PHASE_STONE_MOVED = "stone-moved"  # F-5: the stone stepped first; the pawn must slide now
PHASE_PAWN_MOVED = "pawn-moved"  # F-5: the pawn slid first; a stone must step now
PHASES = (PHASE_START, PHASE_STONE_MOVED, PHASE_PAWN_MOVED)

BLOCKED_COLOUR = "white"  # F-1: the centre is shown as a dim white field that nothing enters

_ACTION_TEXT = re.compile(r"([sp]):([a-z][0-9]+)-([a-z][0-9]+)")


@dataclass(frozen=True, slots=True)
class SetUp:
    """F-4: where the pieces start. `pawns` per seat, `stones` per side (player or team)."""

    pawns: tuple[Cell, ...]
    stones: tuple[tuple[Cell, ...], ...]


def _opposed(pawn: Cell, stones: tuple[Cell, ...]) -> SetUp:
    """F-4: two players; player 2's pieces are player 1's negated."""
    return SetUp((pawn, negate(pawn)), (stones, tuple(negate(c) for c in stones)))


def _rotated(pawn: Cell, stones: tuple[Cell, ...]) -> SetUp:
    """F-4: three players; each next player's pieces are the previous player's turned by 120 degrees."""
    pawns = [pawn]
    sides = [stones]
    for _ in range(2):
        pawns.append(rotate120(pawns[-1]))
        sides.append(tuple(rotate120(c) for c in sides[-1]))
    return SetUp(tuple(pawns), tuple(sides))


# F-4: set-ups A and B by (board, players, letter); every one passes the checks F-4 states.
SETUPS: dict[tuple[str, int, str], SetUp] = {
    ("large", 2, "A"): _opposed((0, -4), ((-3, -1), (-1, -2), (1, -3), (3, -4))),
    ("large", 2, "B"): _opposed((-2, -2), ((-4, 1), (-3, -1), (1, -4), (2, -3))),
    ("large", 3, "A"): _rotated((0, -4), ((-2, -1), (2, -3))),
    ("large", 3, "B"): _rotated((-2, -2), ((0, -2), (-3, 1))),
    ("large", 4, "A"): SetUp(
        ((0, -4), (4, -4), (0, 4), (-4, 4)),
        (((-2, -1), (2, 1), (-1, 3), (1, -3)), ((3, -1), (-3, 1), (-2, 3), (2, -3))),
    ),
    ("large", 4, "B"): SetUp(
        ((-2, -2), (4, -2), (2, 2), (-4, 2)),
        (((0, -2), (0, 2), (-1, -1), (1, 1)), ((2, -2), (-2, 2), (2, -1), (-2, 1))),
    ),
    ("mini", 2, "A"): _opposed((0, -3), ((-2, -1), (-1, -1), (1, -2), (2, -3))),
    ("mini", 2, "B"): _opposed((-3, 0), ((-3, 2), (-1, -1), (0, -2), (-2, 3))),
    ("mini", 3, "A"): _rotated((0, -3), ((-1, -1),)),
    ("mini", 3, "B"): _rotated((-1, -2), ((1, -2),)),
}


def board_order(cell: Cell) -> tuple[int, int]:
    """Sort key: row by row from the north, west to east (the order of the notation)."""
    return (cell[1], cell[0])


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


def _sort_key(action: Action) -> tuple[int, int, int, int, int]:
    assert isinstance(action, Slide | StoneStep)
    kind = 0 if isinstance(action, Slide) else 1
    return (kind, *board_order(action.origin), *board_order(action.target))


class Fillit(Game):
    """Fillit on one side of the board; the registered game is the large side.

    Notation depends on the board (F-1: the centre is e5 on the large board, d4 on the mini board), so
    each board has its own Game value: a mini game's `state.game` formats and parses mini cells.
    """

    name = "fillit"
    title = "Fillit"
    geometry = "hex"  # drawn and wired as a hex board
    board_profile = "hex61"  # the board it is played on; the mini board uses its inner 37 hexes
    player_counts = (2, 3, 4)
    options = (
        Option("board", "large", 'F-1: "large" (61 hexes, 2-4 players) or "mini" (37 hexes, 2-3 players)'),
        Option("setup", "A", 'F-4: starting position "A" or "B"'),
        Option(
            "max_turns",
            300,
            "F-8: end the game after this many turns (fewest chips left in hand wins); None switches it off",
        ),
    )

    def __init__(self, board: str = "large") -> None:
        self.board = _check_board(board)
        self.grid = GRIDS[self.board]

    def resolve_options(self, given: Mapping[str, Any]) -> dict[str, Any]:
        # The mini board's own Game value defaults to the mini board.
        return super().resolve_options({"board": self.board, **given})

    def new_game(self, players: int | None = None, seed: int = 0, **options: Any) -> FillitState:
        count = self.check_players(players)
        settings = self.resolve_options(options)
        board = _check_board(settings["board"])
        if count not in PLAYER_COUNTS[board]:
            counts = ", ".join(str(n) for n in PLAYER_COUNTS[board])
            raise ValueError(f"Fillit on the {board} board is played by {counts} players, not {count}")
        letter = _check_setup(settings["setup"])
        setup = SETUPS[(board, count, letter)]
        total = CHIPS[(board, count)]
        sides = _side_count(count)
        stones = {cell: side for side, cells in enumerate(setup.stones) for cell in cells}
        # F-2: one chip of the player's (team's) colour lies under each pawn; the supply counts it.
        chips = {pawn: _side_of(count, seat) for seat, pawn in enumerate(setup.pawns)}
        supply = [total] * sides
        for side in chips.values():
            supply[side] -= 1
        return FillitState(
            self._for_board(board),
            count,
            letter,
            setup.pawns,
            stones,
            chips,
            tuple(supply),
            current=0,
            phase=PHASE_START,
            turn=0,
            ply=0,
            max_turns=_check_max_turns(settings["max_turns"]),
        )

    def state_from_json(self, data: Mapping[str, Any]) -> FillitState:
        data = jsonutil.check_header(data, self.name, FORMAT_VERSION)
        board = _check_board(jsonutil.field(data, "board", str))
        grid = GRIDS[board]
        players = jsonutil.field(data, "players", int)
        self.check_players(players)
        if players not in PLAYER_COUNTS[board]:
            raise ValueError(f"a {players}-player game cannot be on the {board} board")
        sides = _side_count(players)

        def cell_of(value: Any, where: str) -> Cell:
            if not isinstance(value, str):
                raise ValueError(f"{where}: a hex must be a string such as e5, got {value!r}")
            try:
                cell = grid.parse_cell(value)
            except ValueError as error:
                raise ValueError(f"{where}: {error}") from None
            if cell == CENTRE:
                raise ValueError(f"{where}: nothing may stand on the centre {value} (F-1)")
            return cell

        pawn_texts = jsonutil.field(data, "pawns", list)
        if len(pawn_texts) != players:
            raise ValueError(f"pawns must list one hex per player ({players}), got {len(pawn_texts)}")
        pawns = tuple(cell_of(text, f"pawns[{seat}]") for seat, text in enumerate(pawn_texts))
        if len(set(pawns)) != players:
            raise ValueError("pawns: two pawns on one hex")
        stones = _owned_cells(data, "stones", cell_of, sides)
        chips = _owned_cells(data, "chips", cell_of, sides)
        per_side = STONES[(board, players)]
        for side in range(sides):
            count = sum(1 for owner in stones.values() if owner == side)
            if count != per_side:
                raise ValueError(f"stones: side {side} has {count} stones; F-3 gives it {per_side}")
        for cell in stones:
            if cell in pawns:
                raise ValueError(f"stones: a stone and a pawn both on {grid.format_cell(cell)}")
            if cell in chips:
                raise ValueError(f"chips: a chip under the stone on {grid.format_cell(cell)} (F-7)")
        supply = jsonutil.field(data, "supply", list)
        if len(supply) != sides or not all(isinstance(n, int) and not isinstance(n, bool) for n in supply):
            raise ValueError(f"supply must list {sides} whole numbers, got {supply!r}")
        total = CHIPS[(board, players)]
        for side, left in enumerate(supply):
            laid = sum(1 for owner in chips.values() if owner == side)
            if left < 0 or left + laid != total:
                # F-2: chips are conserved; every chip is either in the supply or on the board.
                raise ValueError(
                    f"supply[{side}] is {left} with {laid} chips on the board; they must add up to {total}"
                )
        current = jsonutil.field(data, "current_player", int)
        if not 0 <= current < players:
            raise ValueError(f"current_player {current} is not a seat of a {players}-player game")
        phase = jsonutil.field(data, "phase", str)
        if phase not in PHASES:
            raise ValueError(f"phase must be one of {', '.join(PHASES)}, not {phase!r}")
        setup = _check_setup(jsonutil.field(data, "setup", str))
        turn = jsonutil.field(data, "turn", int)
        ply = jsonutil.field(data, "ply", int)
        if turn < 0 or ply < 0:
            raise ValueError(f"turn and ply must not be negative, got {turn} and {ply}")
        state = FillitState(
            self._for_board(board),
            players,
            setup,
            pawns,
            stones,
            chips,
            tuple(supply),
            current=current,
            phase=phase,
            turn=turn,
            ply=ply,
            max_turns=_check_max_turns(jsonutil.field(data, "max_turns", (int, type(None)))),
        )
        if phase == PHASE_STONE_MOVED and not state.is_terminal() and not state.slide_paths():
            raise ValueError("phase is stone-moved but the pawn on turn cannot slide (F-5)")
        return state

    def _for_board(self, board: str) -> Fillit:
        return self if board == self.board else FILLIT_GAMES[board]

    def cells(self, state: State) -> tuple[Cell, ...]:
        board = state.board if isinstance(state, FillitState) else self.board
        return GRIDS[board].cells()

    def format_cell(self, cell: Cell) -> str:
        return self.grid.format_cell(cell)

    def parse_cell(self, text: str) -> Cell:
        return self.grid.parse_cell(text)

    def __repr__(self) -> str:
        return f"<Game {self.name} board={self.board}>"


def _check_board(value: Any) -> str:
    board = value.strip().lower() if isinstance(value, str) else value
    if board not in GRIDS:
        raise ValueError(f'board must be "large" or "mini", not {value!r}')
    return board


def _check_setup(value: Any) -> str:
    letter = value.strip().upper() if isinstance(value, str) else value
    if letter not in ("A", "B"):
        raise ValueError(f'setup must be "A" or "B", not {value!r}')
    return letter


def _check_max_turns(value: Any) -> int | None:
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int) or value < 1:
        raise ValueError(f"max_turns must be a positive whole number or None, not {value!r}")
    return value


def _owned_cells(
    data: Mapping[str, Any], name: str, cell_of: Callable[[Any, str], Cell], sides: int
) -> dict[Cell, int]:
    cells: dict[Cell, int] = {}
    for index, entry in enumerate(jsonutil.field(data, name, list)):
        where = f"{name}[{index}]"
        if not isinstance(entry, Mapping):
            raise ValueError(f"{where} must be an object with cell and owner")
        try:
            text = jsonutil.field(entry, "cell", str)
            owner = jsonutil.field(entry, "owner", int)
        except ValueError as error:
            raise ValueError(f"{where}: {error}") from None
        cell = cell_of(text, where)
        if not 0 <= owner < sides:
            raise ValueError(f"{where}: owner {owner} is not a side 0..{sides - 1}")
        if cell in cells:
            raise ValueError(f"{where}: two {name} on {text}")
        cells[cell] = owner
    return cells


def _side_count(players: int) -> int:
    """Players play for themselves, except four players, who play as two teams."""
    return 2 if players == 4 else players


def _side_of(players: int, seat: int) -> int:
    """The side a seat plays for: itself, or with four players its team (Red+Yellow 0, Blue+Green 1)."""
    return seat % 2 if players == 4 else seat


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
            if self._slides is None:
                self._slides = self._compute_slides(self._current)
            return dict(self._slides)
        return self._compute_slides(player)

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
        steps: list[StoneStep] = []
        for origin in sorted((c for c, owner in self._stones.items() if owner == side), key=board_order):
            for target in sorted(self.grid.neighbours(origin), key=board_order):
                if target != CENTRE:  # F-7: never the centre
                    steps.append(StoneStep(origin, target))
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

    def legal_actions(self) -> tuple[Action, ...]:
        if self._legal is None:
            self._legal = self._compute_legal()
        return self._legal

    def _compute_legal(self) -> tuple[Action, ...]:
        if self.is_terminal():
            return ()
        if self._phase == PHASE_STONE_MOVED:
            return tuple(sorted(self.slide_paths(), key=_sort_key))
        steps = self.stone_steps()
        if self._phase == PHASE_PAWN_MOVED:
            return steps
        slides = tuple(sorted(self.slide_paths(), key=_sort_key))
        freeing = tuple(step for step in steps if self.can_slide_after(step))
        if slides or freeing:
            # F-5: some order allows a slide, so the turn must include one; a stone step first is
            # legal only if the pawn can still slide after it.
            return slides + freeing
        # F-5: no order allows a slide: the turn is a stone step alone.
        return steps

    def apply(self, action: Action) -> FillitState:
        if action not in self.legal_actions():
            raise IllegalAction(self._why_illegal(action))
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
        return FillitState(
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
        return FillitState(
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
        return FillitState(
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

    def _why_illegal(self, action: Action) -> str:
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

    def action_fields(self, action: Action) -> tuple[tuple[Cell], tuple[Cell]]:
        """Where the moving stone or pawn leaves and where it goes: the board lights them when it
        offers a move no sensor sees (a stone-stone swap changes no reading, nor the occupancy)."""
        if isinstance(action, StoneStep | Slide):
            return (action.origin,), (action.target,)
        raise NotationError(f"{action!r} is not a Fillit action")

    # --- notation ----------------------------------------------------------------------------
    def action_to_str(self, action: Action) -> str:
        if isinstance(action, StoneStep | Slide):
            kind = "s" if isinstance(action, StoneStep) else "p"
            return f"{kind}:{self.grid.format_cell(action.origin)}-{self.grid.format_cell(action.target)}"
        raise NotationError(f"{action!r} is not a Fillit action")

    def parse_action(self, text: str) -> Action:
        match = _ACTION_TEXT.fullmatch(text.strip())
        if match is None:
            raise NotationError(
                f"{text!r} is not a Fillit action (write s:from-to for a stone step, e.g. s:b2-b3, "
                "or p:from-to for a pawn slide, e.g. p:a1-a5)"
            )
        kind, origin, target = match.groups()
        cells = (self.grid.parse_cell(origin), self.grid.parse_cell(target))
        return StoneStep(*cells) if kind == "s" else Slide(*cells)

    # --- views -------------------------------------------------------------------------------
    def to_json(self) -> dict[str, Any]:
        fmt = self.grid.format_cell
        return {
            **jsonutil.header(self._game.name, FORMAT_VERSION),
            "board": self.board,
            "setup": self._setup,
            "players": self._players,
            "current_player": self._current,
            "phase": self._phase,
            "turn": self._turn,
            "ply": self._ply,
            "max_turns": self._max_turns,
            "pawns": [fmt(cell) for cell in self._pawns],
            "stones": [
                {"cell": fmt(cell), "owner": owner}
                for cell, owner in sorted(self._stones.items(), key=lambda item: board_order(item[0]))
            ],
            "chips": [
                {"cell": fmt(cell), "owner": owner}
                for cell, owner in sorted(self._chips.items(), key=lambda item: board_order(item[0]))
            ],
            "supply": list(self._supply),
        }

    def observation(self, player: int) -> dict[str, Any]:
        # Fillit has no hidden information: every player sees the whole position.
        data = self.to_json()
        data.update(
            player=player,
            colours=list(self.seats),
            side=self.side_of(player),
            side_colours=list(self.side_colours),
            terminal=self.is_terminal(),
            returns=list(self.returns()),
        )
        return data

    def occupancy(self) -> Occupancy:
        # Chips carry no magnet; pawns and stones face the sensor with opposite poles. A stone's
        # owner is its side: the seat whose colour it has (with four players the team colour's seat).
        occupancy: Occupancy = {}
        for seat, cell in enumerate(self._pawns):
            occupancy[cell] = (Piece("pawn", seat, PAWN_MAGNET),)
        for cell, side in self._stones.items():
            occupancy[cell] = (Piece("stone", side, STONE_MAGNET),)
        return occupancy

    def marks(self) -> dict[Cell, Mark]:
        # F-2: chips are virtual; the LED under a hex shows the colour of the chip on it.
        marks = {cell: Mark("chip", self.side_colours[side], side) for cell, side in self._chips.items()}
        marks[CENTRE] = Mark("blocked", BLOCKED_COLOUR)
        return marks

    def __repr__(self) -> str:
        return f"<FillitState {self.board} turn={self._turn} to_move={self.seats[self._current]} phase={self._phase}>"


FILLIT_GAMES: dict[str, Fillit] = {board: Fillit(board) for board in GRIDS}
