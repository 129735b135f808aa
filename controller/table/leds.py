"""The LED frame composer (docs/leds.md): state marks, then hints, then guidance, per LED.

Colours follow the documented palette (docs/leds.md). Frames are pushed to the pixel sink only when
they change, and no faster than `min_interval_ms`.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from controller.games import State
from controller.games.seats import COLOURS, seat_colours
from controller.table.board import BoardMap
from controller.table.palette import HINT_COLOURS, OFF, PLAYER_COLOURS, RGB, mark_colour, scale
from controller.table.tracker_types import Display
from hal.protocols import PixelSink

HINT_PALETTE: dict[str, RGB] = {
    "origin": HINT_COLOURS["white"],
    "destination": HINT_COLOURS["green"],
    "capture": HINT_COLOURS["red"],
    "remove": HINT_COLOURS["red"],
    "return": HINT_COLOURS["blue"],
    "place": HINT_COLOURS["blue"],
    "confirm": HINT_COLOURS["amber"],
}
BLINKING_MODES = frozenset({"guidance", "setup", "restore", "remote"})
STATUS_COLOURS: dict[str, RGB] = {
    "confirm": HINT_COLOURS["amber"],
    "takeback": HINT_COLOURS["amber"],
    "guidance": HINT_COLOURS["blue"],
    "setup": HINT_COLOURS["blue"],
    "restore": HINT_COLOURS["blue"],
    "remote": HINT_COLOURS["blue"],
}


class FrameGate:
    """Pushes frames to a pixel sink only when they change, and no faster than `min_interval_ms`:
    shared by the board's frame composer and the card table's companion."""

    def __init__(self, min_interval_ms: int = 20) -> None:
        self.min_interval_ms = min_interval_ms
        self.shown: tuple[RGB, ...] | None = None
        self._shown_at: int | None = None
        self.frames_pushed = 0

    def push(self, sink: PixelSink, frame: tuple[RGB, ...], now: int) -> bool:
        """Show `frame` if it differs from what is shown and the rate limit allows; True if shown."""
        if frame == self.shown:
            return False
        if self._shown_at is not None and now - self._shown_at < self.min_interval_ms:
            return False
        sink.show(frame)
        self.shown, self._shown_at = frame, now
        self.frames_pushed += 1
        return True

    def forget(self) -> None:
        """What the sink shows is unknown (it failed): send the next frame whatever it is."""
        self.shown = None


@dataclass
class FrameComposer:
    board: BoardMap
    blink_ms: int = 400
    min_interval_ms: int = 20

    def __post_init__(self) -> None:
        self._last_display: Display | None = None  # held, so its identity cannot be reused
        self._last_key: tuple[int, bool] | None = None
        self._last_frame: tuple[RGB, ...] = ()
        self._gate = FrameGate(self.min_interval_ms)
        self._marked: tuple[State | None, tuple[RGB, ...]] = (None, ())  # a state and its marks' layer

    def compose(self, display: Display, now: int, faults: bool = False) -> tuple[RGB, ...]:
        """The frame for what the tracker shows; recomputed only when its inputs change."""
        blinking = display.mode in BLINKING_MODES or display.mode == "confirm" or faults
        phase = (now // self.blink_ms) % 2 if blinking else 0
        key = (phase, faults)
        if display is self._last_display and key == self._last_key:
            return self._last_frame
        frame = self._build(display, phase, faults)
        self._last_display, self._last_key, self._last_frame = display, key, frame
        return frame

    def _build(self, display: Display, phase: int, faults: bool) -> tuple[RGB, ...]:
        profile = self.board.profile
        led_of = self.board.led_of
        frame = list(self._marks_layer(display.shown))
        hints_on = not (display.mode in BLINKING_MODES and phase == 1)
        if hints_on:
            palette = self._remote_palette(display) if display.mode == "remote" else HINT_PALETTE
            for cell, kind in display.hints.items():
                led = led_of.get(cell)
                if led is not None:
                    frame[led] = palette.get(kind, HINT_PALETTE[kind])
        self._status(frame, display, phase, faults, profile.extra_leds)
        return tuple(frame)

    @staticmethod
    def _remote_palette(display: Display) -> Mapping[str, RGB]:
        """Another board's move in its mover's colour: bright where a piece goes, dim where one
        leaves (docs/remote.md, rule 6)."""
        colours = seat_colours(display.state)
        if display.mover is None or display.mover >= len(colours) or colours[display.mover] not in PLAYER_COLOURS:
            return HINT_PALETTE
        colour = PLAYER_COLOURS[colours[display.mover]]
        return {"place": colour, "return": colour, "remove": scale(colour, 0.2), "capture": scale(colour, 0.2)}

    def _marks_layer(self, state: State) -> tuple[RGB, ...]:
        """The LEDs of the state's marks alone, kept for the state shown (it stays the same while a
        move is under way, and a Zillo layout has a hundred marks)."""
        marked, layer = self._marked
        if marked is not state:
            frame = [OFF] * self.board.profile.led_count
            led_of = self.board.led_of
            for cell, mark in state.marks().items():
                led = led_of.get(cell)
                if led is not None:
                    frame[led] = mark_colour(mark.colour)
            layer = tuple(frame)
            self._marked = (state, layer)
        return layer

    def _status(self, frame: list[RGB], display: Display, phase: int, faults: bool, extras: Mapping[str, int]) -> None:
        state = display.state
        colours = seat_colours(state)
        seat = None if state.is_terminal() else state.current_player
        on_turn = colours[seat] if seat is not None and seat < len(colours) else None  # seats past four have none
        for colour in COLOURS:
            led = extras.get(f"seat_{colour}")
            if led is None:
                continue
            if colour == on_turn:
                frame[led] = PLAYER_COLOURS[colour]
            elif colour in colours:
                frame[led] = scale(PLAYER_COLOURS[colour], 0.05)
        status = extras.get("status")
        if status is not None:
            if faults:
                frame[status] = HINT_COLOURS["red"] if phase == 0 else OFF
            else:
                frame[status] = STATUS_COLOURS.get(display.mode, scale(HINT_COLOURS["green"], 0.1))

    def steady_frame(self, display: Display, faults: bool = False) -> tuple[RGB, ...]:
        """The frame for `display` with every blinking LED in its lit phase: what a screen draws (it
        blinks them itself)."""
        if display is self._last_display and self._last_key == (0, faults):
            return self._last_frame  # what the LEDs show now is already the lit phase
        return self._build(display, 0, faults)

    def push(self, sink: PixelSink, frame: tuple[RGB, ...], now: int) -> bool:
        """Show `frame` if it differs from what is shown and the rate limit allows; True if shown."""
        return self._gate.push(sink, frame, now)

    def forget_shown(self) -> None:
        """The strip lost what it showed: the next push sends the frame again."""
        self._gate.forget()

    @property
    def shown(self) -> tuple[RGB, ...] | None:
        return self._gate.shown

    @property
    def frames_pushed(self) -> int:
        return self._gate.frames_pushed
