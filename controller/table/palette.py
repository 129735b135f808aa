"""The LED palette players learn once (docs/leds.md): a few fixed colours with fixed meanings.

Colours are (r, g, b) at full brightness; marks of the game state are shown dimmed so that hints
(full brightness) stand out above them.
"""

from __future__ import annotations

RGB = tuple[int, int, int]

OFF: RGB = (0, 0, 0)

# Hints and guidance (docs/leds.md).
HINT_COLOURS: dict[str, RGB] = {
    "white": (255, 255, 255),  # the lifted piece's origin
    "green": (0, 255, 0),  # a legal destination
    "red": (255, 0, 0),  # a capture, or: remove a piece here
    "blue": (0, 0, 255),  # put a piece here
    "amber": (255, 140, 0),  # please confirm
}

# Seat colours, used dimmed for ownership marks.
PLAYER_COLOURS: dict[str, RGB] = {
    "red": (255, 30, 30),
    "blue": (40, 80, 255),
    "yellow": (255, 210, 0),
    "green": (30, 200, 60),
}

MARK_LEVEL = 0.25  # marks are shown at a quarter of full brightness


def scale(colour: RGB, level: float) -> RGB:
    r, g, b = colour
    return (round(r * level), round(g * level), round(b * level))


MARK_COLOURS: dict[str, RGB] = {
    name: scale(colour, MARK_LEVEL) for name, colour in (*HINT_COLOURS.items(), *PLAYER_COLOURS.items())
}


def mark_colour(name: str) -> RGB:
    """The dimmed LED colour of a state mark in a seat colour (or any palette colour): one shared
    value per colour, so frames are built without making new colours."""
    colour = MARK_COLOURS.get(name)
    if colour is None:
        raise ValueError(f"unknown palette colour {name!r}")
    return colour
