"""One field of a text board drawing: its LED colour as an ANSI background, or a plain-text marker
for the hint it shows. Shared by the square and the hex drawings."""

from __future__ import annotations

from collections.abc import Mapping

from controller.games import Cell, Mark
from controller.table.palette import HINT_COLOURS, RGB, mark_colour

RESET = "\x1b[0m"


# Plain-text stand-ins for the full-brightness hint colours of the LED palette.
HINT_SYMBOLS: dict[RGB, str] = {
    HINT_COLOURS["white"]: "o",  # lifted piece's origin
    HINT_COLOURS["green"]: "+",  # legal destination
    HINT_COLOURS["red"]: "x",  # capture, or remove a piece here
    HINT_COLOURS["blue"]: "*",  # put a piece here
    HINT_COLOURS["amber"]: "?",  # please confirm
}
LEGEND = "o lifted from   + legal destination   x capture/remove here   * put a piece here   ? confirm"
LED_MEANINGS = (
    ("white", "lifted from"),
    ("green", "may go / lands here"),
    ("red", "capture, or remove a piece here"),
    ("blue", "put a piece here"),
    ("amber", "please confirm"),
)


def legend(ansi: bool) -> str:
    """What the LED colours mean: coloured blocks on a terminal, the plain symbols elsewhere."""
    if not ansi:
        return "legend: " + LEGEND
    parts = [f"{ansi_block(HINT_COLOURS[colour], '  ')} {meaning}" for colour, meaning in LED_MEANINGS]
    return "LEDs: " + "   ".join(parts) + "   (dim colours: the game's own marks)"


def plain_marker(mark: Mark | None, leds: Mapping[Cell, RGB] | None, cell: Cell) -> str:
    """One character after the piece: a hint shown by the LED, else the mark's colour initial."""
    if leds is not None:
        symbol = HINT_SYMBOLS.get(leds.get(cell, (0, 0, 0)))
        if symbol is not None:
            return symbol
    return mark.colour[0] if mark is not None else " "


def led_background(mark: Mark | None, leds: Mapping[Cell, RGB] | None, cell: Cell) -> RGB | None:
    if leds is not None:
        colour = leds.get(cell)
        return colour if colour and colour != (0, 0, 0) else None
    return mark_colour(mark.colour) if mark is not None else None


def ansi_cell(glyph: str, background: RGB | None) -> str:
    text = f"{glyph:>2} "
    if background is None:
        return text
    r, g, b = _visible(background)
    return f"\x1b[48;2;{r};{g};{b}m\x1b[1;97m{text}{RESET}"


def ansi_block(colour: RGB, text: str = " ") -> str:
    """`text` on the LED's colour: one LED of a strip drawn in a terminal."""
    r, g, b = _visible(colour)
    return f"\x1b[48;2;{r};{g};{b}m{text}{RESET}"


def _visible(colour: RGB) -> RGB:
    # Dimmed LED colours are nearly black on a screen: stretch them so the hue can be seen.
    peak = max(colour) or 1
    factor = min(1.0, 200 / peak) if peak > 200 else 200 / peak
    return tuple(min(255, round(c * factor)) for c in colour)  # type: ignore[return-value]
