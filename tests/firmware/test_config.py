"""The scanner board's configuration: defaults, the shipped board files, and errors naming the key."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from firmware import config
from hal.profile import load_profile

BOARDS = Path(__file__).resolve().parents[2] / "firmware" / "boards"


def test_defaults_are_valid() -> None:
    assert config.load() == config.DEFAULTS


@pytest.mark.parametrize("path", sorted(BOARDS.glob("*.json")), ids=lambda path: path.stem)
def test_board_files_are_valid_and_match_their_profile(path: Path) -> None:
    settings = config.load(json.loads(path.read_text()))
    profile = load_profile(path.stem.split("-")[0])
    assert settings["channels"] == profile.channels
    assert settings["led_count"] == profile.led_count
    assert settings["led_order"] == profile.colour_order


@pytest.mark.parametrize(
    ("overrides", "message"),
    [
        ({"colour": "red"}, "unknown key"),
        ({"wiring": "matrix"}, "wiring must be one of mux, shift"),
        ({"channels": 0}, "channels must be a whole number in 1..512"),
        ({"select_pins": [2, 3, 4]}, "select_pins must list 4 pins"),
        ({"signal_pins": [6]}, "channels 196 need 13 signal_pins, not 1"),
        ({"signal_pins": [*range(6, 18), 2]}, "signal_pins\\[12\\]: GPIO 2 is already used"),
        ({"led_pin": 30}, "led_pin must be a GPIO number 0..29"),
        ({"led_pin": 6}, "led_pin: GPIO 6 is already used by signal_pins\\[0\\]"),
        ({"scan_hz": 300}, "scan_hz must be one of 100, 125, 200, 250, 500, 1000"),
        ({"debounce_ms": -1}, "debounce_ms"),
        ({"heartbeat_ms": 10}, "heartbeat_ms"),
        ({"full_ms": 100}, "full_ms must be a whole number in 250..60000"),
        ({"led_order": "RGBW"}, "led_order must be one of"),
        ({"active_low": 1}, "active_low must be true or false"),
        ({"watchdog_ms": 10000}, "watchdog_ms"),
        ({"wiring": "shift", "load_pin": 3}, "clock_pin: GPIO 3 is already used by load_pin"),
        ({"select_pins": "2,3,4,5"}, "select_pins must be a list of GPIO numbers"),
    ],
)
def test_bad_settings_name_the_key(overrides: dict[str, object], message: str) -> None:
    with pytest.raises(config.ConfigError, match=message):
        config.load(overrides)


def test_status_pin_may_be_disabled() -> None:
    assert config.load({"status_pin": None})["status_pin"] is None


def test_neopixel_order_gives_the_byte_position_of_red_green_blue() -> None:
    assert config.neopixel_order("GRB") == (1, 0, 2)  # MicroPython's own default
    assert config.neopixel_order("RGB") == (0, 1, 2)
    assert config.neopixel_order("BRG") == (1, 2, 0)
