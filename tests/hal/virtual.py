"""Virtual chips on gpiozero's mock pins: 74HC4067 multiplexers, a 74HC165 chain and MCP3008 ADCs.

Each reacts to the pins the scanner drives exactly as the chip's datasheet says, and drives the
scanner's input pins from a set of magnets, so a scan through them exercises the real pin sequence.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence

from gpiozero.pins.mock import MockFactory, MockPin, MockSPIDevice

from hal.pins import SPI0


class WatchedPin(MockPin):
    """A mock pin that calls its listeners after every write to it."""

    def __init__(self, factory: MockFactory, info: object) -> None:
        super().__init__(factory, info)
        self.listeners: list[Callable[[], None]] = []

    def _set_state(self, value: object) -> None:
        super()._set_state(value)
        for listener in self.listeners:
            listener()


def watched(factory: MockFactory, gpio: int, listener: Callable[[], None]) -> WatchedPin:
    pin = factory.pin(gpio, pin_class=WatchedPin)
    pin.listeners.append(listener)
    return pin


def drive(pin: MockPin, high: bool) -> None:
    if pin.function == "input":
        if high:
            pin.drive_high()
        else:
            pin.drive_low()


class VirtualMuxes:
    """74HC4067s sharing S0..S3 (and E). Input i of multiplexer m is channel 16 m + i; a reed switch
    there closes (pulls the common pin low) when `magnets` holds the channel. With `active_high`
    the sensors drive high on a magnet instead."""

    def __init__(
        self,
        factory: MockFactory,
        select_pins: Sequence[int],
        signal_pins: Sequence[int] = (),
        enable_pin: int | None = None,
        active_high: bool = False,
    ) -> None:
        self.select = [watched(factory, gpio, self.update) for gpio in select_pins]
        self.enable = watched(factory, enable_pin, self.update) if enable_pin is not None else None
        self.signals = [factory.pin(gpio) for gpio in signal_pins]
        self.active_high = active_high
        self.magnets: set[int] = set()
        self.addresses_seen: list[int] = []

    @property
    def address(self) -> int:
        return sum(int(bool(pin.state)) << bit for bit, pin in enumerate(self.select))

    @property
    def enabled(self) -> bool:
        return self.enable is None or not self.enable.state

    def update(self) -> None:
        address = self.address
        self.addresses_seen.append(address)
        for index, pin in enumerate(self.signals):
            if not self.enabled:
                drive(pin, not self.active_high)  # E high: the common pin floats to its pull
                continue
            magnet = index * 16 + address in self.magnets
            drive(pin, magnet == self.active_high)


class VirtualShiftChain:
    """74HC165s in a chain: SH/LD low copies the inputs (A..H of chip k = channels 8k..8k+7, a reed
    switch to GND per input), each rising CLK edge with SH/LD high and CLK INH low shifts one place
    towards the Pi; the last chip's SER is tied to GND."""

    def __init__(
        self,
        factory: MockFactory,
        load_pin: int,
        clock_pin: int,
        data_pin: int,
        chips: int,
        clock_enable_pin: int | None = None,
    ) -> None:
        self.load = watched(factory, load_pin, self._on_load)
        self.clock = watched(factory, clock_pin, self._on_clock)
        self.inhibit = watched(factory, clock_enable_pin, lambda: None) if clock_enable_pin is not None else None
        self.data = factory.pin(data_pin)
        self.magnets: set[int] = set()
        self.bits = 8 * chips
        self.register = [1] * self.bits  # register[0] is on QH of chip 0
        self._clock_level = False
        self.loads = 0

    def _input_level(self, bit: int) -> int:
        channel = (bit // 8) * 8 + 7 - bit % 8
        return 0 if channel in self.magnets else 1

    def _on_load(self) -> None:
        if not self.load.state:
            self.loads += 1
            self.register = [self._input_level(bit) for bit in range(self.bits)]
            self._output()

    def _on_clock(self) -> None:
        level = bool(self.clock.state)
        rising = level and not self._clock_level
        self._clock_level = level
        inhibited = self.inhibit is not None and bool(self.inhibit.state)
        if rising and self.load.state and not inhibited:
            self.register = [*self.register[1:], 0]
            self._output()

    def _output(self) -> None:
        drive(self.data, bool(self.register[0]))


class VirtualMCP3008(MockSPIDevice):
    """An MCP3008 on SPI0 (chip select 0 or 1): answers a single-ended read of channel c with
    `read(c)` (0..1 of full scale) as a 10-bit value."""

    def __init__(self, factory: MockFactory, chip_select: int, read: Callable[[int], float]) -> None:
        super().__init__(
            SPI0["SCLK"],
            SPI0["MOSI"],
            SPI0["MISO"],
            SPI0["CE0"] if chip_select == 0 else SPI0["CE1"],
            pin_factory=factory,
        )
        self.read = read
        self.reads = 0

    def on_bit(self) -> None:
        bits = self.rx_buf
        if 1 not in bits:
            return
        start = bits.index(1)
        if len(bits) == start + 5:  # start bit, single/differential, D2 D1 D0
            assert bits[start + 1] == 1, "tafel reads single-ended"
            channel = bits[start + 2] * 4 + bits[start + 3] * 2 + bits[start + 4]
            value = max(0, min(1023, round(self.read(channel) * 1023)))
            self.reads += 1
            self.tx_word(value, 12)  # a sample clock, the null bit, then D9..D0


class VirtualAnalogBoard:
    """Analog hall sensors behind multiplexers into MCP3008s: channel c's voltage is `volts[c]`
    (0..1 of full scale), `zero` where no value is set."""

    def __init__(
        self,
        factory: MockFactory,
        select_pins: Sequence[int],
        adc_inputs: Sequence[tuple[int, int]],
        zero: float = 0.5,
    ) -> None:
        self.muxes = VirtualMuxes(factory, select_pins)
        self.zero = zero
        self.volts: dict[int, float] = {}
        route: Mapping[tuple[int, int], int] = {entry: index for index, entry in enumerate(adc_inputs)}
        self.adcs = [
            VirtualMCP3008(factory, chip, lambda channel, chip=chip: self._value(route.get((chip, channel))))
            for chip in sorted({chip for chip, _ in adc_inputs})
        ]

    def _value(self, mux: int | None) -> float:
        if mux is None:
            return self.zero
        return self.volts.get(mux * 16 + self.muxes.address, self.zero)
