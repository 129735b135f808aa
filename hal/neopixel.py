"""The NeoPixel backend: one LED frame per `show()`, through Adafruit's CircuitPython NeoPixel library.

The frame composer hands over full-scale RGB colours. This sink applies the profile's brightness and
colour order itself (so that what goes on the wire is decided, and tested, here) and gives the library
ready bytes: the library runs with brightness 1.0, byte order "RGB" and `auto_write=False`, and is told
to `show()` exactly once per frame.

Two drivers:

- `spi` (the default): the data line is SPI MOSI (GPIO 10 on SPI0, or GPIO 20 on SPI1), driven through
  /dev/spidev by adafruit-circuitpython-neopixel-spi. It needs no root, only the `spi` group, and works
  on every Pi model including the Pi 5. Enable SPI with `dtparam=spi=on` (SPI1: `dtoverlay=spi1-1cs`).
- `pwm`: the data line is GPIO 18 (or 12, 13, 19, 21), driven by rpi_ws281x through /dev/mem. It needs
  root, conflicts with the analog audio output, and on the Pi 5 needs Adafruit's Pi 5 driver package.

`max_milliamps` optionally caps the estimated current of a frame (about 20 mA per colour channel at
full scale) by dimming the whole frame, so that a bright full-board animation cannot brown out a
small power supply.
"""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from hal.errors import HardwareError, wiring_error
from hal.mapping import Table
from hal.pins import DMA_SPI_PORTS, SPI0, SPI1, STRIP_CHIP_SELECT, Claim, describe, spi_claims
from hal.profile import BoardProfile
from hal.protocols import RGB

DRIVERS: tuple[str, ...] = ("spi", "pwm")
PWM_PINS: tuple[int, ...] = (12, 13, 18, 19, 21)  # the GPIOs rpi_ws281x can drive (PWM0/1, PCM)
COLOUR_ORDERS: tuple[str, ...] = ("RGB", "RBG", "GRB", "GBR", "BRG", "BGR")
MILLIAMPS_PER_CHANNEL = 20.0  # a WS2812B colour channel at full scale
IDLE_MILLIAMPS = 1.0  # a WS2812B with all channels off
INSTALL_PI = "pip install 'tafel[pi]'"
SPIDEV_BUFSIZ = Path("/sys/module/spidev/parameters/bufsiz")
SPI_RESET_BYTES = 64  # neopixel_spi sends 80 us of low (6.4 MHz / 8 bits) before and after each frame
SPI_HINT = (
    'use the SPI driver instead: driver = "spi" in the [neopixel] table, dtparam=spi=on in '
    "/boot/firmware/config.txt, and the service user in the spi group (see wiring/README.md)"
)


@dataclass(frozen=True)
class NeoPixelWiring:
    """How the LED data line is driven: the `[neopixel]` table of the service configuration."""

    driver: str = "spi"
    spi_port: int = 0  # spi driver: 0 = MOSI on GPIO 10, 1 = MOSI on GPIO 20
    pin: int = 18  # pwm driver: the data GPIO
    max_milliamps: int | None = None
    where: str = field(default="[neopixel]", compare=False)

    def __post_init__(self) -> None:
        if self.driver not in DRIVERS:
            raise wiring_error(
                self.where, "driver", f"must be one of {', '.join(map(repr, DRIVERS))}, not {self.driver!r}"
            )
        if self.spi_port not in (0, 1):
            raise wiring_error(self.where, "spi_port", f"must be 0 (GPIO 10) or 1 (GPIO 20), not {self.spi_port!r}")
        if self.pin not in PWM_PINS:
            raise wiring_error(
                self.where, "pin", f"the pwm driver can drive GPIO {', '.join(map(str, PWM_PINS))}, not {self.pin!r}"
            )
        if self.max_milliamps is not None and (isinstance(self.max_milliamps, bool) or self.max_milliamps <= 0):
            raise wiring_error(self.where, "max_milliamps", f"must be a positive number, not {self.max_milliamps!r}")

    @property
    def data_gpio(self) -> int:
        if self.driver == "pwm":
            return self.pin
        return SPI0["MOSI"] if self.spi_port == 0 else SPI1["MOSI"]

    def claims(self) -> list[Claim]:
        """The GPIOs this driver takes from everything else: the kernel's SPI driver claims every pin
        of its bus (dtparam=spi=on: GPIO 7-11; dtoverlay=spi1-1cs: GPIO 18-21), wired or not. The
        strip is the bus's device on CE0, which gates its level shifter, so a scanner may share the
        bus on CE1."""
        if self.driver == "pwm":
            return [Claim(self.pin, "NeoPixel data (PWM)")]
        return spi_claims(self.spi_port, STRIP_CHIP_SELECT, "LED strip")

    @property
    def has_dma(self) -> bool:
        """Whether the strip's frames leave by DMA on every Pi: SPI0 and PWM do; SPI1 is the
        auxiliary SPI on a Pi 3, 4 and Zero 2 W, refilled by interrupts (flicker under load)."""
        return self.driver == "pwm" or self.spi_port in DMA_SPI_PORTS

    @classmethod
    def from_mapping(cls, data: Mapping[str, Any] | None, where: str = "[neopixel]") -> NeoPixelWiring:
        table = Table(data, where)
        wiring = cls(
            driver=table.text("driver", "spi", DRIVERS),
            spi_port=table.integer("spi_port", 0, minimum=0, maximum=1),
            pin=table.integer("pin", 18),
            max_milliamps=table.integer("max_milliamps", None, minimum=1),
            where=where,
        )
        table.finish()
        return wiring


def level_table(brightness: float) -> tuple[int, ...]:
    """Byte value -> byte value at `brightness` (0..1)."""
    if not 0 <= brightness <= 1:
        raise ValueError(f"brightness must lie in 0..1, not {brightness}")
    return tuple(round(value * brightness) for value in range(256))


def wire_frame(
    colours: Sequence[RGB], order: str, levels: Sequence[int], max_milliamps: float | None = None
) -> list[tuple[int, int, int]]:
    """Full-scale RGB colours -> the byte triples the strip receives: dimmed by `levels`, capped to
    `max_milliamps` (estimated), and put in the strip's colour `order`."""
    if order not in COLOUR_ORDERS:
        raise ValueError(f"colour order must be one of {', '.join(COLOUR_ORDERS)}, not {order!r}")
    for index, colour in enumerate(colours):
        if len(colour) != 3 or any(isinstance(v, bool) or not isinstance(v, int) or not 0 <= v <= 255 for v in colour):
            raise ValueError(f"LED {index}: colour must be three whole numbers 0..255, not {colour!r}")
    dimmed = [(levels[r], levels[g], levels[b]) for r, g, b in colours]
    if max_milliamps is not None:
        dimmed = _cap_current(dimmed, max_milliamps)
    first, second, third = ("RGB".index(letter) for letter in order)
    return [(c[first], c[second], c[third]) for c in dimmed]


def frame_milliamps(colours: Sequence[tuple[int, int, int]]) -> float:
    """The estimated current of a frame of (already dimmed) colours."""
    channels = sum(sum(colour) for colour in colours)
    return len(colours) * IDLE_MILLIAMPS + channels / 255 * MILLIAMPS_PER_CHANNEL


def _cap_current(colours: list[tuple[int, int, int]], limit: float) -> list[tuple[int, int, int]]:
    idle = len(colours) * IDLE_MILLIAMPS
    drawn = frame_milliamps(colours)
    if drawn <= limit or drawn <= idle:
        return colours
    factor = max(0.0, limit - idle) / (drawn - idle)
    return [(int(r * factor), int(g * factor), int(b * factor)) for r, g, b in colours]


class NeoPixelSink:
    """A PixelSink driving a WS2812B (NeoPixel) strip through the Adafruit library."""

    def __init__(
        self,
        led_count: int,
        colour_order: str = "GRB",
        brightness: float = 0.4,
        wiring: NeoPixelWiring | None = None,
    ) -> None:
        if led_count < 1:
            raise ValueError(f"a NeoPixel strip needs at least one LED, not {led_count}")
        if colour_order not in COLOUR_ORDERS:
            raise ValueError(f"colour order must be one of {', '.join(COLOUR_ORDERS)}, not {colour_order!r}")
        self.wiring = wiring or NeoPixelWiring()
        self.colour_order = colour_order
        self.brightness = brightness
        self._size = led_count
        self._levels = level_table(brightness)
        self._pixels = self._open()
        self.frames_shown = 0

    def set_brightness(self, brightness: float) -> None:
        """Change the level of every colour from the next frame on."""
        self._levels = level_table(brightness)
        self.brightness = brightness

    @classmethod
    def from_profile(cls, profile: BoardProfile, wiring: NeoPixelWiring | None = None) -> NeoPixelSink:
        """LED count, colour order and brightness from a board profile."""
        return cls(profile.led_count, profile.colour_order, profile.brightness, wiring)

    @property
    def size(self) -> int:
        return self._size

    def _open(self) -> Any:
        wiring = self.wiring
        doing = f"opening the NeoPixel strip ({wiring.driver} driver, data on {describe(wiring.data_gpio)})"
        try:
            import board

            if wiring.driver == "spi":
                import busio
                import neopixel_spi

                self._allow_whole_frame_transfers(doing)
                clock, mosi = (board.SCK, board.MOSI) if wiring.spi_port == 0 else (board.SCK_1, board.MOSI_1)
                bus = busio.SPI(clock, MOSI=mosi)
                return neopixel_spi.NeoPixel_SPI(
                    bus, self._size, brightness=1.0, auto_write=False, pixel_order=neopixel_spi.RGB
                )
            import neopixel

            pin = getattr(board, f"D{wiring.pin}")
            # Brightness and colour order are applied in show(): the library gets ready bytes.
            return neopixel.NeoPixel(pin, self._size, brightness=1.0, auto_write=False, pixel_order=neopixel.RGB)
        except ImportError as error:
            package = (
                "adafruit-circuitpython-neopixel-spi" if wiring.driver == "spi" else "adafruit-circuitpython-neopixel"
            )
            raise HardwareError(
                f"{doing}: the NeoPixel library is not installed ({error}): {INSTALL_PI} (it includes {package})"
            ) from error
        except HardwareError:  # already says what to do (a frame too long for one SPI transfer)
            raise
        except Exception as error:
            raise _neopixel_error(error, doing, wiring) from error

    def _allow_whole_frame_transfers(self, doing: str) -> None:
        """A frame must leave in one SPI transfer: a pause between chunks latches the strip half-way.

        The SPI driver sends 8 bits per colour bit, so a frame takes 24 bytes per LED (plus the reset
        gaps); Adafruit's SPI layer splits writes into chunks of $SPI_BUFSIZE bytes (4096 unless set)
        and the kernel refuses transfers longer than spidev.bufsiz (4096 by default). Both must hold a
        whole frame: about 165 LEDs fit the defaults, the 201 of the 14x14 board do not.
        """
        needed = spi_frame_bytes(self._size)
        limit = spidev_bufsiz()
        if limit is not None and limit < needed:
            raise HardwareError(
                f"{doing}: {self._size} LEDs need {needed} bytes per SPI transfer, but the kernel's "
                f"spidev.bufsiz is {limit}; add spidev.bufsiz=32768 to /boot/firmware/cmdline.txt and reboot"
            )
        chunk = os.environ.get("SPI_BUFSIZE", "")
        if not chunk.isdigit() or int(chunk) < needed:
            os.environ["SPI_BUFSIZE"] = str(limit if limit is not None else needed)

    def show(self, colours: Sequence[RGB]) -> None:
        if len(colours) != self._size:
            raise ValueError(f"a frame for this strip has {self._size} colours, not {len(colours)}")
        frame = wire_frame(colours, self.colour_order, self._levels, self.wiring.max_milliamps)
        pixels = self._pixels
        try:
            pixels[0 : self._size] = frame
            pixels.show()
        except Exception as error:
            raise _neopixel_error(error, "showing a NeoPixel frame", self.wiring) from error
        self.frames_shown += 1

    def close(self) -> None:
        """Turn every LED off and release the driver."""
        try:
            self._pixels.fill((0, 0, 0))
            self._pixels.show()
        finally:
            self._pixels.deinit()

    def __enter__(self) -> NeoPixelSink:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def spi_frame_bytes(led_count: int) -> int:
    """Bytes of one frame on the SPI driver: 8 SPI bits per colour bit, and the reset gaps."""
    return led_count * 3 * 8 + 2 * SPI_RESET_BYTES


def spidev_bufsiz(path: Path | None = None) -> int | None:
    """The kernel's largest SPI transfer, or None where spidev is not loaded (not a Pi)."""
    try:
        return int((path or SPIDEV_BUFSIZ).read_text().strip())
    except (OSError, ValueError):
        return None


def _neopixel_error(error: BaseException, doing: str, wiring: NeoPixelWiring) -> HardwareError:
    text = str(error).strip() or type(error).__name__
    lowered = text.lower()
    if isinstance(error, NotImplementedError) or "board not supported" in lowered:
        return HardwareError(
            f"{doing}: NeoPixels need a Raspberry Pi; Adafruit Blinka does not recognise this machine "
            f"({text.splitlines()[0]}). On other machines use the simulated board"
        )
    if "gpiod" in lowered:
        return HardwareError(
            f"{doing}: Adafruit Blinka needs the gpiod package on a Raspberry Pi ({text.splitlines()[0]}): "
            f"{INSTALL_PI} (it includes gpiod)"
        )
    if wiring.driver == "pwm" and ("sudo" in lowered or "/dev/mem" in lowered or "ws2811_init" in lowered):
        return HardwareError(f"{doing}: /dev/mem: the pwm driver needs root ({text}). Run as root, or {SPI_HINT}")
    device = f"/dev/spidev{wiring.spi_port}.0"
    if wiring.driver == "spi" and (isinstance(error, FileNotFoundError | PermissionError) or "spidev" in lowered):
        if isinstance(error, PermissionError) or "permission" in lowered:
            return HardwareError(
                f"{doing}: permission denied on {device} ({text}); add the service user to the spi group "
                "(sudo usermod -aG spi USER) and log in again"
            )
        enable = "dtparam=spi=on" if wiring.spi_port == 0 else "dtoverlay=spi1-1cs"
        return HardwareError(
            f"{doing}: {device} is missing ({text}); add {enable} to /boot/firmware/config.txt and reboot"
        )
    if isinstance(error, PermissionError):
        return HardwareError(f"{doing}: permission denied ({text}); run as root, or {SPI_HINT}")
    return HardwareError(f"{doing}: {text}")
