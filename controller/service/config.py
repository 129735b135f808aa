"""The service configuration (`/etc/tafel/config.toml`): board, game, a backend per function, the
wiring of the Pi's pins, tracker timings, service settings and the simulated board.

Loading validates everything up front and names the file, the line and the key of every problem: the
person editing the file is at a Raspberry Pi without a debugger, and a service that fails an hour
into a game because of a typo is worse than one that refuses to start. Unknown sections and keys are
errors too, so a misspelt key never silently falls back to a default. docs/service.md lists every key.

The wiring tables (`[gpio]` with `[gpio.mux]`, `[gpio.shift]`, `[gpio.analog]`, `[gpio.buttons]`,
and `[neopixel]`) belong to the hardware backends: they are parsed and checked by their own
`from_mapping` constructors (hal.gpio, hal.neopixel; documented in wiring/README.md), and this loader
only adds the file's line to their errors and checks what spans sections: that the chosen backends
have their wiring, that the scanner fits the board profile, and that no GPIO serves two purposes.
"""

from __future__ import annotations

import os
import tempfile
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, fields, replace
from pathlib import Path
from typing import Any

from controller.bots import BOTS
from controller.files import UnreadableFile, read_text
from controller.games import Game, load_game
from controller.remote.link import BrokerSettings, RemoteGame
from controller.service.config_remote import remote_section
from controller.service.config_web import DEFAULT_WEB, WebConfig, web_section
from controller.table.tracker import TAKEBACK_MODES, TrackerConfig
from hal.errors import WiringError
from hal.gpio.wiring import AnalogMuxWiring, GpioConfig, MuxWiring, ShiftRegisterWiring
from hal.libraries import Library, needed
from hal.neopixel import NeoPixelWiring
from hal.profile import PROFILE_DIR, BoardProfile, ProfileError, key_line, load_profile, names_a_file, profile_path
from hal.sensors import MODEL_NAMES

DEFAULT_CONFIG = Path("/etc/tafel/config.toml")
DEFAULT_STATE_DIR = Path("/var/lib/tafel")

SENSOR_BACKENDS = ("sim", "gpio", "serial")
LED_BACKENDS = ("sim", "neopixel", "serial", "none")
BUTTON_BACKENDS = ("none", "gpio")
NOISE_LEVELS = ("none", "low", "high")
HAND_STYLES = ("human", "calm")
LOG_LEVELS = ("debug", "info", "warning", "error")
SCANNER_NAMES = {MuxWiring: "mux", ShiftRegisterWiring: "shift", AnalogMuxWiring: "analog"}


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
class GpioSensors:
    """Sensors scanned by the Pi itself, wired as `[gpio] scanner` says (the wiring is `Config.gpio`)."""

    scanner: str  # mux, shift or analog
    backend = "gpio"


@dataclass(frozen=True)
class SerialSensors:
    """The RP2040 scanner board over USB serial (it also drives the LEDs when [leds] says so)."""

    port: str
    baud: int
    backend = "serial"


SensorsConfig = SimSensors | GpioSensors | SerialSensors


@dataclass(frozen=True)
class LedsConfig:
    backend: str  # the wiring of a neopixel strip is `Config.neopixel`
    brightness: float | None  # None: the profile's brightness


@dataclass(frozen=True)
class ButtonsConfig:
    backend: str  # the pins of gpio buttons are `Config.gpio.buttons`


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
    gpio: GpioConfig  # hal.gpio's: pin factory, scanner wiring (gpio sensors) and buttons (gpio buttons)
    neopixel: NeoPixelWiring | None  # hal.neopixel's; set when [leds] backend = "neopixel"
    tracker: TrackerConfig
    service: ServiceConfig
    sim: SimConfig
    profile: BoardProfile  # the board profile with this file's [board] sensor_model and [leds] brightness
    web: WebConfig = DEFAULT_WEB
    # [remote]: this board on a broker, and the game it plays with other boards if one is configured
    remote: tuple[BrokerSettings, RemoteGame | None] | None = None

    def load_game(self) -> Game:
        return load_game(self.game.name)

    @property
    def sensor_model(self) -> str:
        """The sensor model the board runs with: [board] sensor_model, else the profile's."""
        return self.profile.sensor_model

    def spi_buses(self) -> tuple[int, ...]:
        """The SPI buses the wiring needs switched on: 0 (`dtparam=spi=on`) for the MCP3008s of an analog
        scanner, a shift register chain read over SPI or a strip on SPI0, 1 (`dtoverlay=spi1-1cs`)
        for a strip on SPI1. install.sh asks."""
        buses: set[int] = set()
        if self._spi_scanner():
            buses.add(0)
        if self.neopixel is not None and self.neopixel.driver == "spi":
            buses.add(self.neopixel.spi_port)
        return tuple(sorted(buses))

    def _spi_scanner(self) -> bool:
        scanner = self.gpio.scanner
        return isinstance(scanner, AnalogMuxWiring) or (
            isinstance(scanner, ShiftRegisterWiring) and scanner.bus == "spi"
        )

    def wiring_advice(self) -> list[str]:
        """What would work but degrade on some Pi, in words (the service logs it at start, `tafel
        diagnose` prints it). Today: an LED strip whose frames do not leave by DMA."""
        advice = []
        if self.neopixel is not None and not self.neopixel.has_dma:
            advice.append(
                f"{self.neopixel.where}: the LED strip is on SPI{self.neopixel.spi_port}, which has no DMA on a "
                "Pi 3, 4 or Zero 2 W: each frame is refilled by interrupts and one late interrupt latches the "
                "strip mid-frame (flicker, wrong colours). Put the strip on SPI0 (spi_port = 0); a scanner "
                "sharing SPI0 answers to CE1 while CE0 gates the strip (wiring/README.md)"
            )
        return advice

    def libraries(self) -> list[Library]:
        """The Python libraries this board's backends load (`tafel diagnose --imports` checks them)."""
        return needed(
            self.sensors.backend,
            self.leds.backend,
            self.buttons.backend,
            self.gpio.pin_factory,
            self.neopixel.driver if self.neopixel is not None else None,
            self._spi_scanner(),
        )


# --- loading ---------------------------------------------------------------------------------------

SECTION_KEYS: dict[str, tuple[str, ...]] = {
    "board": ("profile", "profile_dir", "sensor_model"),
    "game": ("name", "players", "seed", "options"),
    "sensors": ("backend", "port", "baud"),
    "leds": ("backend", "brightness"),
    "buttons": ("backend",),
    "tracker": tuple(f.name for f in fields(TrackerConfig)),
    "service": ("state_dir", "scan_hz", "watchdog", "log_level"),
    "sim": ("noise", "seed", "hands", "speed", "bots", "bot", "moves"),
    "web": ("enabled", "listen", "port", "pin", "names"),
    "remote": ("board", "broker", "port", "username", "password", "tls", "ca_file", "game", "host", "seats"),
}
WIRING_SECTIONS = ("gpio", "neopixel")  # read by hal.gpio and hal.neopixel (keys: wiring/README.md)
BACKEND_KEYS: dict[str, tuple[str, ...]] = {"sim": (), "gpio": (), "serial": ("port", "baud")}


def default_state_dir() -> Path:
    """Where the journal lives without `state_dir`: the directory systemd's StateDirectory= made for
    the service (it says where in $STATE_DIRECTORY), else /var/lib/tafel."""
    given = os.environ.get("STATE_DIRECTORY", "").split(":")[0]
    return Path(given) if given else DEFAULT_STATE_DIR


def state_dir_problem(path: Path) -> str | None:
    """Why the journal could not be kept in `path`, in words; None when it can. Tried for real (a
    scratch directory made and removed), since permissions alone do not tell: root may write
    anywhere by them, yet not into /proc or onto a read-only file system."""
    if path.exists() and not path.is_dir():
        return f"{path} is not a directory"
    existing = path
    while not existing.exists():
        existing = existing.parent
    if not existing.is_dir():
        return f"{path} cannot be created: {existing} is not a directory"
    try:
        scratch = tempfile.mkdtemp(prefix=".tafel-check-", dir=existing)
    except OSError as error:
        reason = error.strerror or str(error)
        if existing == path:
            return f"{path} is not writable: {reason}"
        return f"{path} cannot be created in {existing}: {reason}"
    os.rmdir(scratch)
    return None


def load_config(path: str | Path = DEFAULT_CONFIG) -> Config:
    path = Path(path)
    try:
        text = read_text(path, "the configuration")
    except UnreadableFile as error:
        if error.missing:
            raise ConfigError(
                f"{path}: no configuration there. Example configurations are in wiring/examples/ (see "
                "docs/service.md); to try the board on this machine: tafel run --config wiring/examples/sim.toml"
            ) from None
        raise ConfigError(str(error)) from None
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
    def _line(self, section: str, key: str | None) -> int | None:
        """The line of `key` in `[section]`, else of the section's header (or of its parent table's)."""
        line = key_line(self._lines, key, section) if key is not None else None
        while line is None and section:
            line = key_line(self._lines, None, section)
            section = section.rpartition(".")[0]
        return line

    def _located(self, line: int | None, message: str) -> ConfigError:
        where = f"{self._source}:{line}" if line is not None else self._source
        return ConfigError(f"{where}: {message}")

    def error(self, section: str, key: str | None, message: str) -> ConfigError:
        name = f"[{section}] {key}" if key is not None else f"[{section}]"
        return self._located(self._line(section, key), f"{name}: {message}")

    def wiring_error(self, error: WiringError) -> ConfigError:
        """A wiring table's own error (it names the table and key), with the line in this file."""
        where = error.where or ""
        section = where[where.rindex("[") + 1 : -1] if "[" in where and where.endswith("]") else ""
        return self._located(self._line(section, error.key) if section else None, str(error))

    # --- typed values --------------------------------------------------------------------------
    def section(self, data: Mapping[str, Any], section: str, required: bool = False) -> Mapping[str, Any]:
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

    def required(self, table: Mapping[str, Any], section: str, key: str) -> Any:
        if key not in table:
            raise self.error(section, None, f"lacks the key {key!r}")
        return table[key]

    def choice(
        self, table: Mapping[str, Any], section: str, key: str, choices: tuple[str, ...], default: str | None = None
    ) -> str:
        value = table.get(key, default) if default is not None else self.required(table, section, key)
        if value not in choices:
            raise self.error(section, key, f"must be one of {', '.join(choices)}, not {value!r}")
        return str(value)

    def whole_number(
        self, table: Mapping[str, Any], section: str, key: str, default: int | None, minimum: int = 0
    ) -> int:
        value = table.get(key, default) if default is not None else self.required(table, section, key)
        if isinstance(value, bool) or not isinstance(value, int) or value < minimum:
            raise self.error(section, key, f"must be a whole number >= {minimum}, not {value!r}")
        return value

    def number(
        self, table: Mapping[str, Any], section: str, key: str, default: float, low: float, high: float
    ) -> float:
        value = table.get(key, default)
        if isinstance(value, bool) or not isinstance(value, int | float) or not low <= value <= high:
            raise self.error(section, key, f"must be a number from {low:g} to {high:g}, not {value!r}")
        return float(value)

    def flag(self, table: Mapping[str, Any], section: str, key: str, default: bool) -> bool:
        value = table.get(key, default)
        if not isinstance(value, bool):
            raise self.error(section, key, f"must be true or false, not {value!r}")
        return value

    def text(self, table: Mapping[str, Any], section: str, key: str, default: str | None = None) -> str:
        value = table.get(key, default) if default is not None else self.required(table, section, key)
        if not isinstance(value, str) or not value.strip():
            raise self.error(section, key, f"must be a non-empty string, not {value!r}")
        return value

    def path(self, value: str) -> Path:
        path = Path(value).expanduser()
        return path if path.is_absolute() else self._base / path

    # --- sections ------------------------------------------------------------------------------
    def config(self, data: Mapping[str, Any]) -> Config:
        for section, value in data.items():
            if section not in SECTION_KEYS and section not in WIRING_SECTIONS:
                known = ", ".join(f"[{name}]" for name in (*SECTION_KEYS, *WIRING_SECTIONS))
                raise self._located(
                    key_line(self._lines, None, section), f"unknown section [{section}] (sections: {known})"
                )
            if not isinstance(value, Mapping):
                raise self.error(section, None, "must be a table")
        game_config, game = self.game(self.section(data, "game", required=True))
        board = self.board(self.section(data, "board"), game)
        leds_table = self.section(data, "leds", required=True)
        brightness = self.brightness(leds_table)
        profile = self.profile(board, brightness)
        gpio = self.gpio(data.get("gpio"))
        sensors = self.sensors(self.section(data, "sensors", required=True), gpio, profile)
        leds = self.leds(leds_table, sensors, brightness)
        neopixel = self.neopixel(data.get("neopixel"), leds)
        buttons = self.buttons(self.section(data, "buttons"), gpio)
        try:  # the LED strip's pins (and its SPI bus) against the scanner's and the buttons'
            gpio.check_pins(neopixel.claims() if neopixel is not None else ())
        except WiringError as error:
            raise self.wiring_error(error) from None
        sim = self.sim(self.section(data, "sim"))
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
            neopixel,
            self.tracker(self.section(data, "tracker")),
            self.service(self.section(data, "service")),
            sim,
            profile,
            self.web(self.section(data, "web")),
            self.remote(data.get("remote"), game_config.players),
        )

    def remote(self, table: Mapping[str, Any] | None, players: int) -> tuple[BrokerSettings, RemoteGame | None] | None:
        return remote_section(self, table, players)

    def web(self, table: Mapping[str, Any]) -> WebConfig:
        return web_section(self, table)

    def game(self, table: Mapping[str, Any]) -> tuple[GameConfig, Game]:
        name = self.text(table, "game", "name")
        try:
            game = load_game(name)
        except ValueError as error:
            raise self.error("game", "name", str(error)) from None
        players = self.whole_number(table, "game", "players", game.default_players, 1)
        try:
            game.check_players(players)
        except ValueError as error:
            raise self.error("game", "players", str(error)) from None
        seed = self.whole_number(table, "game", "seed", None, 0) if "seed" in table else None
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
        profile = self.text(table, "board", "profile", game.capabilities.board_profile)
        directory = self.path(self.text(table, "board", "profile_dir")) if "profile_dir" in table else PROFILE_DIR
        path = self.path(profile) if names_a_file(profile) else profile_path(profile, directory)
        model = None
        if "sensor_model" in table:
            model = self.choice(table, "board", "sensor_model", MODEL_NAMES)
        return BoardConfig(path, model)

    def brightness(self, table: Mapping[str, Any]) -> float | None:
        if "brightness" not in table:
            return None
        brightness = self.number(table, "leds", "brightness", 0, 0.0, 1.0)
        if brightness == 0.0:
            raise self.error("leds", "brightness", 'must be above 0 (use backend = "none" for no LEDs)')
        return brightness

    def profile(self, board: BoardConfig, brightness: float | None) -> BoardProfile:
        """The board profile, with the sensor model and brightness this file chooses."""
        try:
            profile = load_profile(board.profile)
        except ProfileError as error:
            raise self.error("board", "profile", f"the board profile is unusable: {error}") from None
        if board.sensor_model is not None:
            profile = replace(profile, sensor_model=board.sensor_model)
        if brightness is not None:
            profile = replace(profile, brightness=brightness)
        return profile

    def gpio(self, table: Any) -> GpioConfig:
        try:
            return GpioConfig.from_mapping(table, "[gpio]")
        except WiringError as error:
            raise self.wiring_error(error) from None

    def sensors(self, table: Mapping[str, Any], gpio: GpioConfig, profile: BoardProfile) -> SensorsConfig:
        backend = self.choice(table, "sensors", "backend", SENSOR_BACKENDS)
        for key in table:
            if key != "backend" and key not in BACKEND_KEYS[backend]:
                raise self.error("sensors", key, f"does not apply to the {backend} backend")
        if backend != "gpio" and gpio.scanner is not None:
            raise self.error(
                "gpio",
                "scanner",
                f'applies when the Pi scans the sensors ([sensors] backend = "gpio"), not with the {backend} '
                "backend: leave it out",
            )
        if backend == "sim":
            return SimSensors()
        if backend == "serial":
            port = self.text(table, "sensors", "port", "/dev/tafel-scanner")
            return SerialSensors(port, self.whole_number(table, "sensors", "baud", 115200, 1))
        if gpio.scanner is None:
            raise self.error(
                "sensors",
                "backend",
                'the gpio backend needs the scanner\'s wiring: scanner = "mux", "shift" or "analog" in [gpio] '
                "and its table (see wiring/README.md)",
            )
        try:  # enough channels for the board, and sensors that give its sensor model's readings
            gpio.check_board(profile)
        except WiringError as error:
            raise self.wiring_error(error) from None
        return GpioSensors(SCANNER_NAMES[type(gpio.scanner)])

    def leds(self, table: Mapping[str, Any], sensors: SensorsConfig, brightness: float | None) -> LedsConfig:
        backend = self.choice(table, "leds", "backend", LED_BACKENDS)
        if backend == "serial" and not isinstance(sensors, SerialSensors):
            raise self.error(
                "leds",
                "backend",
                f'"serial" LEDs are driven by the RP2040 scanner: [sensors] backend must be '
                f'"serial" too, not {sensors.backend!r}',
            )
        return LedsConfig(backend, brightness)

    def neopixel(self, table: Any, leds: LedsConfig) -> NeoPixelWiring | None:
        if leds.backend != "neopixel":
            if table is not None:
                raise self.error("neopixel", None, f'applies to [leds] backend = "neopixel", not {leds.backend!r}')
            return None
        try:
            return NeoPixelWiring.from_mapping(table, "[neopixel]")
        except WiringError as error:
            raise self.wiring_error(error) from None

    def buttons(self, table: Mapping[str, Any], gpio: GpioConfig) -> ButtonsConfig:
        """Without a backend: gpio when [gpio.buttons] is there."""
        wired = gpio.buttons is not None
        backend = self.choice(table, "buttons", "backend", BUTTON_BACKENDS, "gpio" if wired else "none")
        if backend == "gpio" and (gpio.buttons is None or not gpio.buttons.pins()):
            raise self.error(
                "buttons", "backend", "gpio buttons need their pins in [gpio.buttons] (confirm, undo, menu = GPIO)"
            )
        if backend == "none" and wired:
            raise self.error("gpio.buttons", None, 'is wired, but [buttons] backend = "none": remove one of them')
        return ButtonsConfig(backend)

    def tracker(self, table: Mapping[str, Any]) -> TrackerConfig:
        values: dict[str, Any] = {}
        for key in table:
            if key == "takeback":
                values[key] = self.choice(table, "tracker", key, TAKEBACK_MODES)
            else:
                values[key] = self.whole_number(table, "tracker", key, None, 0)
        try:
            return TrackerConfig(**values)
        except ValueError as error:
            raise self.error("tracker", None, str(error)) from None

    def service(self, table: Mapping[str, Any]) -> ServiceConfig:
        state_dir = default_state_dir()
        if "state_dir" in table:
            state_dir = self.path(self.text(table, "service", "state_dir"))
            problem = state_dir_problem(state_dir)
            if problem is not None:
                raise self.error("service", "state_dir", problem)
        return ServiceConfig(
            state_dir,
            self.number(table, "service", "scan_hz", 100, 1, 1000),
            self.flag(table, "service", "watchdog", True),
            self.choice(table, "service", "log_level", LOG_LEVELS, "info"),
        )

    def sim(self, table: Mapping[str, Any]) -> SimConfig:
        moves = table.get("moves", [])
        if not isinstance(moves, list) or not all(isinstance(move, str) and move.strip() for move in moves):
            raise self.error("sim", "moves", f"must be a list of moves in the game's notation, not {moves!r}")
        return SimConfig(
            self.choice(table, "sim", "noise", NOISE_LEVELS, "none"),
            self.whole_number(table, "sim", "seed", 0),
            self.choice(table, "sim", "hands", HAND_STYLES, "human"),
            self.number(table, "sim", "speed", 1.0, 0.0, 1000.0),
            self.flag(table, "sim", "bots", True),
            self.choice(table, "sim", "bot", tuple(BOTS), "greedy"),
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
