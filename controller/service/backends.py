"""The one place where the controller picks its backends: the simulated board or hardware.

Backends are imported lazily here, so nothing else in `controller` depends on `sim` or on a
hardware library, and the whole project imports on any machine. The hardware is built from the
configuration's wiring with the backends' own constructors:

    hal.gpio.open_gpio(config.gpio, profile, sensor_model)    -> scanner and/or buttons on one pin factory
    hal.neopixel.NeoPixelSink.from_profile(profile, config.neopixel)
    hal.serial_devices.SerialScanner(SerialLink(port, channels=, led_count=, sensor_model=, baud=))
    hal.serial_devices.SerialPixels(scanner, size=, colour_order=, brightness=)   (the same USB link)

`profile` is the configuration's profile, with its [board] sensor_model and [leds] brightness.

A serial scanner that is unplugged or restarts is not an error: its `scan()` returns None (a dropped
scan) until the link is back, and `Backends.device_status()` says how the link stands, for the
status LED and the log. Any backend may have a `close()` method; `Backends.close()` calls each once,
in reverse order of creation.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from hal.profile import BoardProfile
from hal.protocols import RGB, InputEvent, InputSource, PixelSink, SensorSource

if TYPE_CHECKING:
    from controller.service.config import Config, SerialSensors
    from sim.backends import SimBackends

SIM_FRAMES_KEPT = 64  # a long-running simulated LED strip keeps only its latest frames


def led_strip(profile: BoardProfile, config: str | None = None) -> PixelSink:
    """The real LED strip (NeoPixel) of a board, wired as the `[neopixel]` table of the service
    configuration `config` says (without one: the SPI driver, data on GPIO 10)."""
    import tomllib

    from controller.files import read_text
    from hal.neopixel import NeoPixelSink, NeoPixelWiring

    wiring = NeoPixelWiring()
    if config is not None:
        try:
            data = tomllib.loads(read_text(config, "the configuration"))
        except tomllib.TOMLDecodeError as error:
            raise ValueError(f"{config}: not valid TOML: {error}") from None
        wiring = NeoPixelWiring.from_mapping(data.get("neopixel"), f"{config} [neopixel]")
    return NeoPixelSink.from_profile(profile, wiring)


class BackendError(RuntimeError):
    """A backend could not be built: a missing library, a device that is not there."""


class NullPixels:
    """The pixel sink of a board without LEDs (`[leds] backend = "none"`)."""

    def __init__(self, size: int) -> None:
        self._size = size

    @property
    def size(self) -> int:
        return self._size

    def show(self, colours: Sequence[RGB]) -> None:
        return None


class MergedInputs:
    """Several input sources polled as one (e.g. GPIO buttons beside the simulated board's queue)."""

    def __init__(self, sources: Sequence[InputSource]) -> None:
        self.sources = tuple(sources)

    def poll(self) -> list[InputEvent]:
        events: list[InputEvent] = []
        for source in self.sources:
            events.extend(source.poll())
        return events


@dataclass(frozen=True)
class Devices:
    """What `from_config` would otherwise open itself, given instead (tests): an open gpiozero pin
    factory (a MockFactory; it stays open), and the serial scanner's port opener and millisecond clock
    (an in-memory cable and a fake clock)."""

    pin_factory: Any = None
    serial_opener: Callable[[], Any] | None = None
    serial_clock: Callable[[], int] | None = None


@dataclass
class Backends:
    """What `tafel run` scans, lights and listens to, as the configuration chose it."""

    sensors: SensorSource
    pixels: PixelSink
    inputs: InputSource | None
    sim: SimBackends | None = None  # set when the board is simulated: its truth, hands and input queue
    opened: list[Any] = field(default_factory=list)  # every backend object, in order of creation
    link: Any = None  # hal.serial.SerialLink of the RP2040 scanner, when there is one

    def device_status(self) -> str | None:
        """How the scanner's link stands: "connecting", "connected", "reconnecting" or "error"; None
        when the sensors have no link (GPIO, the simulated board), which work or stop the service."""
        return self.link.status.state if self.link is not None else None

    def device_detail(self) -> str:
        """Why the link is in its state, for the log: the firmware when connected, else the reason."""
        return self.link.status.detail if self.link is not None else ""

    def device_trouble(self) -> bool:
        """Whether the link is down because something failed (not merely coming up)."""
        return self.link is not None and (self.link.status.state == "error" or self.link.failures > 0)

    def close(self) -> list[str]:
        """Close every backend that can be closed; the problems, if any (closing goes on past them)."""
        return close_all(self.opened)


def close_all(backends: Sequence[Any]) -> list[str]:
    """Call `close()` on each backend that has one, last opened first; the problems, if any."""
    problems: list[str] = []
    seen: set[int] = set()
    for backend in reversed(backends):
        close = getattr(backend, "close", None)
        if close is None or id(backend) in seen:
            continue
        seen.add(id(backend))
        try:
            close()
        except Exception as error:  # a failing device must not keep the others open
            problems.append(f"closing {type(backend).__name__}: {error}")
    return problems


def _hardware(module: str, name: str, purpose: str) -> Any:
    """The attribute `name` of the backend module `module`, with a clear error when it cannot be loaded."""
    try:
        return getattr(importlib.import_module(module), name)
    except ImportError as error:
        raise BackendError(
            f"{purpose} needs {module}.{name}, which cannot be loaded here ({error}); on a Raspberry Pi, "
            "install tafel with its [pi] extra (systemd/install.sh does)"
        ) from None
    except AttributeError:
        raise BackendError(f"{purpose} needs {module}.{name}, which this version of tafel lacks") from None


def _build(opened: list[Any], purpose: str, make: Callable[..., Any], /, *args: Any, **kwargs: Any) -> Any:
    """`make(*args, **kwargs)`, added to `opened`; any failure as a BackendError naming `purpose`."""
    try:
        backend = make(*args, **kwargs)
    except BackendError:
        raise
    except Exception as error:
        raise BackendError(f"{purpose}: {error}") from error
    opened.append(backend)
    return backend


def from_config(config: Config, devices: Devices | None = None) -> Backends:
    """Build sensors, pixels and inputs as `config` says; BackendError (after closing what was already
    opened) when a device or library is missing."""
    from controller.service.config import GpioSensors, SerialSensors

    devices = devices or Devices()
    opened: list[Any] = []
    try:
        sim: SimBackends | None = None
        link: Any = None
        sensors: Any = None
        if isinstance(config.sensors, SerialSensors):
            sensors = _serial_scanner(config, config.sensors, devices, opened)
            link = sensors.link
        elif not isinstance(config.sensors, GpioSensors):
            sim = _simulated_board(config)
            sensors = sim.board
        inputs: list[InputSource] = [sim.inputs] if sim is not None else []
        scans = isinstance(config.sensors, GpioSensors)
        if scans or config.buttons.backend == "gpio":
            board = _gpio(config, devices, opened)
            if scans:
                sensors = board.sensors
            if board.inputs is not None:
                inputs.append(board.inputs)
        pixels = _pixels(config, sensors, sim, opened)
        merged = inputs[0] if len(inputs) == 1 else MergedInputs(inputs) if inputs else None
        if sim is not None:
            sim.pixels = pixels
        return Backends(sensors, pixels, merged, sim, opened, link)
    except BaseException:
        close_all(opened)
        raise


def _serial_scanner(config: Config, settings: SerialSensors, devices: Devices, opened: list[Any]) -> Any:
    """The RP2040 scanner on its own link, checked against the profile (channels, sensor model and,
    when it drives the LEDs, LED count) whenever the board says HELLO."""
    profile = config.profile
    purpose = f"[sensors] serial on {settings.port}"
    link_class = _hardware("hal.serial", "SerialLink", "[sensors] backend serial")
    scanner_class = _hardware("hal.serial_devices", "SerialScanner", "[sensors] backend serial")
    seams: dict[str, Any] = {}
    if devices.serial_opener is not None:
        seams["opener"] = devices.serial_opener
    if devices.serial_clock is not None:
        seams["clock"] = devices.serial_clock
    link = _build(
        [],
        purpose,
        link_class,
        settings.port,
        channels=profile.channels,
        led_count=profile.led_count if config.leds.backend == "serial" else None,
        sensor_model=profile.sensor_model,
        baud=settings.baud,
        **seams,
    )
    return _build(opened, purpose, scanner_class, link)


def _gpio(config: Config, devices: Devices, opened: list[Any]) -> Any:
    """The Pi's own scanner and/or buttons, on one pin factory (closed with them)."""
    scanner = getattr(config.sensors, "scanner", None)  # GpioSensors: mux, shift or analog
    parts = [f"{scanner} scanner"] if scanner is not None else []
    if config.buttons.backend == "gpio":
        parts.append("buttons")
    purpose = f"[gpio] {' and '.join(parts)}"
    open_gpio = _hardware("hal.gpio", "open_gpio", purpose)
    return _build(
        opened, purpose, open_gpio, config.gpio, config.profile, config.sensor_model, factory=devices.pin_factory
    )


def _simulated_board(config: Config) -> SimBackends:
    from sim.backends import simulated

    settings = config.sim
    return simulated(
        config.profile,
        config.board.sensor_model,
        settings.noise,
        settings.seed,
        calm_hands=settings.hands == "calm",
        with_pixels=False,
    )


def _pixels(config: Config, sensors: Any, sim: SimBackends | None, opened: list[Any]) -> PixelSink:
    profile = config.profile
    backend = config.leds.backend
    if backend == "none":
        return NullPixels(profile.led_count)
    if backend == "sim":
        from sim.board import SimPixels

        return SimPixels(profile.led_count, sim.board if sim is not None else None, keep=SIM_FRAMES_KEPT)
    if backend == "neopixel":
        strip = _hardware("hal.neopixel", "NeoPixelSink", "[leds] backend neopixel")
        neopixels: PixelSink = _build(opened, "[leds] neopixel", strip.from_profile, profile, config.neopixel)
        return neopixels
    pixels = _hardware("hal.serial_devices", "SerialPixels", "[leds] backend serial")
    serial_pixels: PixelSink = _build(
        opened,
        "[leds] serial",
        pixels,
        sensors,  # the scanner's own link carries the LED frames
        size=profile.led_count,
        colour_order=profile.colour_order,
        brightness=profile.brightness,
    )
    return serial_pixels
