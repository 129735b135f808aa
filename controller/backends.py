"""The one place where the controller picks its backends: the simulated board or hardware.

Backends are imported lazily here, so nothing else in `controller` depends on `sim` or on a
hardware library, and the whole project imports on any machine.

Hardware backends are looked up by module and class name, and built with these keyword arguments
(the `[sensors]`, `[leds]` and `[buttons]` keys of the configuration, see docs/service.md):

    hal.gpio.MuxScanner(channels=, select_pins=, signal_pins=, enable_pin=, active_low=, pull_up=, settle_us=)
    hal.gpio.ShiftRegisterScanner(channels=, load_pin=, clock_pin=, data_pin=, enable_pin=, active_low=)
    hal.gpio.GpioButtons(pins={name: pin}, pull_up=, bounce_ms=)           -> InputSource
    hal.neopixel.NeoPixelSink(size=, pin=, colour_order=, brightness=)     -> PixelSink
    hal.serial.SerialScanner(port=, baud=, channels=)                     -> SensorSource (owns the link)
    hal.serial.SerialPixels(link=<the SerialScanner>, size=, colour_order=, brightness=) -> PixelSink

The GPIO pin factory (`[gpio] pin_factory`) is chosen the way gpiozero documents it, through
`GPIOZERO_PIN_FACTORY`, before the first GPIO backend is built. Any backend may have a `close()`
method; `Backends.close()` calls each once, in reverse order of creation.
"""

from __future__ import annotations

import importlib
import os
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from hal.profile import BoardProfile
from hal.protocols import RGB, InputEvent, InputSource, PixelSink, SensorSource

if TYPE_CHECKING:
    from controller.config import Config

SIM_FRAMES_KEPT = 64  # a long-running simulated LED strip keeps only its latest frames


@dataclass
class SimBackends:
    board: Any  # sim.board.SimBoard: sensor source and the physical truth
    pixels: Any  # sim.board.SimPixels
    inputs: Any  # sim.board.SimInputs
    hands: Any  # sim.hands.VirtualHands


def simulated(
    profile: BoardProfile, sensor_model: str | None = None, noise: str = "none", seed: int = 0, calm_hands: bool = False
) -> SimBackends:
    """A simulated board with virtual hands; `calm_hands` turns off human habits (slides, wrong fields)."""
    from sim.board import SimBoard, SimInputs, SimPixels
    from sim.hands import CALM, VirtualHands

    board = SimBoard(profile, sensor_model, noise, seed)
    pixels = SimPixels(profile.led_count, board)
    hands = VirtualHands(seed + 1, CALM if calm_hands else None)
    return SimBackends(board, pixels, SimInputs(), hands)


def led_strip(profile: BoardProfile, config: str | None = None) -> PixelSink:
    """The real LED strip (NeoPixel) of a board, wired as the `[neopixel]` table of the service
    configuration `config` says (without one: the SPI driver, data on GPIO 10)."""
    import tomllib

    from hal.neopixel import NeoPixelSink, NeoPixelWiring

    wiring = NeoPixelWiring()
    if config is not None:
        try:
            with open(config, "rb") as file:
                data = tomllib.load(file)
        except OSError as error:
            raise ValueError(f"{config}: cannot read the configuration: {error.strerror or error}") from None
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


@dataclass
class Backends:
    """What `tafel run` scans, lights and listens to, as the configuration chose it."""

    sensors: SensorSource
    pixels: PixelSink
    inputs: InputSource | None
    sim: SimBackends | None = None  # set when the board is simulated: its truth, hands and input queue
    opened: list[Any] = field(default_factory=list)  # every backend object, in order of creation

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


def _hardware(module: str, name: str, purpose: str) -> Callable[..., Any]:
    """The class `name` of the backend module `module`, with a clear error when it cannot be loaded."""
    try:
        return getattr(importlib.import_module(module), name)
    except ImportError as error:
        raise BackendError(
            f"{purpose} needs {module}.{name}, which cannot be loaded here ({error}); on a Raspberry Pi, "
            "install tafel with its [pi] extra (systemd/install.sh does)"
        ) from None
    except AttributeError:
        raise BackendError(f"{purpose} needs {module}.{name}, which this version of tafel lacks") from None


def _build(opened: list[Any], purpose: str, factory: Callable[..., Any], **kwargs: Any) -> Any:
    try:
        backend = factory(**kwargs)
    except BackendError:
        raise
    except Exception as error:
        raise BackendError(f"{purpose}: {error}") from error
    opened.append(backend)
    return backend


def from_config(config: Config) -> Backends:
    """Build sensors, pixels and inputs as `config` says; BackendError (after closing what was already
    opened) when a device or library is missing."""
    from controller.config import MuxSensors, SerialSensors, ShiftSensors

    profile = config.profile
    sensors_config = config.sensors
    opened: list[Any] = []
    uses_gpio = isinstance(sensors_config, MuxSensors | ShiftSensors) or config.buttons.backend == "gpio"
    if uses_gpio:
        os.environ["GPIOZERO_PIN_FACTORY"] = config.gpio.pin_factory
    try:
        sim: SimBackends | None = None
        if isinstance(sensors_config, MuxSensors):
            sensors = _build(
                opened,
                "[sensors] gpio-mux",
                _hardware("hal.gpio", "MuxScanner", "[sensors] backend gpio-mux"),
                channels=profile.channels,
                select_pins=sensors_config.select_pins,
                signal_pins=sensors_config.signal_pins,
                enable_pin=sensors_config.enable_pin,
                active_low=sensors_config.active_low,
                pull_up=sensors_config.pull_up,
                settle_us=sensors_config.settle_us,
            )
        elif isinstance(sensors_config, ShiftSensors):
            sensors = _build(
                opened,
                "[sensors] gpio-shift",
                _hardware("hal.gpio", "ShiftRegisterScanner", "[sensors] backend gpio-shift"),
                channels=profile.channels,
                load_pin=sensors_config.load_pin,
                clock_pin=sensors_config.clock_pin,
                data_pin=sensors_config.data_pin,
                enable_pin=sensors_config.enable_pin,
                active_low=sensors_config.active_low,
            )
        elif isinstance(sensors_config, SerialSensors):
            sensors = _build(
                opened,
                f"[sensors] serial on {sensors_config.port}",
                _hardware("hal.serial", "SerialScanner", "[sensors] backend serial"),
                port=sensors_config.port,
                baud=sensors_config.baud,
                channels=profile.channels,
            )
        else:
            sim = _simulated_board(config)
            sensors = sim.board
        pixels = _pixels(config, sensors, sim, opened)
        inputs: list[InputSource] = [sim.inputs] if sim is not None else []
        if config.buttons.backend == "gpio":
            inputs.append(
                _build(
                    opened,
                    "[buttons] gpio",
                    _hardware("hal.gpio", "GpioButtons", "[buttons] backend gpio"),
                    pins=dict(config.buttons.pins),
                    pull_up=config.buttons.pull_up,
                    bounce_ms=config.buttons.bounce_ms,
                )
            )
        merged = inputs[0] if len(inputs) == 1 else MergedInputs(inputs) if inputs else None
        if sim is not None:
            sim.pixels = pixels
        return Backends(sensors, pixels, merged, sim, opened)
    except BaseException:
        close_all(opened)
        raise


def _simulated_board(config: Config) -> SimBackends:
    from sim.board import SimBoard, SimInputs
    from sim.hands import CALM, VirtualHands

    settings = config.sim
    board = SimBoard(config.profile, config.board.sensor_model, settings.noise, settings.seed)
    hands = VirtualHands(settings.seed + 1, CALM if settings.hands == "calm" else None)
    return SimBackends(board, None, SimInputs(), hands)


def _pixels(config: Config, sensors: Any, sim: SimBackends | None, opened: list[Any]) -> PixelSink:
    profile = config.profile
    leds = config.leds
    brightness = leds.brightness if leds.brightness is not None else profile.brightness
    if leds.backend == "none":
        return NullPixels(profile.led_count)
    if leds.backend == "sim":
        from sim.board import SimPixels

        return SimPixels(profile.led_count, sim.board if sim is not None else None, keep=SIM_FRAMES_KEPT)
    if leds.backend == "neopixel":
        return _build(
            opened,
            f"[leds] neopixel on GPIO {leds.pin}",
            _hardware("hal.neopixel", "NeoPixelSink", "[leds] backend neopixel"),
            size=profile.led_count,
            pin=leds.pin,
            colour_order=profile.colour_order,
            brightness=brightness,
        )
    return _build(
        opened,
        "[leds] serial",
        _hardware("hal.serial", "SerialPixels", "[leds] backend serial"),
        link=sensors,
        size=profile.led_count,
        colour_order=profile.colour_order,
        brightness=brightness,
    )
