"""The `[gpio]` configuration: parsed with errors that name the key, every pin on the header and
used once, and opened into scanner + buttons by `open_gpio`."""

from __future__ import annotations

import pytest
from gpiozero.pins.mock import MockFactory

from hal.errors import WiringError
from hal.gpio import (
    AnalogMuxWiring,
    ButtonWiring,
    GpioConfig,
    MuxScanner,
    MuxWiring,
    ShiftRegisterScanner,
    ShiftRegisterWiring,
    open_gpio,
)
from hal.pins import HEADER, PHYSICAL, check_claims, check_gpio, describe
from hal.profile import BoardProfile, load_profile
from hal.protocols import InputSource
from tests.hal.virtual import VirtualShiftChain

WHERE = "/etc/tafel/config.toml [gpio]"


def parse(data: dict) -> GpioConfig:
    return GpioConfig.from_mapping(data, WHERE)


def test_header_table_has_every_gpio_once_on_a_40_pin_header() -> None:
    assert sorted(HEADER) == list(range(1, 41))
    assert sorted(PHYSICAL) == list(range(28))
    assert PHYSICAL[17] == 11 and PHYSICAL[10] == 19 and PHYSICAL[18] == 12 and PHYSICAL[21] == 40
    assert describe(4) == "GPIO4 (pin 7)"


@pytest.mark.parametrize(
    ("value", "message"),
    [
        (28, "GPIO 28 is not on the 40-pin header"),
        (0, "GPIO 0 is ID_SD"),
        (1, "GPIO 1 is ID_SC"),
        ("17", "'17' is not a GPIO number"),
        (True, "True is not a GPIO number"),
    ],
)
def test_pins_must_be_usable_gpios_on_the_header(value: object, message: str) -> None:
    with pytest.raises(WiringError, match=message):
        check_gpio(value, "here")


def test_a_full_gpio_table_parses() -> None:
    config = parse(
        {
            "pin_factory": "rpigpio",
            "scanner": "shift",
            "shift": {"load_pin": 22, "clock_pin": 27, "data_pin": 17, "chips": 25, "clock_enable_pin": 4},
            "mux": {"select_pins": [5, 6, 13, 19], "signal_pins": [17]},  # kept for reference, not read
            "buttons": {"confirm": 5, "undo": 6, "menu": 13, "debounce_ms": 50},
        }
    )
    assert config.pin_factory == "rpigpio"
    assert config.scanner == ShiftRegisterWiring(22, 27, 17, 25, clock_enable_pin=4)
    assert config.buttons == ButtonWiring(confirm=5, undo=6, menu=13, debounce_ms=50)
    assert config.check_pins() == {
        22: "shift register SH/LD",
        27: "shift register CLK",
        17: "shift register QH (data)",
        4: "shift register CLK INH",
        5: "confirm button",
        6: "undo button",
        13: "menu button",
    }


def test_defaults_lgpio_and_no_scanner() -> None:
    config = parse({})
    assert config == GpioConfig("lgpio", None, None)


def test_analog_table_parses_pairs() -> None:
    config = parse(
        {
            "scanner": "analog",
            "analog": {
                "select_pins": [5, 6, 13, 26],
                "adc_inputs": [[0, 0], [0, 1], [1, 7]],
                "thresholds": [0.05, 0.12],
                "zero": 0.49,
                "invert": True,
            },
        }
    )
    assert config.scanner == AnalogMuxWiring(
        (5, 6, 13, 26), ((0, 0), (0, 1), (1, 7)), (0.05, 0.12), zero=0.49, invert=True
    )
    assert isinstance(config.scanner, AnalogMuxWiring)
    assert {claim.gpio for claim in config.scanner.claims()} == {5, 6, 13, 26, 7, 8, 9, 10, 11}


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ({"pin_factory": "pigpio"}, r"\[gpio\]: pin_factory: must be one of 'lgpio', 'rpigpio', not 'pigpio'"),
        ({"scanner": "matrix"}, r"\[gpio\]: scanner: must be one of 'mux', 'shift', 'analog'"),
        ({"scanner": "mux"}, r"scanner: is 'mux' but the table \[gpio.mux\] is missing"),
        ({"scaner": "mux"}, r"\[gpio\]: unknown key\(s\) scaner"),
        (
            {"scanner": "mux", "mux": {"select_pins": [5, 6, 13], "signal_pins": [17]}},
            r"\[gpio.mux\]: select_pins: must list exactly 4 GPIO numbers, not 3",
        ),
        (
            {"scanner": "mux", "mux": {"select_pins": [5, 6, 13, 19], "signal_pin": [17]}},
            r"\[gpio.mux\]: missing the key 'signal_pins'",
        ),
        (
            {"scanner": "mux", "mux": {"select_pins": [5, 6, 13, 19], "signal_pins": [17], "signal_pin": 4}},
            r"\[gpio.mux\]: unknown key\(s\) signal_pin",
        ),
        (
            {"scanner": "mux", "mux": {"select_pins": [5, 6, 13, 40], "signal_pins": [17]}},
            r"\[gpio.mux\]: select_pins: GPIO 40 is not on the 40-pin header",
        ),
        (
            {"scanner": "mux", "mux": {"select_pins": [5, 6, 13, 19], "signal_pins": [17, 6]}},
            r"\[gpio.mux\]: GPIO6 \(pin 31\) is used twice: for multiplexer select S1 and for multiplexer 1 signal",
        ),
        (
            {"scanner": "shift", "shift": {"load_pin": 22, "clock_pin": 27, "data_pin": 17, "chips": 0}},
            r"\[gpio.shift\]: chips: must be >= 1, not 0",
        ),
        (
            {
                "scanner": "shift",
                "shift": {"load_pin": 22, "clock_pin": 27, "data_pin": 17, "chips": 8},
                "buttons": {"confirm": 27},
            },
            r"\[gpio\]: GPIO27 \(pin 13\) is used twice: for shift register CLK and for confirm button",
        ),
        (
            {
                "scanner": "analog",
                "analog": {"select_pins": [5, 6, 13, 26], "adc_inputs": [[0, 0]], "thresholds": [0.1]},
                "buttons": {"menu": 9},
            },
            r"GPIO9 \(pin 21\) is used twice: for SPI0 MISO \(MCP3008 on chip select 0\) and for menu button",
        ),
        (
            {
                "scanner": "analog",
                "analog": {"select_pins": [5, 6, 13, 26], "adc_inputs": [[2, 0]], "thresholds": [0.1]},
            },
            r"adc_inputs: entry 0 must be \[chip select 0 or 1, ADC channel 0..7\], not \[2, 0\]",
        ),
        (
            {
                "scanner": "analog",
                "analog": {"select_pins": [5, 6, 13, 26], "adc_inputs": [[0, 1], [0, 1]], "thresholds": [0.1]},
            },
            r"adc_inputs: multiplexers 0 and 1 both use chip select 0 channel 1",
        ),
        (
            {
                "scanner": "analog",
                "analog": {"select_pins": [5, 6, 13, 26], "adc_inputs": [[0, 0]], "thresholds": [0.2, 0.1]},
            },
            r"thresholds: values must increase",
        ),
        (
            {
                "scanner": "analog",
                "analog": {
                    "select_pins": [5, 6, 13, 26],
                    "adc_inputs": [[0, 0]],
                    "thresholds": [0.1, 0.12],
                    "hysteresis": 0.02,
                },
            },
            r"hysteresis: must be >= 0 and below half the smallest threshold gap \(0.0100\)",
        ),
        ({"buttons": {"confirm": 5, "debounce_ms": -1}}, r"\[gpio.buttons\]: debounce_ms: must be >= 0, not -1"),
        ({"buttons": {"confirm": 5, "undo": 5}}, r"is used twice: for confirm button and for undo button"),
        ({"buttons": "on"}, r"\[gpio.buttons\]: expected a table of settings, not 'on'"),
    ],
)
def test_configuration_errors_name_the_key(data: dict, message: str) -> None:
    with pytest.raises(WiringError, match=message) as raised:
        parse(data)
    assert str(raised.value).startswith("/etc/tafel/config.toml [gpio")


def test_claims_across_backends_name_both_uses() -> None:
    config = parse({"buttons": {"confirm": 10}})
    with pytest.raises(WiringError, match=r"GPIO10 \(pin 19\) is used twice: for confirm button and for NeoPixel data"):
        config.check_pins([(10, "NeoPixel data (SPI0 MOSI)")])
    assert check_claims([(4, "a"), (5, "b")], "x") == {4: "a", 5: "b"}


def test_open_gpio_builds_the_scanner_and_buttons(factory: MockFactory, hex61: BoardProfile) -> None:
    config = parse(
        {
            "scanner": "shift",
            "shift": {"load_pin": 22, "clock_pin": 27, "data_pin": 17, "chips": 8},
            "buttons": {"confirm": 5, "undo": 6},
        }
    )
    chain = VirtualShiftChain(factory, 22, 27, 17, 8)
    chain.magnets = {hex61.channel_of("e5")}
    board = open_gpio(config, hex61, "binary", factory=factory, clock=lambda: 0)  # reed switches on hex61
    assert isinstance(board.sensors, ShiftRegisterScanner)
    assert isinstance(board.inputs, InputSource)
    assert board.sensors.scan()[hex61.channel_of("e5")] == 1
    assert board.inputs.poll() == []
    board.close()
    # Closed: the pins can be opened again.
    MuxScanner(MuxWiring((22, 27, 17, 5), (6,)), 16, factory).close()


def test_open_gpio_without_buttons_or_scanner(factory: MockFactory, hex61: BoardProfile) -> None:
    board = open_gpio(parse({"buttons": {}}), hex61, factory=factory)
    assert board.sensors is None and board.inputs is None
    board.close()


def test_digital_scanners_need_the_binary_model(factory: MockFactory, hex61: BoardProfile) -> None:
    config = parse({"scanner": "mux", "mux": {"select_pins": [5, 6, 13, 26], "signal_pins": [23, 24, 25, 12]}})
    message = r"\[gpio.mux\]: a digital scanner reads 0 or 1 per field, but the sensor model of board hex61 is signed"
    with pytest.raises(WiringError, match=message) as raised:
        config.check_board(hex61)
    assert raised.value.where == "/etc/tafel/config.toml [gpio.mux]" and raised.value.key is None
    with pytest.raises(WiringError, match=message):
        open_gpio(config, hex61, factory=factory)
    config.check_board(hex61, "binary")
    open_gpio(config, hex61, "binary", factory=factory).close()


def test_errors_remember_the_table_and_key() -> None:
    with pytest.raises(WiringError) as raised:
        parse({"scanner": "mux", "mux": {"select_pins": [5, 6, 13, 19], "signal_pins": [17, 40]}})
    assert (raised.value.where, raised.value.key) == ("/etc/tafel/config.toml [gpio.mux]", "signal_pins")
    with pytest.raises(WiringError) as raised:
        parse({"buttons": {"confirm": 5, "undo": 6, "menue": 7}})
    assert (raised.value.where, raised.value.key) == ("/etc/tafel/config.toml [gpio.buttons]", "menue")
    with pytest.raises(WiringError) as raised:
        parse({"scanner": "shift", "shift": {"load_pin": 22, "clock_pin": 27, "data_pin": 17, "chips": 2}}).check_board(
            load_profile("hex61"), "binary"
        )
    assert raised.value.key == "chips" and "2 shift registers give 16 channels" in str(raised.value)
