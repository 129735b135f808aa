"""The RP2040 scanner board as a process: firmware/main.py's real main() (configuration, build,
UsbPort over stdin/stdout, the scan loop) under CPython, with stdin and stdout the board's end of a
pseudo-terminal, the fake `machine` pins wired to 13 multiplexers with no magnets, and MicroPython's
`time.ticks_*`. The host opens the other end with pyserial, as it opens /dev/ttyACM0.

    python tests/pi/scanner_on_pty.py    (stdin and stdout: the pty's master end)
"""

from __future__ import annotations

import io
import select
import sys
import time
import types
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

TICKS = 1 << 30


def micropython_time() -> None:
    started = time.monotonic_ns()
    time.ticks_ms = lambda: (time.monotonic_ns() - started) // 1_000_000 % TICKS  # type: ignore[attr-defined]
    time.ticks_us = lambda: (time.monotonic_ns() - started) // 1_000 % TICKS  # type: ignore[attr-defined]
    time.ticks_diff = lambda a, b: ((a - b + TICKS // 2) % TICKS) - TICKS // 2  # type: ignore[attr-defined]
    time.ticks_add = lambda a, b: (a + b) % TICKS  # type: ignore[attr-defined]
    time.sleep_ms = lambda ms: time.sleep(ms / 1000)  # type: ignore[attr-defined]


def main() -> None:
    from firmware.config import DEFAULTS
    from tests.firmware import fake_machine, fake_neopixel
    from tests.firmware.circuits import MuxBoard

    micropython_time()
    sys.modules["machine"] = fake_machine
    sys.modules["neopixel"] = fake_neopixel
    sys.modules["micropython"] = types.SimpleNamespace(kbd_intr=lambda char: None)  # type: ignore[assignment]
    fake_machine.attach(MuxBoard(DEFAULTS["select_pins"], DEFAULTS["signal_pins"]))
    # MicroPython's stdin and stdout are unbuffered byte streams.
    board_in = io.FileIO(0, "rb", closefd=False)
    sys.stdin = types.SimpleNamespace(buffer=board_in, fileno=board_in.fileno)  # type: ignore[assignment]
    sys.stdout = types.SimpleNamespace(buffer=io.FileIO(1, "wb", closefd=False))  # type: ignore[assignment]
    import firmware.main as board

    looping = board.run

    def paced(firmware: object, wdt: object = None) -> None:
        """The board's loop, waiting up to 1 ms for the host between steps (a spinning loop would
        take a CPU from the host on a small machine)."""

        class Paced:
            def step(self, now: int) -> None:
                select.select([board_in], [], [], 0.001)
                firmware.step(now)  # type: ignore[attr-defined]

        looping(Paced(), wdt)

    board.run = paced
    board.main()


if __name__ == "__main__":
    main()
