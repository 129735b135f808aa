"""The simulated board: pieces with magnets on fields, sensor readings through the profile's sensor
model (with optional noise), every LED frame captured, and a queue of input events.

It implements the hal protocols (SensorSource, PixelSink, InputSource) so the controller cannot tell
it from hardware. Time is virtual: the driver sets `now` before each scan.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any

from controller.files import UnreadableFile, read_text
from controller.games import Cell, Piece
from controller.games.boards import parse_fields
from hal.profile import BoardProfile
from hal.protocols import RGB, InputEvent, Readings
from hal.sensors import sensor_model
from sim.noise import Noise, noise_profile


class SimBoard:
    """Physical truth of the board plus what its sensors report."""

    def __init__(
        self, profile: BoardProfile, model_name: str | None = None, noise: str = "none", seed: int = 0
    ) -> None:
        self.profile = profile
        self.model_name = model_name or profile.sensor_model
        self._model = sensor_model(self.model_name, profile.count_cap)
        cells = parse_fields(profile.geometry, profile.size, profile.fields, profile.source)
        self.channel_of: dict[Cell, int] = {
            cell: channel for name, cell in cells.items() if (channel := profile.fields[name].channel) is not None
        }
        self._names: dict[Cell, str] = {cell: name for name, cell in cells.items()}
        self.pieces: dict[Cell, list[Piece]] = {}
        self.in_hand: list[tuple[Cell, list[Piece]]] = []  # lifted pieces with the field they came from
        self._file: Path | None = None
        self.noise = Noise(noise_profile(noise), seed)
        self.now = 0
        self._truth = [0] * profile.channels
        self._changed_at = [-(10**9)] * profile.channels
        self._previous = [0] * profile.channels
        self._bounce_until = [-(10**9)] * profile.channels
        self._bouncing: set[int] = set()  # channels that changed and may still bounce
        self.scans = 0

    # --- the physical board ------------------------------------------------------------------
    @property
    def channels(self) -> int:
        return self.profile.channels

    def load(self, occupancy: Mapping[Cell, Sequence[Piece]]) -> None:
        """Put a whole position on the board at once (set-up), with no bounce."""
        self.pieces = {cell: list(pieces) for cell, pieces in occupancy.items() if pieces}
        self.in_hand = []
        for channel in range(self.profile.channels):
            self._truth[channel] = 0
        for cell in self.pieces:
            self._refresh(cell, bounce=False)
        self._save()

    def keep_in(self, path: str | Path) -> bool:
        """Keep the physical board in a file, as real pieces outlive a power cut: load it if it is
        there (True), and rewrite it after every change. Pieces that were in a hand are put back
        where they came from, as a player does when the board comes back."""
        self._file = Path(path)
        self._file.parent.mkdir(parents=True, exist_ok=True)
        try:
            data = json.loads(read_text(self._file, "the simulated board"))
        except UnreadableFile as error:
            if error.missing:
                return False
            raise
        except ValueError as error:
            raise ValueError(f"{self._file}: not a simulated board ({error})") from None
        pieces: dict[Cell, list[Piece]] = {}
        for entry in [*data.get("board", []), *data.get("in_hand", [])]:
            cell = (entry["cell"][0], entry["cell"][1])
            pieces.setdefault(cell, []).extend(Piece(kind, owner, magnet) for kind, owner, magnet in entry["pieces"])
        self.load(pieces)
        return True

    def _save(self) -> None:
        if self._file is None:
            return

        def entries(items: Iterable[tuple[Cell, list[Piece]]]) -> list[dict[str, Any]]:
            return [
                {"cell": list(cell), "pieces": [[p.kind, p.owner, p.magnet] for p in stack]} for cell, stack in items
            ]

        text = json.dumps({"board": entries(self.pieces.items()), "in_hand": entries(self.in_hand)})
        temporary = self._file.with_name(self._file.name + ".tmp")
        try:
            temporary.write_text(text, encoding="utf-8")
            os.replace(temporary, self._file)
        except OSError:
            pass  # pieces stay where they stand whatever the disk does: only a restart finds older ones

    def place(self, cell: Cell, pieces: Sequence[Piece]) -> None:
        self._check(cell)
        self.pieces.setdefault(cell, []).extend(pieces)
        for piece in pieces:
            for index, (_, held) in enumerate(self.in_hand):
                if piece in held:
                    held.remove(piece)
                    if not held:
                        del self.in_hand[index]
                    break
        self._refresh(cell)
        self._save()

    def lift(self, cell: Cell, count: int = 1) -> list[Piece]:
        """Take the top `count` pieces off a field."""
        stack = self.pieces.get(cell, [])
        if len(stack) < count:
            field = self.field_name(cell)
            if not stack:
                raise ValueError(f"nothing to lift on {field}: the field is empty")
            raise ValueError(f"cannot lift {count} pieces from {field}: only {len(stack)} there")
        taken = stack[len(stack) - count :]
        del stack[len(stack) - count :]
        if not stack:
            self.pieces.pop(cell, None)
        self.in_hand.append((cell, list(taken)))
        self._refresh(cell)
        self._save()
        return taken

    def lift_piece(self, cell: Cell, piece: Piece) -> Piece:
        """Take one particular piece (e.g. a captured one under a stack) off a field."""
        stack = self.pieces.get(cell, [])
        if piece not in stack:
            raise ValueError(f"no {piece.kind} on {self.field_name(cell)}")
        stack.remove(piece)
        if not stack:
            self.pieces.pop(cell, None)
        self.in_hand.append((cell, [piece]))
        self._refresh(cell)
        self._save()
        return piece

    def occupancy(self) -> dict[Cell, tuple[Piece, ...]]:
        return {cell: tuple(stack) for cell, stack in self.pieces.items()}

    def field_name(self, cell: Cell) -> str:
        """A field in board notation (`e5`); a cell off the board in square notation."""
        name = self._names.get(cell)
        if name is not None:
            return name
        x, y = cell[0], cell[1]
        return f"{chr(ord('a') + x)}{y + 1}" if 0 <= x < 26 and y >= 0 else f"the cell at column {x}, row {y}"

    def _check(self, cell: Cell) -> None:
        if cell not in self.channel_of:
            raise ValueError(f"{self.field_name(cell)} is not a field of board {self.profile.name}")

    def _refresh(self, cell: Cell, bounce: bool = True) -> None:
        self._check(cell)
        channel = self.channel_of[cell]
        value = self._model([piece.magnet for piece in self.pieces.get(cell, ())])
        if value != self._truth[channel]:
            self._previous[channel] = self._truth[channel]
            self._truth[channel] = value
            self._changed_at[channel] = self.now
            self._bounce_until[channel] = self.now + (self.noise.bounce_window() if bounce else 0)
            self._bouncing.add(channel)

    # --- SensorSource --------------------------------------------------------------------------
    def true_readings(self) -> Readings:
        return tuple(self._truth)

    def scan(self) -> Readings | None:
        """One scan at `self.now`: the true readings with noise; None when the scan is lost."""
        self.scans += 1
        if self.noise.dropped(self.now):
            return None
        readings = list(self._truth)
        bouncing = self._bouncing
        for channel in sorted(bouncing):
            if self._bounce_until[channel] > self.now:
                readings[channel] = self.noise.bouncing_value(self._previous[channel], self._truth[channel])
            else:
                bouncing.discard(channel)  # settled: not looked at again until it changes
        flicker = self.noise.flicker_channel(len(readings))
        if flicker is not None:
            readings[flicker] = self.noise.flickered(readings[flicker])
        for channel, value in self.noise.stuck.items():
            readings[channel] = value
        return tuple(readings)

    def stick(self, cell: Cell, value: int) -> None:
        """Make the sensor under `cell` read `value` whatever stands there (a failed sensor)."""
        self.noise.stuck[self.channel_of[cell]] = value

    def unstick(self, cell: Cell) -> None:
        """The sensor under `cell` reads what stands there again (a loose contact that came back)."""
        self.noise.stuck.pop(self.channel_of[cell], None)


class SimPixels:
    """A pixel sink that keeps every frame it was shown, with the time it was shown."""

    def __init__(self, size: int, clock: SimBoard | None = None, keep: int | None = None) -> None:
        self._size = size
        self._clock = clock
        self._keep = keep  # a long-running service keeps only the latest frames (at least `keep`)
        self.frames: list[tuple[int, tuple[RGB, ...]]] = []
        self.count = 0  # frames shown in all
        self.brightness = 1.0  # kept as set; frames are recorded at full scale, as composed

    def set_brightness(self, brightness: float) -> None:
        self.brightness = brightness

    @property
    def size(self) -> int:
        return self._size

    def show(self, colours: Sequence[RGB]) -> None:
        if len(colours) != self._size:
            raise ValueError(f"frame has {len(colours)} colours; the strip has {self._size} LEDs")
        self.frames.append((self._clock.now if self._clock else 0, tuple(colours)))
        self.count += 1
        if self._keep is not None and len(self.frames) > 2 * self._keep:
            del self.frames[: -self._keep]

    @property
    def last(self) -> tuple[RGB, ...] | None:
        return self.frames[-1][1] if self.frames else None


class SimInputs:
    """A queue of input events (buttons, cards, declarations) fed by the driver or a test."""

    def __init__(self) -> None:
        self._queue: list[InputEvent] = []

    def push(self, kind: str, value: str, seat: int | None = None) -> None:
        self._queue.append(InputEvent(kind, value, seat))  # type: ignore[arg-type]

    def poll(self) -> list[InputEvent]:
        events, self._queue = self._queue, []
        return events
