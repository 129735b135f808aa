"""The one place where the controller picks its backends: the simulated board or hardware.

Backends are imported lazily here, so nothing else in `controller` depends on `sim` or on a
hardware library, and the whole project imports on any machine.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from hal.profile import BoardProfile


@dataclass
class SimBackends:
    board: Any  # sim.board.SimBoard: sensor source and the physical truth
    pixels: Any  # sim.board.SimPixels
    inputs: Any  # sim.board.SimInputs
    hands: Any  # sim.hands.VirtualHands


def simulated(
    profile: BoardProfile, sensor_model: str | None = None, noise: str = "none", seed: int = 0, calm_hands: bool = False
) -> SimBackends:
    """A simulated board with virtual hands; `calm_hands` turns off human habits (slides, wrong fields)."""
    from sim.board import SimBoard, SimInputs, SimPixels
    from sim.hands import CALM, VirtualHands

    board = SimBoard(profile, sensor_model, noise, seed)
    pixels = SimPixels(profile.led_count, board)
    hands = VirtualHands(seed + 1, CALM if calm_hands else None)
    return SimBackends(board, pixels, SimInputs(), hands)
