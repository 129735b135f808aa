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
    return app.ScannerApp(source, port, strip, settings, status)


class UsbPort:
    """The USB serial port (the REPL's stdin/stdout) as a non-blocking byte port.

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
        self._poll = select.poll()
        self._poll.register(sys.stdin, select.POLLIN)

    def read(self) -> bytes:
        data = bytearray()
        while len(data) < self.READ_BUDGET and self._poll.poll(0):
            data.extend(self._in.read(1))
        return bytes(data)

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
