"""The GPIO scanners against virtual chips on gpiozero's mock pins: a full scan reads back a known
pattern of magnets, in the channel order of the board profiles."""

from __future__ import annotations

import itertools
import random

import pytest
from gpiozero.pins.mock import MockFactory

from hal.errors import HardwareError, WiringError
from hal.gpio import (
    AnalogMuxScanner,
    AnalogMuxWiring,
    MuxScanner,
    MuxWiring,
    ShiftRegisterScanner,
    ShiftRegisterWiring,
    shift_order,
)
from hal.gpio.select import GRAY, SelectLines
from hal.profile import BoardProfile
from hal.protocols import SensorSource
from hal.sensors import sensor_model
from tests.hal.virtual import VirtualAnalogBoard, VirtualMuxes, VirtualShiftChain

HEX_MUX = MuxWiring(select_pins=(5, 6, 13, 19), signal_pins=(17, 27, 22, 23), enable_pin=26)
SQUARE_MUX = MuxWiring(
    select_pins=(2, 3, 4, 14),
    signal_pins=(5, 6, 12, 13, 15, 16, 17, 19, 22, 23, 24, 25, 27),
)
HEX_SHIFT = ShiftRegisterWiring(load_pin=22, clock_pin=27, data_pin=17, chips=8, clock_enable_pin=4)
SQUARE_SHIFT = ShiftRegisterWiring(load_pin=22, clock_pin=27, data_pin=17, chips=25)


def channels_of(profile: BoardProfile, fields: list[str]) -> set[int]:
    return {profile.channel_of(name) for name in fields}


def expected(profile: BoardProfile, magnets: set[int]) -> tuple[int, ...]:
    return tuple(1 if channel in magnets else 0 for channel in range(profile.channels))


# --- 74HC4067 multiplexers -------------------------------------------------------------------------


def test_mux_scan_reads_back_a_fillit_position(factory: MockFactory, hex61: BoardProfile) -> None:
    chips = VirtualMuxes(factory, HEX_MUX.select_pins, HEX_MUX.signal_pins, HEX_MUX.enable_pin)
    # Set-up 2p large A (F-4): pawns a3 and i3, four stones each.
    chips.magnets = channels_of(hex61, ["a3", "i3", "b2", "c3", "a4", "b5", "h5", "g5", "i2", "h2"])
    with MuxScanner(HEX_MUX, hex61.channels, factory, hex61.name) as scanner:
        assert isinstance(scanner, SensorSource)
        assert scanner.channels == 64
        assert scanner.scan() == expected(hex61, chips.magnets)
        # The pawn slides from a3 to d3: the next scan follows.
        chips.magnets -= channels_of(hex61, ["a3"])
        chips.magnets |= channels_of(hex61, ["d3"])
        assert scanner.scan() == expected(hex61, chips.magnets)


def test_mux_scan_of_square14_uses_13_multiplexers(factory: MockFactory, square14: BoardProfile) -> None:
    chips = VirtualMuxes(factory, SQUARE_MUX.select_pins, SQUARE_MUX.signal_pins)
    chips.magnets = set(random.Random(14).sample(range(196), 60)) | {0, 15, 16, 195}
    scanner = MuxScanner(SQUARE_MUX, square14.channels, factory, square14.name)
    readings = scanner.scan()
    assert len(readings) == 196  # the 12 unused inputs of the last multiplexer are not reported
    assert readings == expected(square14, chips.magnets)
    scanner.close()


def test_mux_scan_visits_every_address_once_and_holds_the_enable_low(factory: MockFactory) -> None:
    chips = VirtualMuxes(factory, HEX_MUX.select_pins, HEX_MUX.signal_pins, HEX_MUX.enable_pin)
    scanner = MuxScanner(HEX_MUX, 64, factory)
    chips.addresses_seen.clear()
    scanner.scan()
    assert sorted(set(chips.addresses_seen)) == list(range(16))
    assert chips.enabled
    scanner.close()


def test_mux_with_active_high_sensors(factory: MockFactory) -> None:
    wiring = MuxWiring((5, 6, 13, 19), (17, 27), active_low=False, pull_up=False)
    chips = VirtualMuxes(factory, wiring.select_pins, wiring.signal_pins, active_high=True)
    chips.magnets = {1, 2, 3, 20, 31}
    with MuxScanner(wiring, 32, factory) as scanner:
        assert [channel for channel, value in enumerate(scanner.scan()) if value] == [1, 2, 3, 20, 31]


def test_mux_settle_time_is_waited_after_every_select_change(factory: MockFactory) -> None:
    wiring = MuxWiring((5, 6, 13, 19), (17,), settle_us=5)
    VirtualMuxes(factory, wiring.select_pins, wiring.signal_pins)
    waits: list[float] = []
    with MuxScanner(wiring, 16, factory, wait=waits.append) as scanner:
        scanner.scan()
    assert waits == [5e-6] * 16


def test_select_lines_step_in_gray_code() -> None:
    class Line:
        """A select line that counts the writes to it."""

        def __init__(self) -> None:
            self.level = 0
            self.writes = 0

        def write(self, value: int) -> None:
            self.level = value
            self.writes += 1

    lines = [Line() for _ in range(4)]
    seen = []
    for address in SelectLines([line.write for line in lines]).addresses():
        assert sum(line.level << bit for bit, line in enumerate(lines)) == address
        seen.append(address)
    assert seen == list(GRAY) and sorted(seen) == list(range(16))
    assert all(bin(a ^ b).count("1") == 1 for a, b in itertools.pairwise(seen))
    assert sum(line.writes for line in lines) == 4 + 15  # all four lines once, then one per step


def test_mux_too_few_multiplexers_for_the_profile(factory: MockFactory, hex61: BoardProfile) -> None:
    wiring = MuxWiring((5, 6, 13, 19), (17, 27, 22))
    with pytest.raises(WiringError, match=r"\[gpio.mux\]: signal_pins: 3 multiplexers give 48 channels.*hex61 has 64"):
        MuxScanner(wiring, hex61.channels, factory, hex61.name)


def test_mux_pin_already_taken_is_a_hardware_error_and_releases_its_pins(factory: MockFactory) -> None:
    first = MuxScanner(MuxWiring((5, 6, 13, 19), (17,)), 16, factory)
    with pytest.raises(HardwareError, match=r"GPIO17 \(pin 11\) as multiplexer 0 signal: the pin is already in use"):
        MuxScanner(MuxWiring((20, 21, 24, 25), (17,)), 16, factory)
    # The failed scanner released the select lines it had opened: they can be used again.
    MuxScanner(MuxWiring((20, 21, 24, 25), (16,)), 16, factory).close()
    first.close()


# --- 74HC165 chain ---------------------------------------------------------------------------------


def test_shift_order_puts_input_h_of_chip_0_first() -> None:
    assert shift_order(8) == [7, 6, 5, 4, 3, 2, 1, 0]
    assert shift_order(10) == [7, 6, 5, 4, 3, 2, 1, 0, None, None, None, None, None, None, 9, 8]


def test_shift_register_scan_reads_back_a_klotz_position(factory: MockFactory, square14: BoardProfile) -> None:
    chain = VirtualShiftChain(factory, 22, 27, 17, 25)
    # K-2: the Klotz set-up with the four squares on the inner fields.
    fields = "f6 g6 h6 i6 f7 i7 f8 i8 f9 g9 h9 i9 d4 k4 d11 k11 g3 h3 c7 c8 l7 l8 g12 h12 g8 h8 h7 g7"
    chain.magnets = channels_of(square14, fields.split())
    with ShiftRegisterScanner(SQUARE_SHIFT, square14.channels, factory, square14.name) as scanner:
        assert isinstance(scanner, SensorSource)
        assert scanner.scan() == expected(square14, chain.magnets)
        # The 3-cylinder g12 moves three fields west to d12.
        chain.magnets -= channels_of(square14, ["g12"])
        chain.magnets |= channels_of(square14, ["d12"])
        assert scanner.scan() == expected(square14, chain.magnets)
        assert chain.loads == 2  # one parallel load per scan


def test_shift_register_scan_with_clock_inhibit_pin(factory: MockFactory, hex61: BoardProfile) -> None:
    chain = VirtualShiftChain(factory, 22, 27, 17, 8, clock_enable_pin=4)
    chain.magnets = set(random.Random(61).sample(range(61), 20)) | {0, 7, 8, 60}
    with ShiftRegisterScanner(HEX_SHIFT, hex61.channels, factory, hex61.name) as scanner:
        assert scanner.scan() == expected(hex61, chain.magnets)


def test_shift_register_too_few_chips(factory: MockFactory, square14: BoardProfile) -> None:
    wiring = ShiftRegisterWiring(22, 27, 17, chips=24)
    with pytest.raises(WiringError, match=r"chips: 24 shift registers give 192 channels.*square14 has 196"):
        ShiftRegisterScanner(wiring, square14.channels, factory, square14.name)


# --- analog hall sensors through multiplexers into MCP3008s -----------------------------------------

HEX_ANALOG = AnalogMuxWiring(
    select_pins=(5, 6, 13, 26), adc_inputs=((0, 0), (0, 1), (0, 2), (0, 3)), thresholds=(0.08,), enable_pin=16
)


def test_analog_scan_reads_signed_magnets_of_a_fillit_position(factory: MockFactory, hex61: BoardProfile) -> None:
    board = VirtualAnalogBoard(factory, HEX_ANALOG.select_pins, HEX_ANALOG.adc_inputs)
    # Pawns (+1) raise the sensor voltage, stones (-1) lower it; a weak stray field reads nothing.
    pawns, stones = ["a3", "i3"], ["b2", "c3", "a4", "b5", "h5", "g5", "i2", "h2"]
    board.volts = {hex61.channel_of(name): 0.5 + 0.2 for name in pawns}
    board.volts |= {hex61.channel_of(name): 0.5 - 0.15 for name in stones}
    board.volts[hex61.channel_of("e1")] = 0.53
    model = sensor_model("signed")
    want = [0] * hex61.channels
    for name in pawns:
        want[hex61.channel_of(name)] = model([1])
    for name in stones:
        want[hex61.channel_of(name)] = model([-1])
    scanner = AnalogMuxScanner(HEX_ANALOG, hex61.channels, "signed", hex61.count_cap, factory, hex61.name)
    assert isinstance(scanner, SensorSource)
    assert scanner.scan() == tuple(want)
    raw = scanner.raw_scan()
    assert raw[hex61.channel_of("a3")] == pytest.approx(0.7, abs=1 / 1023)
    assert raw[hex61.channel_of("e5")] == pytest.approx(0.5, abs=1 / 1023)
    scanner.close()


def test_analog_scan_counts_stacks_with_two_adcs(factory: MockFactory, square14: BoardProfile) -> None:
    # 13 multiplexers: eight on MCP3008 0, five on MCP3008 1 (Zillo stacks: the count model).
    inputs = tuple((0, channel) for channel in range(8)) + tuple((1, channel) for channel in range(5))
    wiring = AnalogMuxWiring((5, 6, 13, 26), inputs, thresholds=(0.06, 0.14, 0.2))
    board = VirtualAnalogBoard(factory, wiring.select_pins, wiring.adc_inputs)
    stacks = {"c12": 3, "l12": 2, "f9": 1, "n14": 1, "a1": 2}
    volts = {1: 0.5 + 0.1, 2: 0.5 + 0.17, 3: 0.5 + 0.3}
    board.volts = {square14.channel_of(name): volts[height] for name, height in stacks.items()}
    scanner = AnalogMuxScanner(wiring, square14.channels, "count", 3, factory, square14.name)
    readings = scanner.scan()
    assert {channel: value for channel, value in enumerate(readings) if value} == {
        square14.channel_of(name): height for name, height in stacks.items()
    }
    scanner.close()


def test_analog_thresholds_must_match_the_sensor_model(factory: MockFactory, hex61: BoardProfile) -> None:
    with pytest.raises(WiringError, match=r"thresholds: the count model of board hex61 counts up to 2 magnets"):
        AnalogMuxScanner(HEX_ANALOG, hex61.channels, "count", 2, factory, hex61.name)
