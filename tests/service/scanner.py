"""The RP2040 scanner board (the firmware on fake pins, with the circuit of its multiplexers) on an
in-memory cable that runs the firmware each time the host reads, so the board keeps pace with the
host's clock however the host moves it: the service's clock in service tests, a fake one elsewhere."""

from __future__ import annotations

from collections.abc import Callable
from types import ModuleType
from typing import Any

from firmware.config import DEFAULTS
from tests.firmware.harness import mux_circuit, settings
from tests.serial.rig import BoardEnd, Cable, HostEnd

RGB = tuple[int, int, int]


class ScannerCable(Cable):
    """The cable with the board at its far end: square14's 196 channels and 201 LEDs unless told."""

    def __init__(self, main: ModuleType, now: Callable[[], int], **board: Any) -> None:
        super().__init__()
        self.main = main
        self.now = now
        board = {"channels": 196, "signal_pins": list(DEFAULTS["signal_pins"]), "led_count": 201, **board}
        self.cfg = settings(**board)
        self.circuit = mux_circuit(self.cfg)
        self.app = main.build(self.cfg, BoardEnd(self))

    def opener(self) -> SteppingEnd:
        return SteppingEnd(super().opener(), self)

    def magnet(self, channel: int, present: bool = True) -> None:
        self.circuit.magnet(channel // 16, channel % 16, present)

    def run_board(self) -> None:
        """One turn of the firmware's loop, at the host's time."""
        self.app.step(self.now())

    def shown(self) -> tuple[RGB, ...]:
        """The frame the board's strip shows."""
        return tuple(self.app.strip.frames[-1])


class SteppingEnd:
    """The host's end of the cable; the board runs before each read."""

    def __init__(self, end: HostEnd, cable: ScannerCable) -> None:
        self.end = end
        self.cable = cable

    def read(self, size: int) -> bytes:
        if self.cable.plugged:
            self.cable.run_board()
        return self.end.read(size)

    def write(self, data: bytes) -> int:
        return self.end.write(data)

    def close(self) -> None:
        self.end.close()
