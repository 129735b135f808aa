"""SerialLink, SerialScanner and SerialPixels against the firmware's own loop over an in-memory
cable: connecting, readings, LED frames, lost and damaged frames in both directions, timeouts,
unplugging with back-off, and configuration mismatches. Time is a fake clock throughout."""

from __future__ import annotations

from itertools import pairwise
from types import ModuleType

import pytest

from firmware import proto
from firmware.app import FaultReporter, ScannerApp
from hal.protocols import PixelSink, SensorSource
from hal.serial import LinkStatus, SerialLink, pyserial_opener
from hal.serial_devices import SerialPixels, SerialScanner, serial_backends
from tests.serial.rig import BoardEnd, LinkRig, damage, drop


@pytest.fixture
def rig(firmware_main: ModuleType) -> LinkRig:
    return LinkRig(firmware_main)


def black(count: int) -> list[tuple[int, int, int]]:
    return [(0, 0, 0)] * count


# --- connecting and readings --------------------------------------------------------------------


def test_backends_implement_the_hal_protocols(rig: LinkRig) -> None:
    assert isinstance(rig.scanner, SensorSource)
    assert isinstance(rig.pixels, PixelSink)
    assert rig.scanner.channels == 20
    assert rig.pixels.size == 8


def test_connects_and_reports_the_board(rig: LinkRig) -> None:
    assert rig.link.status == LinkStatus("connecting", "opening /dev/tafel-scanner")
    rig.circuit.magnet(1, 1)  # channel 17 is occupied from the start
    rig.connect()
    assert rig.link.status.state == "connected"
    assert rig.link.status.detail.startswith("tafel-scanner")
    assert rig.readings == tuple(1 if channel == 17 else 0 for channel in range(20))
    info = rig.link.info
    assert info is not None and (info.channels, info.led_count, info.scan_hz, info.sensor_model) == (
        20,
        8,
        200,
        "binary",
    )


def test_scan_is_none_until_the_first_full_frame(rig: LinkRig) -> None:
    assert rig.scanner.scan() is None  # opened, REQUEST_HELLO sent, nothing heard yet
    assert rig.link.status.state == "connecting"


def test_changes_reach_the_readings_after_the_boards_debounce(rig: LinkRig) -> None:
    rig.connect()
    rig.circuit.magnet(0, 5)
    rig.step(15)
    assert rig.readings is not None and rig.readings[5] == 0
    rig.step(15)
    assert rig.readings is not None and rig.readings[5] == 1
    assert rig.readings == rig.expected()


def test_unchanged_readings_are_the_same_tuple(rig: LinkRig) -> None:
    rig.connect()
    first = rig.step()
    assert rig.step(50) is first


def test_heartbeats_are_kept(rig: LinkRig) -> None:
    rig.connect()
    rig.step(300)
    assert rig.link.heartbeat is not None
    assert rig.link.heartbeat.scan_rate == 200


# --- LEDs ---------------------------------------------------------------------------------------


def test_led_frame_reaches_the_strip(rig: LinkRig) -> None:
    rig.connect()
    frame = [(index * 10, 255 - index, 7) for index in range(8)]
    rig.pixels.show(frame)
    rig.step()
    assert rig.shown() == tuple(frame)


def test_only_the_changed_range_is_sent(rig: LinkRig) -> None:
    rig.connect()
    rig.pixels.show(black(8))
    rig.step()
    sent: list[bytes] = []

    def record(data: bytes) -> None:
        sent.append(data)

    rig.cable.tamper_to_board = record
    frame = black(8)
    frame[3] = (1, 2, 3)
    frame[5] = (4, 5, 6)
    rig.pixels.show(frame)
    leds = proto.decode_frame(sent[0][:-1])
    assert proto.unpack_leds(leds.payload) == (True, 3, [(1, 2, 3), (0, 0, 0), (4, 5, 6)])
    rig.step()
    assert rig.shown() == tuple(frame)


def test_an_unchanged_frame_sends_nothing(rig: LinkRig) -> None:
    rig.connect()
    rig.pixels.show(black(8))
    rig.step()
    rig.pixels.show(black(8))
    assert rig.cable.to_board == b""


def test_brightness_scales_colours(firmware_main: ModuleType) -> None:
    rig = LinkRig(firmware_main)
    pixels = SerialPixels(rig.link, brightness=0.5)
    rig.connect()
    pixels.show([(255, 100, 1)] * 8)
    rig.step()
    assert rig.shown() == ((128, 50, 0),) * 8


def test_a_frame_shown_before_connecting_is_sent_once_connected(rig: LinkRig) -> None:
    rig.pixels.show([(9, 9, 9)] * 8)
    rig.connect()
    rig.step()
    assert rig.shown() == ((9, 9, 9),) * 8


def test_long_strips_are_split_and_shown_once(firmware_main: ModuleType) -> None:
    rig = LinkRig(firmware_main, led_count=700)
    rig.connect()
    sent: list[tuple[bool, int, int]] = []

    def record(data: bytes) -> None:
        show, start, colours = proto.unpack_leds(proto.decode_frame(data[:-1]).payload)
        sent.append((show, start, len(colours)))

    rig.cable.tamper_to_board = record
    rig.pixels.show([(1, 2, 3)] * 700)
    rig.cable.tamper_to_board = None
    assert sent == [(False, 0, 340), (False, 340, 340), (True, 680, 20)]  # LEDS_PER_FRAME is 340
    rig.step()
    assert rig.app is not None
    assert rig.app.strip.frames == [((1, 2, 3),) * 700]  # one strip write for the whole frame


def test_bad_led_frames_are_refused(rig: LinkRig) -> None:
    with pytest.raises(ValueError, match="LED frame has 3 colours; the strip has 8"):
        rig.pixels.show(black(3))
    with pytest.raises(ValueError, match=r"LED 2: colour \(0, 0, 300\) is not three whole numbers 0..255"):
        rig.pixels.show([(0, 0, 0), (0, 0, 0), (0, 0, 300), *black(5)])
    with pytest.raises(ValueError, match="brightness"):
        SerialPixels(rig.link, brightness=0)


# --- lost and damaged frames --------------------------------------------------------------------


def test_a_lost_changes_frame_is_noticed_by_its_sequence_number_and_repaired(rig: LinkRig) -> None:
    rig.connect()
    rig.cable.tamper_to_host = drop(proto.CHANGES)
    rig.circuit.magnet(0, 2)
    rig.step(25)  # the CHANGES frame is lost; the board's next frame shows the gap
    assert rig.link.stats.gaps == 0
    readings = [rig.step() for _ in range(230)]
    assert rig.link.stats.gaps == 1 and rig.link.stats.full_requests == 1
    assert None not in readings[-5:]
    assert rig.readings is not None and rig.readings[2] == 1


def test_readings_are_withheld_between_a_gap_and_the_repairing_full_frame(rig: LinkRig) -> None:
    rig.connect()
    rig.cable.tamper_to_host = drop(proto.HEARTBEAT)
    history = [(rig.step(), rig.link.stats.gaps) for _ in range(600)]
    noticed = next(index for index, (_, gaps) in enumerate(history) if gaps)
    assert history[noticed][0] is None  # the gap is seen: nothing can be vouched for
    assert history[noticed + 1][0] == rig.expected()  # the board answered REQUEST_FULL at once
    assert all(readings is not None for readings, _ in history[:noticed] + history[noticed + 1 :])


def test_a_damaged_frame_is_rejected_and_repaired_by_a_full_frame(rig: LinkRig) -> None:
    rig.connect()
    rig.cable.tamper_to_host = damage(proto.CHANGES)
    rig.circuit.magnet(1, 3)
    rig.step(30)
    assert rig.link.stats.bad_frames == 1
    assert rig.link.stats.full_requests >= 1
    assert rig.readings is not None and rig.readings[19] == 1
    assert rig.link.status.ok


def test_garbage_on_the_line_costs_nothing_but_itself(rig: LinkRig) -> None:
    rig.connect()
    rig.cable.to_host.extend(b"MicroPython v1.22 \xff\xfe\r\n>>> \x00")
    rig.step()
    assert rig.link.stats.bad_frames == 1
    assert rig.link.status.ok
    rig.circuit.magnet(0, 0)
    rig.step(30)
    assert rig.readings is not None and rig.readings[0] == 1


def test_a_damaged_led_frame_is_sent_again_in_full(rig: LinkRig) -> None:
    rig.connect()
    rig.pixels.show(black(8))
    rig.step()
    rig.cable.tamper_to_board = damage(proto.LEDS, index=5)
    rig.pixels.show([(50, 60, 70)] * 8)
    rig.step(3)  # the board reports the bad frame; the host sends the whole strip again
    assert rig.app is not None and rig.app.rx_errors == 1
    assert rig.link.stats.scanner_errors == 1
    assert rig.shown() == ((50, 60, 70),) * 8


def test_a_lost_led_frame_is_sent_again_after_the_boards_gap_report(rig: LinkRig) -> None:
    rig.connect()
    rig.pixels.show(black(8))
    rig.step()
    rig.cable.tamper_to_board = drop(proto.LEDS)
    rig.pixels.show([(1, 1, 1)] * 8)
    rig.step()
    assert rig.shown() == tuple(black(8))
    rig.pixels.show([(1, 1, 1)] * 7 + [(2, 2, 2)])  # the board sees a sequence gap in this one
    rig.step(3)
    assert "lost frames" in rig.link.stats.last_scanner_error
    assert rig.shown() == ((1, 1, 1),) * 7 + ((2, 2, 2),)


# --- timeouts, unplugging, back-off -------------------------------------------------------------


def test_silent_board_is_dropped_after_the_heartbeat_timeout_and_reconnected(rig: LinkRig) -> None:
    rig.connect()
    rig.step(1501 - rig.clock.now)  # the board started at 1001: its first heartbeat arrives at 1251, the second now
    rig.step(1499, board=False)
    assert rig.link.status.ok
    rig.step(1, board=False)
    assert rig.link.status == LinkStatus("reconnecting", "no frame from the scanner for 1500 ms")
    assert rig.readings is None
    rig.step(200)
    assert rig.link.status.ok
    assert rig.link.stats.connects == 2


def test_unplug_then_backoff_then_replug(rig: LinkRig) -> None:
    rig.connect()
    rig.pixels.show([(3, 2, 1)] * 8)
    rig.step()
    rig.cable.unplug()
    unplugged_at = rig.clock.now
    rig.step(board=False)
    assert rig.link.status.state == "reconnecting"
    assert "read from /dev/tafel-scanner failed: Input/output error" in rig.link.status.detail
    assert rig.readings is None
    rig.step(17000, board=False)
    attempts = [unplugged_at, *rig.cable.opened_at[1:]]
    pauses = [later - earlier for earlier, later in pairwise(attempts)]
    assert pauses[:8] == [101, 200, 400, 800, 1600, 3200, 5000, 5000]  # doubling from 100 ms up to 5 s
    assert rig.link.status.detail == "cannot open /dev/tafel-scanner: No such file or directory"
    rig.cable.plug()
    rig.reboot_board()
    rig.step(5000)
    assert rig.link.status.ok
    assert rig.shown() == ((3, 2, 1),) * 8  # the rebooted strip gets the frame again
    assert rig.readings == rig.expected()


def test_back_off_starts_afresh_after_a_good_connection(rig: LinkRig) -> None:
    rig.connect()
    for _ in range(2):
        rig.cable.unplug()
        rig.step(board=False)
        rig.cable.plug()
        rig.step(150)
        assert rig.link.status.ok
    assert rig.link.stats.connects == 3


def test_no_firmware_means_no_hello(rig: LinkRig) -> None:
    requests: list[int] = []

    def count(data: bytes) -> None:
        if data.endswith(b"\x00") and len(data) > 1 and proto.decode_frame(data[:-1]).kind == proto.REQUEST_HELLO:
            requests.append(rig.clock.now)

    rig.cable.tamper_to_board = count
    rig.app = None  # a board running something else: it never answers
    rig.step(2000)
    assert rig.link.status.detail == "waiting for the scanner on /dev/tafel-scanner"
    rig.step(1)  # opened at 1001: 2000 ms later
    assert rig.link.status == LinkStatus(
        "connecting", "no HELLO from /dev/tafel-scanner within 2000 ms (is the tafel firmware running?)"
    )
    assert [later - earlier for earlier, later in pairwise(requests)] == [300] * 6


# --- mismatches and reports from the board ------------------------------------------------------


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"channels": 21}, "scanner reports 20 channels; the board profile has 21"),
        ({"led_count": 9}, "scanner drives 8 LEDs; the board profile has 9"),
        (
            {"sensor_model": "signed"},
            "scanner reads binary sensors; the board is configured for signed (with these sensors set "
            'sensor_model = "binary" in [board] of the service configuration)',
        ),
        ({"colour_order": "RGB"}, "scanner sends LED colours as GRB; the board profile says RGB"),
    ],
)
def test_a_board_that_does_not_fit_the_profile_is_an_error(
    firmware_main: ModuleType, options: dict[str, object], message: str
) -> None:
    rig = LinkRig(firmware_main, link_options=options)
    rig.step(50)
    assert rig.link.status == LinkStatus("error", message)
    assert rig.readings is None
    rig.step(5000)
    assert rig.link.status == LinkStatus("error", message)
    assert len(rig.cable.opened_at) == 2  # retried at the longest back-off


def test_pixels_made_after_connecting_check_the_strip_too(rig: LinkRig) -> None:
    rig.connect()
    SerialPixels(rig.link, size=8, colour_order="GRB")
    assert rig.link.status.ok
    SerialPixels(rig.link, size=8, colour_order="BGR")
    assert rig.link.status == LinkStatus("error", "scanner sends LED colours as GRB; the board profile says BGR")


def test_the_boards_configuration_error_is_shown(rig: LinkRig) -> None:
    rig.app = FaultReporter(BoardEnd(rig.cable), proto.E_CONFIG, "led_pin: GPIO 6 is already used")  # type: ignore[assignment]
    rig.step(10)
    assert rig.link.status == LinkStatus("error", "scanner configuration: led_pin: GPIO 6 is already used")
    rig.step(3000)
    assert rig.link.status == LinkStatus("error", "scanner configuration: led_pin: GPIO 6 is already used")


def test_a_board_crash_waits_for_its_restart(rig: LinkRig) -> None:
    rig.connect()
    reporter = FaultReporter(BoardEnd(rig.cable), proto.E_INTERNAL, "ZeroDivisionError")
    reporter.step(rig.clock.now)
    rig.app = None
    rig.step()
    assert rig.link.status == LinkStatus("reconnecting", "scanner internal error: ZeroDivisionError")
    assert rig.readings is None
    rig.reboot_board()
    rig.step(5)
    assert rig.link.status.ok


def test_an_unasked_hello_means_the_board_restarted(rig: LinkRig) -> None:
    rig.connect()
    rig.pixels.show([(5, 5, 5)] * 8)
    rig.step()
    rig.reboot_board()  # e.g. its watchdog fired; the serial port stayed open
    rig.circuit.magnet(0, 7)
    rig.step(3)
    assert rig.link.stats.full_requests >= 1
    assert rig.shown() == ((5, 5, 5),) * 8
    assert rig.readings is not None and rig.readings[7] == 1


# --- construction -------------------------------------------------------------------------------


def test_link_arguments_are_checked() -> None:
    with pytest.raises(ValueError, match=r"channels 0 is out of range 1\.\.512"):
        SerialLink("/dev/null", channels=0, led_count=1)
    with pytest.raises(ValueError, match=r"led_count 2000 is out of range 1\.\.1024"):
        SerialLink("/dev/null", channels=1, led_count=2000)
    with pytest.raises(ValueError, match="unknown sensor model 'hall'"):
        SerialLink("/dev/null", channels=1, led_count=1, sensor_model="hall")
    with pytest.raises(ValueError, match="needs a port name or an opener"):
        SerialLink(channels=1, led_count=1)


def test_a_scanner_can_own_the_link_and_lend_it_to_the_pixels() -> None:
    scanner = SerialScanner(port="/dev/tafel-scanner-absent", baud=9600, channels=64)
    assert scanner.link.led_count is None
    pixels = SerialPixels(scanner, size=66, colour_order="GRB", brightness=0.4)
    assert pixels.link is scanner.link and pixels.size == 66 and scanner.link.colour_order == "GRB"
    assert scanner.scan() is None
    pixels.show(black(66))  # kept until the board is there
    scanner.close()
    pixels.close()
    assert scanner.status == LinkStatus("connecting", "closed")


def test_scanner_and_pixels_need_enough_to_go_on() -> None:
    with pytest.raises(ValueError, match="needs a link, or a port and its channel count"):
        SerialScanner(port="/dev/tafel-scanner")
    scanner = SerialScanner(port="/dev/tafel-scanner-absent", channels=64)
    with pytest.raises(ValueError, match="need the strip's LED count"):
        SerialPixels(scanner)
    with pytest.raises(ValueError, match="unknown colour order 'RGBW'"):
        SerialPixels(scanner, size=4, colour_order="RGBW")


def test_serial_backends_share_one_link() -> None:
    scanner, pixels = serial_backends("/dev/tafel-scanner-absent", 64, 66, brightness=0.4)
    assert isinstance(scanner, SerialScanner) and isinstance(pixels, SerialPixels)
    assert scanner.link is pixels.link
    assert scanner.scan() is None
    assert scanner.status.state == "connecting"
    assert "cannot open /dev/tafel-scanner-absent" in scanner.status.detail


def test_pyserial_opener_reports_a_missing_port() -> None:
    with pytest.raises(OSError):
        pyserial_opener("/dev/tafel-scanner-absent")()


def test_a_board_slower_than_its_scan_rate_says_so_while_it_stays_connected(rig: LinkRig) -> None:
    """The board timed its first scans (4.5 ms each: too slow for 200 or 125 a second with half of
    each period left for USB and the LEDs), scans at 100 a second and says so; the host keeps
    reading and shows the note with the link's status."""
    ticks = [0]
    source = rig.app.source

    class SlowSource:
        def read(self, into: list[int]) -> None:
            source.read(into)
            ticks[0] += 4_500

    rig.app = ScannerApp(SlowSource(), BoardEnd(rig.cable), rig.app.strip, rig.cfg, clock_us=lambda: ticks[0])
    rig.connect()
    note = "scanner scan rate: scan_hz 200: scans take 4500 us; using 100"
    assert rig.link.status == LinkStatus("connected", f"tafel-scanner 1.0.0; {note}")
    assert rig.link.info.scan_hz == 100 and rig.readings is not None
    assert rig.link.stats.last_scanner_error == note.removeprefix("scanner ")
