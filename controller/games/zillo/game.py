"""The Zillo game: options (players, dealt or physical cards, turn limit), the set-up and saved states."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from controller.games.base import (
    Capabilities,
    Cell,
    Game,
    Option,
    State,
)
from controller.games.rng import SeededRandom
from controller.games.zillo import serial
from controller.games.zillo.layout import (
    AREA,
    INITIAL_LAYOUT,
)
from controller.games.zillo.model import (
    DEALT,
    HANDS,
    HANDS_MODES,
    Position,
    check_bool,
    check_choice,
    check_max_turns,
)
from controller.games.zillo.state import ZilloState, _set_up


class Zillo(Game):
    name = "zillo"
    title = "Zillo"
    player_counts = (2, 3, 4)
    capabilities = Capabilities(
        hidden_information=True,
        chance=True,
        card_kinds=("Catcher cards", "Zillo cards", "Wild cards", "Shift cards"),
        move_examples=("C-ES:c12-e11/2", "Z-N:f9-f12", "S-3:1r90@c7", "discard:C-N"),
        card_example="C-ES",
    )
    options = (
        Option(
            "hands",
            DEALT,
            "Z-6: 'dealt' (the engine shuffles, deals and knows every hand) or 'physical' (real cards: "
            "any card not yet played since the last shuffle may be declared with its move)",
        ),
        Option("match", False, "Z-7: play a whole match until someone has 4 points (true) or one game"),
        Option("max_turns", 400, "Z-7: a game without a catch after this many turns is a draw; null: off"),
        Option("start_player", 0, "the seat that starts the first game (the Zillo starts in its colour)"),
    )

    def new_game(self, players: int | None = None, seed: int = 0, **options: Any) -> ZilloState:
        count = self.check_players(players)
        settings = self.resolve_options(options)
        hands_mode = check_choice("hands", settings["hands"], HANDS_MODES)
        match = check_bool("match", settings["match"])
        max_turns = check_max_turns(settings["max_turns"])
        start = settings["start_player"]
        if isinstance(start, bool) or not isinstance(start, int) or not 0 <= start < count:
            raise ValueError(f"start_player must be a seat 0..{count - 1}, not {start!r}")
        table = Position(
            players=count,
            hands_mode=hands_mode,
            match=match,
            max_turns=max_turns,
            layout=INITIAL_LAYOUT,
            catchers={},
            zillo=(0, 0),
            hands=None,
            hand_sizes=(0,) * count,
            pile=None,
            pile_count=0,
            played=(),
            phase=HANDS,
            current=start,
            start_player=start,
            turn=0,
            ply=0,
            game_number=1,
            scores=(0,) * count,
            caught=None,
            winner=None,
            rng=SeededRandom(seed),
        )
        return ZilloState(self, _set_up(table, start))

    def state_from_json(self, data: Mapping[str, Any]) -> ZilloState:
        return ZilloState(self, serial.table_from_json(data, self))

    def cells(self, state: State) -> tuple[Cell, ...]:
        # Parts move anywhere inside the play area (Z-1, Z-3), so the game uses the whole 14x14 board.
        return AREA.cells()

    def format_cell(self, cell: Cell) -> str:
        return AREA.format_cell(cell)

    def parse_cell(self, text: str) -> Cell:
        return AREA.parse_cell(text)
