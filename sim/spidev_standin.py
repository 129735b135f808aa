"""The kernel's spidev driver, as Adafruit's SPI layer sees it: /dev/spidevB.D and its ioctls.

Blinka (and so neopixel_spi, which drives the LED strip) talks to SPI through Adafruit_PureIO.spi,
which opens /dev/spidevB.D and issues ioctls: mode, bits per word, speed, and SPI_IOC_MESSAGE
transfers. `SpidevKernel.installed()` answers exactly those calls, so every line of Blinka and
neopixel_spi above them is the code a Pi runs. Like the kernel, it refuses a transfer longer than
spidev.bufsiz (4096 bytes unless cmdline.txt raises it) and has only the devices that
/boot/firmware/config.txt switched on.
"""

from __future__ import annotations

import ctypes
import errno
import os
import struct
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

DEFAULT_BUFSIZ = 4096
NEOPIXEL_BITS = {0b11110000: 1, 0b11000000: 0}  # neopixel_spi sends each colour bit as one SPI byte


def force_pi4_board() -> None:
    """Make Blinka detect a Raspberry Pi 4 (its BLINKA_FORCE* variables, with platformdetect's own
    names for the board and chip). Must run before `import board`; detection is once per process."""
    from adafruit_platformdetect.constants import boards, chips

    os.environ["BLINKA_FORCEBOARD"] = boards.RASPBERRY_PI_4B
    # platformdetect's own identifier for the Broadcom family of every Pi up to the 4 (BCM2835..2711):
    # with it Blinka loads the same pin module as on a real Pi 4.
    os.environ["BLINKA_FORCECHIP"] = chips.BCM2XXX


def pi_spidev(spi0: bool = True, spi1: bool = True, bufsiz: int = DEFAULT_BUFSIZ) -> SpidevKernel:
    """The spidev devices a Pi has: /dev/spidev0.0 and 0.1 with dtparam=spi=on, /dev/spidev1.0 with
    dtoverlay=spi1-1cs."""
    devices = ({(0, 0), (0, 1)} if spi0 else set()) | ({(1, 0)} if spi1 else set())
    return SpidevKernel(devices, bufsiz)


def neopixel_levels(frame: bytes) -> list[int]:
    """The colour bytes of one neopixel_spi transfer, in wire order (the reset gaps of zeros around
    the frame skipped). Raises ValueError on a byte that is neither a 0 bit nor a 1 bit."""
    body = frame.strip(b"\x00")
    try:
        bits = [NEOPIXEL_BITS[byte] for byte in body]
    except KeyError as error:
        raise ValueError(f"byte {error.args[0]:#010b} is not a NeoPixel bit") from None
    return [int("".join(map(str, bits[i : i + 8])), 2) for i in range(0, len(bits), 8)]


def is_dark(frame: bytes) -> bool:
    return not any(neopixel_levels(frame))


@dataclass
class SpidevFile:
    """One open /dev/spidevB.D."""

    bus: int
    device: int
    settings: dict[str, int] = field(default_factory=lambda: {"mode": 0, "bits": 8, "speed": 500_000})


class SpidevKernel:
    """The spidev devices of one Pi and what was written to them (`writes`: (bus, device, bytes))."""

    def __init__(self, devices: Iterable[tuple[int, int]], bufsiz: int = DEFAULT_BUFSIZ) -> None:
        self.devices = set(devices)
        self.bufsiz = bufsiz
        self.files: dict[int, SpidevFile] = {}
        self.writes: list[tuple[int, int, bytes]] = []
        self.speeds: list[int] = []

    @staticmethod
    def path(bus: int, device: int) -> str:
        return f"/dev/spidev{bus}.{device}"

    def _device_of(self, path: Any) -> tuple[int, int] | None:
        for bus, device in self.devices:
            if str(path) == self.path(bus, device):
                return bus, device
        return None

    # --- what os.path.exists and os.open see --------------------------------------------------------
    def exists(self, path: Any) -> bool:
        if str(path).startswith("/dev/spidev"):
            return self._device_of(path) is not None
        return os.path.exists(path)

    def open(self, path: Any, flags: int, mode: int = 0o777) -> int:
        if not str(path).startswith("/dev/spidev"):
            return os.open(path, flags, mode)
        found = self._device_of(path)
        if found is None:
            raise FileNotFoundError(errno.ENOENT, "No such file or directory", str(path))
        descriptor = os.open(os.devnull, os.O_RDWR)  # a real descriptor, so os.close works on it
        self.files[descriptor] = SpidevFile(*found)
        return descriptor

    def close(self, descriptor: int) -> None:
        self.files.pop(descriptor, None)
        os.close(descriptor)

    # --- ioctl -------------------------------------------------------------------------------------
    def ioctl(self, descriptor: int, request: int, arg: Any = 0, mutate: bool = True) -> Any:
        from Adafruit_PureIO.spi import SPI

        spidev = self.files.get(descriptor)
        if spidev is None:
            raise OSError(errno.ENOTTY, "Inappropriate ioctl for device")
        if request == SPI._IOC_MESSAGE:
            return self._transfer(spidev, arg)
        names = {"MODE": "mode", "BITS_PER_WORD": "bits", "MAX_SPEED_HZ": "speed", "LSB_FIRST": "lsb"}
        for suffix, setting in names.items():
            read, write = getattr(SPI, f"_IOC_RD_{suffix}"), getattr(SPI, f"_IOC_WR_{suffix}")
            if request == read[1]:
                arg[0] = spidev.settings.get(setting, 0)
                return 0
            if request == write[1]:
                (spidev.settings[setting],) = struct.unpack("=" + write[2], arg)
                return 0
        raise OSError(errno.EINVAL, "Invalid argument")

    def _transfer(self, spidev: SpidevFile, arg: bytes) -> int:
        from Adafruit_PureIO.spi import SPI

        tx, rx, length, speed, *_ = struct.unpack(SPI._IOC_TRANSFER_FORMAT, arg)
        if length > self.bufsiz:
            raise OSError(errno.EMSGSIZE, "Message too long")
        if tx:
            self.writes.append((spidev.bus, spidev.device, ctypes.string_at(tx, length)))
        if rx:
            ctypes.memset(rx, 0, length)  # nothing drives MISO
        self.speeds.append(speed or spidev.settings["speed"])
        return int(length)

    @contextmanager
    def installed(self) -> Iterator[SpidevKernel]:
        """Within the block, Adafruit_PureIO.spi reaches this kernel instead of /dev and fcntl."""
        import Adafruit_PureIO.spi as pureio

        saved = pureio.os, pureio.ioctl
        pureio.os = _OsWithSpidev(self)
        pureio.ioctl = self.ioctl
        try:
            yield self
        finally:
            pureio.os, pureio.ioctl = saved

    def frames(self, bus: int) -> list[bytes]:
        return [data for written_bus, _, data in self.writes if written_bus == bus]


class _OsWithSpidev:
    """The `os` module, except that /dev/spidev* are the simulated kernel's devices."""

    def __init__(self, kernel: SpidevKernel) -> None:
        self._kernel = kernel
        self.path = _PathWithSpidev(kernel)
        self.open = kernel.open
        self.close = kernel.close

    def __getattr__(self, name: str) -> Any:
        return getattr(os, name)


class _PathWithSpidev:
    def __init__(self, kernel: SpidevKernel) -> None:
        self.exists = kernel.exists

    def __getattr__(self, name: str) -> Any:
        return getattr(os.path, name)
