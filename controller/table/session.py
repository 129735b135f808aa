"""A session ties one game to its backends: scan, tracker step, LED frame, and commit callbacks.

The session is the loop body of `tafel run`, of `tafel demo` and of physical self-play alike; only
the backends differ (hardware or the simulated board).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence

from controller.games import Action, Game, State
from controller.table.board import BoardMap, board_map
from controller.table.leds import FrameComposer
from controller.table.palette import RGB
from controller.table.tracker import Tracker, TrackerConfig, TrackerOutput
from hal.profile import BoardProfile
from hal.protocols import InputEvent, InputSource, PixelSink, Readings, SensorSource

CommitHook = Callable[[State, Action, State], None]
ABANDON = "abandon"  # the menu choice that abandons the game in progress


class DeviceFault:
    """The health of one backend: the last error, and when to try it again (doubling back-off)."""

    FIRST_RETRY_MS = 100
    LAST_RETRY_MS = 5000

    def __init__(self, name: str) -> None:
        self.name = name
        self.error: str | None = None
        self.failures = 0
        self._retry_at = 0
        self.changes = 0  # how often the health changed: the service logs each change once

    def due(self, now: int) -> bool:
        return self.error is None or now >= self._retry_at

    def failed(self, now: int, error: Exception | str) -> None:
        message = error if isinstance(error, str) else str(error) or type(error).__name__
        if self.error != message:
            self.changes += 1
        self.error = message
        self.failures += 1
        self._retry_at = now + min(self.LAST_RETRY_MS, self.FIRST_RETRY_MS * 2 ** min(self.failures - 1, 6))

    def recovered(self) -> None:
        if self.error is not None:
            self.changes += 1
        self.error = None
        self.failures = 0


class Session:
    def __init__(
        self,
        tracker: Tracker,
        composer: FrameComposer,
        sensors: SensorSource,
        pixels: PixelSink,
        inputs: InputSource | None = None,
    ) -> None:
        self.tracker = tracker
        self.composer = composer
        self.sensors = sensors
        self.pixels = pixels
        self.inputs = inputs
        self.on_commit: list[CommitHook] = []
        # Like on_commit, with how the move was recognised: "sensors", "confirm" or "declare".
        self.on_record: list[Callable[[State, Action, State, str], None]] = []
        self.on_takeback: list[Callable[[State], None]] = []
        # The "abandon game" input (menu: abandon): the hook returns the new game's first state, or
        # None where the game cannot be left (it goes on).
        self.on_abandon: list[Callable[[int], State | None]] = []
        # What the last step cost, in milliseconds: reading the sensors, the tracker, recording a
        # move (the journal and other commit hooks), and composing and pushing the LED frame.
        self.last_step_ms = 0.0
        self.last_scan_ms = 0.0
        self.last_record_ms = 0.0
        self.last_leds_ms = 0.0
        self.sensor_fault = DeviceFault("sensors")
        self.led_fault = DeviceFault("LEDs")
        # Whether a backend reports trouble of its own (a scanner link reconnecting): the status light.
        self.device_trouble: Callable[[], bool] | None = None
        self.last_scan_changed = False
        self._last_scan: Readings | None = None
        self.last_output: TrackerOutput | None = None
        self._injected: list[InputEvent] = []
        self._overlay: tuple[tuple[RGB, ...], int, int | None] | None = None  # frame, how long, since
        self._overlay_readings: tuple[int, ...] | None = None  # the stable picture when it was shown

    @classmethod
    def create(
        cls,
        game: Game,
        state: State,
        profile: BoardProfile,
        sensors: SensorSource,
        pixels: PixelSink,
        inputs: InputSource | None = None,
        sensor_model: str | None = None,
        config: TrackerConfig | None = None,
        history: Sequence[State] = (),
    ) -> Session:
        """A session on `state`; `history` (the states before it, oldest first) allows take-backs of a
        resumed game."""
        board: BoardMap = board_map(profile, game, state, sensor_model)
        tracker = Tracker(board, state, config, history)
        return cls(tracker, FrameComposer(board), sensors, pixels, inputs)

    @property
    def state(self) -> State:
        return self.tracker.state

    def step(self, now: int) -> TrackerOutput:
        began = time.perf_counter()
        readings = self._scan(now)
        scanned = time.perf_counter()
        self.last_scan_ms = (scanned - began) * 1000.0
        self.last_scan_changed = readings is not None and readings != self._last_scan
        if readings is not None:
            self._last_scan = readings
        events = self.inputs.poll() if self.inputs is not None else []
        if self._injected:
            events = [*events, *self._injected]
            self._injected = []
        if any(event.kind == "menu" and event.value == ABANDON for event in events):
            events = [event for event in events if not (event.kind == "menu" and event.value == ABANDON)]
            for hook in self.on_abandon:
                if (fresh := hook(now)) is not None:
                    self.tracker.restart(now, fresh)
        before = self.tracker.state
        started = time.perf_counter()
        output = self.tracker.step(now, readings, events)
        tracked = time.perf_counter()
        self.last_step_ms = (tracked - started) * 1000.0
        if output.happened.committed or output.happened.took_back:
            self._report(before, output)
        recorded = time.perf_counter()
        self.last_record_ms = (recorded - tracked) * 1000.0
        faulty = (
            bool(output.display.faults)
            or self.sensor_fault.error is not None
            or (self.device_trouble is not None and self.device_trouble())
        )
        frame = self.composer.compose(output.display, now, faults=faulty)
        if self._overlay is not None:
            frame = self._overlaid(frame, now)
        self._show(frame, now)
        self.last_leds_ms = (time.perf_counter() - recorded) * 1000.0
        self.last_output = output
        return output

    def show_overlay(self, frame: tuple[RGB, ...], duration_ms: int) -> None:
        """Show `frame` instead of the game's LEDs for `duration_ms` from the next step (the table
        PIN): the game goes on underneath, and its frame comes back when the time is up or as soon
        as a piece moves (nobody can hide the game's LEDs by asking again and again)."""
        self._overlay = (frame, duration_ms, None)

    def _overlaid(self, frame: tuple[RGB, ...], now: int) -> tuple[RGB, ...]:
        """The overlay while it lasts: until its time is up or the board's stable picture changes (a
        piece moved; a sensor's single-scan flicker does not count)."""
        assert self._overlay is not None
        shown, duration, since = self._overlay
        stable = self.tracker.stable_readings
        if since is None:
            self._overlay = (shown, duration, now)
            self._overlay_readings = stable
            since = now
        if now - since >= duration or stable != self._overlay_readings:
            self._overlay = None
            return frame
        return shown

    def inject(self, event: InputEvent) -> None:
        """An input from a screen (a button, a card, a declared action), handled at the next step
        exactly like one from the board's own inputs."""
        self._injected.append(event)

    def scan_readings(self) -> tuple[int, ...]:
        """The sensors' raw readings of the last scan that was read (zeros before the first)."""
        return tuple(self._last_scan) if self._last_scan is not None else (0,) * self.tracker.board.channels

    def _scan(self, now: int) -> Readings | None:
        """One scan; a failing sensor backend counts as a dropped scan and is retried with back-off,
        so the game waits instead of the service stopping."""
        if not self.sensor_fault.due(now):
            return None
        try:
            readings = self.sensors.scan()
        except Exception as error:  # any backend failure: the board must keep going
            self.sensor_fault.failed(now, error)
            return None
        self.sensor_fault.recovered()
        return readings

    def _show(self, frame: tuple[RGB, ...], now: int) -> None:
        """Push the frame; a failing LED strip is retried with back-off while the game goes on."""
        if not self.led_fault.due(now):
            return
        try:
            self.composer.push(self.pixels, frame, now)
        except Exception as error:
            self.composer.forget_shown()  # show the whole frame again once the strip answers
            self.led_fault.failed(now, error)
            return
        self.led_fault.recovered()

    def _report(self, before: State, output: TrackerOutput) -> None:
        vias = output.happened.commit_via or ("sensors",) * len(output.happened.transitions)
        for (previous, action, after), via in zip(output.happened.transitions, vias, strict=True):
            for record in self.on_record:
                record(previous, action, after, via)
            for hook in self.on_commit:
                hook(previous, action, after)
        if output.happened.took_back:
            for undo in self.on_takeback:
                undo(output.display.state)
