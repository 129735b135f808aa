"""A failing sensor backend or LED strip does not stop the board: scans count as dropped, frames are
skipped, both are retried with back-off, and the status light blinks red meanwhile."""

from __future__ import annotations

from controller.games import load_game
from controller.table.session import DeviceFault
from controller.terminal.physical import PhysicalTable
from hal.profile import load_profile
from tests.table.test_tracker_klotz import CELL, move

KLOTZ = load_game("klotz")
SQUARE14 = load_profile("square14")


class Flaky:
    """Wraps a backend so that its calls fail while `broken` is set."""

    def __init__(self, inner, method: str) -> None:
        self.inner = inner
        self.method = method
        self.broken = False
        self.calls = 0

    def __getattr__(self, name):
        attribute = getattr(self.inner, name)
        if name != self.method:
            return attribute

        def call(*args, **kwargs):
            self.calls += 1
            if self.broken:
                raise OSError(f"{self.method} failed")
            return attribute(*args, **kwargs)

        return call


def table_with(flaky_sensors: bool = False, flaky_leds: bool = False) -> tuple[PhysicalTable, Flaky]:
    table = PhysicalTable(KLOTZ, KLOTZ.new_game(players=2), SQUARE14, calm_hands=True)
    session = table.session
    if flaky_sensors:
        wrapper = session.sensors = Flaky(session.sensors, "scan")
    else:
        wrapper = session.pixels = Flaky(session.pixels, "show")
    table.settle()
    return table, wrapper


def status_led(table: PhysicalTable):
    return table.backends.pixels.last[SQUARE14.extra_leds["status"]]


def test_a_failing_scanner_is_retried_with_back_off_and_the_game_goes_on() -> None:
    table, scanner = table_with(flaky_sensors=True)
    scanner.broken = True
    table.run(2000)
    fault = table.session.sensor_fault
    assert fault.error == "scan failed" and fault.failures >= 3
    assert scanner.calls < 2000 // 10  # back-off: far fewer attempts than scans
    assert any(frame[SQUARE14.extra_leds["status"]] == (255, 0, 0) for _, frame in table.backends.pixels.frames[-20:])
    scanner.broken = False
    table.run(6000)
    assert fault.error is None
    assert table.perform(move("c7-c4"))  # the game goes on
    assert table.stats.wrong_commits == 0


def test_a_move_made_while_the_scanner_is_down_is_seen_once_it_is_back() -> None:
    table, scanner = table_with(flaky_sensors=True)
    scanner.broken = True
    table.sim.place(CELL("c4"), table.sim.lift(CELL("c7")))
    table.run(1000)
    assert table.state.legal_actions() and table.session.tracker.history == ()
    scanner.broken = False
    out = table.run(6000)
    assert len(table.session.tracker.history) == 1 and out.display.mode == "idle"
    assert table.state == KLOTZ.new_game(players=2).apply(move("c7-c4"))


def test_a_failing_led_strip_degrades_gracefully_and_shows_the_frame_again_when_back() -> None:
    table, strip = table_with(flaky_leds=True)
    strip.broken = True
    assert table.perform(move("c7-c4"))  # moves are still recognised and committed
    assert table.session.led_fault.error == "show failed"
    shown = len(table.backends.pixels.frames)
    strip.broken = False
    table.run(6000)
    assert table.session.led_fault.error is None
    assert len(table.backends.pixels.frames) > shown  # the current frame went out again


def test_the_back_off_doubles_up_to_a_limit() -> None:
    fault = DeviceFault("sensors")
    waits = []
    now = 0
    for _ in range(10):
        fault.failed(now, OSError("x"))
        retry = next(t for t in range(now, now + 10_000) if fault.due(t))
        waits.append(retry - now)
        now = retry
    assert waits[:4] == [100, 200, 400, 800] and max(waits) == DeviceFault.LAST_RETRY_MS
    fault.recovered()
    assert fault.due(now) and fault.error is None
