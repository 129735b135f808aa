"""The service configuration (`/etc/tafel/config.toml`): board, game, a backend per function, pins,
tracker timings, service settings and the simulated board.

Loading validates everything up front and names the file, the line and the key of every problem: the
person editing the file is at a Raspberry Pi without a debugger, and a service that fails an hour
into a game because of a typo is worse than one that refuses to start. Unknown sections and keys are
errors too, so a misspelt key never silently falls back to a default. docs/service.md lists every key.
"""

from __future__ import annotations

import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, fields, replace
from pathlib import Path
from typing import Any

from controller.bots import BOTS
from controller.games import Game, load_game
from controller.tracker import TAKEBACK_MODES, TrackerConfig
from hal.profile import PROFILE_DIR, BoardProfile, ProfileError, key_line, load_profile
from hal.protocols import BUTTONS
from hal.sensors import MODEL_NAMES

DEFAULT_CONFIG = Path("/etc/tafel/config.toml")
DEFAULT_STATE_DIR = Path("/var/lib/tafel")

SENSOR_BACKENDS = ("sim", "gpio-mux", "gpio-shift", "serial")
LED_BACKENDS = ("sim", "neopixel", "serial", "none")
BUTTON_BACKENDS = ("none", "gpio")
PIN_FACTORIES = ("lgpio", "rpigpio", "pigpio", "native", "mock")
NOISE_LEVELS = ("none", "low", "high")
HAND_STYLES = ("human", "calm")
LOG_LEVELS = ("debug", "info", "warning", "error")

GPIO_PINS = range(0, 28)  # BCM numbers on the 40-pin header
MUX_SELECT_LINES = 4  # a 74HC4067 has S0..S3
MUX_CHANNELS = 16  # ... and 16 inputs behind one signal pin
SHIFT_BITS = 8  # a 74HC165 holds 8 inputs
NEOPIXEL_PINS = (10, 12, 13, 18, 19, 21)  # SPI MOSI, PWM0/1 and PCM: the pins that can drive WS2812
SPI_LED_PIN = 10  # the only LED pin that needs no root: it drives the strip through /dev/spidev0.0
SPI0_PINS = (7, 8, 9, 10, 11)  # CE1, CE0, MISO, MOSI, SCLK: taken by the SPI bus when it drives the LEDs


class ConfigError(ValueError):
    """A problem in the configuration file, naming the file, line (where known) and key."""


# --- the sections ----------------------------------------------------------------------------------


@dataclass(frozen=True)
class BoardConfig:
    profile: Path  # the resolved profile file
    sensor_model: str | None  # None: the profile's model


@dataclass(frozen=True)
class GameConfig:
    name: str
    players: int
    seed: int | None  # None: a fresh random seed at every start (logged, so a game can be replayed)
    options: Mapping[str, Any]


@dataclass(frozen=True)
class SimSensors:
    backend = "sim"


@dataclass(frozen=True)
class MuxSensors:
    """74HC4067 multiplexers: shared select lines S0..S3, one signal pin per multiplexer."""

    select_pins: tuple[int, ...]
    signal_pins: tuple[int, ...]
    enable_pin: int | None
    active_low: bool
    pull_up: bool
    settle_us: int
    backend = "gpio-mux"


@dataclass(frozen=True)
class ShiftSensors:
    """A chain of 74HC165 parallel-in shift registers."""

    load_pin: int
    clock_pin: int
    data_pin: int
    enable_pin: int | None
    active_low: bool
    backend = "gpio-shift"


@dataclass(frozen=True)
class SerialSensors:
    """The RP2040 scanner board over USB serial (it also drives the LEDs when [leds] says so)."""

    port: str
    baud: int
    backend = "serial"


SensorsConfig = SimSensors | MuxSensors | ShiftSensors | SerialSensors


@dataclass(frozen=True)
class LedsConfig:
    backend: str
    pin: int | None  # neopixel only
    brightness: float | None  # None: the profile's brightness


@dataclass(frozen=True)
class ButtonsConfig:
    backend: str
    pins: Mapping[str, int]  # button name (confirm, undo, menu) -> BCM pin
    pull_up: bool
    bounce_ms: int


@dataclass(frozen=True)
class GpioConfig:
    pin_factory: str


@dataclass(frozen=True)
class ServiceConfig:
    state_dir: Path
    scan_hz: float
    watchdog: bool
    log_level: str


@dataclass(frozen=True)
class SimConfig:
    noise: str
    seed: int
    hands: str
    speed: float  # board time per wall-clock time; 0: as fast as the computer can
    bots: bool
    bot: str
    moves: tuple[str, ...]


@dataclass(frozen=True)
class Config:
    source: str
    board: BoardConfig
    game: GameConfig
    sensors: SensorsConfig
    leds: LedsConfig
    buttons: ButtonsConfig
    gpio: GpioConfig
    tracker: TrackerConfig
    service: ServiceConfig
    sim: SimConfig
    profile: BoardProfile

    def load_game(self) -> Game:
        return load_game(self.game.name)


# --- loading ---------------------------------------------------------------------------------------

SECTION_KEYS: dict[str, tuple[str, ...]] = {
    "board": ("profile", "profile_dir", "sensor_model"),
    "game": ("name", "players", "seed", "options"),
    "sensors": (
        "backend",
        "select_pins",
        "signal_pins",
        "enable_pin",
        "active_low",
        "pull_up",
        "settle_us",
        "load_pin",
        "clock_pin",
        "data_pin",
        "port",
        "baud",
    ),
    "leds": ("backend", "pin", "brightness"),
    "buttons": ("backend", "pull_up", "bounce_ms", *BUTTONS),
    "gpio": ("pin_factory",),
    "tracker": tuple(f.name for f in fields(TrackerConfig)),
    "service": ("state_dir", "scan_hz", "watchdog", "log_level"),
    "sim": ("noise", "seed", "hands", "speed", "bots", "bot", "moves"),
}
BACKEND_KEYS: dict[str, tuple[str, ...]] = {
    "sim": (),
    "gpio-mux": ("select_pins", "signal_pins", "enable_pin", "active_low", "pull_up", "settle_us"),
    "gpio-shift": ("load_pin", "clock_pin", "data_pin", "enable_pin", "active_low"),
    "serial": ("port", "baud"),
}


def load_config(path: str | Path = DEFAULT_CONFIG) -> Config:
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as error:
        raise ConfigError(f"{path}: cannot read the configuration: {error.strerror or error}") from None
    return parse_config(text, str(path), path.resolve().parent)


def parse_config(text: str, source: str = "<config>", base: Path | None = None) -> Config:
    """Parse and validate a configuration; relative paths in it are taken from `base` (the directory
    of the configuration file)."""
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        raise ConfigError(f"{source}: not valid TOML: {error}") from None
    return _Loader(text, source, base or Path.cwd()).config(data)


class _Loader:
    def __init__(self, text: str, source: str, base: Path) -> None:
        self._lines = text.splitlines()
        self._source = source
        self._base = base

    # --- errors --------------------------------------------------------------------------------
    def error(self, section: str, key: str | None, message: str) -> ConfigError:
        line = key_line(self._lines, key, section) if key is not None else None
        if line is None:
            line = key_line(self._lines, None, section)
        where = f"{self._source}:{line}" if line is not None else self._source
        name = f"[{section}] {key}" if key is not None else f"[{section}]"
        return ConfigError(f"{where}: {name}: {message}")

    # --- typed values --------------------------------------------------------------------------
    def _table(self, data: Mapping[str, Any], section: str, required: bool = False) -> Mapping[str, Any]:
        table = data.get(section)
        if table is None:
            if required:
                raise ConfigError(f"{self._source}: missing the [{section}] section")
            return {}
        if not isinstance(table, Mapping):
            raise self.error(section, None, "must be a table")
        known = SECTION_KEYS[section]
        for key in table:
            if key not in known:
                raise self.error(section, key, f"unknown key (known keys: {', '.join(known)})")
        return table

    def _require(self, table: Mapping[str, Any], section: str, key: str) -> Any:
        if key not in table:
            raise self.error(section, None, f"lacks the key {key!r}")
        return table[key]

    def _choice(self, table: Mapping[str, Any], section: str, key: str, choices: tuple[str, ...], default=None):
        value = table.get(key, default) if default is not None else self._require(table, section, key)
        if value not in choices:
            raise self.error(section, key, f"must be one of {', '.join(choices)}, not {value!r}")
        return value

    def _int(self, table: Mapping[str, Any], section: str, key: str, default: int | None, minimum: int = 0) -> int:
        value = table.get(key, default) if default is not None else self._require(table, section, key)
        if isinstance(value, bool) or not isinstance(value, int) or value < minimum:
            raise self.error(section, key, f"must be a whole number >= {minimum}, not {value!r}")
        return value

    def _number(self, table: Mapping[str, Any], section: str, key: str, default: float, low: float, high: float):
        value = table.get(key, default)
        if isinstance(value, bool) or not isinstance(value, int | float) or not low <= value <= high:
            raise self.error(section, key, f"must be a number from {low:g} to {high:g}, not {value!r}")
        return float(value)

    def _bool(self, table: Mapping[str, Any], section: str, key: str, default: bool) -> bool:
        value = table.get(key, default)
        if not isinstance(value, bool):
            raise self.error(section, key, f"must be true or false, not {value!r}")
        return value

    def _text(self, table: Mapping[str, Any], section: str, key: str, default: str | None = None) -> str:
        value = table.get(key, default) if default is not None else self._require(table, section, key)
        if not isinstance(value, str) or not value.strip():
            raise self.error(section, key, f"must be a non-empty string, not {value!r}")
        return value

    def _pin(self, table: Mapping[str, Any], section: str, key: str, optional: bool = False) -> int | None:
        if optional and key not in table:
            return None
        value = self._require(table, section, key)
        if isinstance(value, bool) or not isinstance(value, int) or value not in GPIO_PINS:
            raise self.error(section, key, f"must be a BCM GPIO number 0..27, not {value!r}")
        return value

    def _pins(self, table: Mapping[str, Any], section: str, key: str) -> tuple[int, ...]:
        value = self._require(table, section, key)
        if not isinstance(value, list) or not value:
            raise self.error(section, key, f"must be a non-empty list of BCM GPIO numbers, not {value!r}")
        for pin in value:
            if isinstance(pin, bool) or not isinstance(pin, int) or pin not in GPIO_PINS:
                raise self.error(section, key, f"{pin!r} is not a BCM GPIO number 0..27")
        return tuple(value)

    def _path(self, value: str) -> Path:
        path = Path(value).expanduser()
        return path if path.is_absolute() else self._base / path

    # --- sections ------------------------------------------------------------------------------
    def config(self, data: Mapping[str, Any]) -> Config:
        for section, value in data.items():
            if section not in SECTION_KEYS:
                line = key_line(self._lines, None, section)
                where = f"{self._source}:{line}" if line is not None else self._source
                known = ", ".join(f"[{name}]" for name in SECTION_KEYS)
                raise ConfigError(f"{where}: unknown section [{section}] (sections: {known})")
            if not isinstance(value, Mapping):
                raise self.error(section, None, "must be a table")
        game_config, game = self.game(self._table(data, "game", required=True))
        board = self.board(self._table(data, "board"), game)
        profile = self.profile(board)
        sensors = self.sensors(self._table(data, "sensors", required=True), board, profile)
        leds = self.leds(self._table(data, "leds", required=True), sensors)
        buttons = self.buttons(self._table(data, "buttons"))
        gpio = GpioConfig(self._choice(self._table(data, "gpio"), "gpio", "pin_factory", PIN_FACTORIES, "lgpio"))
        self.check_pins(sensors, leds, buttons)
        sim = self.sim(self._table(data, "sim"))
        if isinstance(sensors, SimSensors):
            if game_config.seed is None:  # a simulated game replays exactly: [sim] seed seeds it too
                game_config = replace(game_config, seed=sim.seed)
            self.check_moves(game, game_config, sim.moves)
        return Config(
            self._source,
            board,
            game_config,
            sensors,
            leds,
            buttons,
            gpio,
            self.tracker(self._table(data, "tracker")),
            self.service(self._table(data, "service")),
            sim,
            profile,
        )

    def game(self, table: Mapping[str, Any]) -> tuple[GameConfig, Game]:
        name = self._text(table, "game", "name")
        try:
            game = load_game(name)
        except ValueError as error:
            raise self.error("game", "name", str(error)) from None
        players = self._int(table, "game", "players", game.default_players, 1)
        try:
            game.check_players(players)
        except ValueError as error:
            raise self.error("game", "players", str(error)) from None
        seed = self._int(table, "game", "seed", None, 0) if "seed" in table else None
        options = table.get("options", {})
        if not isinstance(options, Mapping):
            raise self.error("game", "options", "must be a table, e.g. options = { max_plies = 200 }")
        try:
            game.resolve_options(options)
            game.new_game(players=players, seed=seed or 0, **options)  # the game itself checks the values
        except ValueError as error:
            raise self.error("game", "options", str(error)) from None
        return GameConfig(game.name, players, seed, dict(options)), game

    def board(self, table: Mapping[str, Any], game: Game) -> BoardConfig:
        profile = self._text(table, "board", "profile", getattr(game, "board_profile", "square14"))
        directory = self._path(self._text(table, "board", "profile_dir")) if "profile_dir" in table else PROFILE_DIR
        by_path = profile.endswith(".toml") or "/" in profile
        path = self._path(profile) if by_path else directory / f"{profile}.toml"
        model = None
        if "sensor_model" in table:
            model = self._choice(table, "board", "sensor_model", MODEL_NAMES)
        return BoardConfig(path, model)

    def profile(self, board: BoardConfig) -> BoardProfile:
        try:
            return load_profile(board.profile)
        except ProfileError as error:
            raise self.error("board", "profile", f"the board profile is unusable: {error}") from None

    def sensors(self, table: Mapping[str, Any], board: BoardConfig, profile: BoardProfile) -> SensorsConfig:
        backend = self._choice(table, "sensors", "backend", SENSOR_BACKENDS)
        for key in table:
            if key != "backend" and key not in BACKEND_KEYS[backend]:
                raise self.error("sensors", key, f"does not apply to the {backend} backend")
        model = board.sensor_model or profile.sensor_model
        if backend in ("gpio-mux", "gpio-shift") and model != "binary":
            raise self.error(
                "sensors",
                "backend",
                f"a {backend} scanner reads digital 0/1 sensors; the sensor model must be binary, not {model}",
            )
        if backend == "sim":
            return SimSensors()
        if backend == "serial":
            port = self._text(table, "sensors", "port", "/dev/tafel-scanner")
            return SerialSensors(port, self._int(table, "sensors", "baud", 115200, 1))
        active_low = self._bool(table, "sensors", "active_low", True)
        enable = self._pin(table, "sensors", "enable_pin", optional=True)
        if backend == "gpio-mux":
            select = self._pins(table, "sensors", "select_pins")
            if len(select) != MUX_SELECT_LINES:
                lines = f"a 74HC4067 has {MUX_SELECT_LINES} select lines (S0..S3), not {len(select)}"
                raise self.error("sensors", "select_pins", lines)
            signal = self._pins(table, "sensors", "signal_pins")
            if len(signal) * MUX_CHANNELS < profile.channels:
                raise self.error(
                    "sensors",
                    "signal_pins",
                    f"{len(signal)} multiplexer(s) read {len(signal) * MUX_CHANNELS} channels; board "
                    f"{profile.name} has {profile.channels} (needs {-(-profile.channels // MUX_CHANNELS)} signal pins)",
                )
            return MuxSensors(
                select,
                signal,
                enable,
                active_low,
                self._bool(table, "sensors", "pull_up", True),
                self._int(table, "sensors", "settle_us", 5),
            )
        return ShiftSensors(
            self._pin(table, "sensors", "load_pin"),  # type: ignore[arg-type]
            self._pin(table, "sensors", "clock_pin"),  # type: ignore[arg-type]
            self._pin(table, "sensors", "data_pin"),  # type: ignore[arg-type]
            enable,
            active_low,
        )

    def leds(self, table: Mapping[str, Any], sensors: SensorsConfig) -> LedsConfig:
        backend = self._choice(table, "leds", "backend", LED_BACKENDS)
        if backend == "serial" and not isinstance(sensors, SerialSensors):
            raise self.error(
                "leds",
                "backend",
                f'"serial" LEDs are driven by the RP2040 scanner: [sensors] backend must be '
                f'"serial" too, not {sensors.backend!r}',
            )
        pin = None
        if "pin" in table and backend != "neopixel":
            raise self.error("leds", "pin", f"applies to the neopixel backend only, not {backend}")
        if backend == "neopixel":
            pin = self._pin(table, "leds", "pin") if "pin" in table else SPI_LED_PIN
            if pin not in NEOPIXEL_PINS:
                raise self.error(
                    "leds",
                    "pin",
                    f"GPIO {pin} cannot drive NeoPixels (use {', '.join(map(str, NEOPIXEL_PINS))}; "
                    f"{SPI_LED_PIN} = SPI needs no root)",
                )
        brightness = self._number(table, "leds", "brightness", 0, 0.0, 1.0) if "brightness" in table else None
        if brightness == 0.0:
            raise self.error("leds", "brightness", 'must be above 0 (use backend = "none" for no LEDs)')
        return LedsConfig(backend, pin, brightness)

    def buttons(self, table: Mapping[str, Any]) -> ButtonsConfig:
        backend = self._choice(table, "buttons", "backend", BUTTON_BACKENDS, "none")
        pins: dict[str, int] = {}
        if backend == "none":
            for key in table:
                if key != "backend":
                    raise self.error("buttons", key, 'does not apply when backend = "none"')
            return ButtonsConfig(backend, pins, True, 0)
        for name in BUTTONS:
            pin = self._pin(table, "buttons", name, optional=True)
            if pin is not None:
                pins[name] = pin
        if not pins:
            raise self.error("buttons", "backend", f"gpio buttons need at least one pin ({', '.join(BUTTONS)} = N)")
        return ButtonsConfig(
            backend, pins, self._bool(table, "buttons", "pull_up", True), self._int(table, "buttons", "bounce_ms", 30)
        )

    def check_pins(self, sensors: SensorsConfig, leds: LedsConfig, buttons: ButtonsConfig) -> None:
        """No GPIO pin may serve two purposes."""
        used: dict[int, tuple[str, str]] = {}

        def claim(pin: int | None, section: str, key: str) -> None:
            if pin is None:
                return
            if pin in used:
                other = used[pin]
                raise self.error(section, key, f"GPIO {pin} is already used by [{other[0]}] {other[1]}")
            used[pin] = (section, key)

        if leds.backend == "neopixel":
            if leds.pin == SPI_LED_PIN:
                for pin in SPI0_PINS:
                    used[pin] = ("leds", f"pin (GPIO {pin} belongs to the SPI bus that drives the LEDs)")
            else:
                claim(leds.pin, "leds", "pin")
        if isinstance(sensors, MuxSensors):
            for pin in sensors.select_pins:
                claim(pin, "sensors", "select_pins")
            for pin in sensors.signal_pins:
                claim(pin, "sensors", "signal_pins")
            claim(sensors.enable_pin, "sensors", "enable_pin")
        elif isinstance(sensors, ShiftSensors):
            for key in ("load_pin", "clock_pin", "data_pin", "enable_pin"):
                claim(getattr(sensors, key), "sensors", key)
        for name, pin in buttons.pins.items():
            claim(pin, "buttons", name)

    def tracker(self, table: Mapping[str, Any]) -> TrackerConfig:
        values: dict[str, Any] = {}
        for key in table:
            if key == "takeback":
                values[key] = self._choice(table, "tracker", key, TAKEBACK_MODES)
            else:
                values[key] = self._int(table, "tracker", key, None, 1 if key == "preview_ms" else 0)
        try:
            return TrackerConfig(**values)
        except ValueError as error:
            raise self.error("tracker", None, str(error)) from None

    def service(self, table: Mapping[str, Any]) -> ServiceConfig:
        state_dir = self._path(self._text(table, "service", "state_dir")) if "state_dir" in table else DEFAULT_STATE_DIR
        return ServiceConfig(
            state_dir,
            self._number(table, "service", "scan_hz", 100, 1, 1000),
            self._bool(table, "service", "watchdog", True),
            self._choice(table, "service", "log_level", LOG_LEVELS, "info"),
        )

    def sim(self, table: Mapping[str, Any]) -> SimConfig:
        moves = table.get("moves", [])
        if not isinstance(moves, list) or not all(isinstance(move, str) and move.strip() for move in moves):
            raise self.error("sim", "moves", f"must be a list of moves in the game's notation, not {moves!r}")
        return SimConfig(
            self._choice(table, "sim", "noise", NOISE_LEVELS, "none"),
            self._int(table, "sim", "seed", 0),
            self._choice(table, "sim", "hands", HAND_STYLES, "human"),
            self._number(table, "sim", "speed", 1.0, 0.0, 1000.0),
            self._bool(table, "sim", "bots", True),
            self._choice(table, "sim", "bot", tuple(sorted(BOTS)), "greedy"),
            tuple(move.strip() for move in moves),
        )

    def check_moves(self, game: Game, config: GameConfig, moves: tuple[str, ...]) -> None:
        """Scripted moves must be a legal sequence from the initial position."""
        state = game.new_game(players=config.players, seed=config.seed or 0, **config.options)
        for index, text in enumerate(moves):
            if state.is_terminal():
                raise self.error("sim", "moves", f"move {index + 1} ({text!r}) comes after the game is over")
            try:
                state = state.apply(state.parse_action(text))
            except ValueError as error:
                raise self.error("sim", "moves", f"move {index + 1} ({text!r}): {error}") from None
