"""The GPIO backend: sensors scanned through 74HC4067 multiplexers or a 74HC165 chain (digital), or
through multiplexers into MCP3008 ADCs (analog hall), and the three buttons, all with gpiozero.

`open_gpio(config, profile)` builds what the `[gpio]` table describes; the wiring docs are in
wiring/README.md. gpiozero and the pin libraries are imported only when pins are opened.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from hal.gpio.analog import AnalogClassifier, AnalogMuxScanner, thresholds_between
from hal.gpio.buttons import Debounce, GpioButtons, debounce, monotonic_ms
from hal.gpio.factory import hardware_error, make_pin_factory
from hal.gpio.mux import MuxScanner
from hal.gpio.shift import ShiftRegisterScanner, shift_order
from hal.gpio.wiring import (
    AnalogMuxWiring,
    ButtonWiring,
    GpioConfig,
    MuxWiring,
    ScannerWiring,
    ShiftRegisterWiring,
)
from hal.profile import BoardProfile

Scanner = MuxScanner | ShiftRegisterScanner | AnalogMuxScanner

__all__ = [
    "AnalogClassifier",
    "AnalogMuxScanner",
    "AnalogMuxWiring",
    "ButtonWiring",
    "Debounce",
    "GpioBoard",
    "GpioButtons",
    "GpioConfig",
    "MuxScanner",
    "MuxWiring",
    "ShiftRegisterScanner",
    "ShiftRegisterWiring",
    "debounce",
    "hardware_error",
    "make_pin_factory",
    "monotonic_ms",
    "open_gpio",
    "open_scanner",
    "shift_order",
    "thresholds_between",
]


def open_scanner(
    wiring: ScannerWiring, profile: BoardProfile, factory: Any, sensor_model: str | None = None
) -> Scanner:
    """The scanner for `wiring`, reading the profile's channels with its sensor model (`sensor_model`
    overrides the profile's): digital scanners need the binary model, analog ones a threshold per level."""
    model = sensor_model or profile.sensor_model
    wiring.check_model(model, profile.count_cap, profile.name)
    if isinstance(wiring, MuxWiring):
        return MuxScanner(wiring, profile.channels, factory, profile.name)
    if isinstance(wiring, ShiftRegisterWiring):
        return ShiftRegisterScanner(wiring, profile.channels, factory, profile.name)
    return AnalogMuxScanner(wiring, profile.channels, model, profile.count_cap, factory, profile.name)


@dataclass
class GpioBoard:
    """What the `[gpio]` table opened: the sensor source and the buttons (either may be absent)."""

    factory: Any
    sensors: Scanner | None
    inputs: GpioButtons | None
    owns_factory: bool = True

    def close(self) -> None:
        for part in (self.inputs, self.sensors):
            if part is not None:
                part.close()
        if self.owns_factory:
            self.factory.close()


def open_gpio(
    config: GpioConfig,
    profile: BoardProfile,
    sensor_model: str | None = None,
    factory: Any = None,
    clock: Any = None,
) -> GpioBoard:
    """Open the scanner and buttons of `config` for `profile`. Without `factory`, the configured pin
    factory is opened (and closed again with the board)."""
    owns = factory is None
    if factory is None:
        factory = make_pin_factory(config.pin_factory)
    sensors: Scanner | None = None
    try:
        if config.scanner is not None:
            sensors = open_scanner(config.scanner, profile, factory, sensor_model)
        inputs = None
        if config.buttons is not None and config.buttons.pins():
            inputs = (
                GpioButtons(config.buttons, factory) if clock is None else GpioButtons(config.buttons, factory, clock)
            )
    except BaseException:
        if sensors is not None:
            sensors.close()
        if owns:
            factory.close()
        raise
    return GpioBoard(factory, sensors, inputs, owns)
