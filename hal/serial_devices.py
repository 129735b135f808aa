"""The RP2040 scanner board as the service's devices: `SerialScanner` (a SensorSource) and
`SerialPixels` (a PixelSink), two views of one `SerialLink` (hal/serial.py), because sensors and
LEDs share one USB cable."""

from __future__ import annotations

from collections.abc import Sequence

from hal.protocols import RGB, Readings
from hal.serial import LinkStatus, SerialLink


class SerialScanner:
    """SensorSource over a SerialLink; scan() returns None while the link cannot vouch for the readings.

    Either give it a link, or a port and channel count and it makes its own (which SerialPixels can
    then share: `SerialPixels(scanner, size=...)`).
    """

    def __init__(
        self,
        link: SerialLink | None = None,
        *,
        port: str | None = None,
        baud: int = 115200,
        channels: int | None = None,
        led_count: int | None = None,
        sensor_model: str | None = None,
    ) -> None:
        if link is None:
            if port is None or channels is None:
                raise ValueError("a serial scanner needs a link, or a port and its channel count")
            link = SerialLink(port, channels=channels, led_count=led_count, sensor_model=sensor_model, baud=baud)
        self.link = link

    @property
    def channels(self) -> int:
        return self.link.channels

    @property
    def status(self) -> LinkStatus:
        return self.link.status

    def scan(self) -> Readings | None:
        self.link.poll()
        return self.link.readings()

    def close(self) -> None:
        self.link.close()


class SerialPixels:
    """PixelSink over a SerialLink (or a SerialScanner's link); brightness scales every colour
    before it is sent. `size` and `colour_order` (the profile's) are checked against the board's
    HELLO; the board itself puts the bytes in its strip's order."""

    def __init__(
        self,
        link: SerialLink | SerialScanner,
        size: int | None = None,
        colour_order: str | None = None,
        brightness: float = 1.0,
    ) -> None:
        if not 0 < brightness <= 1:
            raise ValueError(f"brightness must be in (0, 1], not {brightness!r}")
        self.link = link.link if isinstance(link, SerialScanner) else link
        self.link.expect_leds(size, colour_order)
        if self.link.led_count is None:
            raise ValueError("serial pixels need the strip's LED count (size)")
        self.brightness = brightness

    @property
    def size(self) -> int:
        assert self.link.led_count is not None  # checked in __init__
        return self.link.led_count

    @property
    def status(self) -> LinkStatus:
        return self.link.status

    def set_brightness(self, brightness: float) -> None:
        """Change the level of every colour from the next frame on."""
        if not 0 < brightness <= 1:
            raise ValueError(f"brightness must be in (0, 1], not {brightness!r}")
        self.brightness = brightness

    def show(self, colours: Sequence[RGB]) -> None:
        level = self.brightness
        scaled: list[RGB] = []
        for index, colour in enumerate(colours):
            if len(colour) != 3 or not all(_is_byte(component) for component in colour):
                raise ValueError(f"LED {index}: colour {colour!r} is not three whole numbers 0..255")
            red, green, blue = colour
            scaled.append((round(red * level), round(green * level), round(blue * level)))
        self.link.show(scaled)

    def close(self) -> None:
        self.link.close()


def _is_byte(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and 0 <= value <= 255


def serial_backends(
    port: str,
    channels: int,
    led_count: int,
    brightness: float = 1.0,
    sensor_model: str | None = None,
    colour_order: str | None = None,
) -> tuple[SerialScanner, SerialPixels]:
    """Scanner and pixels sharing one link, for a board with `channels` sensors and `led_count` LEDs."""
    scanner = SerialScanner(port=port, channels=channels, led_count=led_count, sensor_model=sensor_model)
    return scanner, SerialPixels(scanner, colour_order=colour_order, brightness=brightness)
