"""The scanner board's loop body, free of hardware so that it runs under CPython in the tests.

`ScannerApp.step(now)` is called as often as possible with the current time in milliseconds
(time.ticks_ms() on the board, a fake clock in the tests). It scans at a fixed rate, debounces every
channel, sends CHANGES frames as soon as a stable value changes, a HEARTBEAT and a FULL frame at
fixed intervals, and applies LEDS frames from the host to the strip. The port, the strip and the
sensor source are passed in: the port has `read()` (available bytes, possibly none, never blocking)
and `write(data)`; the strip behaves like MicroPython's neopixel.NeoPixel.
"""

from firmware import proto
from firmware.config import SCAN_RATES
from firmware.scan import Debouncer, debounce_scans

FIRMWARE_VERSION = "tafel-scanner 1.0.0"

# MicroPython's millisecond ticks wrap at 2**30; these mirror time.ticks_diff and time.ticks_add so
# the same arithmetic runs on the board and under CPython.
TICKS_PERIOD = 1 << 30
_TICKS_MASK = TICKS_PERIOD - 1
_TICKS_HALF = TICKS_PERIOD // 2

RATE_PROBE_SCANS = 4  # scans timed at start, before HELLO announces the rate
SCAN_SHARE = 2  # a scan may take at most 1/SCAN_SHARE of its period: the rest is USB and the LEDs


def ticks_diff(a: int, b: int) -> int:
    """a - b in ticks, correct across the wrap for differences below 2**29 ms."""
    return ((a - b + _TICKS_HALF) & _TICKS_MASK) - _TICKS_HALF


def ticks_add(ticks: int, delta: int) -> int:
    return (ticks + delta) & _TICKS_MASK


class ScannerApp:
    """Scan, debounce, report and light: one step at a time."""

    def __init__(
        self,
        source: object,
        port: object,
        strip: object,
        config: dict,
        status_pin: object = None,
        sensor_model: str = "binary",
        clock_us: object = None,
    ) -> None:
        self.source = source
        self.port = port
        self.strip = strip
        self.channels = config["channels"]
        self.led_count = config["led_count"]
        self.scan_hz = config["scan_hz"]
        self.debounce_ms = config["debounce_ms"]
        self.sensor_model = sensor_model
        self.led_order = config["led_order"]
        self._period = 1000 // self.scan_hz
        self._heartbeat_ms = config["heartbeat_ms"]
        self._full_ms = config["full_ms"]
        self._status_pin = status_pin
        self._clock_us = clock_us  # time.ticks_us on the board: times the first scans
        self._rate_problem = None
        self._raw = [0] * self.channels
        self.debouncer = Debouncer(self.channels, debounce_scans(self.debounce_ms, self.scan_hz))
        self._deframer = proto.Deframer()
        self._seq = 0
        self._host_seq = None  # the sequence number expected next from the host; None = unknown
        self._started = False
        self._last = 0
        self._next_scan = 0
        self._next_heartbeat = 0
        self._next_full = 0
        self._window_start = 0
        self._window_scans = 0
        self.uptime_ms = 0
        self.scans = 0
        self.overruns = 0
        self.rx_errors = 0
        self.led_writes = 0

    # --- the loop body ---------------------------------------------------------------------------
    def step(self, now: int) -> None:
        if not self._started:
            self._start(now)
        else:
            self.uptime_ms += max(0, ticks_diff(now, self._last))
        self._last = now
        self._receive()
        if ticks_diff(now, self._next_scan) >= 0:
            self._scan(now)
        if ticks_diff(now, self._next_heartbeat) >= 0:
            self._heartbeat(now)
        if ticks_diff(now, self._next_full) >= 0:
            self._send_full(now)

    def _start(self, now: int) -> None:
        self._started = True
        if self._clock_us is not None:
            self._fit_rate(self._time_scans())
        self.source.read(self._raw)
        self.debouncer.update(self._raw)  # the first scan is stable at once
        self.scans = 1
        self._window_start = now
        self._next_scan = ticks_add(now, self._period)
        self._next_heartbeat = ticks_add(now, self._heartbeat_ms)
        self.port.write(b"\x00")  # ends whatever partial data the host has buffered
        self._send_hello()
        self._send_full(now)

    def _time_scans(self) -> int:
        """The slowest of a few scans, in microseconds."""
        clock = self._clock_us
        slowest = 0
        for _ in range(RATE_PROBE_SCANS):
            started = clock()
            self.source.read(self._raw)
            slowest = max(slowest, ticks_diff(clock(), started))
        return slowest

    def _fit_rate(self, scan_us: int) -> None:
        """Scan at the configured rate if a scan fits its share of the period, else at the fastest
        rate that fits (the slowest rate if none does), and say so once HELLO is out."""
        wanted = self.scan_hz
        fitting = [rate for rate in SCAN_RATES if rate <= wanted and scan_us * SCAN_SHARE <= 1_000_000 // rate]
        rate = max(fitting) if fitting else min(SCAN_RATES)
        if rate == wanted:
            return
        self.scan_hz = rate
        self._period = 1000 // rate
        self.debouncer = Debouncer(self.channels, debounce_scans(self.debounce_ms, rate))
        # ERROR texts are short (proto.MAX_TEXT); the host adds the code's name, "scan rate".
        using = f"using {rate}" if fitting else f"{rate} overruns"
        self._rate_problem = f"scan_hz {wanted}: scans take {scan_us} us; {using}"

    def _scan(self, now: int) -> None:
        self.source.read(self._raw)
        self.scans += 1
        self._window_scans += 1
        changed = self.debouncer.update(self._raw)
        if changed:
            stable = self.debouncer.stable
            if len(changed) > proto.MAX_CHANGES:
                self._send_full(now)
            else:
                self._send(proto.CHANGES, proto.pack_changes([(channel, stable[channel]) for channel in changed]))
        # Fixed rate: the next scan keeps to the grid; missed slots (a long LED write) are counted.
        self._next_scan = ticks_add(self._next_scan, self._period)
        behind = ticks_diff(now, self._next_scan)
        if behind >= 0:
            missed = behind // self._period + 1
            self.overruns += missed
            self._next_scan = ticks_add(self._next_scan, missed * self._period)

    def _heartbeat(self, now: int) -> None:
        elapsed = ticks_diff(now, self._window_start)
        rate = (self._window_scans * 1000 + elapsed // 2) // elapsed if elapsed > 0 else 0
        self._window_start = now
        self._window_scans = 0
        self._send(proto.HEARTBEAT, proto.pack_heartbeat(self.uptime_ms, rate, self.overruns, self.rx_errors))
        self._next_heartbeat = ticks_add(now, self._heartbeat_ms)
        if self._status_pin is not None:
            self._status_pin.value(1 - self._status_pin.value())

    # --- frames out ------------------------------------------------------------------------------
    def _send(self, kind: int, payload: bytes = b"") -> None:
        self.port.write(proto.encode_frame(kind, self._seq, payload))
        self._seq = proto.next_seq(self._seq)

    def _send_hello(self) -> None:
        payload = proto.pack_hello(
            self.channels,
            self.led_count,
            self.scan_hz,
            self.debounce_ms,
            self.sensor_model,
            self.led_order,
            FIRMWARE_VERSION,
        )
        self._send(proto.HELLO, payload)
        if self._rate_problem is not None:  # after every HELLO: a host may connect at any time
            self._error(proto.E_RATE, self._rate_problem)

    def _send_full(self, now: int) -> None:
        self._send(proto.FULL, proto.pack_full(self.debouncer.stable))
        self._next_full = ticks_add(now, self._full_ms)

    def _error(self, code: int, message: str) -> None:
        self._send(proto.ERROR, proto.pack_error(code, message))

    # --- frames in -------------------------------------------------------------------------------
    def _receive(self) -> None:
        data = self.port.read()
        if not data:
            return
        for item in self._deframer.feed(data):
            if isinstance(item, proto.ProtocolError):
                self.rx_errors += 1
                self._host_seq = None  # the next good frame restarts the count; no second report
                self._error(proto.E_BAD_FRAME, str(item))
            else:
                self._handle(item)

    def _handle(self, frame: proto.Frame) -> None:
        kind = frame.kind
        if kind == proto.REQUEST_HELLO:  # a host (re)connecting: its numbering starts here
            self._host_seq = proto.next_seq(frame.seq)
            self._send_hello()
            self._send_full(self._last)
            return
        if self._host_seq is not None and frame.seq != self._host_seq:
            self._error(proto.E_GAP, f"expected host frame {self._host_seq}, got {frame.seq}")
        self._host_seq = proto.next_seq(frame.seq)
        if kind == proto.REQUEST_FULL:
            self._send_full(self._last)
        elif kind == proto.LEDS:
            self._apply_leds(frame.payload)
        else:
            self._error(proto.E_UNKNOWN_TYPE, f"frame type 0x{kind:02x} is not for the scanner")

    def _apply_leds(self, payload: bytes) -> None:
        try:
            show, start, colours = proto.unpack_leds(payload)
        except proto.ProtocolError as error:
            self._error(proto.E_BAD_PAYLOAD, str(error))
            return
        if start + len(colours) > self.led_count:
            self._error(
                proto.E_BAD_PAYLOAD, f"LEDs {start}..{start + len(colours) - 1} run past the strip of {self.led_count}"
            )
            return
        strip = self.strip
        for offset, colour in enumerate(colours):
            strip[start + offset] = colour
        if show:
            strip.write()
            self.led_writes += 1


class FaultReporter:
    """Stands in for ScannerApp when the board cannot scan (a bad configuration, a crash): it
    answers every request, and once a second unasked, with an ERROR frame saying what is wrong,
    so the host shows the reason instead of a silent board."""

    def __init__(self, port: object, code: int, message: str, interval_ms: int = 1000) -> None:
        self.port = port
        self.code = code
        self.message = message
        self._interval = interval_ms
        self._deframer = proto.Deframer()
        self._seq = 0
        self._next = None

    def step(self, now: int) -> None:
        asked = False
        data = self.port.read()
        if data:
            for item in self._deframer.feed(data):
                if isinstance(item, proto.Frame) and item.kind == proto.REQUEST_HELLO:
                    asked = True
        if asked or self._next is None or ticks_diff(now, self._next) >= 0:
            self.port.write(proto.encode_frame(proto.ERROR, self._seq, proto.pack_error(self.code, self.message)))
            self._seq = proto.next_seq(self._seq)
            self._next = ticks_add(now, self._interval)
