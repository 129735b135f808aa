"""MicroPython entry point of the tafel scanner board, copied to the board as /main.py.

It reads /tafel_board.json (optional overrides of firmware/config.py), builds the scanner from
machine.Pin objects and the strip from neopixel.NeoPixel, and runs ScannerApp.step in a tight loop
over the USB serial port. Holding the BOOTSEL button while the board starts (or for a moment while
it runs) leaves the loop and gives the REPL back, so mpremote can update the files.

Under CPython the tests install fake `machine` and `neopixel` modules and call `build` with their
own port.
"""

import json
import time

import machine
import neopixel

from firmware import app, config, proto, scan

BOARD_FILE = "tafel_board.json"
BOOTSEL_CHECK_MS = 500


def read_overrides(path: str = BOARD_FILE) -> dict:
    """The board's overrides, or {} when there is no board file."""
    try:
        with open(path) as handle:
            text = handle.read()
    except OSError:
        return {}
    try:
        data = json.loads(text)
    except ValueError as error:
        raise config.ConfigError(f"{path} is not valid JSON: {error}") from None
    if not isinstance(data, dict):
        raise config.ConfigError(f"{path} must hold a JSON object of settings")
    return data


def build(settings: dict, port: object) -> app.ScannerApp:
    """A ScannerApp on real (or fake) pins for checked `settings`, talking over `port`."""
    pin_class = machine.Pin
    pull = pin_class.PULL_UP if settings["pull_up"] else None
    channels = settings["channels"]
    if settings["wiring"] == "mux":
        selects = [pin_class(number, pin_class.OUT, value=0) for number in settings["select_pins"]]
        signals = [pin_class(number, pin_class.IN, pull) for number in settings["signal_pins"]]
        source = scan.MuxScanner(selects, signals, channels, settings["active_low"])
    else:
        load = pin_class(settings["load_pin"], pin_class.OUT, value=1)
        clock = pin_class(settings["clock_pin"], pin_class.OUT, value=0)
        data = pin_class(settings["data_pin"], pin_class.IN, pull)
        source = scan.ShiftScanner(load, clock, data, channels, settings["active_low"])
    strip = neopixel.NeoPixel(pin_class(settings["led_pin"], pin_class.OUT), settings["led_count"])
    strip.ORDER = config.neopixel_order(settings["led_order"])
    status = None
    if settings["status_pin"] is not None:
        status = pin_class(settings["status_pin"], pin_class.OUT, value=0)
    clock_us = getattr(time, "ticks_us", None)  # MicroPython's; CPython's time has none
    return app.ScannerApp(source, port, strip, settings, status, clock_us=clock_us)


class UsbPort:
    """The USB serial port (the REPL's stdin/stdout) as a non-blocking byte port.

    Reading stdin blocks until the buffer is full, so a frame's first byte is read only when poll
    says it is there. The frames are COBS-encoded: each code byte says how many non-zero data bytes
    follow it, and the host writes every frame whole, so after a code byte its run and the byte
    after it (the next code byte, or the frame's closing 0) are read in one call, without polling:
    a lit LED frame arrives in a handful of reads rather than one per byte (dark LEDs are zero
    bytes, a run each). Reads go into one preallocated buffer and poll with ipoll, so receiving
    allocates nothing but the returned bytes. A host that died mid-frame could hold a read; the
    board's watchdog (watchdog_ms) restarts it then.

    Ctrl-C (0x03) may occur inside a frame, so the keyboard interrupt is switched off while the
    loop runs and restored by close().
    """

    READ_BUDGET = 2048  # bytes per step at most, so scanning keeps its rate during a burst

    def __init__(self) -> None:
        import select
        import sys

        import micropython

        self._micropython = micropython
        micropython.kbd_intr(-1)
        self._in = sys.stdin.buffer
        self._out = sys.stdout.buffer
        poll = select.poll()
        poll.register(sys.stdin, select.POLLIN)
        self._poll = getattr(poll, "ipoll", poll.poll)  # MicroPython's ipoll allocates nothing
        self._buffer = bytearray(self.READ_BUDGET)
        self._view = memoryview(self._buffer)
        self._ahead = 0  # bytes of the current frame known to be on their way
        self._aligned = False  # a delimiter was seen: code bytes can be trusted

    def read(self) -> bytes:
        view = self._view
        budget = self.READ_BUDGET
        got = 0
        while got < budget:
            if self._ahead:
                count = self._in.readinto(view[got : got + min(self._ahead, budget - got)])
            elif self._ready():
                count = self._in.readinto(view[got : got + 1])
            else:
                break
            if not count:
                break
            got += count
            if self._ahead > count:
                self._ahead -= count
                continue
            # The last byte read is a code byte (its run and the byte after it follow) or the
            # delimiter 0 (the frame is over: wait for poll again). Code bytes are trusted only
            # after a delimiter: the board may start mid-frame, or a terminal's echo may garble.
            last = self._buffer[got - 1]
            if not last:
                self._aligned = True
            self._ahead = last if self._aligned else 0
        return bytes(view[:got])

    def _ready(self) -> bool:
        for _ in self._poll(0):
            return True
        return False

    def write(self, data: bytes) -> None:
        self._out.write(data)

    def close(self) -> None:
        self._micropython.kbd_intr(3)


def bootsel_pressed() -> bool:
    try:
        import rp2
    except ImportError:
        return False
    return bool(rp2.bootsel_button())


def run(firmware: object, wdt: object = None) -> None:
    """Step until BOOTSEL is pressed."""
    next_check = time.ticks_ms()
    while True:
        now = time.ticks_ms()
        firmware.step(now)
        if wdt is not None:
            wdt.feed()
        if time.ticks_diff(now, next_check) >= 0:
            if bootsel_pressed():
                return
            next_check = time.ticks_add(now, BOOTSEL_CHECK_MS)


def main() -> None:
    if bootsel_pressed():
        return  # safe mode: stay in the REPL
    port = UsbPort()
    try:
        try:
            settings = config.load(read_overrides())
        except config.ConfigError as error:
            run(app.FaultReporter(port, proto.E_CONFIG, str(error)))
            return
        firmware = build(settings, port)
        wdt = machine.WDT(timeout=settings["watchdog_ms"]) if settings["watchdog_ms"] else None
        try:
            run(firmware, wdt)
        except Exception as error:  # report, then start afresh rather than hang silently
            if not settings["reset_on_crash"]:
                raise
            reporter = app.FaultReporter(port, proto.E_INTERNAL, repr(error))
            reporter.step(time.ticks_ms())
            time.sleep_ms(100)
            machine.reset()
    finally:
        port.close()


if __name__ == "__main__":
    main()
