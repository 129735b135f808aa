"""`tafel diagnose`: check a board's wiring before playing.

The sensor self-test reads the board for a while; the builder moves a magnet (or a piece) over every
field. The LED under each field whose sensor reads a piece lights white, every change is printed
(time, channel, field, reading), and at the end the report names the fields that never changed
(not tried, or a dead sensor or broken wire), that read a piece the whole time (a stuck sensor or a
short), and channels that always changed together (swapped or shorted wires). The LED walk lights
each LED in profile order, one after another, so a wrong serpentine or colour order shows at once.

On the simulated board (`[sensors] backend = "sim"`) the virtual hands do the magnet walk, in
virtual time, so the command can be tried anywhere.

`--imports` only loads every library the configured backends need and names each missing one with
what it is for and the package that provides it (install.sh runs it at the end).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from controller.games import Cell, Piece
from controller.service.backends import Backends, from_config
from controller.service.config import Config
from controller.table.board import field_cells
from controller.table.palette import HINT_COLOURS, OFF, RGB
from hal.libraries import missing


def check_imports(config: Config, importer: Callable[[str], Any] | None = None) -> int:
    """Print whether each library the board's backends load is there; 0 when all are, else 1."""
    libraries = config.libraries()
    problems = missing(libraries, importer) if importer is not None else missing(libraries)
    for library in libraries:
        failed = next((problem for problem in problems if problem.startswith(f"{library.module} (")), None)
        print(f"  {'ok     ' if failed is None else 'MISSING'} {library.module}: {library.purpose}")
    for problem in problems:
        print(f"tafel: {problem}")
    if not libraries:
        print("this configuration loads no hardware library (a simulated board)")
    elif not problems:
        print(f"every library this board needs is installed ({len(libraries)})")
    return 1 if problems else 0


WHITE = HINT_COLOURS["white"]
WALK_MS = 300  # how long each LED of the walk stays on
SCAN_MS = 10
MAGNET = Piece("magnet", None, 1)


@dataclass
class ChannelLog:
    first: int
    last: int
    changes: list[int] = field(default_factory=list)  # scan times of each change


@dataclass
class Report:
    changes: list[tuple[int, int, str, int, int]]  # (ms, channel, field, before, after)
    never_changed: list[str]
    always_read: list[str]
    together: list[tuple[str, ...]]
    unmapped: list[int]  # channels with no field that changed

    def lines(self) -> list[str]:
        out = []
        out.append(f"{len(self.changes)} changes seen")
        if self.always_read:
            out.append(
                "read a piece the whole time (a piece left there, a stuck sensor or a short): "
                + ", ".join(self.always_read)
            )
        if self.never_changed:
            out.append(
                "never changed (not tried yet, or a dead sensor or broken wire): " + ", ".join(self.never_changed)
            )
        for group in self.together:
            out.append("always changed together (swapped or shorted wiring): " + ", ".join(group))
        if self.unmapped:
            out.append(
                "changed but belong to no field of the profile (check the profile's channels): "
                + ", ".join(str(channel) for channel in self.unmapped)
            )
        if not (self.always_read or self.never_changed or self.together or self.unmapped):
            out.append("every field changed on its own: the sensors and their wiring look right")
        return out


class Diagnosis:
    """Reads scans, lights the fields that read a piece, and keeps what each channel did."""

    def __init__(self, backends: Backends, profile: Any, out: Callable[[str], None]) -> None:
        self.backends = backends
        self.names = {wiring.channel: name for name, wiring in profile.fields.items()}  # channel -> field
        self.out = out
        self.logs: dict[int, ChannelLog] = {}
        self.changes: list[tuple[int, int, str, int, int]] = []
        self._led_of = {wiring.channel: wiring.led for wiring in profile.fields.values()}

    def scan(self, now: int) -> None:
        readings = self.backends.sensors.scan()
        if readings is None:
            return  # a dropped scan: no evidence
        for channel, value in enumerate(readings):
            log = self.logs.get(channel)
            if log is None:
                self.logs[channel] = ChannelLog(value, value)
                continue
            if value != log.last:
                name = self.names.get(channel, "(no field)")
                self.changes.append((now, channel, name, log.last, value))
                self.out(f"{now / 1000:8.2f} s  channel {channel:>3}  field {name:<4}  {log.last} -> {value}")
                log.changes.append(now)
                log.last = value
        self.show(readings)

    def show(self, readings: Sequence[int]) -> None:
        pixels = self.backends.pixels
        frame: list[RGB] = [OFF] * pixels.size
        for channel, value in enumerate(readings):
            led = self._led_of.get(channel)
            if value and led is not None and led < len(frame):
                frame[led] = WHITE
        pixels.show(frame)

    def report(self) -> Report:
        never: list[str] = []
        always: list[str] = []
        unmapped: list[int] = []
        by_times: dict[tuple[int, ...], list[str]] = {}
        for channel, log in sorted(self.logs.items()):
            name = self.names.get(channel)
            if name is None:
                if log.changes:
                    unmapped.append(channel)
                continue
            if not log.changes:
                (always if log.first else never).append(name)
            elif len(log.changes) >= 2:
                by_times.setdefault(tuple(log.changes), []).append(name)
        together = [tuple(names) for names in by_times.values() if len(names) > 1]
        return Report(self.changes, never, always, together, unmapped)


def run_diagnose(
    config: Config,
    seconds: float,
    walk: bool,
    out: Callable[[str], None] = print,
    sleep: Callable[[float], None] = time.sleep,
) -> Report:
    """The sensor self-test (and the LED walk with `walk`) on the board `config` describes."""
    profile = config.profile
    cells = field_cells(profile)
    backends = from_config(config)
    try:
        diagnosis = Diagnosis(backends, profile, out)
        if walk:
            led_walk(backends, profile, out, sleep if backends.sim is None else None)
        out(
            "sensor self-test: move a magnet over every field; lit fields read a piece"
            if backends.sim is None
            else "sensor self-test on the simulated board: the virtual hands put a magnet on every field"
        )
        if backends.sim is not None:
            magnet_walk(diagnosis, backends, [cells[name] for name in profile.fields])
        else:
            end = time.monotonic() + seconds
            while time.monotonic() < end:
                diagnosis.scan(round((seconds - (end - time.monotonic())) * 1000))
                sleep(SCAN_MS / 1000)
        report = diagnosis.report()
        for line in report.lines():
            out(line)
        return report
    finally:
        backends.pixels.show([OFF] * backends.pixels.size)
        backends.close()


def magnet_walk(diagnosis: Diagnosis, backends: Backends, cells: list[Cell]) -> None:
    """The simulated builder: a magnet put on each field in turn, then taken off (virtual time)."""
    assert backends.sim is not None
    board = backends.sim.board
    now = 0
    diagnosis.scan(now)
    for cell in cells:
        if board.occupancy().get(cell):
            continue  # a piece already stands there
        for action in ("place", "lift"):
            if action == "place":
                board.place(cell, [MAGNET])
            else:
                board.lift(cell)
            for _ in range(6):  # 60 ms: the noise settles
                now += SCAN_MS
                board.now = now
                diagnosis.scan(now)


def led_walk(
    backends: Backends, profile: Any, out: Callable[[str], None], sleep: Callable[[float], None] | None
) -> None:
    """Each LED in profile order, alone: the builder checks it sits under the field named."""
    pixels = backends.pixels
    by_led = sorted((wiring.led, name) for name, wiring in profile.fields.items())
    extras = sorted((led, name) for name, led in profile.extra_leds.items())
    out(f"LED walk: {len(by_led)} field LEDs, then {len(extras)} others, each lit white in turn")
    for led, name in [*by_led, *extras]:
        frame: list[RGB] = [OFF] * pixels.size
        frame[led] = WHITE
        pixels.show(frame)
        out(f"  LED {led:>3}: {name}")
        if sleep is not None:
            sleep(WALK_MS / 1000)
