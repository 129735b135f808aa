"""The host's SerialLink with real pyserial against the firmware's loop over a pty pair, reached
through a symlink as udev's /dev/tafel-scanner would be; then the pty is closed (unplugged) and a new
one appears behind the same name. Both ends run in this process, stepped alternately."""

from __future__ import annotations

import contextlib
import os
import tty
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType

import pytest

from firmware.app import ScannerApp
from hal.serial import SerialLink, pyserial_opener
from hal.serial_devices import SerialPixels, SerialScanner
from tests.firmware.circuits import MuxBoard
from tests.firmware.harness import FakeClock, mux_circuit, settings

pytest.importorskip("serial", reason="the pty tests use pyserial, the backend's transport")


class PtyBoardPort:
    """The firmware's port on the master side of a pty: non-blocking reads, complete writes."""

    def __init__(self, master: int) -> None:
        self.master = master
        os.set_blocking(master, False)

    def read(self) -> bytes:
        try:
            return os.read(self.master, 4096)
        except BlockingIOError:
            return b""

    def write(self, data: bytes) -> None:
        view = memoryview(data)
        while view:
            view = view[os.write(self.master, view) :]


class Device:
    """A pty pair standing in for the board's USB serial device; `link` is the udev-style name."""

    def __init__(self, link: Path) -> None:
        self.master, self.slave = os.openpty()
        tty.setraw(self.slave)  # like a USB CDC device: no echo, no line editing
        with contextlib.suppress(FileNotFoundError):
            link.unlink()
        link.symlink_to(os.ttyname(self.slave))

    def unplug(self) -> None:
        os.close(self.master)
        os.close(self.slave)


class PtyRig:
    def __init__(self, main: ModuleType, tmp_path: Path) -> None:
        self.main = main
        self.cfg = settings()
        self.circuit: MuxBoard = mux_circuit(self.cfg)
        self.path = tmp_path / "tafel-scanner"
        self.clock = FakeClock(1000)
        self.device = Device(self.path)
        self.app: ScannerApp | None = main.build(self.cfg, PtyBoardPort(self.device.master))
        self.link = SerialLink(
            str(self.path), channels=20, led_count=8, opener=pyserial_opener(str(self.path)), clock=self.clock
        )
        self.scanner = SerialScanner(self.link)
        self.pixels = SerialPixels(self.link)
        self.readings: tuple[int, ...] | None = None

    def step(self, ms: int = 1) -> tuple[int, ...] | None:
        for _ in range(ms):
            self.clock.advance(1)
            if self.app is not None:
                self.app.step(self.clock.now)
            self.readings = self.scanner.scan()
        return self.readings

    def replug(self) -> None:
        self.device = Device(self.path)
        self.app = self.main.build(self.cfg, PtyBoardPort(self.device.master))

    def close(self) -> None:
        self.link.close()
        with contextlib.suppress(OSError):
            self.device.unplug()


@pytest.fixture
def pty_rig(firmware_main: ModuleType, tmp_path: Path) -> Iterator[PtyRig]:
    rig = PtyRig(firmware_main, tmp_path)
    yield rig
    rig.close()


def test_firmware_and_host_over_a_pty(pty_rig: PtyRig) -> None:
    rig = pty_rig
    rig.circuit.magnet(0, 4)
    rig.step(10)
    assert rig.link.status.ok, rig.link.status
    assert rig.readings == tuple(1 if channel == 4 else 0 for channel in range(20))
    rig.circuit.magnet(1, 3)
    rig.step(30)
    assert rig.readings is not None and rig.readings[19] == 1
    frame = [(index, 2 * index, 3 * index) for index in range(8)]
    rig.pixels.show(frame)
    rig.step(2)
    assert rig.app is not None and rig.app.strip.frames[-1] == tuple(frame)


def test_garbage_on_the_pty_is_skipped(pty_rig: PtyRig) -> None:
    rig = pty_rig
    rig.step(10)
    os.write(rig.device.master, b"\x01\x02garbage\xff\x00")
    rig.step(2)
    assert rig.link.stats.bad_frames == 1
    assert rig.link.status.ok
    rig.circuit.magnet(0, 1)
    rig.step(30)
    assert rig.readings is not None and rig.readings[1] == 1


def test_reconnects_after_the_pty_is_closed_and_a_new_one_appears(pty_rig: PtyRig) -> None:
    rig = pty_rig
    rig.step(10)
    rig.pixels.show([(7, 8, 9)] * 8)
    rig.step(2)
    assert rig.link.status.ok
    rig.device.unplug()
    rig.app = None
    rig.step()
    assert rig.link.status.state == "reconnecting"
    assert rig.readings is None
    rig.step(1000)
    assert rig.link.status.state == "reconnecting"
    assert "cannot open" in rig.link.status.detail
    rig.circuit.magnet(1, 0)
    rig.replug()
    rig.step(2000)
    assert rig.link.status.ok, rig.link.status
    assert rig.readings == tuple(1 if channel == 16 else 0 for channel in range(20))
    assert rig.app is not None and rig.app.strip.frames[-1] == ((7, 8, 9),) * 8
    assert rig.link.stats.connects == 2
