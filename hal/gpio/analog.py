"""Analog hall sensors behind 74HC4067 multiplexers, read by MCP3008 ADCs on SPI0.

A 74HC4067 is an analog switch, so the same multiplexers that route reed switches route the voltage
of a ratiometric linear hall sensor (for example TI's DRV5055) to an MCP3008 channel. With no magnet
the sensor reads half its supply (`zero` = 0.5 of full scale when the ADC reference is the same 3.3 V);
one pole raises the voltage, the other lowers it, and a stack of magnets moves it further.

`AnalogClassifier` turns one voltage into the reading of the board's sensor model with hysteresis, so
a value sitting on a threshold does not flicker: a level is entered only `hysteresis` beyond its
threshold and left only `hysteresis` below it. It is a pure function of (value, previous reading).
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from hal.gpio.device import PinDevice
from hal.gpio.factory import PinSet, hardware_spi
from hal.gpio.select import SelectLines, busy_wait
from hal.gpio.wiring import MUX_INPUTS, AnalogMuxWiring
from hal.protocols import Readings
from hal.sensors import MODEL_NAMES

SIGNED_MODELS = frozenset({"signed", "signed_count"})


@dataclass(frozen=True)
class AnalogClassifier:
    """One ADC value (0..1 of full scale) -> the sensor model's reading (0/1, a count, or signed)."""

    model: str
    thresholds: tuple[float, ...]
    zero: float = 0.5
    hysteresis: float = 0.0
    invert: bool = False

    def __post_init__(self) -> None:
        if self.model not in MODEL_NAMES:
            raise ValueError(f"unknown sensor model {self.model!r} (models: {', '.join(MODEL_NAMES)})")
        if not self.thresholds:
            raise ValueError("an analog sensor needs at least one threshold")

    def reading(self, value: float, previous: int = 0) -> int:
        deviation = value - self.zero
        if self.invert:
            deviation = -deviation
        sign = 1 if deviation >= 0 else -1
        magnitude = abs(deviation)
        band = self.hysteresis
        entered = sum(1 for level in self.thresholds if magnitude >= level + band)  # clearly reached
        held = sum(1 for level in self.thresholds if magnitude >= level - band)  # not clearly left
        signed = self.model in SIGNED_MODELS
        before = abs(previous)
        if signed and previous and (previous > 0) != (sign > 0):
            before = 0  # the other pole: its levels start from nothing
        count = min(max(before, entered), held)
        if self.model == "binary":
            return 1 if count else 0
        if self.model == "count":
            return count
        if self.model == "signed":
            return sign if count else 0
        return sign * count


def thresholds_between(magnitudes: Sequence[float]) -> tuple[float, ...]:
    """Calibration: thresholds halfway between measured field strengths for 0, 1, 2, ... magnets.

    `magnitudes[k]` is |value - zero| read with k magnets on a field (the weakest case for that count:
    the piece at the edge of the field, the tallest stack). Each threshold lies midway between
    consecutive counts.
    """
    if len(magnitudes) < 2:
        raise ValueError("calibration needs readings for 0 magnets and at least 1 magnet")
    if any(b <= a for a, b in itertools.pairwise(magnitudes)):
        raise ValueError(f"readings must grow with the number of magnets, got {list(magnitudes)}")
    return tuple(round((a + b) / 2, 4) for a, b in itertools.pairwise(magnitudes))


class AnalogMuxScanner(PinDevice):
    """A SensorSource over analog hall sensors; `raw_scan()` gives the ADC values for calibration."""

    def __init__(
        self,
        wiring: AnalogMuxWiring,
        channels: int,
        model: str,
        count_cap: int,
        factory: Any,
        board: str = "in use",
        wait: Callable[[float], None] = busy_wait,
    ) -> None:
        wiring.check_channels(channels, board)
        wiring.check_model(model, count_cap, board)
        self.wiring = wiring
        self.classifier = AnalogClassifier(model, wiring.thresholds, wiring.zero, wiring.hysteresis, wiring.invert)
        self._channels = channels
        self._pins = PinSet(factory)
        select = [self._pins.output(pin, f"multiplexer select S{bit}") for bit, pin in enumerate(wiring.select_pins)]
        if wiring.enable_pin is not None:
            self._pins.output(wiring.enable_pin, "multiplexer enable", initial=False)  # E is active low
        adcs = [
            self._open_adc(index, chip, channel, factory) for index, (chip, channel) in enumerate(wiring.adc_inputs)
        ]
        self._select = SelectLines(select, wiring.settle_us, wait)
        self._reads = [
            [(m * MUX_INPUTS + address, adc) for m, adc in enumerate(adcs) if m * MUX_INPUTS + address < channels]
            for address in range(MUX_INPUTS)
        ]
        self._last = [0] * channels

    def _open_adc(self, index: int, chip: int, channel: int, factory: Any) -> Any:
        from gpiozero import MCP3008

        purpose = f"MCP3008 on chip select {chip}, channel {channel} (multiplexer {index})"
        return self._pins.device(
            purpose, lambda: hardware_spi(lambda: MCP3008(channel=channel, device=chip, pin_factory=factory), purpose)
        )

    @property
    def channels(self) -> int:
        return self._channels

    def raw_scan(self) -> tuple[float, ...]:
        """Every channel's ADC value, 0..1 of full scale (0.5 = no field for a ratiometric sensor)."""
        values = [0.0] * self._channels
        reads = self._reads
        for address in self._select.addresses():
            for channel, adc in reads[address]:
                values[channel] = adc.value
        return tuple(values)

    def scan(self) -> Readings:
        reading = self.classifier.reading
        last = self._last
        for channel, value in enumerate(self.raw_scan()):
            last[channel] = reading(value, last[channel])
        return tuple(last)
