"""The service configuration: every example loads, and every mistake is named by file, line and key."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

from controller.config import (
    ConfigError,
    MuxSensors,
    SerialSensors,
    ShiftSensors,
    SimSensors,
    load_config,
    parse_config,
)
from tests.service.configs import EXAMPLES, ROOT, opening_moves, sim_config, write

MINIMAL = """\
[game]
name = "klotz"

[sensors]
backend = "sim"

[leds]
backend = "none"
"""


def error_of(tmp_path: Path, text: str) -> str:
    path = write(tmp_path, text)
    with pytest.raises(ConfigError) as caught:
        load_config(path)
    message = str(caught.value)
    assert message.startswith(str(path)), message  # every error names the file
    return message


def line_of(text: str, fragment: str) -> int:
    return next(number for number, line in enumerate(text.splitlines(), 1) if fragment in line)


# --- the examples ------------------------------------------------------------------------------------


@pytest.mark.parametrize("name", ["sim", "gpio-mux", "gpio-shift", "rp2040"])
def test_every_wiring_example_is_valid(name: str) -> None:
    config = load_config(EXAMPLES / f"{name}.toml")
    assert config.profile.name == "square14"
    expected = {"sim": SimSensors, "gpio-mux": MuxSensors, "gpio-shift": ShiftSensors, "rp2040": SerialSensors}
    assert isinstance(config.sensors, expected[name])


def test_the_mux_example_reads_every_channel_of_its_board() -> None:
    config = load_config(EXAMPLES / "gpio-mux.toml")
    assert isinstance(config.sensors, MuxSensors)
    assert len(config.sensors.select_pins) == 4
    assert len(config.sensors.signal_pins) * 16 >= config.profile.channels
    assert config.leds.backend == "neopixel" and config.leds.pin == 10
    assert dict(config.buttons.pins) == {"confirm": 16, "undo": 20, "menu": 21}


def test_the_rp2040_example_drives_leds_over_the_scanner_link() -> None:
    config = load_config(EXAMPLES / "rp2040.toml")
    assert isinstance(config.sensors, SerialSensors) and config.sensors.port == "/dev/tafel-scanner"
    assert config.leds.backend == "serial"


def test_a_minimal_config_fills_in_documented_defaults(tmp_path: Path) -> None:
    config = load_config(write(tmp_path, MINIMAL))
    assert config.game.players == 2 and config.game.options == {}
    assert config.profile.name == "square14"  # the game's own board
    assert config.buttons.backend == "none" and config.gpio.pin_factory == "lgpio"
    assert config.service.scan_hz == 100 and config.service.watchdog and config.service.log_level == "info"
    assert config.service.state_dir == Path("/var/lib/tafel")
    assert config.tracker.debounce_ms == 40 and config.tracker.takeback == "auto"
    assert config.sim.speed == 1 and config.sim.bots and config.sim.moves == ()
    assert config.game.seed == config.sim.seed == 0  # a simulated game is seeded by [sim] seed


def test_the_configuration_is_frozen(tmp_path: Path) -> None:
    config = load_config(write(tmp_path, MINIMAL))
    with pytest.raises(dataclasses.FrozenInstanceError):
        config.game = None  # type: ignore[misc]


def test_a_hardware_game_without_seed_gets_a_fresh_one_at_every_start() -> None:
    assert load_config(EXAMPLES / "gpio-shift.toml").game.seed is None


def test_relative_paths_are_taken_from_the_config_directory(tmp_path: Path) -> None:
    (tmp_path / "boards").mkdir()
    (tmp_path / "boards" / "mine.toml").write_text((ROOT / "wiring" / "square14.toml").read_text())
    text = MINIMAL + '\n[board]\nprofile = "boards/mine.toml"\n\n[service]\nstate_dir = "state"\n'
    config = load_config(write(tmp_path, text))
    assert config.board.profile == tmp_path / "boards" / "mine.toml"
    assert config.service.state_dir == tmp_path / "state"


def test_profile_names_are_looked_up_in_profile_dir(tmp_path: Path) -> None:
    (tmp_path / "wiring").mkdir()
    (tmp_path / "wiring" / "square14.toml").write_text((ROOT / "wiring" / "square14.toml").read_text())
    config = load_config(write(tmp_path, MINIMAL + '\n[board]\nprofile_dir = "wiring"\n'))
    assert config.board.profile == tmp_path / "wiring" / "square14.toml"


# --- missing things ----------------------------------------------------------------------------------


def test_an_unreadable_file_is_named(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match=r"missing\.toml: cannot read the configuration"):
        load_config(tmp_path / "missing.toml")


def test_invalid_toml_is_named_with_its_position(tmp_path: Path) -> None:
    message = error_of(tmp_path, MINIMAL + "\n[service\n")
    assert "not valid TOML" in message and "line 10" in message


def test_a_missing_section_is_named(tmp_path: Path) -> None:
    message = error_of(tmp_path, MINIMAL.replace('[leds]\nbackend = "none"\n', ""))
    assert "missing the [leds] section" in message


def test_a_missing_key_names_its_section_and_line(tmp_path: Path) -> None:
    text = MINIMAL.replace('name = "klotz"', "players = 2")
    message = error_of(tmp_path, text)
    assert f":{line_of(text, '[game]')}: [game]: lacks the key 'name'" in message


def test_a_missing_profile_is_named(tmp_path: Path) -> None:
    text = MINIMAL + '\n[board]\nprofile = "nowhere.toml"\n'
    message = error_of(tmp_path, text)
    assert f":{line_of(text, 'nowhere')}: [board] profile: the board profile is unusable" in message
    assert "nowhere.toml: cannot read board profile" in message


# --- bad values --------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("section", "key", "value", "expected"),
    [
        ("sensors", "backend", '"usb"', "must be one of sim, gpio-mux, gpio-shift, serial, not 'usb'"),
        ("leds", "backend", '"laser"', "must be one of sim, neopixel, serial, none, not 'laser'"),
        ("buttons", "backend", '"keyboard"', "must be one of none, gpio"),
        ("gpio", "pin_factory", '"wiringpi"', "must be one of lgpio, rpigpio, pigpio, native, mock"),
        ("service", "scan_hz", '"fast"', "must be a number from 1 to 1000, not 'fast'"),
        ("service", "scan_hz", "0", "must be a number from 1 to 1000, not 0"),
        ("service", "watchdog", "1", "must be true or false, not 1"),
        ("service", "log_level", '"loud"', "must be one of debug, info, warning, error"),
        ("service", "state_dir", "3", "must be a non-empty string, not 3"),
        ("tracker", "debounce_ms", "-5", "must be a whole number >= 0, not -5"),
        ("tracker", "settle_ms", "2.5", "must be a whole number >= 0, not 2.5"),
        ("tracker", "takeback", '"maybe"', "must be one of auto, offer, off, not 'maybe'"),
        ("tracker", "preview_ms", "0", "must be a whole number >= 1, not 0"),
        ("sim", "noise", '"loud"', "must be one of none, low, high"),
        ("sim", "speed", "-1", "must be a number from 0 to 1000, not -1"),
        ("sim", "bots", '"yes"', "must be true or false, not 'yes'"),
        ("sim", "bot", '"genius"', "must be one of greedy, random"),
        ("sim", "moves", '"c3-c5"', "must be a list of moves in the game's notation"),
        ("board", "sensor_model", '"magic"', "must be one of binary, count, signed, signed_count"),
    ],
)
def test_a_bad_value_names_file_line_and_key(tmp_path: Path, section: str, key: str, value: str, expected: str) -> None:
    base = MINIMAL.replace('[sensors]\nbackend = "sim"', "").replace('[leds]\nbackend = "none"', "")
    tables = {"sensors": {"backend": '"sim"'}, "leds": {"backend": '"none"'}}
    tables.setdefault(section, {})[key] = value
    text = base + "".join(
        f"\n[{name}]\n" + "".join(f"{k} = {v}\n" for k, v in entries.items()) for name, entries in tables.items()
    )
    message = error_of(tmp_path, text)
    line = line_of(text, f"{key} = {value}")
    assert f":{line}: [{section}] {key}: {expected}" in message


def test_unknown_keys_are_errors_not_silent_defaults(tmp_path: Path) -> None:
    text = MINIMAL + "\n[tracker]\ndebounce = 40\n"
    message = error_of(tmp_path, text)
    assert f":{line_of(text, 'debounce = 40')}: [tracker] debounce: unknown key (known keys: debounce_ms" in message


def test_unknown_sections_are_errors(tmp_path: Path) -> None:
    text = MINIMAL + "\n[sensor]\nbackend = 1\n"
    message = error_of(tmp_path, text)
    assert f":{line_of(text, '[sensor]')}: unknown section [sensor]" in message


def test_a_key_of_another_backend_is_named(tmp_path: Path) -> None:
    text = MINIMAL.replace('backend = "sim"', 'backend = "sim"\nport = "/dev/ttyACM0"')
    message = error_of(tmp_path, text)
    assert f":{line_of(text, 'port =')}: [sensors] port: does not apply to the sim backend" in message


# --- the game ----------------------------------------------------------------------------------------


def test_an_unknown_game_is_named(tmp_path: Path) -> None:
    message = error_of(tmp_path, MINIMAL.replace('"klotz"', '"chess"'))
    assert ":2: [game] name: unknown game 'chess'" in message


def test_a_bad_player_count_is_named(tmp_path: Path) -> None:
    message = error_of(tmp_path, MINIMAL.replace('name = "klotz"', 'name = "klotz"\nplayers = 5'))
    assert ":3: [game] players: Klotz is played by 2, 3, 4 players, not 5" in message


def test_bad_game_options_are_named(tmp_path: Path) -> None:
    text = MINIMAL.replace('name = "klotz"', 'name = "klotz"\noptions = { max_turns = 3 }')
    assert ":3: [game] options: Klotz has no option max_turns" in error_of(tmp_path, text)
    text = MINIMAL.replace('name = "klotz"', 'name = "klotz"\noptions = { max_plies = -1 }')
    assert "[game] options:" in error_of(tmp_path, text) and "max_plies" in error_of(tmp_path, text)


def test_scripted_moves_must_be_legal_in_order(tmp_path: Path) -> None:
    good = opening_moves(3)
    load_config(write(tmp_path, sim_config(moves=good)))
    text = sim_config(moves=(*good[:2], "a1-a2"))
    message = error_of(tmp_path, text)
    assert f":{line_of(text, 'moves =')}: [sim] moves: move 3 ('a1-a2'):" in message


def test_scripted_moves_cannot_go_past_the_end_of_the_game(tmp_path: Path) -> None:
    text = sim_config(max_plies=2, moves=opening_moves(3))
    assert "move 3" in error_of(tmp_path, text) and "after the game is over" in error_of(tmp_path, text)


# --- pins --------------------------------------------------------------------------------------------

MUX = """\
[game]
name = "klotz"

[sensors]
backend = "gpio-mux"
select_pins = [5, 6, 12, 13]
signal_pins = [2, 3, 4, 14, 15, 17, 18, 19, 22, 23, 24, 25, 26]

[leds]
backend = "neopixel"

[buttons]
backend = "gpio"
confirm = 16
"""


def test_a_pin_outside_the_header_is_named(tmp_path: Path) -> None:
    text = MUX.replace("confirm = 16", "confirm = 40")
    assert f":{line_of(text, 'confirm')}: [buttons] confirm: must be a BCM GPIO number 0..27, not 40" in error_of(
        tmp_path, text
    )
    text = MUX.replace("[5, 6, 12, 13]", "[5, 6, 12, true]")
    assert "[sensors] select_pins: True is not a BCM GPIO number 0..27" in error_of(tmp_path, text)


def test_a_pin_used_twice_names_both_uses(tmp_path: Path) -> None:
    text = MUX.replace("confirm = 16", "confirm = 26")
    message = error_of(tmp_path, text)
    expected = f":{line_of(text, 'confirm')}: [buttons] confirm: GPIO 26 is already used by [sensors] signal_pins"
    assert expected in message


def test_the_spi_bus_of_the_leds_is_not_free_for_buttons(tmp_path: Path) -> None:
    message = error_of(tmp_path, MUX.replace("confirm = 16", "confirm = 11"))
    assert "[buttons] confirm: GPIO 11 is already used by [leds] pin (GPIO 11 belongs to the SPI bus" in message


def test_a_mux_needs_four_select_lines_and_enough_signal_pins(tmp_path: Path) -> None:
    assert "[sensors] select_pins: a 74HC4067 has 4 select lines (S0..S3), not 3" in error_of(
        tmp_path, MUX.replace("[5, 6, 12, 13]", "[5, 6, 12]")
    )
    message = error_of(tmp_path, MUX.replace("14, 15, 17, 18, 19, 22, 23, 24, 25, 26", "14"))
    assert "[sensors] signal_pins: 4 multiplexer(s) read 64 channels; board square14 has 196" in message
    assert "needs 13 signal pins" in message


def test_a_gpio_scanner_needs_binary_sensors(tmp_path: Path) -> None:
    message = error_of(tmp_path, MUX + '\n[board]\nsensor_model = "count"\n')
    assert "[sensors] backend: a gpio-mux scanner reads digital 0/1 sensors" in message


def test_neopixels_need_a_pin_that_can_drive_them(tmp_path: Path) -> None:
    text = MUX.replace('backend = "neopixel"', 'backend = "neopixel"\npin = 4')
    assert f":{line_of(text, 'pin = 4')}: [leds] pin: GPIO 4 cannot drive NeoPixels" in error_of(tmp_path, text)


def test_serial_leds_need_the_serial_scanner(tmp_path: Path) -> None:
    text = MINIMAL.replace('backend = "none"', 'backend = "serial"')
    message = error_of(tmp_path, text)
    assert f":{line_of(text, 'serial')}: [leds] backend:" in message and 'must be "serial" too' in message


def test_gpio_buttons_need_a_pin(tmp_path: Path) -> None:
    assert "gpio buttons need at least one pin" in error_of(tmp_path, MINIMAL + '\n[buttons]\nbackend = "gpio"\n')


def test_shift_register_pins_are_required(tmp_path: Path) -> None:
    text = MINIMAL.replace('backend = "sim"', 'backend = "gpio-shift"\nload_pin = 22\nclock_pin = 27')
    assert "[sensors]: lacks the key 'data_pin'" in error_of(tmp_path, text)


def test_parse_config_names_its_source() -> None:
    with pytest.raises(ConfigError, match=r"^inline:2: \[game\] name"):
        parse_config(MINIMAL.replace('"klotz"', '"chess"'), "inline")


def test_docs_describe_every_section_and_key() -> None:
    from controller.config import SECTION_KEYS

    text = (ROOT / "docs" / "service.md").read_text()
    for section, keys in SECTION_KEYS.items():
        assert f"### `[{section}]`" in text, section
        for key in keys:
            assert f"`{key}`" in text, f"[{section}] {key}"
