"""Every GPIO wiring through gpiozero's real pin factories, with the pin libraries replaced at their
own C-call interface (sim/lgpio_standin.py, sim/rpigpio_standin.py) over a simulated chip.

What a Pi would do differently from gpiozero's MockFactory is what these check: the kernel calls per
scan, the line modes and biases, no edge detection anywhere, SPI through lgpio's spi_* calls (and a
refusal when SPI is off), and the common line's slow rise behind a multiplexer.
"""

from __future__ import annotations

import gc
import random
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from hal.errors import HardwareError
from hal.gpio import (
    AnalogMuxScanner,
    AnalogMuxWiring,
    ButtonWiring,
    GpioButtons,
    MuxScanner,
    MuxWiring,
    ShiftRegisterScanner,
    ShiftRegisterWiring,
    make_pin_factory,
    open_gpio,
)
from hal.gpio.wiring import GpioConfig
from hal.profile import load_profile
from sim.gpiochip import EDGE_CALLS, SimGpioChip, chip_for
from sim.lgpio_standin import FIRST_HANDLE, pi_libraries

ROOT = Path(__file__).resolve().parents[2]
SELECTS = (5, 6, 13, 19)


@pytest.fixture(params=["lgpio", "rpigpio"])
def library(request: pytest.FixtureRequest) -> str:
    return request.param


def opened(chip: SimGpioChip, library: str) -> Iterator[object]:
    with pi_libraries(chip, "pi4", rpigpio=library == "rpigpio"):
        factory = make_pin_factory(library)
        try:
            yield factory
        finally:
            # A device whose constructor failed is only garbage now: finalise it here, while no pin
            # factory holds its reservation lock (gpiozero's __del__ releases pins through it, and
            # a collection inside the next test's reserve_pins would wait on that lock forever).
            gc.collect()
            factory.close()


def scan_calls(chip: SimGpioChip, scanner: object) -> dict[str, int]:
    chip.calls.clear()
    scanner.scan()  # type: ignore[attr-defined]
    return dict(chip.calls)


def test_mux_scan_through_the_real_pin_factory(library: str) -> None:
    chip = SimGpioChip()
    chip.wire_muxes(SELECTS, (17, 27))
    for factory in opened(chip, library):
        scanner = MuxScanner(MuxWiring(SELECTS, (17, 27)), 32, factory)
        for seed in range(5):
            chip.magnets = set(random.Random(seed).sample(range(32), 9))
            readings = scanner.scan()
            assert {c for c, v in enumerate(readings) if v} == chip.magnets
        assert all(chip.lines[pin].output for pin in SELECTS)
        assert all(not chip.lines[pin].output and chip.lines[pin].pull == "up" for pin in (17, 27))
        calls = scan_calls(chip, scanner)
        write, read = ("gpio_write", "gpio_read") if library == "lgpio" else ("output", "input")
        assert calls == {write: 4 + 15, read: 32}  # Gray code: one select write per step; no mode checks
        assert not any(chip.calls[name] for name in EDGE_CALLS)
        scanner.close()


def test_without_settling_the_field_after_an_occupied_one_shows_a_phantom_piece() -> None:
    """The common line rises through the Pi's ~50 kOhm pull-up: read at once after the select lines
    change and the magnet of the field before shows again. The default 10 us settle time prevents it."""
    for settle_us, phantom in ((0, True), (10, False)):
        chip = SimGpioChip(real_time=False, call_us=0.5)
        chip.wire_muxes(SELECTS, (17,), rise_us=5.0)
        chip.magnets = {0}
        for factory in opened(chip, "lgpio"):
            scanner = MuxScanner(MuxWiring(SELECTS, (17,), settle_us=settle_us), 16, factory, wait=chip.wait)
            readings = scanner.scan()
            occupied = {c for c, v in enumerate(readings) if v}
            assert occupied == ({0, 1} if phantom else {0})  # Gray code: address 1 follows address 0
            scanner.close()


def test_shift_chain_over_gpio(library: str) -> None:
    chip = SimGpioChip()
    chip.wire_chain(22, 27, 17, chips=3, clock_enable_pin=4)
    for factory in opened(chip, library):
        scanner = ShiftRegisterScanner(ShiftRegisterWiring(22, 27, 17, 3, clock_enable_pin=4), 20, factory)
        chip.magnets = {0, 7, 8, 19}
        assert {c for c, v in enumerate(scanner.scan()) if v} == {0, 7, 8, 19}
        calls = scan_calls(chip, scanner)
        write, read = ("gpio_write", "gpio_read") if library == "lgpio" else ("output", "input")
        assert calls == {write: 2 + 2 * 24, read: 20}  # SH/LD pulse, then a clock pulse per bit
        assert chip.lines[4].output and chip.lines[4].level == 0  # CLK INH held low
        assert not any(chip.calls[name] for name in EDGE_CALLS)
        scanner.close()


def test_shift_chain_over_spi_is_one_transfer_per_scan() -> None:
    chip = SimGpioChip()
    chip.wire_chain(22, None, None, chips=25)
    square14 = load_profile("square14")
    wiring = ShiftRegisterWiring(22, 11, 9, 25, bus="spi")
    for factory in opened(chip, "lgpio"):
        scanner = ShiftRegisterScanner(wiring, square14.channels, factory)
        for seed in range(5):
            chip.magnets = set(random.Random(seed).sample(range(square14.channels), 40))
            assert {c for c, v in enumerate(scanner.scan()) if v} == chip.magnets
        assert scan_calls(chip, scanner) == {"gpio_write": 2, "spi_read": 1}
        assert chip.spi_bytes >= 25
        scanner.close()
    assert chip.spi_handles == {}  # closed with the scanner


def test_spi_switched_off_is_refused_with_advice_not_bit_banged() -> None:
    chip = SimGpioChip(spi_enabled=False)
    chip.wire_chain(22, None, None, chips=2)
    for factory in opened(chip, "lgpio"):
        with pytest.raises(HardwareError, match=r"hardware SPI could not be opened .*dtparam=spi=on"):
            ShiftRegisterScanner(ShiftRegisterWiring(22, 11, 9, 2, bus="spi"), 16, factory)
        analog = AnalogMuxWiring(SELECTS, ((0, 0),), (0.1,))
        with pytest.raises(HardwareError, match=r"MCP3008 .*hardware SPI could not be opened"):
            AnalogMuxScanner(analog, 16, "signed", 1, factory)
        # Everything opened before the failure was closed again: gpiozero leaves closed lines as inputs.
        assert all(not line.output for line in chip.lines.values())


def test_analog_hall_sensors_through_mcp3008_on_lgpio_spi() -> None:
    chip = SimGpioChip()
    chip.wire_muxes(SELECTS, enable_pin=16)
    chip.wire_adcs(((0, 0), (0, 1)))
    chip.fields = {3: 0.62, 20: 0.38, 31: 0.52}  # north pole, south pole, too weak to count
    wiring = AnalogMuxWiring(SELECTS, ((0, 0), (0, 1)), (0.08,), enable_pin=16, hysteresis=0.01)
    for factory in opened(chip, "lgpio"):
        scanner = AnalogMuxScanner(wiring, 32, "signed", 1, factory)
        readings = scanner.scan()
        assert {c: v for c, v in enumerate(readings) if v} == {3: 1, 20: -1}
        calls = scan_calls(chip, scanner)
        assert calls == {"gpio_write": 4 + 15, "spi_xfer": 32}  # one 3-byte transfer per field
        scanner.close()


def test_buttons_poll_levels_without_edge_detection(library: str) -> None:
    chip = SimGpioChip()
    for factory in opened(chip, library):
        buttons = GpioButtons(ButtonWiring(confirm=5, undo=6, debounce_ms=20), factory)
        assert buttons.poll(0) == []
        chip.pressed = {5}
        assert buttons.poll(1) == []
        assert [event.value for event in buttons.poll(30)] == ["confirm"]
        assert chip.lines[5].pull == "up"
        assert not any(chip.calls[name] for name in EDGE_CALLS)
        buttons.close()


def test_edge_detection_would_fail_with_rpi_gpio_on_current_kernels() -> None:
    """Why the scanners open plain InputDevices: gpiozero's DigitalInputDevice switches on edge
    detection, which RPi.GPIO cannot do on current Raspberry Pi OS kernels."""
    from gpiozero import DigitalInputDevice
    from gpiozero.exc import GPIOZeroError

    chip = SimGpioChip()
    for factory in opened(chip, "rpigpio"):
        with pytest.raises((RuntimeError, GPIOZeroError), match="edge detection"):
            DigitalInputDevice(17, pin_factory=factory)


@pytest.mark.parametrize("example", ["gpio-mux", "gpio-shift", "gpio-analog"])
def test_every_gpio_example_opens_and_scans_on_lgpio(example: str) -> None:
    import tomllib

    data = tomllib.loads((ROOT / "wiring" / "examples" / f"{example}.toml").read_text())
    config = GpioConfig.from_mapping(data["gpio"])
    profile = load_profile(data["board"]["profile"])
    chip = chip_for(config.scanner)
    with pi_libraries(chip, "pi4"):
        board = open_gpio(config, profile)
        try:
            readings = board.sensors.scan()
            assert len(readings) == profile.channels and not any(readings)
            assert board.inputs.poll(0) == []
            assert not any(chip.calls[name] for name in EDGE_CALLS)
        finally:
            board.close()
    assert all(not line.output for line in chip.lines.values())


def test_a_scan_line_another_program_holds_is_refused_in_words_and_the_rest_are_given_back() -> None:
    """The scanner claims its lines through lgpio's own calls, on a handle of its own: the kernel
    refuses a line held elsewhere, the error says so in words, and the lines claimed before it are
    free again."""
    chip = SimGpioChip()
    chip.wire_muxes(SELECTS, (17,))
    for factory in opened(chip, "lgpio"):
        lgpio = sys.modules["lgpio"]
        other = lgpio.gpiochip_open(0)  # another program on the same chip
        lgpio.gpio_claim_input(other, 17, lgpio.SET_PULL_UP)
        with pytest.raises(HardwareError, match=r"GPIO17 \(pin 11\) as multiplexer 0 signal: the pin is already in"):
            MuxScanner(MuxWiring(SELECTS, (17,)), 16, factory)
        assert set(chip.lines) == {17}  # the select lines it had claimed are given back
        lgpio.gpiochip_close(other)
        scanner = MuxScanner(MuxWiring(SELECTS, (17,)), 16, factory)
        (owner,) = {line.owner for line in chip.lines.values()}
        assert owner not in (FIRST_HANDLE, other)  # not gpiozero's factory's handle (the first opened)
        assert set(chip.lines) == {*SELECTS, 17}
        scanner.close()
        assert chip.lines == {}
