"""A scanner board (the firmware on fake pins) and the host's SerialLink joined by a cable kept in
memory, stepped together under one fake clock: the in-process stand-in for a USB cable, with
unplugging, lost and damaged bytes on demand. test_pty.py runs the same pair over a real pty."""

from __future__ import annotations

import errno
from collections.abc import Callable
from types import ModuleType
from typing import Any

from firmware import proto
from firmware.app import ScannerApp
from hal.serial import SerialLink
from hal.serial_devices import SerialPixels, SerialScanner
from tests.firmware.circuits import MuxBoard
from tests.firmware.harness import FakeClock, mux_circuit, settings

Tamper = Callable[[bytes], bytes | None]
"""Changes the bytes of one write, or returns None to let it pass and wait for a later one."""


class Cable:
    """Bytes in both directions; `unplug()` makes the host's end fail like a vanished tty."""

    def __init__(self) -> None:
        self.plugged = True
        self.to_host = bytearray()
        self.to_board = bytearray()
        self.generation = 0
        self.opened_at: list[int] = []
        self.clock: FakeClock | None = None
        self.tamper_to_host: Tamper | None = None  # used once, on the first write it changes
        self.tamper_to_board: Tamper | None = None

    def opener(self) -> HostEnd:
        if self.clock is not None:
            self.opened_at.append(self.clock.now)
        if not self.plugged:
            raise OSError(errno.ENOENT, "No such file or directory")
        self.to_host.clear()
        self.to_board.clear()
        return HostEnd(self, self.generation)

    def unplug(self) -> None:
        self.plugged = False
        self.generation += 1

    def plug(self) -> None:
        self.plugged = True


class HostEnd:
    def __init__(self, cable: Cable, generation: int) -> None:
        self.cable = cable
        self.generation = generation
        self.closed = False

    def _check(self) -> None:
        if self.closed or self.generation != self.cable.generation:
            raise OSError(errno.EIO, "Input/output error")

    def read(self, size: int) -> bytes:
        self._check()
        data = bytes(self.cable.to_host[:size])
        del self.cable.to_host[:size]
        return data

    def write(self, data: bytes) -> int:
        self._check()
        self.cable.to_board.extend(_tampered(data, self.cable, "tamper_to_board"))
        return len(data)

    def close(self) -> None:
        self.closed = True


class BoardEnd:
    """The firmware's port on the cable."""

    def __init__(self, cable: Cable) -> None:
        self.cable = cable

    def read(self) -> bytes:
        data = bytes(self.cable.to_board)
        self.cable.to_board.clear()
        return data

    def write(self, data: bytes) -> None:
        if not self.cable.plugged:
            return
        self.cable.to_host.extend(_tampered(data, self.cable, "tamper_to_host"))


class LinkRig:
    def __init__(self, main: ModuleType, link_options: dict[str, Any] | None = None, **board: Any) -> None:
        self.main = main
        self.cfg = settings(**board)
        self.clock = FakeClock(1000)
        self.cable = Cable()
        self.cable.clock = self.clock
        self.circuit: MuxBoard = mux_circuit(self.cfg)
        self.app: ScannerApp | None = main.build(self.cfg, BoardEnd(self.cable))
        options: dict[str, Any] = {"channels": self.cfg["channels"], "led_count": self.cfg["led_count"]}
        options.update(link_options or {})
        self.link = SerialLink("/dev/tafel-scanner", opener=self.cable.opener, clock=self.clock, **options)
        self.scanner = SerialScanner(self.link)
        self.pixels = SerialPixels(self.link)
        self.readings: tuple[int, ...] | None = None

    def reboot_board(self, **board: Any) -> None:
        """A fresh firmware instance, as after a power cycle (the strip is blank again)."""
        self.cfg = settings(**board) if board else self.cfg
        self.app = self.main.build(self.cfg, BoardEnd(self.cable))

    def step(self, ms: int = 1, board: bool = True) -> tuple[int, ...] | None:
        """Advance `ms` milliseconds, stepping the board (unless it hangs) and scanning each one."""
        for _ in range(ms):
            self.clock.advance(1)
            if board and self.app is not None:
                self.app.step(self.clock.now)
            self.readings = self.scanner.scan()
        return self.readings

    def connect(self) -> None:
        self.step(5)
        assert self.link.status.ok, self.link.status

    def expected(self) -> tuple[int, ...]:
        assert self.app is not None
        return tuple(self.app.debouncer.stable)

    def shown(self) -> tuple[tuple[int, int, int], ...]:
        assert self.app is not None
        return self.app.strip.frames[-1]


def _tampered(data: bytes, cable: Cable, attribute: str) -> bytes:
    tamper = getattr(cable, attribute)
    if tamper is None:
        return data
    changed = tamper(data)
    if changed is None:
        return data
    setattr(cable, attribute, None)
    return changed


def _kind(data: bytes) -> int | None:
    try:
        return proto.decode_frame(data.rstrip(b"\x00")).kind
    except proto.ProtocolError:
        return None


def drop(kind: int) -> Tamper:
    """Loses the next frame of `kind`."""
    return lambda data: b"" if _kind(data) == kind else None


def damage(kind: int, index: int = 2) -> Tamper:
    """Flips a bit in byte `index` of the next frame of `kind`."""

    def tamper(data: bytes) -> bytes | None:
        if _kind(data) != kind:
            return None
        damaged = bytearray(data)
        damaged[index] ^= 0x10
        return bytes(damaged)

    return tamper
