"""The service configuration: every example loads, and every mistake is named by file, line and key."""

from __future__ import annotations

import dataclasses
import io
import re
import tomllib
from pathlib import Path

import pytest

from controller.service.config import (
    ConfigError,
    GpioSensors,
    SerialSensors,
    SimSensors,
    load_config,
    parse_config,
)
from controller.service.loop import run_service
from hal.gpio import AnalogMuxWiring, ButtonWiring, GpioConfig, MuxWiring, ShiftRegisterWiring
from hal.neopixel import NeoPixelWiring
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


EXPECTED = {
    "sim": ("square14", SimSensors, "sim", ()),
    "gpio-mux": ("square14", GpioSensors, "neopixel", (0,)),
    "gpio-shift": ("square14", GpioSensors, "neopixel", (0,)),
    "gpio-analog": ("hex61", GpioSensors, "neopixel", (0,)),
    "rp2040": ("square14", SerialSensors, "serial", ()),
}


def test_every_example_is_listed() -> None:
    assert sorted(path.stem for path in EXAMPLES.glob("*.toml")) == sorted(EXPECTED)


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_every_wiring_example_is_valid(name: str) -> None:
    out = io.StringIO()
    assert run_service(EXAMPLES / f"{name}.toml", check=True, stream=out) == 0, out.getvalue()
    config = load_config(EXAMPLES / f"{name}.toml")
    board, sensors, leds, buses = EXPECTED[name]
    assert config.profile.name == board
    assert isinstance(config.sensors, sensors)
    assert config.leds.backend == leds
    assert config.spi_buses() == buses  # what install.sh switches on


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_every_example_sends_led_frames_by_dma_and_gives_each_spi_device_its_chip_select(name: str) -> None:
    config = load_config(EXAMPLES / f"{name}.toml")
    assert config.wiring_advice() == []
    if config.neopixel is not None and config.leds.backend == "neopixel":
        assert config.neopixel.has_dma
    claims = [*config.gpio.claims(), *(config.neopixel.claims() if config.leds.backend == "neopixel" else ())]
    selects = [(claim.bus, claim.gpio) for claim in claims if claim.selects]
    assert len(selects) == len(set(selects)), selects  # no chip select answers for two devices
    assert all(claim.bus in (None, "SPI0") for claim in claims)  # SPI1, the bus without DMA, is unused


def test_a_strip_on_spi1_is_advised_against_in_words(tmp_path: Path) -> None:
    text = (EXAMPLES / "gpio-shift.toml").read_text().replace("spi_port = 0", "spi_port = 1")
    config = load_config(write(tmp_path, text))
    (advice,) = config.wiring_advice()
    assert "[neopixel]: the LED strip is on SPI1, which has no DMA on a Pi 3, 4 or Zero 2 W" in advice
    out = io.StringIO()
    assert run_service(tmp_path / "config.toml", check=True, stream=out) == 0
    assert "the LED strip is on SPI1" in out.getvalue()


def guide_blocks() -> list[dict]:
    blocks = []
    for guide in ("square14", "hex61"):
        text = (ROOT / "wiring" / f"{guide}.md").read_text(encoding="utf-8")
        blocks += [tomllib.loads(block) for block in re.findall(r"```toml\n(.*?)```", text, re.S)]
    return blocks


@pytest.mark.parametrize("name", ["gpio-mux", "gpio-shift", "gpio-analog"])
def test_gpio_examples_are_wired_as_a_building_guide_says(name: str) -> None:
    data = tomllib.loads((EXAMPLES / f"{name}.toml").read_text())
    wiring = {"gpio": data["gpio"], "neopixel": data["neopixel"]}
    assert wiring in guide_blocks()


def test_the_mux_example_reads_every_channel_of_its_board() -> None:
    config = load_config(EXAMPLES / "gpio-mux.toml")
    assert config.sensors == GpioSensors("mux")
    scanner = config.gpio.scanner
    assert isinstance(scanner, MuxWiring) and scanner.select_pins == (2, 3, 4, 17)
    assert scanner.capacity >= config.profile.channels
    assert config.neopixel == NeoPixelWiring("spi", 0, max_milliamps=5000)
    assert config.gpio.buttons == ButtonWiring(confirm=26, undo=27, menu=14)
    assert config.buttons.backend == "gpio"


def test_the_analog_example_reads_signed_sensors_on_gpio() -> None:
    config = load_config(EXAMPLES / "gpio-analog.toml")
    assert config.sensors == GpioSensors("analog") and config.sensor_model == "signed"
    assert isinstance(config.gpio.scanner, AnalogMuxWiring) and config.gpio.scanner.thresholds == (0.08,)


def test_the_rp2040_example_drives_leds_over_the_scanner_link() -> None:
    config = load_config(EXAMPLES / "rp2040.toml")
    assert isinstance(config.sensors, SerialSensors) and config.sensors.port == "/dev/tafel-scanner"
    assert config.leds.backend == "serial" and config.neopixel is None
    assert config.gpio == GpioConfig("lgpio", None, ButtonWiring(confirm=23, undo=24, menu=25))


def test_a_minimal_config_fills_in_documented_defaults(tmp_path: Path) -> None:
    config = load_config(write(tmp_path, MINIMAL))
    assert config.game.players == 2 and config.game.options == {}
    assert config.profile.name == "square14"  # the game's own board
    assert config.buttons.backend == "none" and config.gpio == GpioConfig() and config.neopixel is None
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
    with pytest.raises(ConfigError, match=r"missing\.toml: no configuration there\. Example configurations"):
        load_config(tmp_path / "missing.toml")


def test_a_state_dir_that_cannot_be_made_is_a_config_error(tmp_path: Path) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("")
    for state_dir, reason in (
        ("/proc/nope", "/proc/nope cannot be created in /proc"),
        (str(blocker), "is not a directory"),
        (str(blocker / "journal"), "cannot be created: .* is not a directory"),
    ):
        text = (ROOT / "wiring/examples/sim.toml").read_text()
        text = text.replace('state_dir = "../../.tafel-state"', f'state_dir = "{state_dir}"')
        with pytest.raises(ConfigError, match=rf"\[service\] state_dir: .*{reason}"):
            parse_config(text, "sim.toml", ROOT / "wiring/examples")
    fresh = (ROOT / "wiring/examples/sim.toml").read_text().replace("../../.tafel-state", str(tmp_path / "a" / "b"))
    assert parse_config(fresh, "sim.toml").service.state_dir == tmp_path / "a" / "b"
    assert not (tmp_path / "a").exists()  # checking creates nothing


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
    assert "cannot read the board profile" in message and "nowhere.toml: No such file" in message


# --- bad values --------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("section", "key", "value", "expected"),
    [
        ("sensors", "backend", '"usb"', "must be one of sim, gpio, serial, not 'usb'"),
        ("leds", "backend", '"laser"', "must be one of sim, neopixel, serial, none, not 'laser'"),
        ("leds", "brightness", "0", 'must be above 0 (use backend = "none" for no LEDs)'),
        ("buttons", "backend", '"keyboard"', "must be one of none, gpio"),
        ("service", "scan_hz", '"fast"', "must be a number from 1 to 1000, not 'fast'"),
        ("service", "scan_hz", "0", "must be a number from 1 to 1000, not 0"),
        ("service", "watchdog", "1", "must be true or false, not 1"),
        ("service", "log_level", '"loud"', "must be one of debug, info, warning, error"),
        ("service", "state_dir", "3", "must be a non-empty string, not 3"),
        ("tracker", "debounce_ms", "-5", "must be a whole number >= 0, not -5"),
        ("tracker", "settle_ms", "2.5", "must be a whole number >= 0, not 2.5"),
        ("tracker", "takeback", '"maybe"', "must be one of auto, offer, off, not 'maybe'"),
        ("tracker", "preview_ms", "-1", "must be a whole number >= 0, not -1"),
        ("sim", "noise", '"loud"', "must be one of none, low, high"),
        ("sim", "speed", "-1", "must be a number from 0 to 1000, not -1"),
        ("sim", "bots", '"yes"', "must be true or false, not 'yes'"),
        ("sim", "bot", '"genius"', "must be one of random, greedy, search-1, search-2"),
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


# --- the wiring tables ------------------------------------------------------------------------------

MUX = """\
[game]
name = "klotz"

[sensors]
backend = "gpio"

[leds]
backend = "neopixel"

[buttons]
backend = "gpio"

[gpio]
scanner = "mux"

[gpio.mux]
select_pins = [2, 3, 4, 7]
signal_pins = [5, 6, 8, 9, 10, 11, 12, 13, 16, 17, 22, 23, 24]

[gpio.buttons]
confirm = 25

[neopixel]
spi_port = 1
"""

ANALOG = """\
[game]
name = "zillo"

[board]
sensor_model = "count"

[sensors]
backend = "gpio"

[leds]
backend = "none"

[gpio]
scanner = "analog"

[gpio.analog]
select_pins = [5, 6, 13, 26]
adc_inputs = [[0, 0], [0, 1], [0, 2], [0, 3], [0, 4], [0, 5], [0, 6], [0, 7], [1, 0], [1, 1], [1, 2], [1, 3], [1, 4]]
thresholds = [0.06, 0.12, 0.16]
"""


def test_a_wiring_mistake_names_file_line_table_and_key(tmp_path: Path) -> None:
    text = MUX.replace("confirm = 25", "confirm = 40")
    message = error_of(tmp_path, text)
    assert message.endswith(
        f":{line_of(text, 'confirm')}: [gpio.buttons]: confirm: GPIO 40 is not on the 40-pin header "
        "(BCM numbering: GPIO 2..27)"
    )
    text = MUX.replace("[2, 3, 4, 7]", "[2, 3, 4, true]")
    message = error_of(tmp_path, text)
    assert f":{line_of(text, 'select_pins')}: [gpio.mux]: select_pins: True is not a GPIO number" in message


def test_unknown_and_missing_wiring_keys_are_named(tmp_path: Path) -> None:
    text = MUX.replace("signal_pins", "signal_pin")
    message = error_of(tmp_path, text)
    assert f":{line_of(text, '[gpio.mux]')}: [gpio.mux]: missing the key 'signal_pins'" in message
    text = MUX.replace("confirm = 25", "confirm = 25\nbounce_ms = 30")
    message = error_of(tmp_path, text)
    assert f":{line_of(text, 'bounce_ms')}: [gpio.buttons]: unknown key(s) bounce_ms (known keys: " in message
    text = MUX.replace("spi_port = 1", "spi_port = 1\npin = 10")
    message = error_of(tmp_path, text)
    assert f":{line_of(text, 'pin = 10')}: [neopixel]: pin: the pwm driver can drive GPIO 12, 13, 18" in message


def test_the_old_flat_pin_keys_are_unknown(tmp_path: Path) -> None:
    text = MUX.replace('backend = "gpio"\n\n[leds]', 'backend = "gpio"\nselect_pins = [2, 3, 4, 7]\n\n[leds]')
    message = error_of(tmp_path, text)
    assert (
        f":{line_of(text, 'select_pins')}: [sensors] select_pins: unknown key (known keys: backend, port, baud)"
        in message
    )


def test_an_error_in_an_inline_wiring_table_points_at_its_table(tmp_path: Path) -> None:
    text = MUX.replace("[gpio.mux]\n", "").replace(
        'scanner = "mux"\n\nselect_pins = [2, 3, 4, 7]\nsignal_pins = [5, 6, 8, 9, 10, 11, 12, 13, 16, 17, 22, 23, 24]',
        'scanner = "mux"\nmux = { select_pins = [2, 3, 4], signal_pins = [5] }',
    )
    assert "mux = {" in text
    message = error_of(tmp_path, text)
    assert f":{line_of(text, '[gpio]')}: [gpio.mux]: select_pins: must list exactly 4 GPIO numbers, not 3" in message


def test_a_pin_used_twice_names_both_uses(tmp_path: Path) -> None:
    text = MUX.replace("confirm = 25", "confirm = 24")
    message = error_of(tmp_path, text)
    expected = "[gpio]: GPIO24 (pin 18) is used twice: for multiplexer 12 signal and for confirm button"
    assert f":{line_of(text, '[gpio]')}: {expected}" in message


def test_the_spi_bus_of_the_leds_is_not_free_for_other_uses(tmp_path: Path) -> None:
    message = error_of(tmp_path, MUX.replace("confirm = 25", "confirm = 19"))
    assert "GPIO19 (pin 35) is used twice: for confirm button and for SPI1 MISO (LED strip)" in message
    text = ANALOG.replace('[leds]\nbackend = "none"', '[leds]\nbackend = "neopixel"')  # SPI0: the ADCs' bus
    message = error_of(tmp_path, text)
    expected = "GPIO8 (pin 24) is used twice: for SPI0 CE0 (MCP3008 on chip select 0) and for SPI0 CE0 (LED strip)"
    assert expected in message
    config = load_config(write(tmp_path, text + "\n[neopixel]\nspi_port = 1\n"))
    assert config.spi_buses() == (0, 1)


def test_the_scanner_must_read_every_channel_of_the_board(tmp_path: Path) -> None:
    text = MUX.replace("8, 9, 10, 11, 12, 13, 16, 17, 22, 23, 24", "8")
    message = error_of(tmp_path, text)
    expected = "[gpio.mux]: signal_pins: 3 multiplexers give 48 channels, but the board profile square14 has 196"
    assert f":{line_of(text, 'signal_pins')}: {expected}" in message


def test_a_digital_scanner_needs_binary_sensors(tmp_path: Path) -> None:
    text = MUX + '\n[board]\nsensor_model = "count"\n'
    message = error_of(tmp_path, text)
    expected = "[gpio.mux]: a digital scanner reads 0 or 1 per field, but the sensor model of board square14 is count"
    assert f":{line_of(text, '[gpio.mux]')}: {expected}" in message


def test_an_analog_scanner_reads_count_and_signed_models(tmp_path: Path) -> None:
    config = load_config(write(tmp_path, ANALOG))
    assert config.sensors == GpioSensors("analog")
    assert config.sensor_model == config.profile.sensor_model == "count" and config.board.sensor_model == "count"
    text = ANALOG.replace("[0.06, 0.12, 0.16]", "[0.06]")
    message = error_of(tmp_path, text)
    expected = "[gpio.analog]: thresholds: the count model of board square14 counts up to 3 magnets (count_cap)"
    assert f":{line_of(text, 'thresholds')}: {expected}, so it needs 3 value(s), not 1" in message
    signed = load_config(write(tmp_path, text.replace('"count"', '"signed"')))
    assert signed.sensor_model == "signed"


def test_the_gpio_backend_needs_a_scanner_and_only_it_has_one(tmp_path: Path) -> None:
    text = MUX.replace('scanner = "mux"\n', "")
    message = error_of(tmp_path, text)
    line = line_of(text, 'backend = "gpio"')  # the first: [sensors]
    assert f":{line}: [sensors] backend: the gpio backend needs the scanner" in message
    text = MUX.replace('[sensors]\nbackend = "gpio"', '[sensors]\nbackend = "sim"')
    message = error_of(tmp_path, text)
    assert f":{line_of(text, 'scanner =')}: [gpio] scanner: applies when the Pi scans the sensors" in message


def test_the_neopixel_table_belongs_to_neopixel_leds(tmp_path: Path) -> None:
    text = MUX.replace('[leds]\nbackend = "neopixel"', '[leds]\nbackend = "none"')
    message = error_of(tmp_path, text)
    assert (
        f":{line_of(text, '[neopixel]')}: [neopixel]: applies to [leds] backend = \"neopixel\", not 'none'" in message
    )
    config = load_config(write(tmp_path, MINIMAL.replace('backend = "none"', 'backend = "neopixel"')))
    assert config.neopixel == NeoPixelWiring() and config.spi_buses() == (0,)  # the defaults: SPI0, data on GPIO 10


def test_serial_leds_need_the_serial_scanner(tmp_path: Path) -> None:
    text = MINIMAL.replace('backend = "none"', 'backend = "serial"')
    message = error_of(tmp_path, text)
    assert f":{line_of(text, 'serial')}: [leds] backend:" in message and 'must be "serial" too' in message


def test_gpio_buttons_and_their_wiring_go_together(tmp_path: Path) -> None:
    text = MINIMAL + '\n[buttons]\nbackend = "gpio"\n'
    assert f":{line_of(text, 'gpio')}: [buttons] backend: gpio buttons need their pins in [gpio.buttons]" in error_of(
        tmp_path, text
    )
    wired = MINIMAL + "\n[gpio.buttons]\nconfirm = 23\n"
    assert load_config(write(tmp_path, wired)).buttons.backend == "gpio"  # the default when they are wired
    text = wired + '\n[buttons]\nbackend = "none"\n'
    message = error_of(tmp_path, text)
    assert f':{line_of(text, "[gpio.buttons]")}: [gpio.buttons]: is wired, but [buttons] backend = "none"' in message


def test_shift_register_keys_are_required(tmp_path: Path) -> None:
    text = MUX.replace(
        'scanner = "mux"', 'scanner = "shift"\n\n[gpio.shift]\nload_pin = 22\nclock_pin = 27\nchips = 25'
    )
    assert f":{line_of(text, '[gpio.shift]')}: [gpio.shift]: missing the key 'data_pin'" in error_of(tmp_path, text)


def test_the_board_overrides_reach_the_profile(tmp_path: Path) -> None:
    text = (
        MINIMAL.replace('backend = "none"', 'backend = "none"\nbrightness = 0.25')
        + '\n[board]\nsensor_model = "signed"\n'
    )
    config = load_config(write(tmp_path, text))
    assert config.profile.brightness == 0.25 and config.leds.brightness == 0.25
    assert config.profile.sensor_model == "signed" and config.profile.name == "square14"


def test_parse_config_names_its_source() -> None:
    with pytest.raises(ConfigError, match=r"^inline:2: \[game\] name"):
        parse_config(MINIMAL.replace('"klotz"', '"chess"'), "inline")


def test_docs_describe_every_section_and_key() -> None:
    from controller.service.config import SECTION_KEYS, WIRING_SECTIONS

    text = (ROOT / "docs" / "service.md").read_text()
    for section, keys in SECTION_KEYS.items():
        assert f"### `[{section}]`" in text, section
        for key in keys:
            assert f"`{key}`" in text, f"[{section}] {key}"
    # The wiring tables are the backends' own, documented once, for builders, in wiring/README.md.
    readme = (ROOT / "wiring" / "README.md").read_text()
    assert "wiring/README.md" in text
    tables = {
        "gpio": GpioConfig,
        "gpio.mux": MuxWiring,
        "gpio.shift": ShiftRegisterWiring,
        "gpio.analog": AnalogMuxWiring,
        "gpio.buttons": ButtonWiring,
        "neopixel": NeoPixelWiring,
    }
    assert {name.partition(".")[0] for name in tables} == set(WIRING_SECTIONS)
    for name, wiring in tables.items():
        assert f"`[{name}]`" in text and f"`[{name}]`" in readme, name
        for key in (f.name for f in dataclasses.fields(wiring) if f.name not in ("where", "buttons")):
            assert f"`{key}`" in readme, f"[{name}] {key}"


def test_without_state_dir_the_journal_goes_where_systemd_says(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    text = (ROOT / "wiring/examples/sim.toml").read_text().replace('state_dir = "../../.tafel-state"', "")
    monkeypatch.delenv("STATE_DIRECTORY", raising=False)
    assert parse_config(text, "sim.toml", ROOT / "wiring/examples").service.state_dir == Path("/var/lib/tafel")
    monkeypatch.setenv("STATE_DIRECTORY", f"{tmp_path}:/var/lib/other")  # StateDirectory= with two names
    assert parse_config(text, "sim.toml", ROOT / "wiring/examples").service.state_dir == tmp_path


def test_the_web_section_has_documented_defaults_and_clear_errors(tmp_path: Path) -> None:
    web = load_config(write(tmp_path, MINIMAL)).web
    assert (web.enabled, web.listen, web.port, web.pin, web.names) == (True, "0.0.0.0", 8080, None, ())
    table = '[web]\nlisten = "127.0.0.1"\nport = 9000\npin = "4711"\nnames = ["Tafel.Fritz.Box.", "spielbrett"]\n'
    chosen = load_config(write(tmp_path, MINIMAL + "\n" + table)).web
    assert (chosen.listen, chosen.port, chosen.pin) == ("127.0.0.1", 9000, "4711")
    assert chosen.names == ("tafel.fritz.box", "spielbrett")
    for table, words in (
        ('listen = "the kitchen"', r"\[web\] listen: 'the kitchen' is not an IP address"),
        ("port = 70000", r"\[web\] port: 70000 is not a port number"),
        ("pin = 4711", r"\[web\] pin: must be 4 to 8 digits in quotes"),
        ('pin = "12"', r"\[web\] pin: must be 4 to 8 digits"),
        ("colour = 1", r"\[web\].*colour"),
        ('names = "tafel.lan"', r'\[web\] names: must be a list of host names, e\.g\. names = \["tafel\.fritz\.box"\]'),
        ('names = ["http://tafel.lan"]', r"\[web\] names: 'http://tafel.lan' is not a host name"),
        ('names = ["tafel.lan:8080"]', r"\[web\] names: 'tafel.lan:8080' is not a host name"),
        ('names = ["ta fel", "ok"]', r"\[web\] names: 'ta fel' is not a host name"),
        ('names = ["a..b"]', r"\[web\] names: 'a..b' is not a host name"),
        ('names = ["-tafel"]', r"\[web\] names: '-tafel' is not a host name"),
        ("names = [1]", r"\[web\] names: 1 is not a host name"),
        ('names = [""]', r"\[web\] names: '' is not a host name"),
    ):
        message = error_of(tmp_path, MINIMAL + f"\n[web]\n{table}\n")
        assert re.search(words, message), message


REMOTE = """
[remote]
board = "club"
broker = "broker.example.org"
password = "pw"
game = "friday-1"
host = "kitchen"
seats = ["kitchen", "club"]
"""


def test_a_remote_section_names_the_broker_the_board_and_the_game(tmp_path: Path) -> None:
    config = load_config(write(tmp_path, sim_config(extra=REMOTE)))
    assert config.remote is not None
    settings, game = config.remote
    assert (settings.board, settings.host, settings.port, settings.username, settings.tls) == (
        "club",
        "broker.example.org",
        1883,
        "club",
        False,
    )
    assert (game.game, game.host, game.seats) == ("friday-1", "kitchen", ("kitchen", "club"))
    assert load_config(write(tmp_path, sim_config())).remote is None


@pytest.mark.parametrize(
    ("change", "words"),
    [
        (('board = "club"', 'board = "Club/1"'), "[remote] board: board 'Club/1' is not usable"),
        (('seats = ["kitchen", "club"]', 'seats = ["kitchen"]'), "[remote] seats: must list the board of each"),
        (('seats = ["kitchen", "club"]', 'seats = ["kitchen", "pub"]'), "names no seat for board club"),
        (('game = "friday-1"\n', ""), "[remote] game"),
        (
            ('password = "pw"', 'password = "pw"\ntls = true\nca_file = "club-ca.crt"'),
            "no certificate authority file at",
        ),
    ],
)
def test_a_bad_remote_section_is_named_in_words(tmp_path: Path, change: tuple[str, str], words: str) -> None:
    with pytest.raises(ConfigError) as caught:
        load_config(write(tmp_path, sim_config(extra=REMOTE.replace(*change))))
    assert words in str(caught.value)


def test_a_remote_ca_file_is_read_relative_to_the_configuration(tmp_path: Path) -> None:
    (tmp_path / "club-ca.crt").write_text("-----BEGIN CERTIFICATE-----\n")
    extra = REMOTE.replace('password = "pw"', 'password = "pw"\ntls = true\nca_file = "club-ca.crt"')
    config = load_config(write(tmp_path, sim_config(extra=extra)))
    assert config.remote is not None
    assert config.remote[0].ca_file == str(tmp_path / "club-ca.crt") and config.remote[0].tls
