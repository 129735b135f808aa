"""The three small protocols between the controller and any hardware (or the simulated board).

Backends implement them structurally (no inheritance needed): a sensor source that is scanned, a
pixel sink that shows one frame at a time, and an input source of discrete events.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal, Protocol, runtime_checkable

RGB = tuple[int, int, int]
Readings = tuple[int, ...]
"""One raw reading per sensor channel, in channel order (0/1 binary, a count, or -1/0/+1 signed)."""

EventKind = Literal["button", "card", "menu", "declare"]


@dataclass(frozen=True, slots=True)
class InputEvent:
    """A discrete input: a button press (`confirm`, `undo`, `menu`), a card id from a reader, a menu
    choice, or a declared action in the game's notation (decisions no sensor sees). `seat` is the
    seat whose player gave it, where the device knows (a seat's own page); None for the board's
    buttons, a card reader and a shared screen."""

    kind: EventKind
    value: str
    seat: int | None = None

    def __post_init__(self) -> None:
        if self.kind not in ("button", "card", "menu", "declare"):
            raise ValueError(f"unknown input event kind {self.kind!r} (button, card, menu, declare)")
        if not isinstance(self.value, str) or not self.value.strip():
            raise ValueError(f"a {self.kind} event needs a non-empty text value, got {self.value!r}")
        if self.seat is not None and (isinstance(self.seat, bool) or not isinstance(self.seat, int) or self.seat < 0):
            raise ValueError(f"a {self.kind} event's seat is a seat number, got {self.seat!r}")


BUTTONS: tuple[str, ...] = ("confirm", "undo", "menu")


@runtime_checkable
class SensorSource(Protocol):
    """Reads every sensor channel once per call."""

    @property
    def channels(self) -> int: ...

    def scan(self) -> Readings | None:
        """Every channel's reading; None for a scan that was lost (no evidence either way)."""
        ...


@runtime_checkable
class PixelSink(Protocol):
    """Shows one whole LED frame (one colour per LED index) per call."""

    @property
    def size(self) -> int: ...

    def show(self, colours: Sequence[RGB]) -> None: ...


@runtime_checkable
class DimmablePixels(PixelSink, Protocol):
    """A strip whose brightness can be changed while it runs (the table's settings): NeoPixels, the
    scanner board's strip and the simulated one declare it by having both members."""

    brightness: float

    def set_brightness(self, brightness: float) -> None: ...


@runtime_checkable
class InputSource(Protocol):
    """Returns the input events that arrived since the last call (possibly none)."""

    def poll(self) -> list[InputEvent]: ...
