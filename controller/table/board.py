"""A game laid onto a board profile: game cells to sensor channels and LEDs, and expected readings.

Field names in a profile are board notation of the profile's geometry; they become game cells here,
so a game runs on any profile that contains its fields (docs/architecture.md).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from controller.games import Cell, Game, Occupancy, State
from controller.games.boards import parse_fields
from hal.profile import BoardProfile
from hal.sensors import SensorModel, sensor_model


def field_cells(profile: BoardProfile) -> dict[str, Cell]:
    """The board coordinate of every field of the profile."""
    return parse_fields(profile.geometry, profile.size, profile.fields, profile.source)


@dataclass(frozen=True)
class BoardMap:
    profile: BoardProfile
    model_name: str
    model: SensorModel
    channel_of: dict[Cell, int]
    led_of: dict[Cell, int]
    cell_of_channel: dict[int, Cell]
    game_cells: tuple[Cell, ...]

    @property
    def channels(self) -> int:
        return self.profile.channels

    def expected(self, occupancy: Occupancy) -> tuple[int, ...]:
        """The readings a correct board shows for `occupancy`."""
        readings = [0] * self.profile.channels
        for cell, pieces in occupancy.items():
            try:
                channel = self.channel_of[cell]
            except KeyError:
                raise ValueError(
                    f"a piece stands on {cell}, which board {self.profile.name} has no field for"
                ) from None
            readings[channel] = self.model([piece.magnet for piece in pieces])
        return tuple(readings)

    def reading(self, pieces: Sequence[int]) -> int:
        return self.model(pieces)


def board_map(profile: BoardProfile, game: Game, state: State, model_name: str | None = None) -> BoardMap:
    """Lay `game` onto `profile`; a clear error if the profile lacks a field the game uses."""
    name = model_name or profile.sensor_model
    model = sensor_model(name, profile.count_cap)
    cells = field_cells(profile)
    by_cell = {cell: profile.fields[field] for field, cell in cells.items()}
    game_cells = game.cells(state)
    missing = [game.format_cell(cell) for cell in game_cells if cell not in by_cell]
    if missing:
        shown = ", ".join(missing[:8]) + (" ..." if len(missing) > 8 else "")
        own = game.capabilities.board_profile
        hint = f"; {game.title} plays on board {own}" if own and own != profile.name else ""
        raise ValueError(f"board {profile.name} cannot play {game.title}: it has no field {shown}{hint}")
    channel_of = {cell: channel for cell in game_cells if (channel := by_cell[cell].channel) is not None}
    led_of = {cell: by_cell[cell].led for cell in game_cells}
    return BoardMap(
        profile, name, model, channel_of, led_of, {ch: cell for cell, ch in channel_of.items()}, tuple(game_cells)
    )


def fits(profile: BoardProfile, game: Game, model_name: str | None = None) -> bool:
    """Whether `game` can be played on `profile` (the board has every field the game uses)."""
    try:
        board_map(profile, game, game.new_game(), model_name)
    except ValueError:
        return False
    return True
