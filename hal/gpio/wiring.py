"""Which GPIO does what: the wiring of the sensor scanner and the buttons, validated before any pin
is touched.

The service reads these from the `[gpio]` table of `/etc/tafel/config.toml` and its sub-tables: one of
`[gpio.mux]` (74HC4067 multiplexers, digital sensors), `[gpio.shift]` (a 74HC165 chain) or
`[gpio.analog]` (multiplexers into MCP3008 ADCs, analog hall sensors), chosen by `scanner`, and
`[gpio.buttons]`. wiring/README.md documents every key; wiring/square14.md and wiring/hex61.md have
complete, tested examples.

Channel order follows the board profiles: channel c is input c % 16 of multiplexer c // 16, or input
c % 8 (A..H) of shift register c // 8 counted from the Pi along the chain.
"""

from __future__ import annotations

import itertools
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from hal.errors import wiring_error
from hal.mapping import Table
from hal.pins import SPI0, STRIP_CHIP_SELECT, Claim, check_claims, check_gpio, spi_claims
from hal.sensors import MODEL_NAMES

if TYPE_CHECKING:
    from hal.profile import BoardProfile

PIN_FACTORIES: tuple[str, ...] = ("lgpio", "rpigpio")
SCANNERS: tuple[str, ...] = ("mux", "shift", "analog")
MUX_INPUTS = 16  # a 74HC4067 has 16 inputs
SHIFT_INPUTS = 8  # a 74HC165 has 8 inputs
ADC_CHANNELS = 8  # an MCP3008 has 8 single-ended channels
ADC_CHIP_SELECTS = (0, 1)  # SPI0 CE0 (GPIO 8) and CE1 (GPIO 7)
# A scanner on SPI0 answers to CE1: CE0 gates the LED strip (see hal.pins.STRIP_CHIP_SELECT).
SCANNER_CHIP_SELECT = 1 - STRIP_CHIP_SELECT


def _check_unique(claims: list[Claim], where: str) -> None:
    check_claims(claims, where)


def _check_capacity(capacity: int, channels: int, board: str, where: str, key: str, what: str) -> None:
    if channels > capacity:
        raise wiring_error(where, key, f"{what} give {capacity} channels, but the board profile {board} has {channels}")


def _check_digital(model: str, where: str, board: str) -> None:
    """Digital sensors read 0 or 1: only the binary model describes them."""
    if model != "binary":
        raise wiring_error(
            where,
            None,
            f"a digital scanner reads 0 or 1 per field, but the sensor model of board {board} is {model}: "
            'reed or digital hall switches need sensor_model = "binary" in [board] of the service '
            "configuration; analog hall sensors are read through [gpio.analog]",
        )


DEFAULT_SETTLE_US = 10  # microseconds after each select step (see MuxWiring.settle_us)


@dataclass(frozen=True)
class MuxWiring:
    """74HC4067 multiplexers with shared select lines and one signal pin each."""

    select_pins: tuple[int, ...]
    signal_pins: tuple[int, ...]
    enable_pin: int | None = None
    active_low: bool = True  # reed switches and open-drain hall switches pull the line low
    pull_up: bool = True  # the Pi's internal pull-up on each signal pin
    # Wait after changing the select lines: the common line behind the Pi's internal pull-up (about
    # 50 kOhm) and the multiplexer's capacitance needs microseconds, else the field read after an
    # occupied one shows a stable phantom piece.
    settle_us: int = DEFAULT_SETTLE_US
    where: str = field(default="[gpio.mux]", compare=False)

    def __post_init__(self) -> None:
        if len(self.select_pins) != 4:
            raise wiring_error(self.where, "select_pins", f"must list 4 GPIOs (S0..S3), not {len(self.select_pins)}")
        for pin in self.select_pins:
            check_gpio(pin, self.where, "select_pins")
        for pin in self.signal_pins:
            check_gpio(pin, self.where, "signal_pins")
        if not self.signal_pins:
            raise wiring_error(self.where, "signal_pins", "needs at least one multiplexer")
        if self.enable_pin is not None:
            check_gpio(self.enable_pin, self.where, "enable_pin")
        if self.settle_us < 0:
            raise wiring_error(self.where, "settle_us", f"must be >= 0, not {self.settle_us}")
        _check_unique(self.claims(), self.where)

    @property
    def capacity(self) -> int:
        return MUX_INPUTS * len(self.signal_pins)

    def claims(self) -> list[Claim]:
        claims = [Claim(pin, f"multiplexer select S{bit}") for bit, pin in enumerate(self.select_pins)]
        claims += [Claim(pin, f"multiplexer {index} signal") for index, pin in enumerate(self.signal_pins)]
        if self.enable_pin is not None:
            claims.append(Claim(self.enable_pin, "multiplexer enable"))
        return claims

    def check_channels(self, channels: int, board: str) -> None:
        _check_capacity(
            self.capacity, channels, board, self.where, "signal_pins", f"{len(self.signal_pins)} multiplexers"
        )

    def check_model(self, model: str, count_cap: int, board: str) -> None:
        """Digital sensors: the binary model only."""
        _check_digital(model, self.where, board)

    @classmethod
    def from_mapping(cls, data: Mapping[str, Any] | None, where: str = "[gpio.mux]") -> MuxWiring:
        table = Table(data, where)
        wiring = cls(
            select_pins=table.gpios("select_pins", 4),
            signal_pins=table.gpios("signal_pins"),
            enable_pin=table.gpio("enable_pin", None),
            active_low=table.flag("active_low", True),
            pull_up=table.flag("pull_up", True),
            settle_us=table.integer("settle_us", DEFAULT_SETTLE_US, minimum=0),
            where=where,
        )
        table.finish()
        return wiring


SHIFT_BUSES: tuple[str, ...] = ("gpio", "spi")
DEFAULT_SHIFT_SPI_HZ = 4_000_000  # 200 bits in 50 us; the 74HC165 manages about 20 MHz at 3.3 V


@dataclass(frozen=True)
class ShiftRegisterWiring:
    """A chain of 74HC165 parallel-in shift registers: chip 0's QH goes to the Pi, chip k+1's QH to
    chip k's SER; SH/LD and CLK are shared.

    `bus = "gpio"` clocks the chain bit by bit from Python (3 library calls per input); `bus = "spi"`
    lets SPI0 clock it (CLK on SCLK, GPIO 11; QH on MISO, GPIO 9): one transfer per scan. SPI0 then
    belongs to the chain, so a NeoPixel strip on the SPI driver moves to SPI1."""

    load_pin: int
    clock_pin: int
    data_pin: int
    chips: int
    clock_enable_pin: int | None = None
    active_low: bool = True  # reed switches to GND with a pull-up resistor per input
    bus: str = "gpio"
    spi_hz: int = DEFAULT_SHIFT_SPI_HZ
    where: str = field(default="[gpio.shift]", compare=False)

    def __post_init__(self) -> None:
        if self.bus not in SHIFT_BUSES:
            raise wiring_error(self.where, "bus", f"must be one of {', '.join(repr(b) for b in SHIFT_BUSES)}, "
                               f"not {self.bus!r}")  # fmt: skip
        for name in ("load_pin", "clock_pin", "data_pin"):
            check_gpio(getattr(self, name), self.where, name)
        if self.bus == "spi":
            for name, role in (("clock_pin", "SCLK"), ("data_pin", "MISO")):
                if getattr(self, name) != SPI0[role]:
                    raise wiring_error(
                        self.where,
                        name,
                        f'with bus = "spi" the chain is clocked by SPI0: {name} must be GPIO {SPI0[role]} '
                        f"(SPI0 {role}), not GPIO {getattr(self, name)}",
                    )
            rate = self.spi_hz
            if isinstance(rate, bool) or not isinstance(rate, int) or not 10_000 <= rate <= 20_000_000:
                raise wiring_error(self.where, "spi_hz", f"must be 10000..20000000, not {self.spi_hz!r}")
        if self.clock_enable_pin is not None:
            check_gpio(self.clock_enable_pin, self.where, "clock_enable_pin")
        if isinstance(self.chips, bool) or not isinstance(self.chips, int) or self.chips < 1:
            raise wiring_error(self.where, "chips", f"must be a whole number >= 1, not {self.chips!r}")
        _check_unique(self.claims(), self.where)

    @property
    def capacity(self) -> int:
        return SHIFT_INPUTS * self.chips

    def claims(self) -> list[Claim]:
        claims = [Claim(self.load_pin, "shift register SH/LD")]
        if self.bus == "spi":
            # The kernel's SPI0 driver claims all five pins; SCLK and MISO carry the chain, which is
            # read as the device on CE1, so a strip gated by CE0 hears nothing of it.
            claims += spi_claims(0, SCANNER_CHIP_SELECT, "shift register chain")
        else:
            claims += [Claim(self.clock_pin, "shift register CLK"), Claim(self.data_pin, "shift register QH (data)")]
        if self.clock_enable_pin is not None:
            claims.append(Claim(self.clock_enable_pin, "shift register CLK INH"))
        return claims

    def check_channels(self, channels: int, board: str) -> None:
        _check_capacity(self.capacity, channels, board, self.where, "chips", f"{self.chips} shift registers")

    def check_model(self, model: str, count_cap: int, board: str) -> None:
        """Digital sensors: the binary model only."""
        _check_digital(model, self.where, board)

    @classmethod
    def from_mapping(cls, data: Mapping[str, Any] | None, where: str = "[gpio.shift]") -> ShiftRegisterWiring:
        table = Table(data, where)
        bus = table.text("bus", "gpio", SHIFT_BUSES)
        on_spi = bus == "spi"
        wiring = cls(
            load_pin=table.gpio("load_pin"),
            clock_pin=table.gpio("clock_pin", SPI0["SCLK"]) if on_spi else table.gpio("clock_pin"),
            data_pin=table.gpio("data_pin", SPI0["MISO"]) if on_spi else table.gpio("data_pin"),
            chips=table.integer("chips", minimum=1),
            clock_enable_pin=table.gpio("clock_enable_pin", None),
            active_low=table.flag("active_low", True),
            bus=bus,
            spi_hz=table.integer("spi_hz", DEFAULT_SHIFT_SPI_HZ, minimum=10_000, maximum=20_000_000),
            where=where,
        )
        table.finish()
        return wiring


@dataclass(frozen=True)
class AnalogMuxWiring:
    """74HC4067 multiplexers passing analog hall sensor voltages to MCP3008 ADCs on SPI0.

    `adc_inputs[m]` is (chip select, ADC channel) of multiplexer m's common pin. `thresholds` are the
    field strengths, as a fraction of the ADC's full scale away from `zero`, at which a reading counts
    1, 2, ... magnets: one value for the binary and signed models, `count_cap` values for the count
    models. `invert` swaps the sign when the sensors are mounted the other way up.
    """

    select_pins: tuple[int, ...]
    adc_inputs: tuple[tuple[int, int], ...]
    thresholds: tuple[float, ...]
    enable_pin: int | None = None
    zero: float = 0.5  # a ratiometric sensor with no field reads half of its supply (= ADC reference)
    hysteresis: float = 0.01
    invert: bool = False
    settle_us: int = DEFAULT_SETTLE_US  # the ADC's sampling capacitor charges through the multiplexer
    where: str = field(default="[gpio.analog]", compare=False)

    def __post_init__(self) -> None:
        if len(self.select_pins) != 4:
            raise wiring_error(self.where, "select_pins", f"must list 4 GPIOs (S0..S3), not {len(self.select_pins)}")
        for pin in self.select_pins:
            check_gpio(pin, self.where, "select_pins")
        if self.enable_pin is not None:
            check_gpio(self.enable_pin, self.where, "enable_pin")
        if not self.adc_inputs:
            raise wiring_error(self.where, "adc_inputs", "needs at least one multiplexer")
        seen: dict[tuple[int, int], int] = {}
        for index, entry in enumerate(self.adc_inputs):
            if (
                not isinstance(entry, tuple)
                or len(entry) != 2
                or entry[0] not in ADC_CHIP_SELECTS
                or isinstance(entry[1], bool)
                or not isinstance(entry[1], int)
                or not 0 <= entry[1] < ADC_CHANNELS
            ):
                raise wiring_error(
                    self.where,
                    "adc_inputs",
                    f"entry {index} must be [chip select 0 or 1, ADC channel 0..7], "
                    f"not {list(entry) if isinstance(entry, tuple) else entry!r}",
                )
            if entry in seen:
                raise wiring_error(
                    self.where,
                    "adc_inputs",
                    f"multiplexers {seen[entry]} and {index} both use chip select {entry[0]} channel {entry[1]}",
                )
            seen[entry] = index
        self._check_thresholds()
        if not 0 < self.zero < 1:
            raise wiring_error(self.where, "zero", f"must lie between 0 and 1, not {self.zero}")
        if self.settle_us < 0:
            raise wiring_error(self.where, "settle_us", f"must be >= 0, not {self.settle_us}")
        _check_unique(self.claims(), self.where)

    def _check_thresholds(self) -> None:
        levels = self.thresholds
        if not levels:
            raise wiring_error(self.where, "thresholds", "needs at least one value")
        if any(not 0 < level <= 0.5 for level in levels):
            raise wiring_error(self.where, "thresholds", f"values must lie in (0, 0.5], not {list(levels)}")
        if any(b <= a for a, b in itertools.pairwise(levels)):
            raise wiring_error(self.where, "thresholds", f"values must increase, not {list(levels)}")
        gaps = [levels[0], *(b - a for a, b in itertools.pairwise(levels))]
        if not 0 <= self.hysteresis < min(gaps) / 2:
            raise wiring_error(
                self.where,
                "hysteresis",
                f"must be >= 0 and below half the smallest threshold gap ({min(gaps) / 2:.4f}), not {self.hysteresis}",
            )

    @property
    def capacity(self) -> int:
        return MUX_INPUTS * len(self.adc_inputs)

    def claims(self) -> list[Claim]:
        claims = [Claim(pin, f"multiplexer select S{bit}") for bit, pin in enumerate(self.select_pins)]
        if self.enable_pin is not None:
            claims.append(Claim(self.enable_pin, "multiplexer enable"))
        # The kernel's SPI0 driver claims all five pins, chip selects in use or not.
        for chip in sorted({chip for chip, _ in self.adc_inputs}):
            claims += spi_claims(0, chip, f"MCP3008 on chip select {chip}")
        return claims

    def check_channels(self, channels: int, board: str) -> None:
        _check_capacity(
            self.capacity, channels, board, self.where, "adc_inputs", f"{len(self.adc_inputs)} multiplexers"
        )

    def check_model(self, model: str, count_cap: int, board: str) -> None:
        """The number of thresholds the sensor model needs: 1, or `count_cap` for the count models."""
        if model not in MODEL_NAMES:
            raise wiring_error(self.where, None, f"unknown sensor model {model!r} (models: {', '.join(MODEL_NAMES)})")
        needed = count_cap if model in ("count", "signed_count") else 1
        if len(self.thresholds) != needed:
            reason = (
                f"the {model} model of board {board} counts up to {count_cap} magnets (count_cap)"
                if needed > 1
                else f"the {model} model only tells magnet from no magnet"
            )
            raise wiring_error(
                self.where, "thresholds", f"{reason}, so it needs {needed} value(s), not {len(self.thresholds)}"
            )

    @classmethod
    def from_mapping(cls, data: Mapping[str, Any] | None, where: str = "[gpio.analog]") -> AnalogMuxWiring:
        table = Table(data, where)
        raw_inputs = table.raw("adc_inputs")
        if not isinstance(raw_inputs, list | tuple) or not raw_inputs:
            raise table.error("adc_inputs", "must be a list of [chip select, ADC channel] pairs, one per multiplexer")
        inputs = tuple(tuple(entry) if isinstance(entry, list | tuple) else entry for entry in raw_inputs)
        wiring = cls(
            select_pins=table.gpios("select_pins", 4),
            adc_inputs=inputs,  # checked in __post_init__
            thresholds=table.numbers("thresholds"),
            enable_pin=table.gpio("enable_pin", None),
            zero=table.number("zero", 0.5),
            hysteresis=table.number("hysteresis", 0.01),
            invert=table.flag("invert", False),
            settle_us=table.integer("settle_us", DEFAULT_SETTLE_US, minimum=0),
            where=where,
        )
        table.finish()
        return wiring


@dataclass(frozen=True)
class ButtonWiring:
    """The three buttons (each optional), wired from the GPIO to GND."""

    confirm: int | None = None
    undo: int | None = None
    menu: int | None = None
    debounce_ms: int = 30
    active_low: bool = True
    pull_up: bool = True
    where: str = field(default="[gpio.buttons]", compare=False)

    def __post_init__(self) -> None:
        for name, pin in self.pins().items():
            check_gpio(pin, self.where, name)
        if isinstance(self.debounce_ms, bool) or not isinstance(self.debounce_ms, int) or self.debounce_ms < 0:
            raise wiring_error(self.where, "debounce_ms", f"must be a whole number >= 0, not {self.debounce_ms!r}")
        _check_unique(self.claims(), self.where)

    def pins(self) -> dict[str, int]:
        """Button name -> GPIO, for the buttons that are wired, in the order confirm, undo, menu."""
        named = {"confirm": self.confirm, "undo": self.undo, "menu": self.menu}
        return {name: pin for name, pin in named.items() if pin is not None}

    def claims(self) -> list[Claim]:
        return [Claim(pin, f"{name} button") for name, pin in self.pins().items()]

    @classmethod
    def from_mapping(cls, data: Mapping[str, Any] | None, where: str = "[gpio.buttons]") -> ButtonWiring:
        table = Table(data, where)
        wiring = cls(
            confirm=table.gpio("confirm", None),
            undo=table.gpio("undo", None),
            menu=table.gpio("menu", None),
            debounce_ms=table.integer("debounce_ms", 30, minimum=0),
            active_low=table.flag("active_low", True),
            pull_up=table.flag("pull_up", True),
            where=where,
        )
        table.finish()
        return wiring


ScannerWiring = MuxWiring | ShiftRegisterWiring | AnalogMuxWiring


@dataclass(frozen=True)
class GpioConfig:
    """The whole `[gpio]` table: pin factory, one scanner (or none) and the buttons (or none)."""

    pin_factory: str = "lgpio"
    scanner: ScannerWiring | None = None
    buttons: ButtonWiring | None = None
    where: str = field(default="[gpio]", compare=False)

    def __post_init__(self) -> None:
        if self.pin_factory not in PIN_FACTORIES:
            raise wiring_error(
                self.where,
                "pin_factory",
                f"must be one of {', '.join(repr(p) for p in PIN_FACTORIES)}, not {self.pin_factory!r}",
            )
        self.check_pins()

    def claims(self) -> list[Claim]:
        claims = list(self.scanner.claims()) if self.scanner is not None else []
        if self.buttons is not None:
            claims += self.buttons.claims()
        return claims

    def check_pins(self, others: list[Claim] | tuple[Claim, ...] = ()) -> dict[int, str]:
        """Every GPIO used once across scanner, buttons and `others` (e.g. the NeoPixel data line)."""
        return check_claims([*self.claims(), *others], self.where)

    def check_board(self, profile: BoardProfile, sensor_model: str | None = None) -> None:
        """The scanner fits `profile`: enough channels, and sensors that give the readings of its
        sensor model (`sensor_model` overrides the profile's). `open_gpio` checks the same."""
        if self.scanner is not None:
            self.scanner.check_channels(profile.channels, profile.name)
            self.scanner.check_model(sensor_model or profile.sensor_model, profile.count_cap, profile.name)

    @classmethod
    def from_mapping(cls, data: Mapping[str, Any] | None, where: str = "[gpio]") -> GpioConfig:
        table = Table(data, where)
        pin_factory = table.text("pin_factory", "lgpio", PIN_FACTORIES)
        kind = table.raw("scanner", None)
        if kind is not None and kind not in SCANNERS:
            raise table.error("scanner", f"must be one of {', '.join(repr(s) for s in SCANNERS)}, not {kind!r}")
        makers: dict[str, type[MuxWiring] | type[ShiftRegisterWiring] | type[AnalogMuxWiring]] = {
            "mux": MuxWiring,
            "shift": ShiftRegisterWiring,
            "analog": AnalogMuxWiring,
        }
        # Only the table named by `scanner` is read: a builder may keep the others for reference.
        sub_tables = {name: table.table(name) for name in makers}
        scanner: ScannerWiring | None = None
        if kind is not None:
            sub = sub_tables[kind]
            if sub is None:
                raise table.error("scanner", f"is {kind!r} but the table [{_section(where)}.{kind}] is missing")
            scanner = makers[kind].from_mapping(sub.data, sub.where)
        buttons_table = table.table("buttons")
        buttons = ButtonWiring.from_mapping(buttons_table.data, buttons_table.where) if buttons_table else None
        table.finish()
        return cls(pin_factory, scanner, buttons, where)


def _section(where: str) -> str:
    """`config.toml [gpio]` -> `gpio`."""
    if "[" in where and where.endswith("]"):
        return where[where.rindex("[") + 1 : -1]
    return where
