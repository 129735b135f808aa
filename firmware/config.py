"""The scanner board's configuration: defaults, and the checks that name the key to fix.

The defaults fit the 14x14 board (196 channels on 13 multiplexers, 201 LEDs) on a Raspberry Pi Pico.
A board overrides any of them with /tafel_board.json on the board's filesystem (examples in
firmware/boards/); main.py reads it. README.md lists every key.
"""

from firmware import proto

DEFAULTS = {
    "wiring": "mux",  # "mux" (74HC4067) or "shift" (74HC165 chain)
    "channels": 196,
    "select_pins": [2, 3, 4, 5],  # mux S0..S3
    "signal_pins": [6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18],  # one per mux, in channel order
    "load_pin": 2,  # 74HC165 /PL
    "clock_pin": 3,  # 74HC165 CLK
    "data_pin": 4,  # Q7 of the chip nearest the board
    "active_low": True,  # a magnet pulls the line low
    "pull_up": True,  # enable the RP2040's pull-ups on the inputs
    "scan_hz": 200,  # full scans per second; must divide 1000
    "debounce_ms": 20,
    "heartbeat_ms": 250,
    "full_ms": 5000,  # a FULL frame at least this often, to heal anything a lost frame missed
    "led_pin": 22,
    "led_count": 201,
    "led_order": "GRB",  # byte order the strip expects
    "status_pin": 25,  # the Pico's on-board LED blinks with the heartbeat; null for none
    "watchdog_ms": 0,  # restart the board if the loop stalls this long; 0 = off
    "reset_on_crash": True,  # restart after an unexpected error (after reporting it)
}

WIRINGS = ("mux", "shift")
GPIO_COUNT = 30  # RP2040: GP0..GP29
SCAN_RATES = (100, 125, 200, 250, 500, 1000)  # whole milliseconds per scan


class ConfigError(ValueError):
    """A configuration value the firmware cannot run with; the message names the key."""


def _int(config: dict, key: str, low: int, high: int) -> int:
    value = config[key]
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise ConfigError(f"{key} must be a whole number in {low}..{high}, not {value!r}")
    return value


def _pin(config: dict, key: str) -> int:
    value = config[key]
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value < GPIO_COUNT:
        raise ConfigError(f"{key} must be a GPIO number 0..{GPIO_COUNT - 1}, not {value!r}")
    return value


def _pins(config: dict, key: str) -> list:
    values = config[key]
    if not isinstance(values, (list, tuple)) or not values:
        raise ConfigError(f"{key} must be a list of GPIO numbers, not {values!r}")
    for value in values:
        if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value < GPIO_COUNT:
            raise ConfigError(f"{key}: {value!r} is not a GPIO number 0..{GPIO_COUNT - 1}")
    return list(values)


def load(overrides: dict | None = None) -> dict:
    """DEFAULTS updated by `overrides`, checked; raises ConfigError naming the bad key."""
    config = dict(DEFAULTS)
    if overrides:
        unknown = sorted(key for key in overrides if key not in DEFAULTS)
        if unknown:
            raise ConfigError(f"unknown key(s): {', '.join(unknown)}")
        config.update(overrides)
    check(config)
    return config


def check(config: dict) -> None:
    if config["wiring"] not in WIRINGS:
        raise ConfigError(f"wiring must be one of {', '.join(WIRINGS)}, not {config['wiring']!r}")
    channels = _int(config, "channels", 1, 512)
    used = {}
    if config["wiring"] == "mux":
        selects = _pins(config, "select_pins")
        if len(selects) != 4:
            raise ConfigError(f"select_pins must list 4 pins (S0..S3), not {len(selects)}")
        signals = _pins(config, "signal_pins")
        if channels > 16 * len(signals):
            raise ConfigError(f"channels {channels} need {(channels + 15) // 16} signal_pins, not {len(signals)}")
        for index, pin in enumerate(selects):
            _claim(used, pin, f"select_pins[{index}]")
        for index, pin in enumerate(signals):
            _claim(used, pin, f"signal_pins[{index}]")
    else:
        for key in ("load_pin", "clock_pin", "data_pin"):
            _claim(used, _pin(config, key), key)
    _claim(used, _pin(config, "led_pin"), "led_pin")
    if config["status_pin"] is not None:
        _claim(used, _pin(config, "status_pin"), "status_pin")
    for key in ("active_low", "pull_up", "reset_on_crash"):
        if not isinstance(config[key], bool):
            raise ConfigError(f"{key} must be true or false, not {config[key]!r}")
    scan_hz = config["scan_hz"]
    if scan_hz not in SCAN_RATES:
        raise ConfigError(f"scan_hz must be one of {', '.join(str(rate) for rate in SCAN_RATES)}, not {scan_hz!r}")
    _int(config, "debounce_ms", 0, 1000)
    heartbeat = _int(config, "heartbeat_ms", 50, 5000)
    _int(config, "full_ms", heartbeat, 60000)
    _int(config, "led_count", 1, 1024)
    if config["led_order"] not in proto.LED_ORDERS:
        raise ConfigError(f"led_order must be one of {', '.join(proto.LED_ORDERS)}, not {config['led_order']!r}")
    if config["watchdog_ms"] != 0:
        _int(config, "watchdog_ms", 100, 8300)  # the RP2040 watchdog reaches about 8.3 s


def _claim(used: dict, pin: int, key: str) -> None:
    if pin in used:
        raise ConfigError(f"{key}: GPIO {pin} is already used by {used[pin]}")
    used[pin] = key


def neopixel_order(led_order: str) -> tuple:
    """The ORDER tuple of MicroPython's NeoPixel class for a byte order such as "GRB": the byte
    position of red, green and blue."""
    return (led_order.index("R"), led_order.index("G"), led_order.index("B"))
