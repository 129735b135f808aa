"""The one place where the controller picks its backends: the simulated board or hardware.

Backends are imported lazily here, so nothing else in `controller` depends on `sim` or on a
hardware library, and the whole project imports on any machine.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from hal.profile import BoardProfile
from hal.protocols import PixelSink


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


def led_strip(profile: BoardProfile, config: str | None = None) -> PixelSink:
    """The real LED strip (NeoPixel) of a board, wired as the `[neopixel]` table of the service
    configuration `config` says (without one: the SPI driver, data on GPIO 10)."""
    import tomllib

    from hal.neopixel import NeoPixelSink, NeoPixelWiring

    wiring = NeoPixelWiring()
    if config is not None:
        try:
            with open(config, "rb") as file:
                data = tomllib.load(file)
        except OSError as error:
            raise ValueError(f"{config}: cannot read the configuration: {error.strerror or error}") from None
        except tomllib.TOMLDecodeError as error:
            raise ValueError(f"{config}: not valid TOML: {error}") from None
        wiring = NeoPixelWiring.from_mapping(data.get("neopixel"), f"{config} [neopixel]")
    return NeoPixelSink.from_profile(profile, wiring)
