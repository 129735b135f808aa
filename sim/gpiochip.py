"""A Raspberry Pi's GPIO chip with the board's chips wired to it, simulated at the kernel's level.

The pin libraries (lgpio, RPi.GPIO) are thin layers over the kernel: claim a line as input or output
with a bias, read it, write it, open an SPI device and transfer bytes. `SimGpioChip` answers those
requests the way the kernel and the wired chips would, so that the real gpiozero code and tafel's
scanners run unchanged above it (sim/lgpio_standin.py and sim/rpigpio_standin.py are the library
faces). What it models, because each has broken a real board:

- line modes and biases: an input without its pull-up floats, a line the kernel's SPI driver owns is
  busy, edge detection is recorded (tafel's scanners never ask for it);
- 74HC4067 multiplexers whose common line rises slowly through the Pi's internal pull-up: read too
  soon after the select lines change and the field before it shows through (a phantom piece);
- a 74HC165 chain that latches on SH/LD low and shifts on CLK's rising edge, over GPIO or over SPI;
- MCP3008 ADCs on SPI0 reading the voltage of the selected analog hall sensor;
- buttons to ground.

Time is the chip's own: real elapsed time plus `call_us` per library call plus anything passed to
`wait()`, so a test can make the common line's rise deterministic (`real_time=False`).
"""

from __future__ import annotations

import time
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field

SPI0_PINS = {"MOSI": 10, "SCLK": 11, "MISO": 9, "CE0": 8, "CE1": 7}
EDGE_CALLS = ("gpio_claim_alert", "callback", "add_event_detect")  # library calls that mean edge detection


class ChipError(Exception):
    """What the kernel refuses (a busy line, a missing SPI device); the library faces re-raise it as
    their own error type."""


@dataclass
class Line:
    """One claimed GPIO line."""

    output: bool = False
    level: int = 0  # the level driven, for outputs
    pull: str = "none"  # "up", "down" or "none" (the bias of an input)
    alert: bool = False  # edge detection switched on
    owner: int = 0  # the chip handle that requested it (the kernel refuses the line to any other)


@dataclass
class MuxBank:
    """74HC4067s sharing S0..S3 (and E, active low); multiplexer m's common pin goes to signal_pins[m]
    (digital) or to an ADC input (analog). Channel c is input c % 16 of multiplexer c // 16."""

    select_pins: tuple[int, ...]
    signal_pins: tuple[int, ...] = ()
    enable_pin: int | None = None
    rise_us: float = 5.0  # the common line's rise through the internal pull-up after a low channel
    address: int = 0
    changed_at: float = 0.0
    low_before: dict[int, bool] = field(default_factory=dict)  # multiplexer -> was its line low


@dataclass
class ShiftChain:
    """74HC165s in a chain: chip 0's QH is `data_pin`; the register holds each input's level."""

    load_pin: int
    clock_pin: int | None  # None: clocked by SPI0's SCLK
    data_pin: int | None  # None: QH on SPI0's MISO
    chips: int
    clock_enable_pin: int | None = None
    register: list[int] = field(default_factory=list)


class SimGpioChip:
    """The kernel's view of the header: lines, SPI devices, and the circuits behind them."""

    def __init__(self, *, real_time: bool = True, call_us: float = 0.0, spi_enabled: bool = True) -> None:
        self.real_time = real_time
        self.call_us = call_us
        self.spi_enabled = spi_enabled
        self.accessible = True  # False: /dev/gpiochip0 cannot be opened (the user is not in the gpio group)
        self.lines: dict[int, Line] = {}
        self.calls: Counter[str] = Counter()
        self.magnets: set[int] = set()  # digital channels whose sensor sees a magnet
        self.fields: dict[int, float] = {}  # analog channel -> voltage as a fraction of 3.3 V (0.5 = none)
        self.pressed: set[int] = set()  # GPIOs whose button is held down
        self.active_low = True  # digital sensors pull their line low on a magnet
        self.muxes: MuxBank | None = None
        self.chain: ShiftChain | None = None
        self.adc_inputs: tuple[tuple[int, int], ...] = ()  # multiplexer m -> (chip select, ADC channel)
        self.spi_handles: dict[int, tuple[int, int]] = {}
        self.spi_bytes = 0
        self._offset_us = 0.0
        self._start = time.perf_counter()

    # --- the circuits ----------------------------------------------------------------------------
    def wire_muxes(self, select_pins: Iterable[int], signal_pins: Iterable[int] = (), enable_pin: int | None = None,
                   rise_us: float = 5.0) -> None:  # fmt: skip
        self.muxes = MuxBank(tuple(select_pins), tuple(signal_pins), enable_pin, rise_us)

    def wire_adcs(self, adc_inputs: Iterable[tuple[int, int]]) -> None:
        self.adc_inputs = tuple(adc_inputs)

    def wire_chain(self, load_pin: int, clock_pin: int | None, data_pin: int | None, chips: int,
                   clock_enable_pin: int | None = None) -> None:  # fmt: skip
        self.chain = ShiftChain(load_pin, clock_pin, data_pin, chips, clock_enable_pin, [1] * (8 * chips))

    def wait(self, seconds: float) -> None:
        """Let `seconds` pass on the chip's clock (a scanner's settle wait, in a test)."""
        self._offset_us += seconds * 1_000_000

    def now_us(self) -> float:
        real = (time.perf_counter() - self._start) * 1_000_000 if self.real_time else 0.0
        return real + self._offset_us

    def count(self, name: str) -> None:
        """One library call reached the kernel."""
        self.calls[name] += 1
        self._offset_us += self.call_us

    @property
    def total_calls(self) -> int:
        return sum(self.calls.values())

    # --- lines -----------------------------------------------------------------------------------
    def _check_free(self, gpio: int, owner: int) -> None:
        if self.spi_enabled and gpio in SPI0_PINS.values():
            raise ChipError("GPIO busy")  # the kernel's SPI driver owns the line
        if not 0 <= gpio <= 27:
            raise ChipError("bad GPIO number")
        held = self.lines.get(gpio)
        if held is not None and held.owner != owner:
            raise ChipError("GPIO busy")  # requested through another handle (another program, or part)

    def claim_input(self, gpio: int, pull: str, owner: int = 0) -> None:
        self._check_free(gpio, owner)
        self.lines[gpio] = Line(output=False, pull=pull, owner=owner)

    def claim_output(self, gpio: int, level: int, owner: int = 0) -> None:
        self._check_free(gpio, owner)
        self.lines[gpio] = Line(output=True, owner=owner)
        self.write(gpio, level)

    def free(self, gpio: int, owner: int = 0) -> None:
        held = self.lines.get(gpio)
        if held is not None and held.owner == owner:
            del self.lines[gpio]

    def line(self, gpio: int) -> Line:
        if gpio not in self.lines:
            raise ChipError("GPIO not allocated")
        return self.lines[gpio]

    def write(self, gpio: int, level: int) -> None:
        line = self.line(gpio)
        if not line.output:
            raise ChipError("GPIO not an output")
        before, line.level = line.level, 1 if level else 0
        muxes, chain = self.muxes, self.chain
        if muxes is not None and (gpio in muxes.select_pins or gpio == muxes.enable_pin):
            self._select_changed(muxes)
        if chain is not None:
            if gpio == chain.load_pin and not line.level:
                self._latch(chain)
            elif gpio == chain.clock_pin and line.level and not before:
                self._clock_edge(chain)

    def read(self, gpio: int) -> int:
        line = self.line(gpio)
        if line.output:
            return line.level
        driven = self._driven_level(gpio)
        if driven is not None:
            return driven
        return {"up": 1, "down": 0}.get(line.pull, 0)  # a floating line: read as low here

    def _driven_level(self, gpio: int) -> int | None:
        """The level a chip or a switch forces on `gpio`, or None where only the bias decides."""
        if gpio in self.pressed:
            return 0
        muxes, chain = self.muxes, self.chain
        if muxes is not None and gpio in muxes.signal_pins:
            return self._mux_level(muxes, muxes.signal_pins.index(gpio))
        if chain is not None and gpio == chain.data_pin:
            return chain.register[0]
        return None

    # --- 74HC4067 --------------------------------------------------------------------------------
    def _mux_enabled(self, muxes: MuxBank) -> bool:
        return muxes.enable_pin is None or not self.lines.get(muxes.enable_pin, Line()).level

    def _select_changed(self, muxes: MuxBank) -> None:
        address = sum(self.lines[pin].level << bit for bit, pin in enumerate(muxes.select_pins) if pin in self.lines)
        if address == muxes.address:
            return
        muxes.low_before = {m: self._sensor_low(m * 16 + muxes.address) for m in range(len(muxes.signal_pins))}
        muxes.address = address
        muxes.changed_at = self.now_us()

    def _sensor_low(self, channel: int) -> bool:
        return (channel in self.magnets) == self.active_low

    def _mux_level(self, muxes: MuxBank, index: int) -> int | None:
        if not self._mux_enabled(muxes):
            return None  # the common pin is disconnected: the bias decides
        if self._sensor_low(index * 16 + muxes.address):
            return 0
        rising = muxes.low_before.get(index) and self.now_us() - muxes.changed_at < muxes.rise_us
        if rising:
            return 0  # still discharged from the channel before: a phantom piece
        if self.active_low:
            return None  # an open switch: the pull-up lifts the line
        return 1

    # --- 74HC165 ---------------------------------------------------------------------------------
    def _latch(self, chain: ShiftChain) -> None:
        """SH/LD low: every chip copies its inputs A..H; the first bit out is chip 0's H."""
        register = []
        for chip in range(chain.chips):
            for bit in range(7, -1, -1):
                register.append(0 if self._sensor_low(chip * 8 + bit) else 1)
        chain.register = register

    def _clock_edge(self, chain: ShiftChain) -> None:
        load = self.lines.get(chain.load_pin)
        inhibited = chain.clock_enable_pin is not None and self.lines.get(chain.clock_enable_pin, Line()).level
        if load is None or not load.level or inhibited:
            return  # loading, or the clock is inhibited
        chain.register = [*chain.register[1:], 0]  # SER of the last chip is tied low

    # --- SPI0 ------------------------------------------------------------------------------------
    def spi_open(self, port: int, device: int) -> int:
        if not self.spi_enabled or port != 0 or device not in (0, 1):
            raise ChipError("can not open SPI device")
        handle = len(self.spi_handles) + 1
        while handle in self.spi_handles:
            handle += 1
        self.spi_handles[handle] = (port, device)
        return handle

    def spi_close(self, handle: int) -> None:
        self.spi_handles.pop(handle, None)

    def spi_transfer(self, handle: int, data: bytes) -> bytes:
        """Clock `data` out on MOSI and return what MISO carried meanwhile."""
        if handle not in self.spi_handles:
            raise ChipError("bad SPI handle")
        _, device = self.spi_handles[handle]
        self.spi_bytes += len(data)
        if len(data) == 3 and data[0] == 0x01 and data[1] & 0x80:  # an MCP3008 single-ended request
            return self._adc_reply(device, (data[1] >> 4) & 7)
        chain = self.chain
        if chain is not None and chain.clock_pin is None:
            return self._chain_bytes(chain, len(data))
        return bytes(len(data))

    def _adc_reply(self, chip: int, channel: int) -> bytes:
        muxes = self.muxes
        value = 0.0
        for index, entry in enumerate(self.adc_inputs):
            if entry == (chip, channel) and muxes is not None and self._mux_enabled(muxes):
                value = self.fields.get(index * 16 + muxes.address, 0.5)
        code = max(0, min(1023, round(value * 1023)))
        return bytes((0, code >> 8, code & 0xFF))

    def _chain_bytes(self, chain: ShiftChain, count: int) -> bytes:
        """SPI mode 0 samples QH at each rising SCLK edge, just before that edge shifts the chain."""
        out = bytearray()
        for _ in range(count):
            byte = 0
            for _bit in range(8):
                byte = byte << 1 | chain.register[0]
                self._clock_edge(chain)
            out.append(byte)
        return bytes(out)


def chip_for(scanner: object) -> SimGpioChip:
    """A chip wired as the [gpio] scanner wiring `scanner` (a MuxWiring, ShiftRegisterWiring or
    AnalogMuxWiring) says. SPI0 is on, as on a board whose LEDs or ADCs use it, unless the wiring
    takes SPI0's pins as plain GPIO (then the builder must have switched it off)."""
    from hal.gpio.wiring import AnalogMuxWiring, MuxWiring, ShiftRegisterWiring

    claims = scanner.claims() if isinstance(scanner, MuxWiring | ShiftRegisterWiring | AnalogMuxWiring) else []
    spi_owned = any(claim.bus == "SPI0" for claim in claims)
    plain_spi_pins = any(claim.gpio in SPI0_PINS.values() and claim.bus != "SPI0" for claim in claims)
    chip = SimGpioChip(spi_enabled=spi_owned or not plain_spi_pins)
    if isinstance(scanner, MuxWiring):
        chip.wire_muxes(scanner.select_pins, scanner.signal_pins, scanner.enable_pin)
    elif isinstance(scanner, ShiftRegisterWiring):
        on_spi = scanner.bus == "spi"
        chip.wire_chain(scanner.load_pin, None if on_spi else scanner.clock_pin, None if on_spi else scanner.data_pin,
                        scanner.chips, scanner.clock_enable_pin)  # fmt: skip
    elif isinstance(scanner, AnalogMuxWiring):
        chip.wire_muxes(scanner.select_pins, (), scanner.enable_pin)
        chip.wire_adcs(scanner.adc_inputs)
    return chip
