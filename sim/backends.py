"""The simulated board's parts as one bundle: the board (sensors and the physical truth), its LED
strip, its input queue and the virtual hands that move its pieces."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

from controller.games import Cell
from controller.games.hexgrid import HexGrid
from hal.profile import BoardProfile
from sim.board import SimBoard, SimInputs, SimPixels
from sim.hands import CALM, HAND_STYLES, VirtualHands, hands_for
from sim.mishaps import Mishaps


@dataclass
class SimBackends:
    board: SimBoard  # sensor source and the physical truth
    pixels: Any  # SimPixels (None until the service picks its LED backend)
    inputs: SimInputs
    hands: VirtualHands
    mishaps: Mishaps  # knocked and touched pieces, failing sensors: apart from anybody's move


def board_neighbours(profile: BoardProfile) -> Callable[[Cell], Iterable[Cell]] | None:
    """The fields beside a field on this board (six on a hex board), for the virtual hands' slips;
    None: a square board's four."""
    if profile.geometry != "hex":
        return None
    return HexGrid(*profile.size).neighbours


def simulated(
    profile: BoardProfile,
    sensor_model: str | None = None,
    noise: str = "none",
    seed: int = 0,
    calm_hands: bool = False,
    with_pixels: bool = True,
    hand_style: str | None = None,
) -> SimBackends:
    """A simulated board with virtual hands; `calm_hands` turns off human habits (slides, wrong fields),
    `hand_style` names one of HAND_STYLES instead of the noise level's hands. `with_pixels` False
    leaves the LED strip to the caller (the service picks its own LED backend)."""
    board = SimBoard(profile, sensor_model, noise, seed)
    pixels = SimPixels(profile.led_count, board) if with_pixels else None
    name = hands_for(noise, hand_style)
    style = CALM if calm_hands and hand_style is None else HAND_STYLES[name] if name is not None else None
    hands = VirtualHands(seed + 1, style, board_neighbours(profile))
    return SimBackends(board, pixels, SimInputs(), hands, Mishaps(board, hands.counts))
