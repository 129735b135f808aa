"""`tafel wiring CONFIG --svg`: the wiring of a configuration drawn for builders.

Everything in the picture comes from the objects the service itself opens: the GPIO claims of the
scanner, the buttons and the LED strip (hal.pins), the scanner's chips and the channel each field is
on, the LED chain's order over the fields and the extra LEDs (the board profile). So a wiring guide
that shows this picture cannot disagree with what the service will do. Connections are drawn as net
labels (a wire ends in the GPIO name it goes to), as schematics do, rather than as crossing lines.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from html import escape
from pathlib import Path

from controller.service.config import Config, SerialSensors
from controller.table.board import field_cells
from controller.table.pin_display import cell_centre
from hal.gpio.wiring import (
    MUX_INPUTS,
    SCANNER_CHIP_SELECT,
    SHIFT_INPUTS,
    AnalogMuxWiring,
    MuxWiring,
    ShiftRegisterWiring,
)
from hal.pins import HEADER, SPI0, SPI_BUSES, STRIP_CHIP_SELECT, describe

# Colours of the picture: one per kind of connection, used for the header pins and the net labels.
KINDS = {
    "scanner": "#1f6fb2",
    "button": "#2e8b57",
    "led": "#b0308a",
    "bus": "#8a8a8a",
    "power5": "#d03030",
    "power3": "#e08a00",
    "ground": "#303030",
    "free": "#ffffff",
}
FONT = "font-family:DejaVu Sans,Arial,sans-serif"
PIN_PITCH = 22
HEADER_X, HEADER_Y = 330, 110  # the left pin column; labels run outwards on both sides
CHIPS_X = 720
BOARD_X, BOARD_W = 1150, 440
WIDTH = BOARD_X + BOARD_W + 30
WORST_MA_PER_LED = 60  # a WS2812B at full white, all three channels at 20 mA
DARK_MA_PER_LED = 1


@dataclass
class Canvas:
    """SVG elements in drawing order, and how far down the drawing reaches."""

    parts: list[str] = field(default_factory=list)
    bottom: float = 0.0

    def text(self, x: float, y: float, words: str, size: int = 12, anchor: str = "start", **style: str) -> None:
        extra = "".join(f' {key.replace("_", "-")}="{value}"' for key, value in style.items())
        self.parts.append(
            f'<text x="{x:.1f}" y="{y:.1f}" font-size="{size}" text-anchor="{anchor}"{extra}>{escape(words)}</text>'
        )
        self.bottom = max(self.bottom, y + 4)

    def rect(self, x: float, y: float, w: float, h: float, fill: str = "#ffffff", stroke: str = "#303030") -> None:
        self.parts.append(
            f'<rect x="{x:.1f}" y="{y:.1f}" width="{w:.1f}" height="{h:.1f}" rx="4" fill="{fill}" stroke="{stroke}"/>'
        )
        self.bottom = max(self.bottom, y + h)

    def circle(self, x: float, y: float, r: float, fill: str, stroke: str = "#303030") -> None:
        self.parts.append(f'<circle cx="{x:.1f}" cy="{y:.1f}" r="{r:.1f}" fill="{fill}" stroke="{stroke}"/>')

    def line(self, points: Sequence[tuple[float, float]], colour: str, width: float = 1.5, arrow: bool = False) -> None:
        path = " ".join(f"{x:.1f},{y:.1f}" for x, y in points)
        marker = ' marker-end="url(#arrow)"' if arrow else ""
        self.parts.append(f'<polyline points="{path}" fill="none" stroke="{colour}" stroke-width="{width}"{marker}/>')

    def svg(self, title: str) -> str:
        height = int(self.bottom + 30)
        head = (
            f'<svg xmlns="http://www.w3.org/2000/svg" width="{WIDTH}" height="{height}" '
            f'viewBox="0 0 {WIDTH} {height}" style="{FONT}">\n'
            f"<title>{escape(title)}</title>\n"
            '<defs><marker id="arrow" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="6" markerHeight="6" '
            'orient="auto"><path d="M0,0 L10,5 L0,10 z" fill="#b0308a"/></marker></defs>\n'
            f'<rect width="{WIDTH}" height="{height}" fill="#fdfdfb"/>\n'
        )
        return head + "\n".join(self.parts) + "\n</svg>\n"


# Which SPI lines each scanner on the bus is wired to (the strip takes MOSI, and CE0 when it is gated).
SCANNER_SPI_LINES = {AnalogMuxWiring: ("SCLK", "MOSI", "MISO"), ShiftRegisterWiring: ("SCLK", "MISO")}


def _uses(config: Config) -> dict[int, tuple[str, str]]:
    """GPIO -> (what it does, kind), from the same claims the configuration check uses."""
    strip = config.neopixel.claims() if _has_strip(config) and config.neopixel is not None else []
    buttons = config.gpio.buttons.claims() if config.gpio.buttons is not None else []
    config.gpio.check_pins(strip)  # the picture of a wiring that the service would refuse is not drawn
    scanner = [claim for claim in config.gpio.claims() if claim not in buttons]
    scanner_lines = SCANNER_SPI_LINES.get(type(config.gpio.scanner), ())
    gated = _strip_is_gated(config)
    uses: dict[int, tuple[str, str]] = {}
    for claim in [*scanner, *buttons]:
        if claim.bus is None:
            uses[claim.gpio] = (claim.purpose, "button" if claim in buttons else "scanner")
    for claim in [*strip, *scanner]:  # the strip first: a scanner may share its data line (MOSI)
        if claim.bus is None:
            continue
        line = claim.purpose.split(" (", 1)[0].split()[-1]  # "SPI0 MISO (...)" -> "MISO"
        device = claim.purpose.split(" (", 1)[1].rstrip(")").split(" on chip select")[0]
        if claim in strip and (line == "MOSI" or (line == f"CE{STRIP_CHIP_SELECT}" and gated)):
            uses[claim.gpio] = (f"{claim.bus} {line}: LED strip {'data' if line == 'MOSI' else 'gate'}", "led")
        elif claim in scanner and (claim.selects or line in scanner_lines):
            shared = uses.get(claim.gpio, ("", ""))[1] == "led"
            words = f"{claim.bus} {line}: LED strip data and {device}" if shared else f"{claim.bus} {line}: {device}"
            uses[claim.gpio] = (words, "led" if shared else "scanner")
        elif claim.gpio not in uses:
            uses[claim.gpio] = (f"{claim.bus} {line}, no wire (the kernel's)", "bus")
    return uses


def _has_strip(config: Config) -> bool:
    return config.neopixel is not None and config.leds.backend == "neopixel"


def _strip_is_gated(config: Config) -> bool:
    """A scanner shares the strip's SPI bus: the strip's chip select then gates its level shifter."""
    neopixel = config.neopixel
    return (
        _has_strip(config)
        and neopixel is not None
        and neopixel.driver == "spi"
        and neopixel.spi_port == 0
        and _scanner_on_spi(config)
    )


def _header(canvas: Canvas, uses: dict[int, tuple[str, str]]) -> None:
    canvas.text(HEADER_X + PIN_PITCH / 2, HEADER_Y - 30, "Raspberry Pi 40-pin header", 14, "middle", font_weight="bold")
    canvas.text(HEADER_X + PIN_PITCH / 2, HEADER_Y - 14, "(pin 1 at the top left, seen from above)", 10, "middle")
    canvas.rect(HEADER_X - 12, HEADER_Y - 8, PIN_PITCH + 24, 20 * PIN_PITCH, "#1d3b2a")
    for pin, name in HEADER.items():
        row, column = (pin - 1) // 2, (pin - 1) % 2
        x = HEADER_X + column * PIN_PITCH
        y = HEADER_Y + row * PIN_PITCH + 3
        if name.startswith("GPIO"):
            gpio = int(name[4:])
            purpose, kind = uses.get(gpio, ("", "free"))
            label = f"{name} · {purpose}" if purpose else name
        else:
            kind = {"5V": "power5", "3V3": "power3", "GND": "ground"}[name]
            label = name
        canvas.circle(x, y, 7, KINDS[kind], "#ffffff" if kind == "free" else "#101010")
        canvas.text(x, y + 3.5, str(pin), 7, "middle", fill="#ffffff" if kind in ("ground", "bus") else "#101010")
        colour = KINDS[kind] if kind not in ("free",) else "#909090"
        if column == 0:
            canvas.text(x - 14, y + 4, label, 10, "end", fill=colour)
        else:
            canvas.text(x + 14, y + 4, label, 10, fill=colour)
    legend = [("scanner", "sensor scanning"), ("button", "buttons"), ("led", "LED strip"),
              ("bus", "SPI bus, taken by the kernel"), ("free", "free")]  # fmt: skip
    y = HEADER_Y + 20 * PIN_PITCH + 24
    for kind, words in legend:
        canvas.circle(40, y - 4, 6, KINDS[kind])
        canvas.text(54, y, words, 11)
        y += 18


def _fields_of_channels(config: Config) -> dict[int, str]:
    return {wiring.channel: name for name, wiring in config.profile.fields.items() if wiring.channel is not None}


def _span(names: dict[int, str], first: int, count: int) -> str:
    on = [names[channel] for channel in range(first, first + count) if channel in names]
    return f"{on[0]} … {on[-1]} ({len(on)} fields)" if on else "no fields (spare)"


def _chip_row(canvas: Canvas, y: float, title: str, detail: str, net: str, colour: str) -> float:
    canvas.text(CHIPS_X - 8, y + 17, net, 10, "end", fill=colour)
    canvas.line([(CHIPS_X - 4, y + 13), (CHIPS_X, y + 13)], colour)
    canvas.rect(CHIPS_X, y, 380, 24, "#eef4fa")
    canvas.text(CHIPS_X + 8, y + 16, title, 11, font_weight="bold")
    canvas.text(CHIPS_X + 150, y + 16, detail, 10)
    return y + 28


def _nets(gpios: Iterable[int]) -> str:
    return ", ".join(f"GPIO{gpio}" for gpio in gpios)


def _scanner(canvas: Canvas, config: Config, y: float) -> float:
    names = _fields_of_channels(config)
    scanner = config.gpio.scanner
    blue = KINDS["scanner"]
    if isinstance(config.sensors, SerialSensors):
        canvas.text(CHIPS_X, y, "Sensors: the RP2040 scanner board, over USB", 13, font_weight="bold")
        y += 10
        y = _chip_row(canvas, y, "RP2040 (firmware/)", f"{config.profile.channels} channels; {config.sensors.port}",
                      "Pi USB port", blue)  # fmt: skip
        canvas.text(CHIPS_X, y + 14, "The RP2040 scans and debounces the sensors; firmware/README.md has its pins.", 10)
        return y + 30
    if isinstance(scanner, MuxWiring):
        canvas.text(CHIPS_X, y, f"Sensors: {len(scanner.signal_pins)} × 74HC4067 (digital)", 13, font_weight="bold")
        enable = f"E̅: GPIO{scanner.enable_pin}" if scanner.enable_pin is not None else "E̅ to GND"
        canvas.text(CHIPS_X, y + 16, f"S0–S3 of every multiplexer: {_nets(scanner.select_pins)}; {enable}", 10)
        y += 26
        for index, pin in enumerate(scanner.signal_pins):
            y = _chip_row(canvas, y, f"74HC4067 #{index} Z", _span(names, index * MUX_INPUTS, MUX_INPUTS),
                          f"GPIO{pin}", blue)  # fmt: skip
        return y + 10
    if isinstance(scanner, ShiftRegisterWiring):
        on_spi = scanner.bus == "spi"
        how = f"over SPI0, as the device on CE{SCANNER_CHIP_SELECT}" if on_spi else "clocked by the Pi"
        canvas.text(CHIPS_X, y, f"Sensors: {scanner.chips} × 74HC165 chain, {how}", 13, font_weight="bold")
        shared = [f"SH/LD̅ GPIO{scanner.load_pin}", f"CLK GPIO{scanner.clock_pin}"]
        if scanner.clock_enable_pin is not None:
            shared.append(f"CLK INH GPIO{scanner.clock_enable_pin}")
        canvas.text(CHIPS_X, y + 16, "every chip: " + ", ".join(shared) + "; chip k+1's QH to chip k's SER", 10)
        y += 26
        for chip in range(scanner.chips):
            net = f"GPIO{scanner.data_pin} (QH)" if chip == 0 else f"SER of #{chip - 1}"
            y = _chip_row(canvas, y, f"74HC165 #{chip} QH", _span(names, chip * SHIFT_INPUTS, SHIFT_INPUTS), net,
                          blue)  # fmt: skip
        return y + 10
    if isinstance(scanner, AnalogMuxWiring):
        chips = sorted({chip for chip, _ in scanner.adc_inputs})
        canvas.text(CHIPS_X, y, f"Sensors: {len(scanner.adc_inputs)} × 74HC4067 into {len(chips)} × MCP3008 (analog)",
                    13, font_weight="bold")  # fmt: skip
        enable = f"E̅: GPIO{scanner.enable_pin}" if scanner.enable_pin is not None else "E̅ to GND"
        canvas.text(CHIPS_X, y + 16, f"S0–S3 of every multiplexer: {_nets(scanner.select_pins)}; {enable}", 10)
        y += 26
        for chip in chips:
            select = SPI0[f"CE{chip}"]
            y = _chip_row(canvas, y, f"MCP3008 on CE{chip}",
                          f"CLK GPIO{SPI0['SCLK']}, DIN GPIO{SPI0['MOSI']}, DOUT GPIO{SPI0['MISO']}",
                          f"GPIO{select} (CS̅)", blue)  # fmt: skip
        for index, (chip, channel) in enumerate(scanner.adc_inputs):
            y = _chip_row(canvas, y, f"74HC4067 #{index} Z", _span(names, index * MUX_INPUTS, MUX_INPUTS),
                          f"MCP3008 CE{chip} CH{channel}", blue)  # fmt: skip
        return y + 10
    canvas.text(CHIPS_X, y, "Sensors: none to wire (a simulated board)", 13, font_weight="bold")
    return y + 24


def _strip(canvas: Canvas, config: Config, y: float) -> float:
    magenta = KINDS["led"]
    profile = config.profile
    brightness = profile.brightness
    worst = profile.led_count * (DARK_MA_PER_LED + WORST_MA_PER_LED * brightness) / 1000
    canvas.text(CHIPS_X, y, f"LEDs: {profile.led_count} WS2812B in one chain", 13, font_weight="bold")
    y += 10
    neopixel = config.neopixel if _has_strip(config) else None
    if neopixel is not None:
        data = describe(neopixel.data_gpio)
        how = "PWM" if neopixel.driver == "pwm" else f"SPI{neopixel.spi_port} MOSI"
        y = _chip_row(canvas, y, "74AHCT125 1A", f"LED data ({how}); 10 kΩ to GND", data, magenta)
        gate = SPI_BUSES[neopixel.spi_port][f"CE{STRIP_CHIP_SELECT}"]
        enable = (f"GPIO{gate} (CE{STRIP_CHIP_SELECT})", "on only for LED frames; 10 kΩ from 1Y to GND") \
            if _strip_is_gated(config) else ("GND", "always on")  # fmt: skip
        y = _chip_row(canvas, y, "74AHCT125 1OE̅", enable[1], enable[0], magenta)
        y = _chip_row(canvas, y, "74AHCT125 VCC", "5 V from the LED supply; GND to the Pi's GND", "LED 5 V", "#d03030")
        y = _chip_row(canvas, y, "74AHCT125 1Y", "through 330 Ω to DIN of LED 0", "LED 0 DIN", magenta)
    elif isinstance(config.sensors, SerialSensors) and config.leds.backend == "serial":
        y = _chip_row(canvas, y, "RP2040 LED output", "through its level shifter to DIN of LED 0", "LED 0 DIN", magenta)
    else:
        canvas.text(CHIPS_X, y + 14, f"driven by: {config.leds.backend} (nothing to wire)", 10)
        y += 24
    canvas.text(CHIPS_X, y + 18, "Power", 13, font_weight="bold")
    lines = [
        f"LED supply: 5 V, at least {worst:.1f} A (every LED white at brightness {brightness:g}),",
        "fed into the chain at LED 0 and at the last field LED; its GND joined to the Pi's GND;",
        "1000 µF across 5 V and GND where the supply meets the chain.",
        "The Pi on its own supply; sensors and scanning chips on 3.3 V.",
    ]
    for offset, words in enumerate(lines):
        canvas.text(CHIPS_X, y + 36 + 15 * offset, words, 10)
    return y + 40 + 15 * len(lines)


def _scanner_on_spi(config: Config) -> bool:
    scanner = config.gpio.scanner
    return isinstance(scanner, AnalogMuxWiring) or (isinstance(scanner, ShiftRegisterWiring) and scanner.bus == "spi")


def _board(canvas: Canvas, config: Config) -> None:
    profile = config.profile
    cells = field_cells(profile)
    centres = {name: cell_centre(profile.geometry, cells[name]) for name in profile.fields}
    xs = [x for x, _ in centres.values()]
    ys = [y for _, y in centres.values()]
    span = max(max(xs) - min(xs), max(ys) - min(ys), 1.0)
    scale = (BOARD_W - 40) / (span + 1)
    top = 115

    def place(name: str) -> tuple[float, float]:
        x, y = centres[name]
        return BOARD_X + 20 + (x - min(xs) + 0.5) * scale, top + (max(ys) - y + 0.5) * scale  # north up

    canvas.text(BOARD_X + BOARD_W / 2, top - 45, f"The LED chain over the fields ({profile.name})", 14, "middle",
                font_weight="bold")  # fmt: skip
    canvas.text(BOARD_X + BOARD_W / 2, top - 29, "seen from above; the chain runs in the profile's LED order", 10,
                "middle")  # fmt: skip
    size = scale * (0.9 if profile.geometry != "hex" else 0.85)
    for name in profile.fields:
        x, y = place(name)
        if profile.geometry == "hex":
            canvas.circle(x, y, size / 2, "#f3efe6", "#b8b0a0")
        else:
            canvas.rect(x - size / 2, y - size / 2, size, size, "#f3efe6", "#b8b0a0")
        canvas.text(x, y + size / 2 - 2, name, max(5, int(scale / 4)), "middle", fill="#7a7060")
    order = sorted(profile.fields, key=profile.led_of)
    canvas.line([place(name) for name in order], KINDS["led"], 1.6)
    for index in range(0, len(order) - 1, max(1, len(order) // 24)):
        (x0, y0), (x1, y1) = place(order[index]), place(order[index + 1])
        canvas.line([(x0, y0), ((x0 + x1) / 2, (y0 + y1) / 2)], KINDS["led"], 1.6, arrow=True)
    first, last = order[0], order[-1]
    for name, words in ((first, f"DIN: LED {profile.led_of(first)} ({first})"),
                        (last, f"LED {profile.led_of(last)} ({last}), then the extras")):  # fmt: skip
        x, y = place(name)
        canvas.circle(x, y, 5, KINDS["led"])
        canvas.text(x, y - 8, words, 10, "middle", fill=KINDS["led"], font_weight="bold")
    y = top + (max(ys) - min(ys) + 1) * scale + 30
    canvas.text(BOARD_X, y, "Extra LEDs after the fields:", 11, font_weight="bold")
    for name, led in sorted(profile.extra_leds.items(), key=lambda item: item[1]):
        y += 15
        canvas.text(BOARD_X + 10, y, f"LED {led}: {name.replace('_', ' ')}", 10)


def wiring_svg(config: Config) -> str:
    """The picture of `config`'s wiring, as an SVG document."""
    canvas = Canvas()
    title = f"tafel wiring: {Path(config.source).name}"
    canvas.text(20, 30, title, 18, font_weight="bold")
    canvas.text(20, 50, f"board {config.profile.name}, {config.game.name}; every GPIO in BCM numbering", 11)
    _header(canvas, _uses(config))
    y = _scanner(canvas, config, 70)
    if config.gpio.buttons is not None and config.buttons.backend == "gpio":
        canvas.text(CHIPS_X, y + 6, "Buttons (each from its GPIO to GND, the Pi's pull-up on)", 13, font_weight="bold")
        y += 14
        for name, pin in config.gpio.buttons.pins().items():
            y = _chip_row(canvas, y, f"{name} button", "to GND when pressed", f"GPIO{pin}", KINDS["button"])
        y += 10
    _strip(canvas, config, y + 10)
    _board(canvas, config)
    return canvas.svg(title)


def wiring_table(config: Config) -> str:
    """The same wiring as text: every header pin in use, with what it does."""
    uses = _uses(config)
    lines = [f"{Path(config.source).name}: board {config.profile.name}, {config.game.name}"]
    for pin, name in HEADER.items():
        if name.startswith("GPIO") and int(name[4:]) in uses:
            purpose = uses[int(name[4:])][0]
            lines.append(f"  pin {pin:2}  {name:<7} {purpose}")
    if len(lines) == 1:
        lines.append("  no GPIO of the Pi is used")
    return "\n".join(lines) + "\n"
