"""The Fillit game: options (board side, set-up, teams), a new game and saved states read back."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from controller.games import jsonutil
from controller.games.base import (
    Capabilities,
    Cell,
    Game,
    Option,
    State,
)
from controller.games.fillit.model import (
    CHIPS,
    FORMAT_VERSION,
    GRIDS,
    PHASE_START,
    PHASE_STONE_MOVED,
    PHASES,
    PLAYER_COUNTS,
    SETUPS,
    STONES,
    _check_board,
    _check_max_turns,
    _check_setup,
    _owned_cells,
    _side_count,
    _side_of,
)
from controller.games.fillit.state import FillitState
from controller.games.hexgrid import (
    CENTRE,
)


class Fillit(Game):
    """Fillit on one side of the board; the registered game is the large side.

    Notation depends on the board (F-1: the centre is e5 on the large board, d4 on the mini board), so
    each board has its own Game value: a mini game's `state.game` formats and parses mini cells.
    """

    name = "fillit"
    title = "Fillit"
    player_counts = (2, 3, 4)
    # Drawn and wired as a hex board; played on the 61-hex board, whose inner 37 hexes are the mini board.
    capabilities = Capabilities(geometry="hex", board_profile="hex61", move_examples=("p:a1-a3", "s:d1-e1"))
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


FILLIT_GAMES: dict[str, Fillit] = {board: Fillit(board) for board in GRIDS}
